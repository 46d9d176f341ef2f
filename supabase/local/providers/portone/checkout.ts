// The PortOne fake's LOCAL checkout page at /portone/checkout, which the stand-in browser SDK
// frames: it shows the billing-key request and, when the buyer approves, issues the key.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, isObject, readBody, sendCheckoutPage } from '../http.ts';
import type { PortOneChannel, PortOneModel } from './model.ts';
import { checkoutCsp, checkoutPage, resultPage, type CheckoutRequest } from './pages.ts';

/** What the page was sent: the SDK's request (query) or the buyer's answer to it (form). */
interface Visit {
  requestJson: string;
  origin: string;
  decision: string;
  card: string;
}

async function readVisit(req: IncomingMessage, url: URL): Promise<Visit> {
  if (req.method === 'POST') {
    const form = new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
    return {
      requestJson: form.get('request') ?? '{}',
      origin: form.get('origin') ?? '',
      decision: form.get('decision') ?? '',
      card: form.get('card') ?? 'ok',
    };
  }
  return {
    requestJson: url.searchParams.get('request') ?? '{}',
    origin: url.searchParams.get('origin') ?? '',
    decision: '',
    card: 'ok',
  };
}

/** What is wrong with the request, as the page shows it; undefined when nothing is. */
function requestError(
  model: PortOneModel,
  request: CheckoutRequest,
  channel: PortOneChannel | undefined,
  method: 'CARD' | 'EASY_PAY',
): string | undefined {
  if (request.storeId !== model.options.storeId) return 'Unknown storeId';
  if (!channel) return 'Unknown channelKey';
  if (request.billingKeyMethod !== 'CARD' && request.billingKeyMethod !== 'EASY_PAY')
    return 'billingKeyMethod must be CARD or EASY_PAY';
  if (channel.method !== method) return `The channel ${channel.name} does not take ${method}`;
  if (typeof request.issueName !== 'string' || request.issueName === '')
    return 'issueName is required';
  return undefined;
}

/** Issues the billing key the buyer approved; answers what the SDK's promise resolves to. */
function issue(
  model: PortOneModel,
  request: CheckoutRequest,
  channel: PortOneChannel,
  card: string,
): Record<string, unknown> {
  const c = request.customer ?? {};
  const key = model.issueBillingKey(
    channel,
    {
      ...(typeof c.customerId === 'string' ? { id: c.customerId } : {}),
      ...(typeof c.email === 'string' ? { email: c.email } : {}),
      ...(typeof c.fullName === 'string' ? { name: c.fullName } : {}),
    },
    {
      issueId: typeof request.issueId === 'string' ? request.issueId : undefined,
      issueName: String(request.issueName),
      decline: card === 'decline',
    },
  );
  return { transactionType: 'ISSUE_BILLING_KEY', billingKey: key.billingKey };
}

/** The checkout page the stand-in SDK frames. */
export async function checkout(
  model: PortOneModel,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const { requestJson, origin, decision, card } = await readVisit(req, url);
  if (!/^https?:\/\/[a-z0-9.-]+(:\d+)?$/i.test(origin))
    throw new HttpError(400, 'origin must be the opening page origin');
  let request: CheckoutRequest = {};
  try {
    const parsed = JSON.parse(requestJson) as unknown;
    if (isObject(parsed)) request = parsed as CheckoutRequest;
  } catch {
    // shown as an error below
  }
  const channel = model.channelByKey(request.channelKey);
  const method = request.billingKeyMethod === 'EASY_PAY' ? 'EASY_PAY' : 'CARD';
  const error = requestError(model, request, channel, method);
  const nonce = randomBytes(16).toString('base64');
  const csp = checkoutCsp(nonce, origin);
  if (req.method !== 'POST') {
    return sendCheckoutPage(
      res,
      checkoutPage({
        request,
        requestJson,
        origin,
        channelName: channel?.name ?? '',
        method,
        error,
        nonce,
      }),
      csp,
    );
  }
  const response =
    decision === 'approve' && !error && channel
      ? issue(model, request, channel, card)
      : {
          transactionType: 'ISSUE_BILLING_KEY',
          code: error ? 'FAILURE_TYPE_INVALID_REQUEST' : 'FAILURE_TYPE_PG',
          message: error ?? 'The customer cancelled the checkout',
        };
  return sendCheckoutPage(res, resultPage(response, origin, nonce), csp);
}
