// Confirmation before a response is deleted. A failure is shown in the dialog, which stays open
// so the owner can retry or cancel; the list is untouched until the delete succeeded.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../../components/ui/dialog';
import type { ResponseRow } from '../types';
import { messageOf } from '../utils/errors';
import { formatTime, respondentName } from './result-row';

export interface DeleteResponseDialogProps {
  row: ResponseRow | null;
  onClose: () => void;
  onConfirm: (row: ResponseRow) => Promise<void>;
}

export function DeleteResponseDialog({ row, onClose, onConfirm }: DeleteResponseDialogProps) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!row) return null;

  const close = () => {
    if (busy) return;
    setError(null);
    onClose();
  };
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await onConfirm(row);
    } catch (cause) {
      console.error('[reaction-dashboard] response delete failed', cause);
      setError(messageOf(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      role="alertdialog"
      title={t('results.deleteDialog.title')}
      onClose={close}
      actions={
        <>
          <button type="button" className="button button-ghost" onClick={close} data-autofocus>
            {t('results.deleteDialog.cancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => void confirm()}
            aria-busy={busy}
            disabled={busy}
          >
            {t('results.deleteDialog.confirm')}
          </button>
        </>
      }
    >
      <p>
        {t('results.deleteDialog.text', {
          name: respondentName(row, t('results.anonymous')),
          time: formatTime(row.created_at, i18n.language),
        })}
      </p>
      {error ? (
        <p className="error-text" role="alert">
          {t('results.deleteDialog.error', { message: error })}
        </p>
      ) : null}
    </Dialog>
  );
}
