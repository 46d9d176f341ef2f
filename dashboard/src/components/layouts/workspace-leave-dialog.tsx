// The question a workspace's leave guard (lib/use-leave-guard.ts) asks before unsaved changes are
// lost: the reaction workspace's and the letter workspace's, each saying what is not saved.
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../ui/confirm-dialog';
import type { useLeaveGuard } from '../../lib/use-leave-guard';

export function WorkspaceLeaveDialog({
  guard,
  text,
}: {
  guard: ReturnType<typeof useLeaveGuard>;
  /** What would be lost. */
  text: string;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={guard.confirming}
      title={t('shell.leave.title')}
      cancelLabel={t('shell.leave.stay')}
      confirmLabel={t('shell.leave.leave')}
      onCancel={guard.stay}
      onConfirm={guard.leave}
    >
      <p>{text}</p>
    </ConfirmDialog>
  );
}
