import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { failureReason } from '../../../lib/errors';

export interface DeleteBlockDialogProps {
  name: string | null;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}

export function DeleteBlockDialog({ name, onClose, onConfirm }: DeleteBlockDialogProps) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={name !== null}
      title={t('blocks.deleteDialog.title')}
      cancelLabel={t('blocks.deleteDialog.back')}
      confirmLabel={t('blocks.deleteDialog.confirm')}
      onCancel={onClose}
      onConfirm={async () => {
        await onConfirm();
        onClose();
      }}
      errorText={(cause) => t('blocks.deleteDialog.error', { message: failureReason(cause) })}
    >
      <p>{t('blocks.deleteDialog.text', { name })}</p>
    </ConfirmDialog>
  );
}
