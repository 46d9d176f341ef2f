// The PayPal fake's control API under /paypal/_control, for tests and developers (README.md):
// the state, a subscription as if the buyer had approved it, failing renewals, a billing cycle.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readJson, sendJson } from '../http.ts';
import type { PayPalModel } from './model.ts';

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
      webhooks: model.webhooks.log,
    });
  }
  if (path === '/subscriptions' && method === 'POST') {
    // a subscription as the JS SDK would have made and the buyer approved
    const body = await readJson(req);
    const s = model.create({ plan_id: options.planId, ...body });
    if (body.approve !== false) model.activate(s);
    return sendJson(res, 201, model.view(s));
  }
  let m: RegExpExecArray | null;
  if ((m = /^\/subscriptions\/([^/]+)$/.exec(path)) && method === 'POST') {
    const s = subscriptions.get(decodeURIComponent(m[1]!));
    if (!s) throw new HttpError(404, 'No such subscription');
    const body = await readJson(req);
    if (typeof body.fail === 'boolean') s.fail = body.fail;
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
  throw new HttpError(404, 'Not found');
}
