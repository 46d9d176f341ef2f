// The PortOne fake's control API under /portone/_control, for tests and developers (README.md):
// the state, a billing key without the checkout, declining cards or not answering about a key's
// payments, a revoke meeting a schedule run or made at that moment, running schedules now (with or
// without their webhook), payments under way completed, sending a webhook again.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readJson, sendJson } from '../http.ts';
import type { PortOneModel } from './model.ts';

export async function control(
  model: PortOneModel,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const { options, billingKeys, payments, schedules, webhooks } = model;
  const method = req.method ?? 'GET';
  if (path === '/state' && method === 'GET') {
    return sendJson(res, 200, {
      storeId: options.storeId,
      webhookUrl: options.webhookUrl,
      billingKeys: [...billingKeys.values()].map((k) => ({
        ...model.billingKeyView(k),
        deleteRequests: k.deleteRequests ?? 0,
      })),
      payments: [...payments.values()],
      schedules: [...schedules.values()].map((s) => model.scheduleView(s)),
      webhooks: webhooks.log,
    });
  }
  if (path === '/billing-keys' && method === 'POST') {
    const body = await readJson(req);
    const channel = model.channelByKey(body.channelKey ?? options.channels[0]!.key);
    if (!channel) throw new HttpError(400, 'Unknown channelKey');
    const key = model.issueBillingKey(
      channel,
      { ...(typeof body.customerId === 'string' ? { id: body.customerId } : {}) },
      { issueName: 'test', decline: body.decline === true },
    );
    return sendJson(res, 201, { billingKey: key.billingKey });
  }
  let m: RegExpExecArray | null;
  if ((m = /^\/billing-keys\/([^/]+)$/.exec(path)) && method === 'POST') {
    const key = billingKeys.get(decodeURIComponent(m[1]!));
    if (!key) throw new HttpError(404, 'No such billing key');
    const body = await readJson(req);
    if (typeof body.decline === 'boolean') key.decline = body.decline;
    if (typeof body.unanswered === 'boolean') key.unanswered = body.unanswered;
    if (typeof body.runOnRevoke === 'boolean') key.runOnRevoke = body.runOnRevoke;
    if (typeof body.lateSchedules === 'boolean') key.lateSchedules = body.lateSchedules;
    if (typeof body.scheduleAnswerLost === 'boolean')
      key.scheduleAnswerLost = body.scheduleAnswerLost;
    if (typeof body.pendingPayments === 'boolean') key.pendingPayments = body.pendingPayments;
    return sendJson(res, 200, model.billingKeyView(key));
  }
  if (path === '/schedules/run' && method === 'POST') {
    const body = await readJson(req);
    const due = [...schedules.values()].filter(
      (s) =>
        s.status === 'SCHEDULED' &&
        (body.billingKey === undefined || s.billingKey === body.billingKey) &&
        (body.paymentId === undefined || s.paymentId === body.paymentId),
    );
    for (const s of due) model.runSchedule(s, { webhook: body.webhook !== false });
    return sendJson(res, 200, { ran: due.map((s) => model.scheduleView(s)) });
  }
  if ((m = /^\/payments\/([^/]+)\/complete$/.exec(path)) && method === 'POST') {
    // a payment under way (pendingPayments) completes: PAID, with its webhook unless webhook: false
    const body = await readJson(req);
    return sendJson(
      res,
      200,
      model.completePayment(decodeURIComponent(m[1]!), body.webhook === false),
    );
  }
  if (path === '/webhooks/resend' && method === 'POST') {
    const body = await readJson(req);
    const original = webhooks.log.find((d) => d.id === body.id);
    if (!original) throw new HttpError(404, 'No such webhook');
    const delivery = webhooks.send(
      typeof body.url === 'string' ? body.url : original.url,
      original.id,
      original.headers,
      original.body,
      original.summary,
    );
    return sendJson(res, 200, delivery);
  }
  throw new HttpError(404, 'Not found');
}
