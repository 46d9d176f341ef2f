// /profile/integration: the owner's integrations, one card each (Notion, Cafe24), with status
// granted or not granted, connect (the service's authorise page in a popup), connect again after
// the service refused our access, and removal (spec: "removal disconnects it from all blocks and
// clears notionToken"). Cafe24's card also places blocks in the shop (cafe24-card.tsx).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/ui/page-heading';
import { Spinner } from '../../../components/ui/spinner';
import { NotionMark, useNoteDismissal } from '../../../components/integrations/integration-notes';
import { registerIntegrationTranslations } from '../../../components/integrations/texts';
import {
  supabaseCafe24Api,
  supabaseIntegrationsApi,
  type Cafe24Api,
  type IntegrationsApi,
} from '../api/integrations';
import { useSession } from '../../../lib/session';
import { useConnection } from '../../../components/integrations/use-connection';
import {
  IntegrationActions,
  IntegrationCardHead,
  IntegrationConnected,
  IntegrationProblems,
} from './integration-card';
import { Cafe24Card } from './cafe24-card';
import { useQuery } from '../../../lib/use-query';
import { Announcement } from '../../../components/ui/announcement';
import { ErrorText } from '../../../components/ui/error-text';
import { LoadFailed } from '../../../components/ui/load-failed';
import { UpgradeHint } from '../../../components/ui/upgrade-hint';

registerIntegrationTranslations();

export function IntegrationsPage({
  api = supabaseIntegrationsApi,
  cafe24Api = supabaseCafe24Api,
}: {
  api?: IntegrationsApi;
  cafe24Api?: Cafe24Api;
}) {
  const { t: s } = useTranslation(undefined, { keyPrefix: 'integrations' });
  const { user, profile } = useSession();
  const paid = profile?.paid === true;
  const state = useQuery(['integrations', user?.id ?? ''], (signal) => api.load(signal));
  const [announcement, setAnnouncement] = useState('');
  const [error, setError] = useState<string | null>(null);
  const dismissal = useNoteDismissal({
    dismiss: api.dismiss,
    setData: state.setData,
    onFailed: setError,
  });
  const notion = state.data?.notion ?? null;

  const connection = useConnection({
    onConnected: (name) => setAnnouncement(s('connected', { name })),
    onCancelled: () => setAnnouncement(s('cancelled')),
    onFailed: setError,
    reload: state.reload,
  });
  const connect = () => {
    setError(null);
    setAnnouncement('');
    connection.connect(() => api.connect(s('popupBlocked')));
  };
  const { connecting } = connection;

  return (
    <section className="integrations-page">
      <PageHeading>{s('title')}</PageHeading>
      <p className="hint">{s('intro')}</p>
      <Announcement>{announcement}</Announcement>
      <ErrorText>{error}</ErrorText>
      {state.loading && !state.data ? <Spinner /> : null}
      <LoadFailed onRetry={() => void state.reload()}>
        {state.error ? s('loadFailed', { reason: state.error }) : null}
      </LoadFailed>
      {state.data ? (
        <ul className="integration-list">
          <li className="integration-card" aria-labelledby="integration-notion">
            <IntegrationCardHead
              mark={<NotionMark />}
              id="integration-notion"
              name={s('notion')}
              status={notion?.status === 'granted' ? 'granted' : 'not_granted'}
            />
            <p className="hint">{s('notionText')}</p>
            {notion ? (
              <IntegrationConnected
                name={s('workspace', { name: notion.workspace_name ?? s('notion') })}
                since={notion.created_at}
              />
            ) : null}
            <IntegrationProblems
              status={notion?.status}
              notGrantedText={s('notGrantedText')}
              notes={state.data.notes}
              unauthorizedCode="unauthorized"
              {...dismissal}
            />
            <IntegrationActions
              connectLabel={
                notion?.status === 'granted'
                  ? null
                  : connecting
                    ? s('connecting')
                    : s(notion ? 'connectAgain' : 'connect')
              }
              connecting={connecting}
              paid={paid}
              connectHint={paid ? undefined : 'integration-paid'}
              onConnect={connect}
              removal={
                notion
                  ? {
                      title: s('removeTitle'),
                      text: s('removeText'),
                      remove: async (close) => {
                        const result = await api.remove();
                        close();
                        setAnnouncement(
                          result.revoked
                            ? s('removed', { count: result.unlinked })
                            : s('removedNotRevoked'),
                        );
                        await state.reload();
                      },
                    }
                  : null
              }
            />
            {!paid && !notion ? (
              <UpgradeHint id="integration-paid" text={s('paidOnly')} link={s('upgrade')} />
            ) : null}
          </li>
          <Cafe24Card api={cafe24Api} paid={paid} announce={setAnnouncement} />
        </ul>
      ) : null}
    </section>
  );
}
