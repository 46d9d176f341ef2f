// The PortOne V2 fake: the REST API that `@portone/server-sdk` calls, Standard Webhooks signed
// webhooks, a stand-in for the browser SDK's script and its checkout page.
//   /payments/..., /billing-keys/..., /payment-schedules   the API (at the root: the official SDK
//                                     resolves '/payments/...' against the base URL's origin)
//   /portone/browser-sdk.js          the stand-in browser SDK (window.PortOne)
//   /portone/checkout                the LOCAL checkout page it frames (issues a billing key)
//   /portone/_control/...            for tests and developers (README.md)
// What it does as PortOne does: the payment id is the merchant's, so a second payWithBillingKey
// with a paid id answers ALREADY_PAID and charges nothing; schedules run at timeToPay (or at once
// through the control API) and report with webhooks; a billing key with a waiting schedule is not
// deleted (PAYMENT_SCHEDULE_ALREADY_EXISTS).
// The parts: model.ts (state, charges, schedules, webhooks), rest.ts (the API), checkout.ts (the
// checkout page), control.ts (the control API), pages.ts (HTML and the browser SDK stand-in).
import type { FakeContext, ProviderFake } from '../fake.ts';
import { escapeHtml, HttpError, newest, sectionTable, sendText, type JsonObject } from '../http.ts';
import { entriesOf, refill } from '../state-store.ts';
import { checkout } from './checkout.ts';
import { control } from './control.ts';
import { PORTONE_DEFAULTS, PortOneModel, type PortOneFakeOptions } from './model.ts';
import { browserSdkScript } from './pages.ts';
import { restApi } from './rest.ts';

export {
  PORTONE_DEFAULTS,
  signStandardWebhook,
  type PortOneChannel,
  type PortOneFakeOptions,
} from './model.ts';

export interface PortOneFake extends ProviderFake {
  options: PortOneFakeOptions;
  /** Runs every schedule due now (the fake's timer does it every few seconds). */
  runDueSchedules(): void;
}

export function createPortOneFake(
  ctx: FakeContext<Partial<PortOneFakeOptions> | undefined>,
): PortOneFake {
  const options: PortOneFakeOptions = { ...PORTONE_DEFAULTS, ...ctx.options };
  const model = new PortOneModel(options, ctx.baseUrl, ctx.log, () => ctx.changed('/portone'));
  const { billingKeys, payments, schedules, webhooks } = model;
  const timer = setInterval(() => model.runDueSchedules(), 5_000);
  timer.unref?.();

  return {
    prefix: '/portone',
    rootPaths: ['/payments', '/billing-keys', '/payment-schedules'],
    title: 'PortOne V2 (fake)',
    options,
    runDueSchedules: () => model.runDueSchedules(),
    async handle(req, res, path, url) {
      if (
        path.startsWith('/payments') ||
        path.startsWith('/billing-keys') ||
        path.startsWith('/payment-schedules')
      ) {
        return restApi(model, req, res, path, url);
      }
      if (path === '/browser-sdk.js' && req.method === 'GET') {
        return sendText(res, 200, browserSdkScript(ctx.baseUrl), 'text/javascript; charset=utf-8');
      }
      if (path === '/checkout') return checkout(model, req, res, url);
      throw new HttpError(404, 'Not found');
    },
    control: (req, res, path) => control(model, req, res, path),
    section() {
      const e = escapeHtml;
      const rows = newest(payments.values(), 50)
        .map((p) => {
          const amount = p.amount as JsonObject;
          return `<tr><td class="wrap">${e(p.id)}</td><td>${e(String(p.orderName ?? ''))}</td><td>${e(String(amount.total))} ${e(String(p.currency))}</td><td class="${p.status === 'PAID' ? 'ok' : 'bad'}">${e(p.status)}</td><td>${e(String(p.paidAt ?? p.failedAt ?? ''))}</td></tr>`;
        })
        .join('');
      const scheduled = [...schedules.values()].filter((s) => s.status === 'SCHEDULED').length;
      return `<p class="muted">Store ${e(options.storeId)}. API at the root (<code>/payments</code>, <code>/billing-keys</code>, <code>/payment-schedules</code>), browser SDK stand-in at <code>/portone/browser-sdk.js</code>. ${billingKeys.size} billing keys, ${scheduled} scheduled charges, ${webhooks.log.length} webhooks sent.</p>
${sectionTable(['Payment id', 'Order', 'Amount', 'Status', 'At'], rows, 'No payments yet.')}`;
    },
    // kept across restarts: billing keys, payments and scheduled charges (a plan's renewal)
    persistent: {
      save: () => ({
        billingKeys: entriesOf(billingKeys),
        payments: entriesOf(payments),
        schedules: entriesOf(schedules),
      }),
      load(saved) {
        const state = saved as Record<string, unknown>;
        refill(billingKeys, state.billingKeys);
        refill(payments, state.payments);
        refill(schedules, state.schedules);
      },
    },
    reset: () => model.reset(),
    close() {
      clearInterval(timer);
      webhooks.close();
    },
  };
}
