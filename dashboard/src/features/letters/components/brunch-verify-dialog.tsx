// The brunch profile verification modal: the writer's profile link and the verified sender
// email they wrote in it (verify-brunch-id checks the profile page for it).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { SelectField, TextField } from '../../../components/ui/fields';
import { messageOf } from '../../../lib/errors';
import {
  LETTER_MESSAGES,
  normalizeBrunchProfile,
} from '../../../../../supabase/functions/_shared/letter-schemas';
import { verifyBrunchId } from '../api/letters';

export interface BrunchVerifyDialogProps {
  blockId: string;
  emails: string[];
  onVerified: (profile: string) => void;
  onClose: () => void;
}

export function BrunchVerifyDialog({
  blockId,
  emails,
  onVerified,
  onClose,
}: BrunchVerifyDialogProps) {
  const { t } = useTranslation();
  const [link, setLink] = useState('');
  const [email, setEmail] = useState(emails[0] ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const translate = (m: string) =>
    m === LETTER_MESSAGES.brunchLinkError
      ? t('letters.brunchDialog.link_error')
      : m === LETTER_MESSAGES.brunchFailed
        ? t('letters.brunchDialog.failed')
        : m;
  const linkProblem = link !== '' && 'error' in normalizeBrunchProfile(link);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await verifyBrunchId({ blockId, brunchProfilePage: link, email });
      onVerified(res.brunchProfilePage);
    } catch (cause) {
      setError(translate(messageOf(cause)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      title={t('letters.brunchDialog.title')}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={busy || link === '' || linkProblem || email === ''}
            aria-busy={busy || undefined}
            onClick={() => void submit()}
          >
            {busy ? t('letters.brunchDialog.verifying') : t('letters.brunchDialog.verify')}
          </button>
        </>
      }
    >
      <p>{t('letters.brunchDialog.intro')}</p>
      <TextField
        label={t('letters.brunchDialog.link')}
        value={link}
        type="url"
        max={500}
        placeholder="https://brunch.co.kr/@…"
        error={linkProblem ? t('letters.brunchDialog.link_error') : undefined}
        onChange={setLink}
      />
      <SelectField
        label={t('letters.brunchDialog.email')}
        value={email}
        options={emails.map((e) => ({ value: e, label: e }))}
        onChange={setEmail}
      />
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
