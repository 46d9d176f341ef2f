// What the integration cards (Notion's, Cafe24's) share: the head with the service's mark, name
// and status, and the confirmation before the integration is removed (Cancel or Remove; a failure
// of the removal stays in the dialog with its reason).
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { integrationReason } from '../../../components/integrations/texts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';

export interface IntegrationCardHeadProps {
  mark: ReactNode;
  /** The heading's id, which names the card (aria-labelledby). */
  id: string;
  name: string;
  granted: boolean;
}

export function IntegrationCardHead({ mark, id, name, granted }: IntegrationCardHeadProps) {
  const { t } = useTranslation();
  return (
    <div className="integration-card-head">
      {mark}
      <h2 id={id}>{name}</h2>
      <span className={`status-chip status-${granted ? 'verified' : 'not_verified'}`}>
        <span className="visually-hidden">{t('integrations.status')}: </span>
        {t(granted ? 'integrations.granted' : 'integrations.notGranted')}
      </span>
    </div>
  );
}

export interface RemoveIntegrationDialogProps {
  open: boolean;
  title: string;
  /** What the removal does. */
  children: ReactNode;
  onCancel: () => void;
  onRemove: () => Promise<void>;
}

export function RemoveIntegrationDialog({
  open,
  title,
  children,
  onCancel,
  onRemove,
}: RemoveIntegrationDialogProps) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={open}
      title={title}
      cancelLabel={t('common.cancel')}
      confirmLabel={t('integrations.remove')}
      onCancel={onCancel}
      errorText={(cause) => t('integrations.failed', { reason: integrationReason(t, cause) })}
      onConfirm={onRemove}
    >
      {children}
    </ConfirmDialog>
  );
}
