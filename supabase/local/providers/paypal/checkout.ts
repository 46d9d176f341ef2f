// The PayPal fake's LOCAL approval pages under /paypal/checkout: /subscribe (a new subscription
// from the JS SDK stand-in's popup) and /approve (a pending subscription or revision, from the
// approve link the REST API hands out).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, isObject, readBody, sendCheckoutPage, type JsonObject } from '../http.ts';
import { now, validQuantity, type PayPalModel } from './model.ts';
import { approvalPage, pageCsp, popupResultPage } from './pages.ts';

/** One request to a checkout page: its form (query or posted), the buyer's choice if any. */
interface Visit {
  res: ServerResponse;
  form: URLSearchParams;
  /** The opener's origin for the popup's message, when it looks like one. */
  origin: string | null;
  decision: string | null;
  nonce: string;
}

const sendPage = (visit: Visit, html: string) =>
  sendCheckoutPage(visit.res, html, pageCsp(visit.nonce));

const redirect = (res: ServerResponse, location: string) => {
  res.writeHead(303, { location });
  res.end();
};

const cancelled = (visit: Visit) =>
  sendPage(visit, popupResultPage({ result: 'cancel' }, visit.origin, 'Cancelled', visit.nonce));

/** /subscribe: the JS SDK's createSubscription body, approved or cancelled by the buyer. */
function subscribe(model: PayPalModel, visit: Visit) {
  const { options } = model;
  const { form, origin, decision, nonce } = visit;
  let body: JsonObject = {};
  try {
    const parsed = JSON.parse(form.get('body') ?? '{}') as unknown;
    if (isObject(parsed)) body = parsed;
  } catch {
    // shown as an error
  }
  // what PayPal's API answers the JS SDK's create call: its error's name, and our words for it
  const error: [string, string] | undefined =
    form.get('client_id') !== options.clientId
      ? ['INVALID_CLIENT', 'Unknown client id']
      : body.plan_id !== options.planId
        ? ['RESOURCE_NOT_FOUND', 'Unknown plan']
        : !validQuantity(String(body.quantity ?? '1'))
          ? ['UNPROCESSABLE_ENTITY', 'Invalid quantity']
          : undefined;
  // as PayPal's SDK, a refused create call is the button's onError (with the error's name), not
  // a page the buyer could approve
  if (error) {
    return sendPage(
      visit,
      popupResultPage({ result: 'error', name: error[0] }, origin, error[1], nonce),
    );
  }
  if (!decision) {
    const quantity = String(body.quantity ?? '1');
    return sendPage(
      visit,
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
        nonce,
      }),
    );
  }
  if (decision !== 'approve') return cancelled(visit);
  const s = model.create(body, {
    subscriber: {
      email_address: 'buyer@paypal.local',
      payer_id: 'LOCALPAYER02',
      name: { given_name: 'Local', surname: 'Buyer' },
    },
  });
  model.activate(s);
  return sendPage(
    visit,
    popupResultPage({ result: 'approve', subscriptionID: s.id }, origin, 'Subscribed', nonce),
  );
}

/** /approve?token=: a subscription waiting for approval (its id) or a revision (RV-...). */
function approve(model: PayPalModel, visit: Visit) {
  const { form, origin, decision, nonce } = visit;
  const token = form.get('token') ?? '';
  const s = token.startsWith('RV-')
    ? [...model.subscriptions.values()].find((x) => x.pending_revision?.token === token)
    : model.subscriptions.get(token);
  const revision = s?.pending_revision?.token === token ? s.pending_revision : undefined;
  const error = !s
    ? 'This link is not valid'
    : !revision && s.status !== 'APPROVAL_PENDING'
      ? 'Nothing to approve here'
      : undefined;
  if (!decision) {
    const price = (quantity: string) => `$${quantity}.00 USD every month`;
    const prices: Array<[string, string]> = !s
      ? []
      : revision
        ? [
            ['Now', price(s.quantity)],
            ['From the next payment', price(revision.quantity)],
          ]
        : [['Price', price(s.quantity)]];
    return sendPage(
      visit,
      approvalPage({
        title: revision ? 'Change your subscription' : 'Subscribe',
        details: s ? [['Merchant', 'Reaction Blocks'], ['Subscription', s.id], ...prices] : [],
        hidden: { token, origin: origin ?? '' },
        action: 'approve',
        approveLabel: revision ? 'Agree to the change' : 'Agree & Subscribe',
        error,
        nonce,
      }),
    );
  }
  if (decision === 'approve' && s && !error) {
    if (revision) {
      model.applyRevision(s, revision);
      s.update_time = now();
      model.subscriptionEvent(s, 'BILLING.SUBSCRIPTION.UPDATED', 'Subscription updated');
    } else {
      model.activate(s);
    }
    if (s.return_url) {
      const back = new URL(s.return_url);
      back.searchParams.set('subscription_id', s.id);
      return redirect(visit.res, back.toString());
    }
    return sendPage(
      visit,
      popupResultPage({ result: 'approve', subscriptionID: s.id }, origin, 'Done', nonce),
    );
  }
  if (s?.cancel_url && decision === 'cancel') return redirect(visit.res, s.cancel_url);
  return cancelled(visit);
}

/** The approval pages: a new subscription from the JS SDK, or a pending one or revision. */
export async function checkout(
  model: PayPalModel,
  req: IncomingMessage,
  res: ServerResponse,
  page: string,
  url: URL,
): Promise<void> {
  const nonce = randomBytes(16).toString('base64');
  const form =
    req.method === 'POST'
      ? new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'))
      : url.searchParams;
  const rawOrigin = form.get('origin');
  const origin = rawOrigin && /^https?:\/\/[a-z0-9.-]+(:\d+)?$/i.test(rawOrigin) ? rawOrigin : null;
  const decision = req.method === 'POST' ? form.get('decision') : null;
  const visit: Visit = { res, form, origin, decision, nonce };
  if (page === '/subscribe') return subscribe(model, visit);
  if (page === '/approve') return approve(model, visit);
  throw new HttpError(404, 'Not found');
}
