// Confirmation before a response is deleted. A failure is shown in the dialog, which stays open
// so the owner can retry or cancel; the list is untouched until the delete succeeded.
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog';
import { failureReason } from '../../../../lib/errors';
import type { ResponseRow } from '../types';
import { formatTime, respondentName } from './result-row';

export interface DeleteResponseDialogProps {
  row: ResponseRow | null;
  onClose: () => void;
  onConfirm: (row: ResponseRow) => Promise<void>;
}

export function DeleteResponseDialog({ row, onClose, onConfirm }: DeleteResponseDialogProps) {
  const { t } = useTranslation();
  if (!row) return null;
  return (
    <ConfirmDialog
      open
      title={t('results.deleteDialog.title')}
      confirmLabel={t('results.deleteDialog.confirm')}
      onCancel={onClose}
      onConfirm={() => onConfirm(row)}
      errorText={(cause) =>
        t('results.deleteDialog.error', {
          message: failureReason(cause, { not_found: 'results.notFound' }),
        })
      }
    >
      <p>
        {t('results.deleteDialog.text', {
          name: respondentName(row, t('results.anonymous')),
          time: formatTime(row.created_at),
        })}
      </p>
    </ConfirmDialog>
  );
}
