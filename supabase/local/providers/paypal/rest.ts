// The PayPal fake's REST API under /paypal/v1 and /paypal/v2: OAuth client credentials,
// Subscriptions v1 (create, get, revise, cancel, list transactions), the plan, the Payments v2
// refund of a captured payment, and verify-webhook-signature. Errors in PayPal's shape.
import { randomBytes, verify } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
// CRC32 (IEEE), as PayPal uses over the webhook body
import { crc32 } from 'node:zlib';
import { HttpError, isObject, readBody, readJson, sendJson } from '../http.ts';
import { ApiError, notFound, unprocessable } from './errors.ts';
import { now, validQuantity, type PayPalModel } from './model.ts';

type Route = (
  model: PayPalModel,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
) => Promise<void>;

/** POST /v1/oauth2/token: client credentials (HTTP Basic) for a bearer token. */
async function issueToken(model: PayPalModel, req: IncomingMessage, res: ServerResponse) {
  const { options } = model;
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
  model.tokens.set(token, Date.now() + 32_400_000);
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

const createSubscription: Route = async (model, req, res) => {
  const s = model.create(await readJson(req));
  return sendJson(res, 201, {
    id: s.id,
    status: s.status,
    status_update_time: s.status_update_time,
    plan_id: s.plan_id,
    plan_overridden: false,
    start_time: s.start_time,
    quantity: s.quantity,
    create_time: s.create_time,
    links: model.links(s),
  });
};

const getSubscription: Route = async (model, _req, res, id) =>
  sendJson(res, 200, model.view(model.find(id)));

/** A change of plan or quantity, which the buyer approves on the approval page. */
const revise: Route = async (model, req, res, id) => {
  const s = model.find(id);
  const body = await readJson(req);
  if (s.status !== 'ACTIVE') throw unprocessable('SUBSCRIPTION_STATUS_INVALID');
  const planId = typeof body.plan_id === 'string' ? body.plan_id : s.plan_id;
  if (planId !== model.options.planId) throw notFound();
  const quantity = String(body.quantity ?? s.quantity);
  if (!validQuantity(quantity)) throw unprocessable('INVALID_PARAMETER_VALUE');
  const context = isObject(body.application_context) ? body.application_context : {};
  s.pending_revision = {
    plan_id: planId,
    quantity,
    token: `RV-${randomBytes(8).toString('hex').toUpperCase()}`,
  };
  if (typeof context.return_url === 'string') s.return_url = context.return_url;
  if (typeof context.cancel_url === 'string') s.cancel_url = context.cancel_url;
  const api = model.api;
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
};

const cancel: Route = async (model, req, res, id) => {
  model.find(id);
  const body = await readJson(req);
  await model.beforeCancel(id);
  const s = model.find(id);
  if (s.status !== 'ACTIVE' && s.status !== 'SUSPENDED')
    throw unprocessable(
      'SUBSCRIPTION_STATUS_INVALID',
      'The requested action could not be performed, semantically incorrect, or failed business validation.',
    );
  const t = now();
  s.status = 'CANCELLED';
  s.status_update_time = t;
  s.update_time = t;
  s.status_change_note = typeof body.reason === 'string' ? body.reason.slice(0, 128) : undefined;
  model.subscriptionEvent(s, 'BILLING.SUBSCRIPTION.CANCELLED', 'Subscription cancelled');
  res.writeHead(204);
  res.end();
};

/** PayPal's answer when it is down (control API: outage). */
const serviceUnavailable = () => new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service Unavailable.');

/** PayPal's answer for a request not as its schema says (`issue` names what). */
const invalidRequest = (issue: string) =>
  new ApiError(
    400,
    'INVALID_REQUEST',
    'Request is not well-formed, syntactically incorrect, or violates schema.',
    issue,
  );

/** A query parameter PayPal requires, in Internet date and time format. */
function timeParam(req: IncomingMessage, name: string): number {
  const value = new URL(req.url ?? '/', 'http://paypal.local').searchParams.get(name);
  if (!value) throw invalidRequest('MISSING_REQUIRED_PARAMETER');
  const t = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(t))
    throw invalidRequest('INVALID_PARAMETER_SYNTAX');
  return t;
}

/** GET .../transactions?start_time&end_time: the subscription's payments in that time. */
const listTransactions: Route = async (model, req, res, id) => {
  const s = model.find(id);
  const start = timeParam(req, 'start_time');
  const end = timeParam(req, 'end_time');
  if (model.down('transactions', s.id)) throw serviceUnavailable();
  const transactions = (s.transactions ?? [])
    .filter((p) => Date.parse(p.time) >= start && Date.parse(p.time) <= end)
    .map((p) => ({
      status: p.status,
      id: p.id,
      amount_with_breakdown: {
        gross_amount: { currency_code: 'USD', value: p.value },
        net_amount: { currency_code: 'USD', value: p.value },
      },
      payer_name: { given_name: 'Local', surname: 'Buyer' },
      payer_email: String(s.subscriber.email_address ?? 'buyer@paypal.local'),
      time: p.time,
    }));
  return sendJson(res, 200, {
    transactions,
    total_items: transactions.length,
    total_pages: 1,
    links: [],
  });
};

/**
 * POST /v2/payments/captures/{id}/refund: the whole capture, or `amount` of it (USD; more than is
 * left is refused). PayPal-Request-Id makes a repeat answer the same.
 */
const refundCapture: Route = async (model, req, res, id) => {
  const body = await readJson(req);
  const amount = body.amount as { currency_code?: unknown; value?: unknown } | undefined;
  if (
    amount !== undefined &&
    (amount === null ||
      amount.currency_code !== 'USD' ||
      typeof amount.value !== 'string' ||
      !/^\d+(\.\d{1,2})?$/.test(amount.value) ||
      Number(amount.value) <= 0)
  )
    throw invalidRequest('INVALID_PARAMETER_VALUE');
  if (typeof body.note_to_payer === 'string' && body.note_to_payer.length > 255)
    throw invalidRequest('INVALID_STRING_LENGTH');
  if (model.down('refund', model.payment(id).subscription.id)) throw serviceUnavailable();
  const header = req.headers['paypal-request-id'];
  const { refund, repeated } = model.refund(
    id,
    typeof header === 'string' ? header : null,
    amount?.value as string | undefined,
  );
  return sendJson(res, repeated ? 200 : 201, {
    id: refund.id,
    // refunds saved before they had a status were all COMPLETED
    status: refund.status ?? 'COMPLETED',
    ...(refund.status === 'PENDING' || refund.status === 'FAILED'
      ? { status_details: { reason: 'ECHECK' } }
      : {}),
    links: [
      { href: `${model.api}/v2/payments/refunds/${refund.id}`, rel: 'self', method: 'GET' },
      { href: `${model.api}/v2/payments/captures/${refund.capture_id}`, rel: 'up', method: 'GET' },
    ],
  });
};

const getPlan: Route = async (model, _req, res, id) => {
  const { options } = model;
  if (id !== options.planId) throw notFound();
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
};

/** Checks a webhook's signature as PayPal does for a listener that asks. */
const verifySignature: Route = async (model, req, res) => {
  const body = await readJson(req);
  const ok =
    body.auth_algo === 'SHA256withRSA' &&
    body.cert_url === model.certUrl &&
    body.webhook_id === model.options.webhookId &&
    typeof body.transmission_id === 'string' &&
    typeof body.transmission_time === 'string' &&
    typeof body.transmission_sig === 'string' &&
    isObject(body.webhook_event) &&
    verify(
      'sha256',
      Buffer.from(
        `${body.transmission_id}|${body.transmission_time}|${body.webhook_id}|${crc32(JSON.stringify(body.webhook_event))}`,
      ),
      model.identity.publicKey,
      Buffer.from(body.transmission_sig, 'base64'),
    );
  return sendJson(res, 200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
};

/** The calls that need a bearer token: method, path (its one group is the id), handler. */
const ROUTES: Array<[string, RegExp, Route]> = [
  ['POST', /^\/v1\/billing\/subscriptions$/, createSubscription],
  ['GET', /^\/v1\/billing\/subscriptions\/([^/]+)$/, getSubscription],
  ['POST', /^\/v1\/billing\/subscriptions\/([^/]+)\/revise$/, revise],
  ['POST', /^\/v1\/billing\/subscriptions\/([^/]+)\/cancel$/, cancel],
  ['GET', /^\/v1\/billing\/subscriptions\/([^/]+)\/transactions$/, listTransactions],
  ['POST', /^\/v2\/payments\/captures\/([^/]+)\/refund$/, refundCapture],
  ['GET', /^\/v1\/billing\/plans\/([^/]+)$/, getPlan],
  ['POST', /^\/v1\/notifications\/verify-webhook-signature$/, verifySignature],
];

async function route(model: PayPalModel, req: IncomingMessage, res: ServerResponse, path: string) {
  const method = req.method ?? 'GET';
  if (path === '/v1/oauth2/token' && method === 'POST') return issueToken(model, req, res);
  model.bearer(req);
  for (const [routeMethod, pattern, handler] of ROUTES) {
    const m = pattern.exec(path);
    if (m && method === routeMethod)
      return handler(model, req, res, decodeURIComponent(m[1] ?? ''));
  }
  throw new ApiError(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.');
}

/** Answers a /v1/... or /v2/... request, errors in PayPal's shape. */
export async function restApi(
  model: PayPalModel,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  try {
    return await route(model, req, res, path);
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
