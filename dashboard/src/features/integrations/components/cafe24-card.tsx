// The Cafe24 card of /profile/integration (docs/cafe24.md): connect a mall (its consent page in a
// popup), see whether our loader is in the shop and on which screens, place blocks on the shop's
// product pages and main page, and disconnect (the loader comes off the shop through the queue).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CAFE24_MESSAGES,
  CAFE24_MALL_ID,
  normalizeMallId,
  type TCafe24Location,
} from '@reaction-blocks/contracts/cafe24';
import { TextField } from '../../../components/ui/fields';
import { PageForm } from '../../../components/ui/page-form';
import { useNoteDismissal } from '../../../components/integrations/integration-notes';
import { integrationReason } from '../../../components/integrations/texts';
import { useConnection } from '../../../components/integrations/use-connection';
import { loaderState } from '../../../lib/cafe24';
import { failureReason } from '../../../lib/errors';
import { useRefusableField } from '../../../lib/use-refusable-field';
import type { Cafe24Api, Cafe24Data } from '../api/integrations';
import { Cafe24Placements } from './cafe24-placements';
import {
  IntegrationActions,
  IntegrationCardHead,
  IntegrationConnected,
  IntegrationProblems,
} from './integration-card';
import { ErrorText } from '../../../components/ui/error-text';
import { LoadFailed } from '../../../components/ui/load-failed';
import { UpgradeHint } from '../../../components/ui/upgrade-hint';

/** The card's query key (under the integrations root, so an integrations write can mark it stale). */
export const cafe24QueryKey = ['integrations', 'cafe24'] as const;

/** While the queue is changing the shop, the card asks again every few seconds. */
const WATCH_MS = 3000;

export interface Cafe24CardProps {
  api: Cafe24Api;
  paid: boolean;
  /** Says something in the page's one live region (and its notice). */
  announce: (text: string) => void;
}

export function Cafe24Card({ api, paid, announce }: Cafe24CardProps) {
  const { t } = useTranslation();
  const { t: s } = useTranslation(undefined, { keyPrefix: 'integrations.cafe24' });
  const client = useQueryClient();
  const state = useQuery({
    queryKey: cafe24QueryKey,
    queryFn: ({ signal }) => api.load(signal),
    refetchInterval: (query) => {
      const shop = query.state.data?.shop;
      const kind = shop ? loaderState(shop).kind : 'none';
      return kind === 'removing' || kind === 'pending' ? WATCH_MS : false;
    },
  });
  const reload = () => client.invalidateQueries({ queryKey: cafe24QueryKey });
  const mall = useRefusableField();
  const [error, setError] = useState<string | null>(null);
  const data = state.data;
  const integration = data?.integration ?? null;
  const shop = data?.shop ?? null;
  const granted = integration?.status === 'granted';
  const dismissal = useNoteDismissal({
    dismiss: api.dismiss,
    setData: (update: (d: Cafe24Data | undefined) => Cafe24Data | undefined) =>
      client.setQueryData<Cafe24Data>(cafe24QueryKey, update),
    onFailed: setError,
  });

  const connection = useConnection({
    onConnected: (name) => announce(s('connected', { name })),
    onCancelled: () => announce(s('cancelled')),
    onFailed: setError,
    reload,
  });
  const { connecting } = connection;
  const connect = (mallId: string) => {
    setError(null);
    announce('');
    const normalized = normalizeMallId(mallId);
    if (!CAFE24_MALL_ID.test(normalized)) {
      mall.refuse(integrationReason(t, new Error(CAFE24_MESSAGES.invalidMall)));
      return;
    }
    mall.refuse(undefined);
    connection.connect(() => api.connect(normalized, s('popupBlocked')));
  };

  const loader = shop ? loaderState(shop) : null;
  const screens = (list: TCafe24Location[]) => list.map((l) => s(`screens.${l}`)).join(', ');

  return (
    <li className="integration-card" aria-labelledby="integration-cafe24">
      <IntegrationCardHead
        mark={<Cafe24Mark />}
        id="integration-cafe24"
        name={s('name')}
        status={
          !data ? undefined : granted ? 'granted' : integration || shop ? 'not_granted' : 'none'
        }
      />
      <p className="hint">{s('text')}</p>
      <ErrorText>{error}</ErrorText>
      <LoadFailed onRetry={() => void reload()}>
        {state.error ? t('integrations.loadFailed', { reason: failureReason(state.error) }) : null}
      </LoadFailed>
      {shop ? (
        <IntegrationConnected name={s('mall', { name: shop.mall_id })} since={shop.created_at} />
      ) : null}
      {loader ? (
        <p className={`integration-loader loader-${loader.kind}`} data-state={loader.kind}>
          {loader.kind === 'installed'
            ? s('loader.installed', { screens: screens(loader.locations) })
            : loader.kind === 'failed'
              ? s('loader.failed', { reason: loader.error })
              : loader.kind === 'none' && !paid
                ? s('loader.unpaid')
                : s(`loader.${loader.kind}`)}
        </p>
      ) : null}
      {data ? (
        <IntegrationProblems
          status={integration?.status}
          notGrantedText={s('notGrantedText')}
          notes={data.notes}
          unauthorizedCode="cafe24_unauthorized"
          {...dismissal}
        />
      ) : null}
      {data && !shop ? (
        <PageForm className="integration-connect" onSubmit={() => connect(mall.value)}>
          <TextField
            label={s('mallLabel')}
            hint={s('mallHint')}
            {...mall.fieldProps}
            max={200}
            disabled={!paid || connecting}
          />
          <div className="integration-actions">
            <button
              type="submit"
              className="button button-primary"
              disabled={connecting || !paid}
              aria-describedby={paid ? undefined : 'cafe24-paid'}
            >
              {connecting ? s('connecting') : s('connect')}
            </button>
          </div>
        </PageForm>
      ) : null}
      {shop && !shop.removing ? (
        <>
          {granted && data ? (
            <Cafe24Placements
              key={shop.id}
              blocks={data.blocks}
              placements={data.placements}
              disabled={!paid}
              onSave={async (next) => {
                await api.save(next);
                announce(s('saved'));
                await reload();
              }}
            />
          ) : null}
          <IntegrationActions
            connectLabel={granted ? null : connecting ? s('connecting') : s('connectAgain')}
            connecting={connecting}
            paid={paid}
            onConnect={() => connect(shop.mall_id)}
            removal={{
              title: s('removeTitle'),
              text: s('removeText'),
              remove: async (close) => {
                await api.remove();
                close();
                announce(s('removing'));
                await reload();
              },
            }}
          />
        </>
      ) : null}
      {!paid ? (
        <UpgradeHint
          id="cafe24-paid"
          text={t('integrations.paidOnly')}
          link={t('integrations.upgrade')}
        />
      ) : null}
    </li>
  );
}

/** Cafe24's name in a plain badge (not its logo). */
function Cafe24Mark() {
  return (
    <span className="integration-mark integration-mark-cafe24" aria-hidden="true">
      24
    </span>
  );
}
