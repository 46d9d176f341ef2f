// The PayPal fake at /paypal: the REST calls the payment functions make (OAuth client
// credentials, Subscriptions v1 create/get/revise/cancel/transactions, the Payments v2 refund of
// a subscription's payment, verify-webhook-signature), webhooks
// signed as PayPal signs them, and a stand-in for the JS SDK with its approval pages.
//   /paypal/v1/oauth2/token                          client credentials -> bearer token
//   /paypal/v1/billing/subscriptions[/{id}[/revise|/cancel|/transactions]]
//   /paypal/v2/payments/captures/{id}/refund         a subscription's payment refunded
//   /paypal/v1/billing/plans/{id}
//   /paypal/v1/notifications/verify-webhook-signature
//   /paypal/sdk/js?client-id=...                     the stand-in JS SDK (window.paypal)
//   /paypal/checkout/subscribe, /paypal/checkout/approve   the LOCAL approval pages
//   /paypal/certs/<name>.pem                         the webhook signing certificate
//   /paypal/_control/...                             for tests and developers (README.md)
// Webhooks: POSTed with PAYPAL-AUTH-ALGO (SHA256withRSA), PAYPAL-CERT-URL, PAYPAL-TRANSMISSION-ID,
// PAYPAL-TRANSMISSION-SIG and PAYPAL-TRANSMISSION-TIME; the signature is over
// "<transmission id>|<time>|<webhook id>|<CRC32 of the body>", as PayPal documents.
// The parts: model.ts (state, lifecycle, signed webhooks), rest.ts (the REST API), checkout.ts
// (the approval pages), control.ts (the control API), pages.ts (HTML and the JS SDK stand-in).
import type { FakeContext, ProviderFake } from '../fake.ts';
import { escapeHtml, HttpError, newest, sectionTable, sendText } from '../http.ts';
import { entriesOf, refill } from '../state-store.ts';
import { checkout } from './checkout.ts';
import { control } from './control.ts';
import { PAYPAL_DEFAULTS, PayPalModel, type PayPalFakeOptions } from './model.ts';
import { jsSdkScript } from './pages.ts';
import { restApi } from './rest.ts';

export { PAYPAL_DEFAULTS, type PayPalFakeOptions } from './model.ts';
/** The checksum the fake's webhook signatures cover (node's CRC32, IEEE, as PayPal's). */
export { crc32 } from 'node:zlib';

export interface PayPalFake extends ProviderFake {
  options: PayPalFakeOptions;
}

export async function createPayPalFake(
  ctx: FakeContext<Partial<PayPalFakeOptions> | undefined>,
): Promise<PayPalFake> {
  const options: PayPalFakeOptions = { ...PAYPAL_DEFAULTS, ...ctx.options };
  const model = await PayPalModel.create(options, ctx.baseUrl, ctx.log);
  const { subscriptions, webhooks } = model;

  return {
    prefix: '/paypal',
    title: 'PayPal (fake)',
    options,
    async handle(req, res, path, url) {
      if (path.startsWith('/v1/') || path.startsWith('/v2/')) return restApi(model, req, res, path);
      if (path === '/sdk/js' && req.method === 'GET') {
        const clientId = url.searchParams.get('client-id');
        if (clientId !== options.clientId) {
          return sendText(
            res,
            400,
            `throw new Error(${JSON.stringify('[PayPal local stand-in] unknown client-id')});`,
            'text/javascript; charset=utf-8',
          );
        }
        return sendText(
          res,
          200,
          jsSdkScript(ctx.baseUrl, options.clientId),
          'text/javascript; charset=utf-8',
        );
      }
      if (path === `/certs/${model.certName}.pem` && req.method === 'GET') {
        return sendText(res, 200, model.identity.certPem, 'application/x-pem-file');
      }
      if (path.startsWith('/checkout/'))
        return checkout(model, req, res, path.slice('/checkout'.length), url);
      throw new HttpError(404, 'Not found');
    },
    control: (req, res, path) => control(model, req, res, path),
    section() {
      const e = escapeHtml;
      const rows = newest(subscriptions.values(), 50)
        .map(
          (s) =>
            `<tr><td>${e(s.id)}</td><td>${e(s.status)}</td><td>$${e(s.quantity)}/month</td><td class="wrap">${e(s.custom_id ?? '')}</td><td>${e(s.next_billing_time ?? '')}</td></tr>`,
        )
        .join('');
      return `<p class="muted">REST API at <code>/paypal/v1/...</code>, JS SDK stand-in at <code>/paypal/sdk/js</code>, plan ${e(options.planId)}. ${webhooks.log.length} webhooks sent.</p>
${sectionTable(['Subscription', 'Status', 'Price', 'custom_id', 'Next billing'], rows, 'No subscriptions yet.')}`;
    },
    // kept across restarts: the subscriptions (a plan the database holds), not access tokens
    persistent: {
      save: () => ({ subscriptions: entriesOf(subscriptions) }),
      load(saved) {
        refill(subscriptions, (saved as { subscriptions: unknown }).subscriptions);
      },
    },
    reset: () => model.reset(),
    close() {
      webhooks.close();
    },
  };
}
