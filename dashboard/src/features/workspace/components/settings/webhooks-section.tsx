// The workspace's Webhooks section (paid; docs/webhooks.md): the owner's endpoints that get this
// block's events (its own and those for every block), each with its events, on/off, the secret's
// first characters, Send test, Rotate secret, Delete and its delivery log; and a form to add one.
// A new secret is shown once, with a button to copy it.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGES,
  ZSaveWebhookEndpoint,
  type TWebhookEvent,
} from '@reaction-blocks/contracts/webhooks';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog';
import { CheckboxField, SelectField, TextField } from '../../../../components/ui/fields';
import { PageForm } from '../../../../components/ui/page-form';
import { Spinner } from '../../../../components/ui/spinner';
import { formatDate } from '../../../../lib/dates';
import { sharedMessageReason } from '../../../../lib/errors';
import { useQuery } from '../../../../lib/use-query';
import { useRefusableField } from '../../../../lib/use-refusable-field';
import {
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  rotateWebhookSecret,
  saveWebhookEndpoint,
  sendTestWebhook,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../../../lib/webhooks';
import { PaidHint } from '../paid-hint';
import { Announcement } from '../../../../components/ui/announcement';
import { ErrorText } from '../../../../components/ui/error-text';
import { DangerButton } from '../../../../components/ui/danger-button';

/** The section's calls; tests pass their own. */
export interface WebhooksApi {
  load: (
    blockId: string,
    signal: AbortSignal,
  ) => Promise<{ endpoints: WebhookEndpoint[]; deliveries: WebhookDelivery[] }>;
  save: typeof saveWebhookEndpoint;
  rotate: typeof rotateWebhookSecret;
  test: typeof sendTestWebhook;
  remove: typeof deleteWebhookEndpoint;
}

export const supabaseWebhooksApi: WebhooksApi = {
  load: async (blockId, signal) => {
    const endpoints = await listWebhookEndpoints(blockId, signal);
    const deliveries = await listWebhookDeliveries(
      endpoints.map((e) => e.id),
      signal,
    );
    return { endpoints, deliveries };
  },
  save: saveWebhookEndpoint,
  rotate: rotateWebhookSecret,
  test: sendTestWebhook,
  remove: deleteWebhookEndpoint,
};

const reasonOf = sharedMessageReason(WEBHOOK_MESSAGES, 'workspace.webhooks.messages');

export interface WebhooksSectionProps {
  blockId: string;
  paid: boolean;
  /** The section is open: its endpoints are read the first time. */
  open: boolean;
  api?: WebhooksApi;
}

export function WebhooksSection({
  blockId,
  paid,
  open,
  api = supabaseWebhooksApi,
}: WebhooksSectionProps) {
  const { t } = useTranslation();
  const { t: s } = useTranslation(undefined, { keyPrefix: 'workspace.webhooks' });
  const state = useQuery(
    ['workspace', 'webhooks', blockId],
    (signal) => api.load(blockId, signal),
    {
      enabled: open && paid,
    },
  );
  const url = useRefusableField();
  const [scope, setScope] = useState<'block' | 'all'>('block');
  const [events, setEvents] = useState<TWebhookEvent[]>([...WEBHOOK_EVENTS]);
  const [busy, setBusy] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ endpointId: string; value: string } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const secretId = useId();

  const run = async (key: string, action: () => Promise<void>) => {
    setBusy(key);
    setError(null);
    setAnnouncement('');
    try {
      await action();
      await state.reload();
    } catch (cause) {
      setError(s('failed', { reason: reasonOf(t, cause) }));
    } finally {
      setBusy(null);
    }
  };

  // What is wrong with the address (ours or the server's refusal, e.g. an address that leads
  // inside) is said under the field, and the field takes the focus so it is read out.
  const add = (form: HTMLFormElement) => {
    const refuse = (cause: unknown) => {
      url.refuse(reasonOf(t, cause));
      form.querySelector<HTMLInputElement>('input[type=url]')?.focus();
    };
    const input = { blockId: scope === 'block' ? blockId : null, url: url.value.trim(), events };
    const parsed = ZSaveWebhookEndpoint.safeParse(input);
    if (!parsed.success) {
      refuse(new Error(parsed.error.issues[0]?.message ?? ''));
      return;
    }
    url.refuse(undefined);
    void run('add', async () => {
      let saved: Awaited<ReturnType<WebhooksApi['save']>>;
      try {
        saved = await api.save(input);
      } catch (cause) {
        refuse(cause);
        return;
      }
      if (saved.secret) setSecret({ endpointId: saved.endpoint.id, value: saved.secret });
      url.setValue('');
      setAnnouncement(s('added'));
    });
  };

  if (!paid) return <PaidHint id={`${secretId}-paid`} />;
  const data = state.data;
  return (
    <div className="webhooks-section">
      <p className="hint">{s('intro')}</p>
      <Announcement>{announcement}</Announcement>
      <ErrorText>{error}</ErrorText>
      {state.loading && !data ? <Spinner /> : null}
      {state.error ? <ErrorText>{s('loadFailed', { reason: state.error })}</ErrorText> : null}
      {secret ? (
        <div className="webhook-secret" role="group" aria-labelledby={secretId}>
          <p id={secretId}>
            <strong>{s('secretTitle')}</strong> {s('secretOnce')}
          </p>
          <code className="webhook-secret-value">{secret.value}</code>
          <div className="integration-actions">
            <button
              type="button"
              className="button"
              onClick={() =>
                void navigator.clipboard
                  ?.writeText(secret.value)
                  .then(() => setAnnouncement(s('copied')))
                  .catch(() => setAnnouncement(s('copyFailed')))
              }
            >
              {s('copy')}
            </button>
            <button type="button" className="button button-ghost" onClick={() => setSecret(null)}>
              {s('secretDone')}
            </button>
          </div>
        </div>
      ) : null}
      {data ? (
        <ul className="webhook-list" aria-label={s('listLabel')}>
          {data.endpoints.length === 0 ? <li className="hint">{s('none')}</li> : null}
          {data.endpoints.map((endpoint) => (
            <EndpointItem
              key={endpoint.id}
              endpoint={endpoint}
              deliveries={data.deliveries.filter((d) => d.endpoint_id === endpoint.id)}
              busy={busy}
              onToggle={(enabled) =>
                void run(`toggle:${endpoint.id}`, async () => {
                  await api.save({
                    id: endpoint.id,
                    blockId: endpoint.block_id,
                    url: endpoint.url,
                    events: endpoint.events,
                    description: endpoint.description,
                    enabled,
                  });
                  setAnnouncement(s(enabled ? 'enabled' : 'disabled'));
                })
              }
              onTest={() =>
                void run(`test:${endpoint.id}`, async () => {
                  const result = await api.test(endpoint.id);
                  setAnnouncement(
                    result.ok
                      ? s('testOk', { status: result.status })
                      : s('testFailed', { reason: result.error ?? String(result.status) }),
                  );
                })
              }
              onRotate={() =>
                void run(`rotate:${endpoint.id}`, async () => {
                  const rotated = await api.rotate(endpoint.id);
                  setSecret({ endpointId: endpoint.id, value: rotated.secret });
                  setAnnouncement(s('rotated'));
                })
              }
              onDelete={() => setDeleting(endpoint)}
            />
          ))}
        </ul>
      ) : null}
      <PageForm className="webhook-form" onSubmit={add}>
        <h4>{s('addTitle')}</h4>
        <TextField
          label={s('url')}
          type="url"
          placeholder="https://"
          {...url.fieldProps}
          max={500}
          hint={s('urlHint')}
        />
        <SelectField
          label={s('scope')}
          value={scope}
          options={[
            { value: 'block', label: s('scopeBlock') },
            { value: 'all', label: s('scopeAll') },
          ]}
          onChange={setScope}
        />
        <fieldset className="webhook-events">
          <legend>{s('events')}</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <CheckboxField
              key={event}
              label={s(`eventNames.${event}`)}
              checked={events.includes(event)}
              onChange={(on) =>
                setEvents((list) => (on ? [...list, event] : list.filter((e) => e !== event)))
              }
            />
          ))}
        </fieldset>
        <button type="submit" className="button button-primary" disabled={busy === 'add'}>
          {busy === 'add' ? s('adding') : s('add')}
        </button>
      </PageForm>
      <ConfirmDialog
        open={!!deleting}
        title={s('deleteTitle')}
        confirmLabel={s('delete')}
        onCancel={() => setDeleting(null)}
        errorText={(cause) => s('failed', { reason: reasonOf(t, cause) })}
        onConfirm={async () => {
          await api.remove(deleting!.id);
          setDeleting(null);
          setAnnouncement(s('deleted'));
          await state.reload();
        }}
      >
        <p>{s('deleteText', { url: deleting?.url ?? '' })}</p>
      </ConfirmDialog>
    </div>
  );
}

function EndpointItem({
  endpoint,
  deliveries,
  busy,
  onToggle,
  onTest,
  onRotate,
  onDelete,
}: {
  endpoint: WebhookEndpoint;
  deliveries: WebhookDelivery[];
  busy: string | null;
  onToggle: (enabled: boolean) => void;
  onTest: () => void;
  onRotate: () => void;
  onDelete: () => void;
}) {
  const { t: s } = useTranslation(undefined, { keyPrefix: 'workspace.webhooks' });
  const labelId = useId();
  return (
    <li className="webhook-item" aria-labelledby={labelId}>
      <p className="webhook-url" id={labelId}>
        {endpoint.url}
      </p>
      <p className="hint">
        {endpoint.block_id ? s('scopeBlock') : s('scopeAll')} ·{' '}
        {endpoint.events.map((e) => s(`eventNames.${e}`)).join(', ')} ·{' '}
        {s('secretHint', { hint: endpoint.secret_hint })}
      </p>
      <CheckboxField
        label={s('enabledLabel')}
        asSwitch
        checked={endpoint.enabled}
        disabled={busy !== null}
        onChange={onToggle}
      />
      <div className="integration-actions">
        <button type="button" className="button" disabled={busy !== null} onClick={onTest}>
          {busy === `test:${endpoint.id}` ? s('testing') : s('test')}
        </button>
        <button type="button" className="button" disabled={busy !== null} onClick={onRotate}>
          {s('rotate')}
        </button>
        <DangerButton disabled={busy !== null} onClick={onDelete}>
          {s('delete')}
        </DangerButton>
      </div>
      <details className="webhook-log">
        <summary>{s('log', { count: deliveries.length })}</summary>
        {deliveries.length === 0 ? (
          <p className="hint">{s('logEmpty')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{s('logTime')}</th>
                <th scope="col">{s('logEvent')}</th>
                <th scope="col">{s('logStatus')}</th>
                <th scope="col">{s('logAnswer')}</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={d.id} data-status={d.status}>
                  <td>
                    <time dateTime={d.created_at}>
                      {formatDate(d.created_at, { time: 'minutes' })}
                    </time>
                  </td>
                  <td>{s(`eventNames.${d.event_type}`)}</td>
                  <td>{s(`statuses.${d.status}`, { count: d.attempts })}</td>
                  <td className="webhook-answer">
                    {d.response_status ?? '—'}
                    {d.last_error ? ` (${d.last_error})` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </details>
    </li>
  );
}
