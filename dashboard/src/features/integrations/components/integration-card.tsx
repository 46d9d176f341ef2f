// What the integration cards (Notion's, Cafe24's) share: the head with the service's mark, name
// and status, the line that says what is connected since when, the warning and the notes, and the
// row of actions (connect, remove) with the confirmation before the integration is removed (Cancel
// or Remove; a failure of the removal stays in the dialog with its reason, and after a removal the
// page's heading has the focus).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  IntegrationNotes,
  type IntegrationNotesProps,
} from '../../../components/integrations/integration-notes';
import { integrationReason } from '../../../components/integrations/texts';
import type { IntegrationNote, NotionIntegration } from '../../../lib/integrations';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatDate } from '../../../lib/dates';
import { DangerButton } from '../../../components/ui/danger-button';
import { focusPageHeading } from '../../../components/ui/page-heading';

export interface IntegrationCardHeadProps {
  mark: ReactNode;
  /** The heading's id, which names the card (aria-labelledby). */
  id: string;
  name: string;
  /**
   * `none`: nothing is connected, said as such in a plain chip (Cafe24's card: "Not granted"
   * there read as a refusal the owner never met); Notion's card keeps the spec's two words.
   * Undefined: not read yet, no chip.
   */
  status: IntegrationChip | undefined;
}

export type IntegrationChip = 'granted' | 'not_granted' | 'none';

const CHIPS = {
  granted: ['verified', 'integrations.granted'],
  not_granted: ['not_verified', 'integrations.notGranted'],
  none: ['none', 'integrations.notConnected'],
} as const;

export function IntegrationCardHead({ mark, id, name, status }: IntegrationCardHeadProps) {
  const { t } = useTranslation();
  const [chip, text] = status ? CHIPS[status] : [];
  return (
    <div className="integration-card-head">
      {mark}
      <h2 id={id}>{name}</h2>
      {chip ? (
        <span className={`status-chip status-${chip}`}>
          <span className="visually-hidden">{t('integrations.status')}: </span>
          {t(text)}
        </span>
      ) : null}
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

export interface IntegrationProblemsProps extends Omit<IntegrationNotesProps, 'notes'> {
  status: NotionIntegration['status'] | undefined;
  /** Said while the service refuses our access (status not_granted). */
  notGrantedText: string;
  notes: readonly IntegrationNote[];
  /** The note that says the same as that warning: left out while the warning shows. */
  unauthorizedCode: IntegrationNote['code'];
}

/** What is wrong with the integration: the warning that access was refused, then the notes. */
export function IntegrationProblems({
  status,
  notGrantedText,
  notes,
  unauthorizedCode,
  ...dismissal
}: IntegrationProblemsProps) {
  const notGranted = status === 'not_granted';
  return (
    <>
      {notGranted ? (
        <p className="warning-note" role="note">
          {notGrantedText}
        </p>
      ) : null}
      <IntegrationNotes
        notes={notGranted ? notes.filter((n) => n.code !== unauthorizedCode) : notes}
        {...dismissal}
      />
    </>
  );
}

export interface IntegrationRemoval {
  /** The confirmation's title, and what the removal does. */
  title: string;
  text: string;
  /** Removes the integration; `close` closes the confirmation, and what follows is the card's. */
  remove: (close: () => void) => Promise<void>;
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
  removal: IntegrationRemoval | null;
}

export function IntegrationActions({
  connectLabel,
  connecting,
  paid,
  connectHint,
  onConnect,
  removal,
}: IntegrationActionsProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  // The dialog gives focus back to Remove, but after a removal that button goes with the
  // integration once the card is read again, and focus would fall to <body>: the page's heading
  // takes it instead (this effect runs after the closed dialog's own).
  const removed = useRef(false);
  useEffect(() => {
    if (confirming || !removed.current) return;
    removed.current = false;
    focusPageHeading();
  }, [confirming]);
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
      {removal ? (
        <>
          <DangerButton disabled={connecting} onClick={() => setConfirming(true)}>
            {t('integrations.remove')}
          </DangerButton>
          <ConfirmDialog
            open={confirming}
            title={removal.title}
            confirmLabel={t('integrations.remove')}
            onCancel={() => setConfirming(false)}
            errorText={(cause) => t('integrations.failed', { reason: integrationReason(t, cause) })}
            onConfirm={() =>
              removal.remove(() => {
                removed.current = true;
                setConfirming(false);
              })
            }
          >
            <p>{removal.text}</p>
          </ConfirmDialog>
        </>
      ) : null}
    </div>
  );
}
