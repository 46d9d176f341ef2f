// What the integration cards (Notion's, Cafe24's) share: the head with the service's mark, name
// and status, the line that says what is connected since when, the row of actions (connect,
// remove), and the confirmation before the integration is removed (Cancel or Remove; a failure of
// the removal stays in the dialog with its reason).
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { integrationReason } from '../../../components/integrations/texts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatDate } from '../../../lib/dates';
import { DangerButton } from '../../../components/ui/danger-button';

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

/** "Workspace: Acme · Connected on 3 May 2026". */
export function IntegrationConnected({ name, since }: { name: string; since: string }) {
  const { t } = useTranslation();
  return (
    <p className="integration-workspace">
      {name}
      {' · '}
      {t('integrations.connectedOn', { date: formatDate(since) })}
    </p>
  );
}

export interface IntegrationActionsProps {
  /** The connect button's words (connect, connect again, waiting); none: no connect button. */
  connectLabel: string | null;
  connecting: boolean;
  paid: boolean;
  /** The id of what says why connecting is disabled (the upgrade hint). */
  connectHint?: string;
  onConnect: () => void;
  /** None: nothing to remove yet. */
  onRemove: (() => void) | null;
}

export function IntegrationActions({
  connectLabel,
  connecting,
  paid,
  connectHint,
  onConnect,
  onRemove,
}: IntegrationActionsProps) {
  const { t } = useTranslation();
  return (
    <div className="integration-actions">
      {connectLabel ? (
        <button
          type="button"
          className="button button-primary"
          disabled={connecting || !paid}
          aria-describedby={connectHint}
          onClick={onConnect}
        >
          {connectLabel}
        </button>
      ) : null}
      {onRemove ? (
        <DangerButton disabled={connecting} onClick={onRemove}>
          {t('integrations.remove')}
        </DangerButton>
      ) : null}
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
