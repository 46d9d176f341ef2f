import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';

export interface DeleteBlockDialogProps {
  name: string | null;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}

export function DeleteBlockDialog({ name, onClose, onConfirm }: DeleteBlockDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={name !== null}
      role="alertdialog"
      title={t('blocks.deleteDialog.title')}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-ghost" onClick={onClose} data-autofocus>
            {t('blocks.deleteDialog.back')}
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => void confirm()}
            aria-busy={busy}
            disabled={busy}
          >
            {t('blocks.deleteDialog.confirm')}
          </button>
        </>
      }
    >
      <p>{t('blocks.deleteDialog.text', { name })}</p>
      {error ? (
        <p className="error-text" role="alert">
          {t('blocks.actionError', { message: error })}
        </p>
      ) : null}
    </Dialog>
  );
}
