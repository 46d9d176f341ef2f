// Consent to the terms: Agree is enabled only when the box is ticked; Decline deletes the account.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { TextList } from '../../../components/ui/text-list';
import { paths } from '../../../config/paths';
import { failureReason } from '../../../lib/errors';
import { scrollStop } from '../../../lib/scroll-stop';
import { ErrorText } from '../../../components/ui/error-text';

export interface ConsentModalProps {
  open: boolean;
  onAgree: () => Promise<void>;
  onDecline: () => Promise<void>;
}

export function ConsentModal({ open, onAgree, onDecline }: ConsentModalProps) {
  const { t } = useTranslation();
  const checkboxId = useId();
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState<'agree' | 'decline' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async (kind: 'agree' | 'decline') => {
    if (busy) return; // ignore clicks while an action is in progress
    if (kind === 'agree' && !checked) return;
    setBusy(kind);
    setError(null);
    try {
      await (kind === 'agree' ? onAgree() : onDecline());
    } catch (cause) {
      // submit-agreement's or delete-user's answer in the reader's language, never its English
      setError(failureReason(cause, kind === 'agree' ? { not_found: 'consent.accountGone' } : {}));
    } finally {
      setBusy(null);
    }
  };

  const terms = t('consent.terms', { returnObjects: true }) as string[];

  return (
    <Dialog
      open={open}
      title={t('consent.title')}
      onClose={() => {}}
      dismissible={false}
      className="consent-dialog"
      actions={
        <>
          <button
            type="button"
            className="button button-ghost"
            onClick={() => void run('decline')}
            aria-disabled={busy !== null}
          >
            {t('consent.decline')}
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => void run('agree')}
            disabled={!checked}
            aria-disabled={!checked || busy !== null}
            aria-busy={busy === 'agree'}
          >
            {t('consent.agree')}
          </button>
        </>
      }
    >
      <p>{t('consent.intro')}</p>
      {/* a Tab stop while the terms scroll in their box (lib/scroll-stop.ts) */}
      <div ref={scrollStop} className="consent-terms" role="region" aria-label={t('consent.title')}>
        <TextList ordered lines={terms} />
      </div>
      {/* what is agreed to, in full, before the box is ticked (rev-owner D10): /terms holds both;
          a new tab, so the dialog and its state stay as they are */}
      <p>
        <a href={paths.terms} target="_blank" rel="noopener">
          {t('consent.readFull')}
        </a>
      </p>
      <p className="checkbox-row">
        <input
          id={checkboxId}
          type="checkbox"
          checked={checked}
          onChange={(event) => {
            if (busy) return; // the checkbox is ignored while an action is in progress
            setChecked(event.target.checked);
          }}
        />
        <label htmlFor={checkboxId}>{t('consent.checkbox')}</label>
      </p>
      {busy ? <Spinner /> : null}
      {error ? <ErrorText>{t('consent.error', { message: error })}</ErrorText> : null}
    </Dialog>
  );
}
