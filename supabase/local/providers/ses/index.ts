// The Amazon SES v2 fake at /ses, with SES event publishing through a fake SNS topic.
//   /ses/v2/email/...                 the SES v2 API (see api.ts); SESv2Client `endpoint` = <providers>/ses
//   /ses/verify?token=                the link in an identity's verification mail
//   /ses/open/<token>                 the open-tracking pixel (an Open event)
//   /ses/unsubscribe/<token>          List-Unsubscribe (GET link, POST one-click): a Subscription event
//   /ses/sns/?Action=ConfirmSubscription|Unsubscribe   SubscribeURL / UnsubscribeURL
//   /ses/sns/SimpleNotificationService-<hash>.pem      SigningCertURL
//   /ses/_control...                  for tests and developers, see README.md
// The parts: runtime.ts (the accounts' state with the default account, events and timers),
// http-api.ts (the v2 API's HTTP side; the operations are api.ts), control.ts, links.ts (SNS,
// verification, pixel, unsubscribe), state.ts, sns.ts, events.ts, mail.ts, dkim.ts, x509.ts.
import type { FakeContext, ProviderFake } from '../fake.ts';
import { escapeHtml, HttpError, newest, sectionTable, sendText } from '../http.ts';
import { entriesOf, refill } from '../state-store.ts';
import { control } from './control.ts';
import { v2Api } from './http-api.ts';
import { open, sns, unsubscribe, verify } from './links.ts';
import { SesRuntime } from './runtime.ts';
import type { Identity, SesFakeOptions, SesState } from './state.ts';

export type { SesFakeOptions } from './state.ts';

export interface SesFake extends ProviderFake {
  /** Subscribes the default account's events webhook (the stack calls it once everything is up). */
  start(): void;
  state: SesState;
}

/** The developer page's section: the default account, its identities and recent events. */
function section(rt: SesRuntime): string {
  const account = rt.defaultAccount();
  const s = rt.accountState(account);
  const identities = s.identities
    .map(
      (i) =>
        `<tr><td class="wrap">${escapeHtml(i.name)}</td><td>${i.IdentityType}</td><td class="${i.VerifiedForSendingStatus ? 'ok' : 'bad'}">${i.VerificationStatus}</td><td>${i.DkimAttributes.Status}</td></tr>`,
    )
    .join('');
  const deliveries = newest(s.deliveries, 15)
    .map(
      (d) =>
        `<tr><td>${escapeHtml(d.at.slice(11, 19))}</td><td>${escapeHtml(d.type)}</td><td>${escapeHtml(d.summary.eventType ?? '')}</td><td>${d.status}</td><td>${d.attempts}</td><td>${escapeHtml(d.last ?? '')}</td></tr>`,
    )
    .join('');
  const sub = s.subscription;
  return `<p>Endpoint for <code>SESv2Client</code>: <code>${escapeHtml(rt.baseUrl)}/ses</code> · region ${escapeHtml(rt.region)} · access key <code>${escapeHtml(account.accessKeyId)}</code> · configuration sets: ${escapeHtml(s.settings.configurationSets.join(', ') || 'none')}</p>
<p>Settings: outage <strong>${String(s.settings.outage)}</strong> · From check ${s.settings.verifyFrom ? 'on' : 'off'} · sandbox ${s.settings.sandbox ? 'on' : 'off'} · max send rate ${s.settings.maxSendRate || 'unlimited'}/s · SNS SignatureVersion ${s.settings.signatureVersion} · <a href="/ses/_control/state">state (JSON)</a> · <a href="${escapeHtml(s.signingCertUrl)}">signing certificate</a></p>
<h3>Identities</h3>${sectionTable(['Identity', 'Type', 'Verification', 'DKIM'], identities, 'None.')}
<h3>Events (SNS)</h3><p>${sub ? `Webhook <code>${escapeHtml(sub.endpoint)}</code>: <strong class="${sub.status === 'Confirmed' ? 'ok' : 'bad'}">${sub.status}</strong>` : 'No events webhook subscribed.'}</p>
${sectionTable(['Time', 'Message', 'Event', 'Status', 'Attempts', 'Last answer'], deliveries, '')}`;
}

export async function createSesFake(ctx: FakeContext<SesFakeOptions>): Promise<SesFake> {
  const rt = await SesRuntime.create(ctx);
  const { state } = rt;

  const route = async (
    req: Parameters<SesFake['handle']>[0],
    res: Parameters<SesFake['handle']>[1],
    path: string,
    url: URL,
  ) => {
    if (path.startsWith('/v2/')) return v2Api(rt, req, res, path, url);
    if (path === rt.certPath && req.method === 'GET') {
      return sendText(res, 200, rt.identity.certPem, 'application/x-pem-file');
    }
    if ((path === '/sns' || path === '/sns/') && req.method === 'GET') return sns(rt, res, url);
    if (path === '/verify' && req.method === 'GET') return verify(rt, res, url);
    const pixel = /^\/open\/([\w-]+)$/.exec(path);
    if (pixel && req.method === 'GET') return open(rt, req, res, pixel[1]!);
    const unsub = /^\/unsubscribe\/([\w-]+)$/.exec(path);
    if (unsub && (req.method === 'GET' || req.method === 'POST'))
      return unsubscribe(rt, req, res, unsub[1]!);
    throw new HttpError(404, 'Not found');
  };

  return {
    prefix: '/ses',
    title: 'Amazon SES v2 (fake)',
    state,
    start: () => rt.start(),
    // kept across restarts: the identities (what verified senders rest on) and the links of the
    // verification mails still in the mailbox; not the settings, events or tracking links
    persistent: {
      marksChanges: true,
      save: () => ({
        accounts: [...state.accounts.values()].map((a) => [
          a.accessKeyId,
          [...a.identities.values()],
        ]),
        verifications: entriesOf(state.verifications),
      }),
      load(saved) {
        const { accounts, verifications } = saved as {
          accounts: Array<[string, Identity[]]>;
          verifications: unknown;
        };
        for (const [accessKeyId, identities] of accounts) {
          const account = state.account(accessKeyId);
          for (const identity of identities) account.identities.set(identity.name, identity);
        }
        refill(state.verifications, verifications);
      },
    },
    async handle(req, res, path, url) {
      try {
        return await route(req, res, path, url);
      } finally {
        // what changes identities: the API's writes, a verification link (and the control API:
        // the server marks its requests)
        if ((path.startsWith('/v2/email/identities') && req.method !== 'GET') || path === '/verify')
          ctx.changed('/ses');
      }
    },
    control: (req, res, path, url) => control(rt, req, res, path, url),
    section: () => section(rt),
    reset: () => rt.reset(),
    close: () => rt.close(),
  };
}
