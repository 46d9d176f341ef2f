// The workspace's Integration section (paid): connect Notion (a popup), then choose where the
// block's new responses go: a data source (Notion's database) for form, ab, button, comment and
// qna blocks, a page for like blocks (spec: searchNotionObjects), and for data sources what the
// title column holds (notionDatabaseTitle). The choice is part of the block's draft and is saved
// with it; what went wrong while writing (a column that cannot take a value, a target gone,
// access revoked) shows here as notes.
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnection } from '../../../../components/integrations/use-connection';
import { Link } from 'react-router-dom';
import {
  IntegrationNotes,
  useNoteDismissal,
} from '../../../../components/integrations/integration-notes';
import { SelectField } from '../../../../components/ui/fields';
import { Spinner } from '../../../../components/ui/spinner';
import { paths } from '../../../../config/paths';
import type { ReactionType } from '../../../../lib/db-types';
import { useQuery } from '../../../../lib/use-query';
import {
  connectNotion,
  dismissIntegrationNote,
  getNotionIntegration,
  listIntegrationNotes,
  searchNotionObjects,
  type IntegrationNote,
  type NotionIntegration,
} from '../../../../lib/integrations';
import type { PrivateDraft, PrivateKey } from '../../model/settings';
import { PaidHint } from '../paid-hint';
import { ErrorText } from '../../../../components/ui/error-text';

/** The calls of the section; tests pass their own. */
export interface IntegrationApi {
  status: (signal: AbortSignal) => Promise<NotionIntegration | null>;
  notes: (blockId: string, signal: AbortSignal) => Promise<IntegrationNote[]>;
  dismiss: (id: string) => Promise<void>;
  connect: typeof connectNotion;
  search: typeof searchNotionObjects;
}

export const supabaseIntegrationApi: IntegrationApi = {
  status: getNotionIntegration,
  notes: (blockId, signal) => listIntegrationNotes(blockId, 'notion', signal),
  dismiss: dismissIntegrationNote,
  connect: connectNotion,
  search: searchNotionObjects,
};

/** The section's read of the connection and the block's notes (a refused save reads it again). */
export const integrationStatusKey = (blockId: string) => ['integrations', 'block', blockId];
/** The section's list of Notion objects (a target refused as not listed reads it again). */
export const notionObjectsKey = ['integrations', 'notion-objects'];

const TITLE_MODES = ['response_id', 'block_name', 'creator', 'content'] as const;
const NONE = '';

export interface IntegrationSectionProps {
  blockId: string;
  type: ReactionType;
  paid: boolean;
  privateSettings: PrivateDraft;
  onPrivateChange: <K extends PrivateKey>(key: K, value: PrivateDraft[K]) => void;
  /** The section is open: the first time, the Notion objects are read. */
  open: boolean;
  api?: IntegrationApi;
}

export function IntegrationSection({
  blockId,
  type,
  paid,
  privateSettings,
  onPrivateChange,
  open,
  api = supabaseIntegrationApi,
}: IntegrationSectionProps) {
  const { t } = useTranslation();
  const { t: w } = useTranslation(undefined, { keyPrefix: 'workspace.settings' });
  const paidHint = useId();
  const like = type === 'like';
  const key: 'notion_page' | 'notion_database' = like ? 'notion_page' : 'notion_database';
  const linked = privateSettings[key] ?? '';

  const [problem, setProblem] = useState<string | null>(null);

  // the connection and this block's notes (paid owners only)
  // read again whenever the tab comes back: Notion may have been removed in another tab
  const status = useQuery(
    integrationStatusKey(blockId),
    async (signal) => ({
      integration: await api.status(signal),
      notes: await api.notes(blockId, signal),
    }),
    { enabled: paid, refetchOnWindowFocus: 'always' },
  );
  const integration = paid ? (status.error ? null : status.data?.integration) : null;
  const notes = status.data?.notes ?? [];
  const dismissal = useNoteDismissal({
    dismiss: api.dismiss,
    setData: status.setData,
    onFailed: setProblem,
  });
  const granted = integration?.status === 'granted';
  // No connection any more while the draft links a target (removed in another tab, learnt on
  // focus or from a refused save): the link is dropped from the draft, which save_block would
  // refuse, and the section says why.
  const removed = paid && status.data?.integration === null && linked !== '';
  const [unlinked, setUnlinked] = useState(false);
  if (removed && !unlinked) setUnlinked(true);
  useEffect(() => {
    if (removed) onPrivateChange(key, null);
  }, [removed, key, onPrivateChange]);
  // what the block may link to, read from Notion once the section is open
  const listing = open && granted;
  const search = useQuery(
    [...notionObjectsKey, like ? 'page' : 'database'],
    (signal) => api.search(like ? 'page' : 'database', undefined, signal),
    { enabled: listing },
  );
  const objects = listing ? (search.data ?? null) : null;
  const loadingObjects = listing && search.loading;
  const searchProblem =
    listing && search.error ? w('targetsFailed', { reason: search.error }) : null;
  const statusProblem = status.error
    ? t('integrations.loadFailed', { reason: status.error })
    : null;

  const connection = useConnection({
    onCancelled: () => setProblem(t('integrations.cancelled')),
    onFailed: setProblem,
    reload: status.reload,
  });
  const { connecting } = connection;
  const connect = () => {
    setProblem(null);
    connection.connect(() => api.connect(t('integrations.popupBlocked')));
  };

  if (!paid) {
    return (
      <>
        <p className="hint">{w(like ? 'integrationTextLike' : 'integrationText')}</p>
        <button type="button" className="button" disabled aria-describedby={paidHint}>
          {w('integrationConnect')}
        </button>
        <PaidHint id={paidHint} />
      </>
    );
  }

  const chosen = objects?.find((o) => o.id === linked);
  const options = [
    { value: NONE, label: w('notLinked') },
    ...(linked && objects && !chosen
      ? [{ value: linked, label: w('targetMissing', { id: linked }) }]
      : []),
    ...(linked && !objects ? [{ value: linked, label: linked }] : []),
    ...(objects ?? []).map((o) => ({ value: o.id, label: o.title })),
  ];

  return (
    <div className="integration-section">
      <p className="hint">{w(like ? 'integrationTextLike' : 'integrationText')}</p>
      {integration === undefined ? <Spinner /> : null}
      {unlinked && !integration ? (
        <p className="warning-note" role="note">
          {w('notionRemoved')}
        </p>
      ) : null}
      {integration?.status === 'not_granted' ? (
        <p className="warning-note" role="note">
          {t('integrations.notGrantedText')}
        </p>
      ) : null}
      {(integration === null && !statusProblem) || integration?.status === 'not_granted' ? (
        <button
          type="button"
          className="button button-primary"
          disabled={connecting}
          onClick={connect}
        >
          {connecting
            ? w('integrationConnecting')
            : w(integration ? 'integrationConnectAgain' : 'integrationConnect')}
        </button>
      ) : null}
      {granted ? (
        <>
          <p className="integration-connected">
            {w('integrationConnectedTo', {
              name: integration.workspace_name ?? t('integrations.notion'),
            })}{' '}
            <Link to={paths.profileIntegration}>{w('integrationManage')}</Link>
          </p>
          <SelectField
            label={w(like ? 'notionPage' : 'notionDatabase')}
            value={linked}
            options={options}
            onChange={(value) => onPrivateChange(key, value === NONE ? null : value)}
            hint={w('applyOnSave')}
          />
          <button
            type="button"
            className="button button-ghost"
            disabled={loadingObjects}
            onClick={() => void search.reload()}
          >
            {w('refreshTargets')}
          </button>
          {loadingObjects ? <Spinner label={w('loadingTargets')} /> : null}
          {objects && objects.length === 0 ? <p className="hint">{w('noTargets')}</p> : null}
          {!like ? (
            <>
              <SelectField
                label={w('titleColumn')}
                value={privateSettings.notion_database_title}
                options={TITLE_MODES.map((mode) => ({
                  value: mode,
                  label: w(`titleOptions.${mode}`),
                }))}
                onChange={(value) => onPrivateChange('notion_database_title', value)}
                hint={w('columnsHint')}
              />
              {chosen?.properties ? (
                <p className="hint integration-columns">
                  {w('columnsOf', {
                    columns: chosen.properties.map((p) => `${p.name} (${p.type})`).join(', '),
                  })}
                </p>
              ) : null}
            </>
          ) : null}
        </>
      ) : null}
      {problem || searchProblem || statusProblem ? (
        <ErrorText>{problem ?? searchProblem ?? statusProblem}</ErrorText>
      ) : null}
      <IntegrationNotes notes={notes} {...dismissal} />
    </div>
  );
}
