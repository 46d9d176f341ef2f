// The PayPal fake at /paypal: the REST calls the payment functions make (OAuth client
// credentials, Subscriptions v1 create/get/revise/cancel, verify-webhook-signature), webhooks
// signed as PayPal signs them, and a stand-in for the JS SDK with its approval pages.
//   /paypal/v1/oauth2/token                          client credentials -> bearer token
//   /paypal/v1/billing/subscriptions[/{id}[/revise|/cancel]]
//   /paypal/v1/billing/plans/{id}
//   /paypal/v1/notifications/verify-webhook-signature
//   /paypal/sdk/js?client-id=...                     the stand-in JS SDK (window.paypal)
//   /paypal/checkout/subscribe, /paypal/checkout/approve   the LOCAL approval pages
//   /paypal/certs/<name>.pem                         the webhook signing certificate
//   /paypal/_control/...                             for tests and developers (README.md)
// Webhooks: POSTed with PAYPAL-AUTH-ALGO (SHA256withRSA), PAYPAL-CERT-URL, PAYPAL-TRANSMISSION-ID,
// PAYPAL-TRANSMISSION-SIG and PAYPAL-TRANSMISSION-TIME; the signature is over
// "<transmission id>|<time>|<webhook id>|<CRC32 of the body>", as PayPal documents.
import { createHash, randomBytes, randomUUID, sign, verify } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeContext, ProviderFake } from '../fake.ts';
import { makeSigningIdentity, type SigningIdentity } from '../ses/x509.ts';
import {
  escapeHtml,
  HttpError,
  isObject,
  readBody,
  readJson,
  sendHtml,
  sendJson,
  sendText,
  type JsonObject,
} from '../http.ts';
import { WebhookSender } from '../webhooks.ts';
import { entriesOf, refill } from '../state-store.ts';
import { approvalPage, jsSdkScript, pageCsp, popupResultPage } from './pages.ts';

/**
 * A checkout page: its form posts to this server, and the server refuses a post whose Origin is
 * another site; under "no-referrer" Chromium sends `Origin: null`, so these pages say same-origin.
 */
const sendCheckoutPage = (
  res: Parameters<typeof sendHtml>[0],
  status: number,
  html: string,
  csp: string,
) => sendHtml(res, status, html, csp, { 'referrer-policy': 'same-origin' });

export interface PayPalFakeOptions {
  clientId: string;
  clientSecret: string;
  /** The plan subscriptions are made on: $1.00 a month per unit (quantity = price in dollars). */
  planId: string;
  /** The id PayPal gives the webhook (sent back in verify-webhook-signature). */
  webhookId: string;
  /** Where webhooks go; '' for nowhere. */
  webhookUrl: string;
  /** Subscriptions that exist from the start (the seed's demo owner). */
  seeded: Array<{ id: string; customId: string; quantity: number; email: string }>;
}

export const PAYPAL_DEFAULTS: PayPalFakeOptions = {
  clientId: 'local-paypal-client-id',
  clientSecret: 'local-paypal-client-secret',
  planId: 'P-LOCAL0PLAN0UNIT0USD0MONTHLY',
  webhookId: 'WH-LOCAL0WEBHOOK0000000000',
  webhookUrl: '',
  seeded: [],
};

interface Subscription {
  id: string;
  plan_id: string;
  status: 'APPROVAL_PENDING' | 'APPROVED' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED';
  status_update_time: string;
  start_time: string;
  quantity: string;
  custom_id?: string;
  subscriber: JsonObject;
  create_time: string;
  update_time: string;
  return_url?: string;
  cancel_url?: string;
  cycles_completed: number;
  last_payment?: { amount: { currency_code: string; value: string }; time: string };
  next_billing_time?: string;
  failed_payments_count: number;
  /** Every renewal payment fails (control API). */
  fail: boolean;
  /** A revision waiting for the buyer's approval. */
  pending_revision?: { plan_id: string; quantity: string; token: string };
  status_change_note?: string;
}

export interface PayPalFake extends ProviderFake {
  options: PayPalFakeOptions;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly name_: string,
    message: string,
    readonly issue?: string,
  ) {
    super(message);
  }
}

const now = () => new Date().toISOString();
const addMonth = (iso: string) => {
  const d = new Date(iso);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString();
};

/** CRC32 (IEEE), as PayPal uses over the webhook body. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export async function createPayPalFake(
  ctx: FakeContext<Partial<PayPalFakeOptions> | undefined>,
): Promise<PayPalFake> {
  const options: PayPalFakeOptions = { ...PAYPAL_DEFAULTS, ...ctx.options };
  const identity: SigningIdentity = await makeSigningIdentity({
    commonName: 'messageverificationcerts.paypal.local',
    organization: 'PayPal (local fake)',
  });
  const certName = `CERT-${createHash('sha256').update(identity.certDer).digest('hex').slice(0, 16)}`;
  const certUrl = `${ctx.baseUrl}/paypal/certs/${certName}.pem`;
  const tokens = new Map<string, number>();
  const subscriptions = new Map<string, Subscription>();
  const webhooks = new WebhookSender('paypal', ctx.log, { retries: 3, delayMs: 500 });
  const api = `${ctx.baseUrl}/paypal`;

  const newId = () => `I-${randomBytes(6).toString('hex').toUpperCase()}`;

  const seed = () => {
    for (const s of options.seeded) {
      const t = now();
      subscriptions.set(s.id, {
        id: s.id,
        plan_id: options.planId,
        status: 'ACTIVE',
        status_update_time: t,
        start_time: t,
        quantity: String(s.quantity),
        custom_id: s.customId,
        subscriber: {
          email_address: s.email,
          payer_id: 'LOCALPAYER01',
          name: { given_name: 'Demo', surname: 'Owner' },
        },
        create_time: t,
        update_time: t,
        cycles_completed: 1,
        last_payment: { amount: { currency_code: 'USD', value: `${s.quantity}.00` }, time: t },
        next_billing_time: addMonth(t),
        failed_payments_count: 0,
        fail: false,
      });
    }
  };
  seed();

  const links = (s: Subscription) => [
    ...(s.status === 'APPROVAL_PENDING'
      ? [{ href: `${api}/checkout/approve?token=${s.id}`, rel: 'approve', method: 'GET' }]
      : []),
    { href: `${api}/v1/billing/subscriptions/${s.id}`, rel: 'edit', method: 'PATCH' },
    { href: `${api}/v1/billing/subscriptions/${s.id}`, rel: 'self', method: 'GET' },
  ];
  const view = (s: Subscription) => ({
    id: s.id,
    plan_id: s.plan_id,
    start_time: s.start_time,
    quantity: s.quantity,
    shipping_amount: { currency_code: 'USD', value: '0.0' },
    subscriber: s.subscriber,
    billing_info: {
      outstanding_balance: { currency_code: 'USD', value: '0.0' },
      cycle_executions: [
        {
          tenure_type: 'REGULAR',
          sequence: 1,
          cycles_completed: s.cycles_completed,
          cycles_remaining: 0,
          current_pricing_scheme_version: 1,
          total_cycles: 0,
        },
      ],
      ...(s.last_payment ? { last_payment: s.last_payment } : {}),
      ...(s.next_billing_time && s.status === 'ACTIVE'
        ? { next_billing_time: s.next_billing_time }
        : {}),
      failed_payments_count: s.failed_payments_count,
    },
    create_time: s.create_time,
    update_time: s.update_time,
    ...(s.custom_id ? { custom_id: s.custom_id } : {}),
    plan_overridden: false,
    status: s.status,
    status_update_time: s.status_update_time,
    ...(s.status_change_note ? { status_change_note: s.status_change_note } : {}),
    links: links(s),
  });

  const sendWebhook = (
    eventType: string,
    resourceType: string,
    resource: JsonObject,
    summary: string,
  ) => {
    if (!options.webhookUrl) return;
    const event = {
      id: `WH-${randomBytes(10).toString('hex').toUpperCase()}`,
      event_version: '1.0',
      create_time: now(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: eventType,
      summary,
      resource,
      links: [],
    };
    const body = JSON.stringify(event);
    const transmissionId = randomUUID();
    const time = now();
    const signed = `${transmissionId}|${time}|${options.webhookId}|${crc32(body)}`;
    const sig = sign('sha256', Buffer.from(signed), identity.privateKey).toString('base64');
    webhooks.send(
      options.webhookUrl,
      transmissionId,
      {
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': certUrl,
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-sig': sig,
        'paypal-transmission-time': time,
      },
      body,
      {
        event_type: eventType,
        event_id: event.id,
        resource: String(resource.billing_agreement_id ?? resource.id ?? ''),
      },
    );
  };
  const subscriptionEvent = (s: Subscription, type: string, summary: string) =>
    sendWebhook(type, 'subscription', view(s) as unknown as JsonObject, summary);

  /** A billing cycle: a payment (or a failed one) and the next billing time. */
  const bill = (s: Subscription) => {
    const t = now();
    if (s.fail) {
      s.failed_payments_count++;
      s.update_time = t;
      subscriptionEvent(s, 'BILLING.SUBSCRIPTION.PAYMENT.FAILED', 'Subscription payment failed');
      return;
    }
    const value = `${Number(s.quantity)}.00`;
    s.cycles_completed++;
    s.last_payment = { amount: { currency_code: 'USD', value }, time: t };
    s.next_billing_time = addMonth(
      s.next_billing_time && s.cycles_completed > 1 ? s.next_billing_time : t,
    );
    s.update_time = t;
    sendWebhook(
      'PAYMENT.SALE.COMPLETED',
      'sale',
      {
        id: randomBytes(8).toString('hex').toUpperCase(),
        state: 'completed',
        amount: { total: value, currency: 'USD', details: { subtotal: value } },
        payment_mode: 'INSTANT_TRANSFER',
        billing_agreement_id: s.id,
        create_time: t,
        update_time: t,
      },
      `Payment completed for $ ${value} USD`,
    );
  };

  const activate = (s: Subscription) => {
    const t = now();
    s.status = 'ACTIVE';
    s.status_update_time = t;
    s.start_time = t;
    s.cycles_completed = 0;
    s.next_billing_time = undefined;
    subscriptionEvent(s, 'BILLING.SUBSCRIPTION.ACTIVATED', 'Subscription activated');
    bill(s);
  };

  const create = (body: JsonObject, extra: Partial<Subscription> = {}): Subscription => {
    if (body.plan_id !== options.planId)
      throw new ApiError(
        404,
        'RESOURCE_NOT_FOUND',
        'The specified resource does not exist.',
        'INVALID_RESOURCE_ID',
      );
    const quantity = String(body.quantity ?? '1');
    if (!/^[1-9][0-9]{0,5}$/.test(quantity))
      throw new ApiError(
        422,
        'UNPROCESSABLE_ENTITY',
        'The requested action could not be performed.',
        'INVALID_PARAMETER_VALUE',
      );
    const context = isObject(body.application_context) ? body.application_context : {};
    const t = now();
    const s: Subscription = {
      id: newId(),
      plan_id: options.planId,
      status: 'APPROVAL_PENDING',
      status_update_time: t,
      start_time: t,
      quantity,
      custom_id: typeof body.custom_id === 'string' ? body.custom_id.slice(0, 127) : undefined,
      subscriber: isObject(body.subscriber) ? body.subscriber : {},
      create_time: t,
      update_time: t,
      return_url: typeof context.return_url === 'string' ? context.return_url : undefined,
      cancel_url: typeof context.cancel_url === 'string' ? context.cancel_url : undefined,
      cycles_completed: 0,
      failed_payments_count: 0,
      fail: false,
      ...extra,
    };
    subscriptions.set(s.id, s);
    return s;
  };

  const bearer = (req: IncomingMessage) => {
    const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const expires = token ? tokens.get(token) : undefined;
    if (!expires || expires < Date.now()) {
      throw new ApiError(
        401,
        'AUTHENTICATION_FAILURE',
        'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
      );
    }
  };
  const find = (id: string) => {
    const s = subscriptions.get(id);
    if (!s)
      throw new ApiError(
        404,
        'RESOURCE_NOT_FOUND',
        'The specified resource does not exist.',
        'INVALID_RESOURCE_ID',
      );
    return s;
  };

  const restApi = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const method = req.method ?? 'GET';
    if (path === '/v1/oauth2/token' && method === 'POST') {
      const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const [id, secret] = Buffer.from(basic ?? '', 'base64')
        .toString('utf8')
        .split(':');
      const form = new URLSearchParams((await readBody(req, 4096)).toString('utf8'));
      if (id !== options.clientId || secret !== options.clientSecret) {
        return sendJson(res, 401, {
          error: 'invalid_client',
          error_description: 'Client Authentication failed',
        });
      }
      if (form.get('grant_type') !== 'client_credentials') {
        return sendJson(res, 400, {
          error: 'unsupported_grant_type',
          error_description: 'Grant Type is NULL',
        });
      }
      const token = `A21AA${randomBytes(24).toString('base64url')}`;
      tokens.set(token, Date.now() + 32_400_000);
      return sendJson(res, 200, {
        scope:
          'https://uri.paypal.com/services/subscriptions https://uri.paypal.com/services/applications/webhooks',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-LOCAL0000000000',
        expires_in: 32_400,
        nonce: `${now()}${randomBytes(8).toString('hex')}`,
      });
    }
    bearer(req);
    let m: RegExpExecArray | null;
    if (path === '/v1/billing/subscriptions' && method === 'POST') {
      const s = create(await readJson(req));
      return sendJson(res, 201, {
        id: s.id,
        status: s.status,
        status_update_time: s.status_update_time,
        plan_id: s.plan_id,
        plan_overridden: false,
        start_time: s.start_time,
        quantity: s.quantity,
        create_time: s.create_time,
        links: links(s),
      });
    }
    if ((m = /^\/v1\/billing\/subscriptions\/([^/]+)$/.exec(path)) && method === 'GET') {
      return sendJson(res, 200, view(find(decodeURIComponent(m[1]!))));
    }
    if ((m = /^\/v1\/billing\/subscriptions\/([^/]+)\/revise$/.exec(path)) && method === 'POST') {
      const s = find(decodeURIComponent(m[1]!));
      const body = await readJson(req);
      if (s.status !== 'ACTIVE')
        throw new ApiError(
          422,
          'UNPROCESSABLE_ENTITY',
          'The requested action could not be performed.',
          'SUBSCRIPTION_STATUS_INVALID',
        );
      const planId = typeof body.plan_id === 'string' ? body.plan_id : s.plan_id;
      if (planId !== options.planId)
        throw new ApiError(
          404,
          'RESOURCE_NOT_FOUND',
          'The specified resource does not exist.',
          'INVALID_RESOURCE_ID',
        );
      const quantity = String(body.quantity ?? s.quantity);
      if (!/^[1-9][0-9]{0,5}$/.test(quantity))
        throw new ApiError(
          422,
          'UNPROCESSABLE_ENTITY',
          'The requested action could not be performed.',
          'INVALID_PARAMETER_VALUE',
        );
      const context = isObject(body.application_context) ? body.application_context : {};
      s.pending_revision = {
        plan_id: planId,
        quantity,
        token: `RV-${randomBytes(8).toString('hex').toUpperCase()}`,
      };
      if (typeof context.return_url === 'string') s.return_url = context.return_url;
      if (typeof context.cancel_url === 'string') s.cancel_url = context.cancel_url;
      return sendJson(res, 200, {
        plan_id: planId,
        quantity,
        plan_overridden: false,
        links: [
          {
            href: `${api}/checkout/approve?token=${s.pending_revision.token}`,
            rel: 'approve',
            method: 'GET',
          },
          { href: `${api}/v1/billing/subscriptions/${s.id}`, rel: 'edit', method: 'PATCH' },
          { href: `${api}/v1/billing/subscriptions/${s.id}`, rel: 'self', method: 'GET' },
        ],
      });
    }
    if ((m = /^\/v1\/billing\/subscriptions\/([^/]+)\/cancel$/.exec(path)) && method === 'POST') {
      const s = find(decodeURIComponent(m[1]!));
      const body = await readJson(req);
      if (s.status !== 'ACTIVE' && s.status !== 'SUSPENDED')
        throw new ApiError(
          422,
          'UNPROCESSABLE_ENTITY',
          'The requested action could not be performed, semantically incorrect, or failed business validation.',
          'SUBSCRIPTION_STATUS_INVALID',
        );
      const t = now();
      s.status = 'CANCELLED';
      s.status_update_time = t;
      s.update_time = t;
      s.status_change_note =
        typeof body.reason === 'string' ? body.reason.slice(0, 128) : undefined;
      subscriptionEvent(s, 'BILLING.SUBSCRIPTION.CANCELLED', 'Subscription cancelled');
      res.writeHead(204);
      res.end();
      return;
    }
    if ((m = /^\/v1\/billing\/plans\/([^/]+)$/.exec(path)) && method === 'GET') {
      if (decodeURIComponent(m[1]!) !== options.planId)
        throw new ApiError(
          404,
          'RESOURCE_NOT_FOUND',
          'The specified resource does not exist.',
          'INVALID_RESOURCE_ID',
        );
      return sendJson(res, 200, {
        id: options.planId,
        product_id: 'PROD-LOCAL0REACTION',
        name: 'Reaction Blocks (per dollar)',
        status: 'ACTIVE',
        billing_cycles: [
          {
            frequency: { interval_unit: 'MONTH', interval_count: 1 },
            tenure_type: 'REGULAR',
            sequence: 1,
            total_cycles: 0,
            pricing_scheme: { fixed_price: { value: '1', currency_code: 'USD' } },
          },
        ],
        quantity_supported: true,
      });
    }
    if (path === '/v1/notifications/verify-webhook-signature' && method === 'POST') {
      const body = await readJson(req);
      const ok =
        body.auth_algo === 'SHA256withRSA' &&
        body.cert_url === certUrl &&
        body.webhook_id === options.webhookId &&
        typeof body.transmission_id === 'string' &&
        typeof body.transmission_time === 'string' &&
        typeof body.transmission_sig === 'string' &&
        isObject(body.webhook_event) &&
        verify(
          'sha256',
          Buffer.from(
            `${body.transmission_id}|${body.transmission_time}|${body.webhook_id}|${crc32(JSON.stringify(body.webhook_event))}`,
          ),
          identity.publicKey,
          Buffer.from(body.transmission_sig, 'base64'),
        );
      return sendJson(res, 200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
    }
    throw new ApiError(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.');
  };

  /** The approval pages: a new subscription from the JS SDK, or a pending one or revision. */
  const checkout = async (req: IncomingMessage, res: ServerResponse, page: string, url: URL) => {
    const nonce = randomBytes(16).toString('base64');
    const csp = pageCsp(nonce);
    const form =
      req.method === 'POST'
        ? new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'))
        : url.searchParams;
    const rawOrigin = form.get('origin');
    const origin =
      rawOrigin && /^https?:\/\/[a-z0-9.-]+(:\d+)?$/i.test(rawOrigin) ? rawOrigin : null;
    const decision = req.method === 'POST' ? form.get('decision') : null;

    if (page === '/subscribe') {
      let body: JsonObject = {};
      try {
        const parsed = JSON.parse(form.get('body') ?? '{}') as unknown;
        if (isObject(parsed)) body = parsed;
      } catch {
        // shown as an error
      }
      const error =
        form.get('client_id') !== options.clientId
          ? 'Unknown client id'
          : body.plan_id !== options.planId
            ? 'Unknown plan'
            : !/^[1-9][0-9]{0,5}$/.test(String(body.quantity ?? '1'))
              ? 'Invalid quantity'
              : undefined;
      if (!decision) {
        const quantity = String(body.quantity ?? '1');
        return sendCheckoutPage(
          res,
          200,
          approvalPage({
            title: 'Subscribe',
            details: [
              ['Merchant', 'Reaction Blocks'],
              ['Plan', String(body.plan_id ?? '')],
              ['Price', `$${quantity}.00 USD every month`],
            ],
            hidden: {
              client_id: form.get('client_id') ?? '',
              origin: origin ?? '',
              body: JSON.stringify(body),
            },
            action: 'subscribe',
            approveLabel: 'Agree & Subscribe',
            error,
            nonce,
          }),
          csp,
        );
      }
      if (decision === 'approve' && !error) {
        const s = create(body, {
          subscriber: {
            email_address: 'buyer@paypal.local',
            payer_id: 'LOCALPAYER02',
            name: { given_name: 'Local', surname: 'Buyer' },
          },
        });
        activate(s);
        return sendCheckoutPage(
          res,
          200,
          popupResultPage({ result: 'approve', subscriptionID: s.id }, origin, 'Subscribed', nonce),
          csp,
        );
      }
      return sendCheckoutPage(
        res,
        200,
        popupResultPage({ result: 'cancel' }, origin, 'Cancelled', nonce),
        csp,
      );
    }

    if (page === '/approve') {
      const token = form.get('token') ?? '';
      const s = token.startsWith('RV-')
        ? [...subscriptions.values()].find((x) => x.pending_revision?.token === token)
        : subscriptions.get(token);
      const revision = s?.pending_revision?.token === token ? s.pending_revision : undefined;
      const error = !s
        ? 'This link is not valid'
        : !revision && s.status !== 'APPROVAL_PENDING'
          ? 'Nothing to approve here'
          : undefined;
      if (!decision) {
        return sendCheckoutPage(
          res,
          200,
          approvalPage({
            title: revision ? 'Change your subscription' : 'Subscribe',
            details: s
              ? [
                  ['Merchant', 'Reaction Blocks'],
                  ['Subscription', s.id],
                  ...(revision
                    ? ([
                        ['Now', `$${s.quantity}.00 USD every month`],
                        ['From the next payment', `$${revision.quantity}.00 USD every month`],
                      ] as Array<[string, string]>)
                    : ([['Price', `$${s.quantity}.00 USD every month`]] as Array<
                        [string, string]
                      >)),
                ]
              : [],
            hidden: { token, origin: origin ?? '' },
            action: 'approve',
            approveLabel: revision ? 'Agree to the change' : 'Agree & Subscribe',
            error,
            nonce,
          }),
          csp,
        );
      }
      if (decision === 'approve' && s && !error) {
        if (revision) {
          s.plan_id = revision.plan_id;
          s.quantity = revision.quantity;
          s.pending_revision = undefined;
          s.update_time = now();
          subscriptionEvent(s, 'BILLING.SUBSCRIPTION.UPDATED', 'Subscription updated');
        } else {
          activate(s);
        }
        if (s.return_url) {
          const back = new URL(s.return_url);
          back.searchParams.set('subscription_id', s.id);
          res.writeHead(303, { location: back.toString() });
          res.end();
          return;
        }
        return sendCheckoutPage(
          res,
          200,
          popupResultPage({ result: 'approve', subscriptionID: s.id }, origin, 'Done', nonce),
          csp,
        );
      }
      if (s?.cancel_url && decision === 'cancel') {
        res.writeHead(303, { location: s.cancel_url });
        res.end();
        return;
      }
      return sendCheckoutPage(
        res,
        200,
        popupResultPage({ result: 'cancel' }, origin, 'Cancelled', nonce),
        csp,
      );
    }
    throw new HttpError(404, 'Not found');
  };

  const control = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const method = req.method ?? 'GET';
    if (path === '/state' && method === 'GET') {
      return sendJson(res, 200, {
        planId: options.planId,
        webhookId: options.webhookId,
        webhookUrl: options.webhookUrl,
        certUrl,
        subscriptions: [...subscriptions.values()].map(view),
        webhooks: webhooks.log,
      });
    }
    if (path === '/subscriptions' && method === 'POST') {
      // a subscription as the JS SDK would have made and the buyer approved
      const body = await readJson(req);
      const s = create({ plan_id: options.planId, ...body });
      if (body.approve !== false) activate(s);
      return sendJson(res, 201, view(s));
    }
    let m: RegExpExecArray | null;
    if ((m = /^\/subscriptions\/([^/]+)$/.exec(path)) && method === 'POST') {
      const s = subscriptions.get(decodeURIComponent(m[1]!));
      if (!s) throw new HttpError(404, 'No such subscription');
      const body = await readJson(req);
      if (typeof body.fail === 'boolean') s.fail = body.fail;
      return sendJson(res, 200, view(s));
    }
    if ((m = /^\/subscriptions\/([^/]+)\/(bill|approve)$/.exec(path)) && method === 'POST') {
      const s = subscriptions.get(decodeURIComponent(m[1]!));
      if (!s) throw new HttpError(404, 'No such subscription');
      if (m[2] === 'bill') {
        if (s.status !== 'ACTIVE') throw new HttpError(409, 'The subscription is not active');
        bill(s);
      } else if (s.pending_revision) {
        s.plan_id = s.pending_revision.plan_id;
        s.quantity = s.pending_revision.quantity;
        s.pending_revision = undefined;
        subscriptionEvent(s, 'BILLING.SUBSCRIPTION.UPDATED', 'Subscription updated');
      } else if (s.status === 'APPROVAL_PENDING') {
        activate(s);
      }
      return sendJson(res, 200, view(s));
    }
    throw new HttpError(404, 'Not found');
  };

  return {
    prefix: '/paypal',
    title: 'PayPal (fake)',
    options,
    async handle(req, res, path, url) {
      if (path.startsWith('/v1/')) {
        try {
          return await restApi(req, res, path);
        } catch (err) {
          if (err instanceof ApiError) {
            return sendJson(res, err.status, {
              name: err.name_,
              message: err.message,
              debug_id: randomBytes(6).toString('hex'),
              ...(err.issue ? { details: [{ issue: err.issue, description: err.message }] } : {}),
              links: [],
            });
          }
          if (err instanceof HttpError) {
            return sendJson(res, err.status, {
              name: 'INVALID_REQUEST',
              message: err.message,
              links: [],
            });
          }
          throw err;
        }
      }
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
      if (path === `/certs/${certName}.pem` && req.method === 'GET') {
        return sendText(res, 200, identity.certPem, 'application/x-pem-file');
      }
      if (path.startsWith('/checkout/'))
        return checkout(req, res, path.slice('/checkout'.length), url);
      if (path.startsWith('/_control')) return control(req, res, path.slice('/_control'.length));
      throw new HttpError(404, 'Not found');
    },
    section() {
      const e = escapeHtml;
      const rows = [...subscriptions.values()]
        .slice(-50)
        .reverse()
        .map(
          (s) =>
            `<tr><td>${e(s.id)}</td><td>${e(s.status)}</td><td>$${e(s.quantity)}/month</td><td class="wrap">${e(s.custom_id ?? '')}</td><td>${e(s.next_billing_time ?? '')}</td></tr>`,
        )
        .join('');
      return `<p class="muted">REST API at <code>/paypal/v1/...</code>, JS SDK stand-in at <code>/paypal/sdk/js</code>, plan ${e(options.planId)}. ${webhooks.log.length} webhooks sent.</p>
<table><thead><tr><th>Subscription</th><th>Status</th><th>Price</th><th>custom_id</th><th>Next billing</th></tr></thead><tbody>${rows || '<tr><td colspan="5" class="muted">No subscriptions yet.</td></tr>'}</tbody></table>`;
    },
    // kept across restarts: the subscriptions (a plan the database holds), not access tokens
    persistent: {
      save: () => ({ subscriptions: entriesOf(subscriptions) }),
      load(saved) {
        refill(subscriptions, (saved as { subscriptions: unknown }).subscriptions);
      },
    },
    reset() {
      subscriptions.clear();
      tokens.clear();
      webhooks.clear();
      seed();
    },
    close() {
      webhooks.close();
    },
  };
}
