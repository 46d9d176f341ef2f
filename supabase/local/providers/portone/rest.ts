// The PortOne fake's REST API, at the root as the server SDK calls it: billing keys, payments by
// billing key, cancellations and payment schedules. Errors as PortOne answers them ({type,
// message}).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, isObject, readJson, sendJson, type JsonObject } from '../http.ts';
import { ApiError, now, type PortOneModel, type Schedule } from './model.ts';

interface Call {
  model: PortOneModel;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The path's one group (an id), decoded when read (a bad escape throws there, as before). */
  readonly id: string;
}

type Route = (call: Call) => Promise<void>;

/** The body the server SDK sends in the query of its GET and DELETE requests (`requestBody`). */
function requestBody(url: URL): JsonObject {
  try {
    const body: unknown = JSON.parse(url.searchParams.get('requestBody') ?? '{}');
    return isObject(body) ? body : {};
  } catch {
    throw new ApiError(400, 'INVALID_REQUEST', 'requestBody is not JSON');
  }
}

/** GET or DELETE /billing-keys/{billingKey}; other methods fall through to "no route". */
const billingKey = async ({ model, req, res, url, id }: Call): Promise<boolean> => {
  const key = model.billingKeys.get(id);
  model.checkStore(url.searchParams.get('storeId') ?? undefined);
  if (!key) throw new ApiError(404, 'BILLING_KEY_NOT_FOUND', 'No such billing key');
  if (req.method === 'GET') {
    sendJson(res, 200, model.billingKeyView(key));
    return true;
  }
  if (req.method === 'DELETE') {
    key.deleteRequests = (key.deleteRequests ?? 0) + 1;
    if (key.status === 'DELETED')
      throw new ApiError(409, 'BILLING_KEY_ALREADY_DELETED', 'The billing key was deleted');
    model.deleteBillingKey(key);
    sendJson(res, 200, { deletedAt: key.deletedAt });
    return true;
  }
  return false;
};

/** POST /payments/{paymentId}/billing-key: charges at once; a paid id answers ALREADY_PAID. */
const payWithBillingKey: Route = async ({ model, req, res, id }) => {
  const input = model.paymentInput(await readJson(req));
  const existing = model.payments.get(id);
  if (existing && existing.status !== 'FAILED')
    throw new ApiError(409, 'ALREADY_PAID', 'This payment id was paid already');
  const payment = model.charge(id, input);
  if (payment.status !== 'PAID') {
    const failure = payment.failure as JsonObject;
    throw new ApiError(502, 'PG_PROVIDER', String(failure.reason), {
      pgCode: failure.pgCode,
      pgMessage: failure.pgMessage,
    });
  }
  return sendJson(res, 200, { payment: { pgTxId: payment.pgTxId, paidAt: payment.paidAt } });
};

const cancelPayment: Route = async (call) => {
  const { model, req, res } = call;
  const body = await readJson(req);
  model.checkStore(body.storeId);
  const payment = model.payments.get(call.id);
  if (!payment) throw new ApiError(404, 'PAYMENT_NOT_FOUND', 'No such payment');
  if (payment.status === 'CANCELLED')
    throw new ApiError(409, 'PAYMENT_ALREADY_CANCELLED', 'The payment was cancelled already');
  if (payment.status !== 'PAID')
    throw new ApiError(409, 'PAYMENT_NOT_PAID', 'The payment is not paid');
  const amount = payment.amount as JsonObject;
  const at = now();
  const cancellation = {
    status: 'SUCCEEDED',
    id: randomUUID(),
    totalAmount: amount.total,
    taxFreeAmount: 0,
    vatAmount: amount.vat,
    reason: typeof body.reason === 'string' ? body.reason : '',
    cancelledAt: at,
    requestedAt: at,
  };
  Object.assign(payment, {
    status: 'CANCELLED',
    cancelledAt: at,
    updatedAt: at,
    statusChangedAt: at,
    cancellations: [cancellation],
    amount: { ...amount, cancelled: amount.total },
  });
  model.sendWebhook('Transaction.Cancelled', {
    paymentId: payment.id,
    transactionId: payment.transactionId as string,
    cancellationId: cancellation.id,
  });
  return sendJson(res, 200, { cancellation });
};

const schedulePayment: Route = async ({ model, req, res, id: paymentId }) => {
  const body = await readJson(req);
  if (isObject(body.payment) && typeof body.payment.billingKey === 'string')
    await model.beforeSchedule(body.payment.billingKey);
  const input = model.paymentInput(isObject(body.payment) ? body.payment : {});
  const timeToPay = body.timeToPay;
  if (typeof timeToPay !== 'string' || Number.isNaN(Date.parse(timeToPay)))
    throw new ApiError(400, 'INVALID_REQUEST', 'timeToPay must be a date-time');
  if (model.payments.get(paymentId)?.status === 'PAID')
    throw new ApiError(409, 'ALREADY_PAID_OR_WAITING', 'This payment id was paid already');
  if (
    [...model.schedules.values()].some((s) => s.paymentId === paymentId && s.status !== 'REVOKED')
  )
    throw new ApiError(
      409,
      'PAYMENT_SCHEDULE_ALREADY_EXISTS',
      'A schedule for this payment id exists',
    );
  const schedule: Schedule = {
    id: randomUUID(),
    paymentId,
    billingKey: input.billingKey,
    orderName: input.orderName,
    customer: input.customer,
    customData: input.customData ?? '',
    totalAmount: input.total,
    currency: input.currency,
    noticeUrls: input.noticeUrls,
    status: 'SCHEDULED',
    createdAt: now(),
    timeToPay: new Date(timeToPay).toISOString(),
  };
  model.schedules.set(schedule.id, schedule);
  if (model.billingKeys.get(input.billingKey)?.scheduleAnswerLost) {
    model.billingKeys.get(input.billingKey)!.scheduleAnswerLost = false;
    throw new ApiError(
      503,
      'UNAVAILABLE',
      'The schedule was made; its answer was lost (local test)',
    );
  }
  return sendJson(res, 200, { schedule: { id: schedule.id } });
};

const getPayment: Route = async (call) => {
  const { model, res, url } = call;
  model.checkStore(url.searchParams.get('storeId') ?? undefined);
  if (model.unanswered(call.id))
    throw new ApiError(503, 'UNAVAILABLE', 'The service is not answering (local test)');
  const payment = model.payments.get(call.id);
  if (!payment) throw new ApiError(404, 'PAYMENT_NOT_FOUND', 'No such payment');
  return sendJson(res, 200, payment);
};

const getSchedule: Route = async ({ model, res, id }) => {
  const schedule = model.schedules.get(id);
  if (!schedule) throw new ApiError(404, 'PAYMENT_SCHEDULE_NOT_FOUND', 'No such schedule');
  return sendJson(res, 200, model.scheduleView(schedule));
};

/**
 * GET /payment-schedules?requestBody={page, sort, filter}: the store's schedules whose timeToPay is
 * within filter.from and filter.until (PortOne's defaults: until now, from 90 days before until),
 * of filter.billingKey and filter.status when given; newest first, a page of page.size (10).
 */
const listSchedules: Route = async ({ model, res, url }) => {
  const body = requestBody(url);
  const filter = isObject(body.filter) ? body.filter : {};
  model.checkStore(filter.storeId);
  const until = typeof filter.until === 'string' ? Date.parse(filter.until) : Date.now();
  const from = typeof filter.from === 'string' ? Date.parse(filter.from) : until - 90 * 86_400_000;
  if (Number.isNaN(from) || Number.isNaN(until))
    throw new ApiError(400, 'INVALID_REQUEST', 'from and until must be date-times');
  const statuses = Array.isArray(filter.status) ? filter.status.map(String) : null;
  const matching = [...model.schedules.values()]
    .filter((s) => {
      const t = Date.parse(s.timeToPay);
      return (
        t >= from &&
        t <= until &&
        (filter.billingKey === undefined || s.billingKey === filter.billingKey) &&
        (!statuses || statuses.includes(s.status))
      );
    })
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const page = isObject(body.page) ? body.page : {};
  const size = typeof page.size === 'number' && page.size > 0 ? page.size : 10;
  const number = typeof page.number === 'number' && page.number >= 0 ? page.number : 0;
  const items = matching.slice(number * size, (number + 1) * size);
  return sendJson(res, 200, {
    items: items.map((s) => model.scheduleView(s)),
    page: { number, size, totalCount: matching.length },
  });
};

/** Revokes the schedules a request names: by id (each must still be waiting) or by billing key. */
async function revokeNamed(model: PortOneModel, body: JsonObject) {
  if (Array.isArray(body.scheduleIds) && body.scheduleIds.length > 0) {
    return model.revoke(
      body.scheduleIds.map((id) => {
        const s = model.schedules.get(String(id));
        if (!s)
          throw new ApiError(404, 'PAYMENT_SCHEDULE_NOT_FOUND', `No such schedule ${String(id)}`);
        if (s.status === 'REVOKED')
          throw new ApiError(409, 'PAYMENT_SCHEDULE_ALREADY_REVOKED', 'Already revoked');
        if (s.status !== 'SCHEDULED')
          throw new ApiError(409, 'PAYMENT_SCHEDULE_ALREADY_PROCESSED', 'Already processed');
        return s;
      }),
    );
  }
  if (typeof body.billingKey === 'string') {
    const key = model.billingKeys.get(body.billingKey);
    if (!key) throw new ApiError(404, 'BILLING_KEY_NOT_FOUND', 'No such billing key');
    return model.revokeOfKey(key);
  }
  throw new ApiError(400, 'INVALID_REQUEST', 'billingKey or scheduleIds is required');
}

/** DELETE /payment-schedules?requestBody=...: the server SDK sends its body in the query. */
const revokeSchedules: Route = async ({ model, res, url }) => {
  const body = requestBody(url);
  model.checkStore(body.storeId);
  return sendJson(res, 200, await revokeNamed(model, body));
};

/** Method, path (its one group is the id), handler; the first that matches answers. */
const ROUTES: Array<[string, RegExp, Route]> = [
  ['POST', /^\/payments\/([^/]+)\/billing-key$/, payWithBillingKey],
  ['POST', /^\/payments\/([^/]+)\/cancel$/, cancelPayment],
  ['POST', /^\/payments\/([^/]+)\/schedule$/, schedulePayment],
  ['GET', /^\/payments\/([^/]+)$/, getPayment],
  ['GET', /^\/payment-schedules\/([^/]+)$/, getSchedule],
  ['GET', /^\/payment-schedules$/, listSchedules],
  ['DELETE', /^\/payment-schedules$/, revokeSchedules],
];

async function route(
  model: PortOneModel,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  url: URL,
) {
  model.authorize(req);
  const method = req.method ?? 'GET';
  const key = /^\/billing-keys\/([^/]+)$/.exec(path);
  if (key && (await billingKey({ model, req, res, url, id: decodeURIComponent(key[1]!) }))) return;
  for (const [routeMethod, pattern, handler] of ROUTES) {
    const m = pattern.exec(path);
    if (m && method === routeMethod) {
      const raw = m[1] ?? '';
      return handler({
        model,
        req,
        res,
        url,
        get id() {
          return decodeURIComponent(raw);
        },
      });
    }
  }
  throw new ApiError(404, 'NOT_FOUND', `No route for ${method} ${path}`);
}

/** Answers a request to the API's paths, errors in PortOne's shape. */
export async function restApi(
  model: PortOneModel,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  url: URL,
): Promise<void> {
  try {
    return await route(model, req, res, path, url);
  } catch (err) {
    if (err instanceof ApiError)
      return sendJson(res, err.status, { type: err.type, message: err.message, ...err.extra });
    if (err instanceof HttpError)
      return sendJson(res, err.status, { type: 'INVALID_REQUEST', message: err.message });
    throw err;
  }
}
