// The PayPal fake's control API under /paypal/_control, for tests and developers (README.md):
// the state, a subscription as if the buyer had approved it, failing renewals, payments captured
// later, a billing cycle, an outstanding balance collected on its own, the time a payment is
// listed at, PayPal down for refunds or transaction lists, and refunds PayPal answers PENDING,
// FAILED or CANCELLED.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readJson, sendJson } from '../http.ts';
import type { PayPalModel, RefundStatus } from './model.ts';

const REFUND_STATUSES: readonly RefundStatus[] = ['COMPLETED', 'PENDING', 'FAILED', 'CANCELLED'];

export async function control(
  model: PayPalModel,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const { options, subscriptions } = model;
  const method = req.method ?? 'GET';
  if (path === '/state' && method === 'GET') {
    return sendJson(res, 200, {
      planId: options.planId,
      webhookId: options.webhookId,
      webhookUrl: options.webhookUrl,
      certUrl: model.certUrl,
      subscriptions: [...subscriptions.values()].map((s) => model.view(s)),
      transactions: [...subscriptions.values()].flatMap((s) =>
        (s.transactions ?? []).map((p) => ({ ...p, subscription_id: s.id })),
      ),
      refunds: model.refunds,
      webhooks: model.webhooks.log,
      cancelsHeld: [...model.cancelHolds].filter(([, h]) => h.waiting).map(([id]) => id),
    });
  }
  if (path === '/subscriptions' && method === 'POST') {
    // a subscription as the JS SDK would have made and the buyer approved
    const body = await readJson(req);
    const s = model.create({ plan_id: options.planId, ...body });
    if (body.pending_payments === true) s.pending_payments = true;
    if (body.approve !== false) model.activate(s);
    return sendJson(res, 201, model.view(s));
  }
  let m: RegExpExecArray | null;
  if ((m = /^\/subscriptions\/([^/]+)$/.exec(path)) && method === 'POST') {
    const s = subscriptions.get(decodeURIComponent(m[1]!));
    if (!s) throw new HttpError(404, 'No such subscription');
    const body = await readJson(req);
    if (typeof body.fail === 'boolean') s.fail = body.fail;
    if (typeof body.pending_payments === 'boolean') s.pending_payments = body.pending_payments;
    // a cycle PayPal could not take after its retries: billed with the next one
    if (typeof body.outstanding === 'string') {
      if (!/^\d+(\.\d{1,2})?$/.test(body.outstanding))
        throw new HttpError(400, 'outstanding must be an amount');
      s.outstanding =
        Number(body.outstanding) > 0 ? Number(body.outstanding).toFixed(2) : undefined;
    }
    // where PayPal is in the billing cycle (a test of the billing day before PayPal bills)
    if (typeof body.next_billing_time === 'string') {
      if (Number.isNaN(Date.parse(body.next_billing_time)))
        throw new HttpError(400, 'next_billing_time must be a date and time');
      s.next_billing_time = new Date(body.next_billing_time).toISOString();
    }
    // what PayPal does on its own after failed payments: suspends the subscription (the plan's
    // payment_failure_threshold) or cancels it (setup_fee_failure_action: CANCEL)
    if (body.status === 'SUSPENDED' || body.status === 'CANCELLED') {
      s.status = body.status;
      s.status_update_time = s.update_time = new Date().toISOString();
      model.subscriptionEvent(
        s,
        `BILLING.SUBSCRIPTION.${body.status}`,
        `Subscription ${body.status.toLowerCase()}`,
      );
    }
    return sendJson(res, 200, model.view(s));
  }
  if ((m = /^\/subscriptions\/([^/]+)\/(bill|approve)$/.exec(path)) && method === 'POST') {
    const s = subscriptions.get(decodeURIComponent(m[1]!));
    if (!s) throw new HttpError(404, 'No such subscription');
    if (m[2] === 'bill') {
      if (s.status !== 'ACTIVE') throw new HttpError(409, 'The subscription is not active');
      model.bill(s);
    } else if (s.pending_revision) {
      model.applyRevision(s, s.pending_revision);
      model.subscriptionEvent(s, 'BILLING.SUBSCRIPTION.UPDATED', 'Subscription updated');
    } else if (s.status === 'APPROVAL_PENDING') {
      model.activate(s);
    }
    return sendJson(res, 200, model.view(s));
  }
  if ((m = /^\/subscriptions\/([^/]+)\/(hold|release)-cancel$/.exec(path)) && method === 'POST') {
    // a cancel slow to reach PayPal: the next one waits until released
    const id = decodeURIComponent(m[1]!);
    if (!subscriptions.has(id)) throw new HttpError(404, 'No such subscription');
    if (m[2] === 'hold') model.holdCancel(id);
    else model.releaseCancel(id);
    return sendJson(res, 200, { id });
  }
  if ((m = /^\/subscriptions\/([^/]+)\/collect$/.exec(path)) && method === 'POST') {
    // the outstanding balance collected on its own (PayPal's capture of it), no new cycle
    const s = subscriptions.get(decodeURIComponent(m[1]!));
    if (!s) throw new HttpError(404, 'No such subscription');
    return sendJson(res, 200, model.collectOutstanding(s));
  }
  if ((m = /^\/transactions\/([^/]+)\/complete$/.exec(path)) && method === 'POST') {
    // a payment captured later (an e-check cleared)
    const id = decodeURIComponent(m[1]!);
    if (![...subscriptions.values()].some((s) => s.transactions?.some((p) => p.id === id)))
      throw new HttpError(404, 'No such payment');
    return sendJson(res, 200, model.completePayment(id));
  }
  if ((m = /^\/transactions\/([^/]+)$/.exec(path)) && method === 'POST') {
    // the time PayPal lists a payment at, which is its own: seconds from the subscription's
    // last_payment.time, or days before it for an e-check (listed when made, last when cleared)
    const body = await readJson(req);
    if (typeof body.time !== 'string' || Number.isNaN(Date.parse(body.time)))
      throw new HttpError(400, 'time must be a date and time');
    const { payment } = model.payment(decodeURIComponent(m[1]!));
    payment.time = new Date(body.time).toISOString();
    return sendJson(res, 200, payment);
  }
  if (path === '/outage' && method === 'POST') {
    // PayPal down: the next n calls of each kind answer 503, for one subscription or for any
    const body = await readJson(req);
    const key = typeof body.subscription === 'string' ? body.subscription : '';
    const outage = model.outages.get(key) ?? { refund: 0, transactions: 0 };
    for (const kind of ['refund', 'transactions'] as const) {
      const n = body[kind];
      if (n === undefined) continue;
      if (!Number.isInteger(n) || (n as number) < 0)
        throw new HttpError(400, `${kind} must be a count of calls`);
      outage[kind] = n as number;
    }
    model.outages.set(key, outage);
    return sendJson(res, 200, outage);
  }
  if (path === '/refund-answer' && method === 'POST') {
    // how PayPal answers the refunds of one payment (capture) or of one subscription's payments:
    // PENDING, FAILED or CANCELLED; COMPLETED (or null) as usual. A PENDING refund asked again
    // (its PayPal-Request-Id) then takes the new answer.
    const body = await readJson(req);
    const key = typeof body.capture === 'string' ? body.capture : body.subscription;
    if (typeof key !== 'string' || !key)
      throw new HttpError(400, 'capture or subscription is required');
    if (body.status === null || body.status === 'COMPLETED') model.refundAnswers.delete(key);
    else if (REFUND_STATUSES.includes(body.status as RefundStatus))
      model.refundAnswers.set(key, body.status as RefundStatus);
    else throw new HttpError(400, `status must be one of ${REFUND_STATUSES.join(', ')}`);
    return sendJson(res, 200, { [key]: model.refundAnswers.get(key) ?? 'COMPLETED' });
  }
  throw new HttpError(404, 'Not found');
}
