// The PortOne V2 fake: the REST API that `@portone/server-sdk` calls, Standard Webhooks signed
// webhooks, a stand-in for the browser SDK's script and its checkout page.
//   /payments/..., /billing-keys/..., /payment-schedules   the API (at the root: the official SDK
//                                     resolves '/payments/...' against the base URL's origin)
//   /portone/browser-sdk.js          the stand-in browser SDK (window.PortOne)
//   /portone/checkout                the LOCAL checkout page it frames (issues a billing key)
//   /portone/_control/...            for tests and developers (README.md)
// What it does as PortOne does: the payment id is the merchant's, so a second payWithBillingKey
// with a paid id answers ALREADY_PAID and charges nothing; schedules run at timeToPay (or at once
// through the control API) and report with webhooks; deleting a billing key revokes its schedules.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeContext, ProviderFake } from '../fake.ts';
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
import {
  browserSdkScript,
  checkoutCsp,
  checkoutPage,
  resultPage,
  type CheckoutRequest,
} from './pages.ts';

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

export interface PortOneChannel {
  key: string;
  name: string;
  pgProvider: string;
  pgMerchantId: string;
  method: 'CARD' | 'EASY_PAY';
}

export interface PortOneFakeOptions {
  storeId: string;
  /** The V2 API secret the server SDK sends (`Authorization: PortOne <secret>`). */
  apiSecret: string;
  /** Standard Webhooks secret (`whsec_<base64>`) the webhooks are signed with. */
  webhookSecret: string;
  /** Where webhooks go unless a request names noticeUrls; '' for nowhere. */
  webhookUrl: string;
  channels: PortOneChannel[];
}

export const PORTONE_DEFAULTS: PortOneFakeOptions = {
  storeId: 'store-00000000-0000-4000-8000-00000000c0de',
  apiSecret: 'local-portone-api-secret',
  webhookSecret: `whsec_${Buffer.from('local-portone-webhook-secret-32b!').toString('base64')}`,
  webhookUrl: '',
  channels: [
    {
      key: 'channel-key-local-kcp-billing',
      name: 'KCP billing (local)',
      pgProvider: 'KCP_V2',
      pgMerchantId: 'LOCALKCP01',
      method: 'CARD',
    },
    {
      key: 'channel-key-local-kakaopay',
      name: 'KakaoPay (local)',
      pgProvider: 'KAKAOPAY',
      pgMerchantId: 'LOCALKAKAO',
      method: 'EASY_PAY',
    },
  ],
};

interface BillingKey {
  billingKey: string;
  status: 'ISSUED' | 'DELETED';
  channel: PortOneChannel;
  customer: JsonObject;
  issueId?: string;
  issueName?: string;
  issuedAt: string;
  deletedAt?: string;
  /** Every charge with this key is declined (the test card 4000 0000 0000 0002). */
  decline: boolean;
}

type Payment = JsonObject & { id: string; status: string };

interface Schedule {
  id: string;
  paymentId: string;
  billingKey: string;
  orderName: string;
  customer: JsonObject;
  customData: string;
  totalAmount: number;
  currency: string;
  noticeUrls?: string[];
  status: 'SCHEDULED' | 'STARTED' | 'SUCCEEDED' | 'FAILED' | 'REVOKED';
  createdAt: string;
  timeToPay: string;
  revokedAt?: string;
  startedAt?: string;
  completedAt?: string;
}

export interface PortOneFake extends ProviderFake {
  options: PortOneFakeOptions;
  /** Runs every schedule due now (the fake's timer does it every few seconds). */
  runDueSchedules(): void;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly extra: JsonObject = {},
  ) {
    super(message);
  }
}

const now = () => new Date().toISOString();

/** Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" with the secret's bytes>. */
export function signStandardWebhook(secret: string, id: string, timestamp: string, body: string) {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export function createPortOneFake(
  ctx: FakeContext<Partial<PortOneFakeOptions> | undefined>,
): PortOneFake {
  const options: PortOneFakeOptions = { ...PORTONE_DEFAULTS, ...ctx.options };
  const billingKeys = new Map<string, BillingKey>();
  const payments = new Map<string, Payment>();
  const schedules = new Map<string, Schedule>();
  const webhooks = new WebhookSender('portone', ctx.log, { retries: 3, delayMs: 500 });
  const channelByKey = (key: unknown) => options.channels.find((c) => c.key === key);

  const sendWebhook = (type: string, data: JsonObject, noticeUrls?: string[]) => {
    const urls = noticeUrls?.length ? noticeUrls : options.webhookUrl ? [options.webhookUrl] : [];
    const body = JSON.stringify({
      type,
      timestamp: now(),
      data: { storeId: options.storeId, ...data },
    });
    for (const url of urls) {
      const id = `msg_${randomBytes(12).toString('hex')}`;
      const timestamp = String(Math.floor(Date.now() / 1000));
      webhooks.send(
        url,
        id,
        {
          'webhook-id': id,
          'webhook-timestamp': timestamp,
          'webhook-signature': signStandardWebhook(options.webhookSecret, id, timestamp, body),
        },
        body,
        { type, ...(data.paymentId ? { paymentId: String(data.paymentId) } : {}) },
      );
    }
  };

  const authorize = (req: IncomingMessage) => {
    if (req.headers.authorization !== `PortOne ${options.apiSecret}`) {
      throw new ApiError(401, 'UNAUTHORIZED', 'The API secret is not valid');
    }
  };
  const checkStore = (storeId: unknown) => {
    if (storeId !== undefined && storeId !== null && storeId !== options.storeId) {
      throw new ApiError(403, 'FORBIDDEN', 'No access to this store');
    }
  };
  const billingKeyView = (k: BillingKey) => ({
    status: k.status,
    billingKey: k.billingKey,
    merchantId: 'merchant-local',
    storeId: options.storeId,
    methods:
      k.channel.method === 'CARD'
        ? [{ type: 'BillingKeyPaymentMethodCard', card: cardOf(k) }]
        : [{ type: 'BillingKeyPaymentMethodEasyPay', provider: 'KAKAOPAY' }],
    channels: [channelView(k.channel)],
    customer: k.customer,
    issueId: k.issueId,
    issueName: k.issueName,
    issuedAt: k.issuedAt,
    ...(k.deletedAt ? { deletedAt: k.deletedAt } : {}),
  });
  const channelView = (c: PortOneChannel) => ({
    type: 'TEST',
    id: `channel-${c.pgMerchantId}`,
    key: c.key,
    name: c.name,
    pgProvider: c.pgProvider,
    pgMerchantId: c.pgMerchantId,
  });
  const cardOf = (k: BillingKey) => ({
    publisher: 'LOCAL',
    issuer: 'LOCAL',
    brand: 'VISA',
    type: 'CREDIT',
    ownerType: 'PERSONAL',
    name: 'Local test card',
    number: k.decline ? '400000******0002' : '424242******4242',
  });

  const issueBillingKey = (
    channel: PortOneChannel,
    customer: JsonObject,
    extra: { issueId?: string; issueName?: string; decline?: boolean },
  ): BillingKey => {
    const key: BillingKey = {
      billingKey: `billing-key-${randomUUID()}`,
      status: 'ISSUED',
      channel,
      customer,
      issueId: extra.issueId,
      issueName: extra.issueName,
      issuedAt: now(),
      decline: extra.decline ?? false,
    };
    billingKeys.set(key.billingKey, key);
    sendWebhook('BillingKey.Issued', { billingKey: key.billingKey });
    return key;
  };

  /** Charges a billing key; the payment is recorded PAID or FAILED either way. */
  const charge = (
    paymentId: string,
    input: {
      billingKey: string;
      orderName: string;
      customer: JsonObject;
      customData?: string;
      total: number;
      currency: string;
      scheduleId?: string;
      noticeUrls?: string[];
    },
  ): Payment => {
    const key = billingKeys.get(input.billingKey)!;
    const at = now();
    const base = {
      id: paymentId,
      transactionId: randomUUID(),
      merchantId: 'merchant-local',
      storeId: options.storeId,
      method:
        key.channel.method === 'CARD'
          ? { type: 'PaymentMethodCard', card: cardOf(key), approvalNumber: '00000000' }
          : { type: 'PaymentMethodEasyPay', provider: 'KAKAOPAY' },
      channel: channelView(key.channel),
      version: 'V2',
      ...(input.scheduleId ? { scheduleId: input.scheduleId } : {}),
      billingKey: key.billingKey,
      requestedAt: at,
      updatedAt: at,
      statusChangedAt: at,
      orderName: input.orderName,
      currency: input.currency,
      customer: input.customer,
      customData: input.customData,
    };
    const amount = (paid: number) => ({
      total: input.total,
      taxFree: 0,
      vat: Math.round(input.total / 11),
      supply: input.total - Math.round(input.total / 11),
      discount: 0,
      paid,
      cancelled: 0,
      cancelledTaxFree: 0,
    });
    let payment: Payment;
    if (key.decline) {
      payment = {
        ...base,
        status: 'FAILED',
        amount: amount(0),
        failedAt: at,
        failure: {
          reason: 'Card declined (local test card)',
          pgCode: '8012',
          pgMessage: 'Declined: local test card 4000 0000 0000 0002',
        },
      };
      payments.set(paymentId, payment);
      sendWebhook(
        'Transaction.Failed',
        { paymentId, transactionId: base.transactionId },
        input.noticeUrls,
      );
    } else {
      payment = {
        ...base,
        status: 'PAID',
        amount: amount(input.total),
        paidAt: at,
        pgTxId: `pg-${randomBytes(8).toString('hex')}`,
        receiptUrl: `${ctx.baseUrl}/portone/receipts/${encodeURIComponent(paymentId)}`,
        disputes: [],
      };
      payments.set(paymentId, payment);
      sendWebhook(
        'Transaction.Paid',
        { paymentId, transactionId: base.transactionId },
        input.noticeUrls,
      );
    }
    return payment;
  };

  /** Checks a billing-key payment input as PortOne's API does; answers what a charge needs. */
  const paymentInput = (body: JsonObject) => {
    checkStore(body.storeId);
    const billingKey = body.billingKey;
    if (typeof billingKey !== 'string')
      throw new ApiError(400, 'INVALID_REQUEST', 'billingKey is required');
    const key = billingKeys.get(billingKey);
    if (!key) throw new ApiError(404, 'BILLING_KEY_NOT_FOUND', 'No such billing key');
    if (key.status === 'DELETED')
      throw new ApiError(409, 'BILLING_KEY_ALREADY_DELETED', 'The billing key was deleted');
    if (typeof body.orderName !== 'string' || body.orderName === '')
      throw new ApiError(400, 'INVALID_REQUEST', 'orderName is required');
    const amount = isObject(body.amount) ? body.amount : {};
    const total = amount.total;
    if (typeof total !== 'number' || !Number.isInteger(total) || total <= 0)
      throw new ApiError(400, 'INVALID_REQUEST', 'amount.total must be a positive integer');
    if (body.currency !== 'KRW' && body.currency !== 'USD')
      throw new ApiError(400, 'INVALID_REQUEST', 'currency must be KRW or USD');
    const noticeUrls = Array.isArray(body.noticeUrls)
      ? body.noticeUrls.filter((u): u is string => typeof u === 'string')
      : undefined;
    return {
      billingKey,
      orderName: body.orderName,
      customer: isObject(body.customer) ? body.customer : {},
      customData: typeof body.customData === 'string' ? body.customData : undefined,
      total,
      currency: body.currency,
      noticeUrls,
    };
  };

  const runSchedule = (s: Schedule) => {
    if (s.status !== 'SCHEDULED') return;
    ctx.changed('/portone');
    s.status = 'STARTED';
    s.startedAt = now();
    const key = billingKeys.get(s.billingKey);
    const existing = payments.get(s.paymentId);
    if (!key || key.status !== 'ISSUED' || existing?.status === 'PAID') {
      s.status = 'FAILED';
      s.completedAt = now();
      return;
    }
    const payment = charge(s.paymentId, {
      billingKey: s.billingKey,
      orderName: s.orderName,
      customer: s.customer,
      customData: s.customData,
      total: s.totalAmount,
      currency: s.currency,
      scheduleId: s.id,
      noticeUrls: s.noticeUrls,
    });
    s.status = payment.status === 'PAID' ? 'SUCCEEDED' : 'FAILED';
    s.completedAt = now();
  };
  const runDueSchedules = () => {
    const t = Date.now();
    for (const s of schedules.values())
      if (s.status === 'SCHEDULED' && Date.parse(s.timeToPay) <= t) runSchedule(s);
  };
  const timer = setInterval(runDueSchedules, 5_000);
  timer.unref?.();

  const scheduleView = (s: Schedule) => ({
    status: s.status,
    id: s.id,
    merchantId: 'merchant-local',
    storeId: options.storeId,
    paymentId: s.paymentId,
    billingKey: s.billingKey,
    orderName: s.orderName,
    isCulturalExpense: false,
    isEscrow: false,
    customer: s.customer,
    customData: s.customData,
    totalAmount: s.totalAmount,
    currency: s.currency,
    createdAt: s.createdAt,
    timeToPay: s.timeToPay,
    ...(s.startedAt ? { startedAt: s.startedAt } : {}),
    ...(s.completedAt ? { completedAt: s.completedAt } : {}),
    ...(s.revokedAt ? { revokedAt: s.revokedAt } : {}),
  });

  const revoke = (list: Schedule[]) => {
    const at = now();
    for (const s of list) {
      s.status = 'REVOKED';
      s.revokedAt = at;
    }
    return { revokedScheduleIds: list.map((s) => s.id), revokedAt: at };
  };

  /** The REST API (paths from the root). */
  const api = async (req: IncomingMessage, res: ServerResponse, path: string, url: URL) => {
    authorize(req);
    const method = req.method ?? 'GET';
    let m: RegExpExecArray | null;

    if ((m = /^\/billing-keys\/([^/]+)$/.exec(path))) {
      const key = billingKeys.get(decodeURIComponent(m[1]!));
      checkStore(url.searchParams.get('storeId') ?? undefined);
      if (!key) throw new ApiError(404, 'BILLING_KEY_NOT_FOUND', 'No such billing key');
      if (method === 'GET') return sendJson(res, 200, billingKeyView(key));
      if (method === 'DELETE') {
        if (key.status === 'DELETED')
          throw new ApiError(409, 'BILLING_KEY_ALREADY_DELETED', 'The billing key was deleted');
        key.status = 'DELETED';
        key.deletedAt = now();
        revoke(
          [...schedules.values()].filter(
            (s) => s.billingKey === key.billingKey && s.status === 'SCHEDULED',
          ),
        );
        sendWebhook('BillingKey.Deleted', { billingKey: key.billingKey });
        return sendJson(res, 200, { deletedAt: key.deletedAt });
      }
    }

    if ((m = /^\/payments\/([^/]+)\/billing-key$/.exec(path)) && method === 'POST') {
      const paymentId = decodeURIComponent(m[1]!);
      const input = paymentInput(await readJson(req));
      const existing = payments.get(paymentId);
      if (existing && existing.status !== 'FAILED')
        throw new ApiError(409, 'ALREADY_PAID', 'This payment id was paid already');
      const payment = charge(paymentId, input);
      if (payment.status !== 'PAID') {
        const failure = payment.failure as JsonObject;
        throw new ApiError(502, 'PG_PROVIDER', String(failure.reason), {
          pgCode: failure.pgCode,
          pgMessage: failure.pgMessage,
        });
      }
      return sendJson(res, 200, { payment: { pgTxId: payment.pgTxId, paidAt: payment.paidAt } });
    }

    if ((m = /^\/payments\/([^/]+)\/cancel$/.exec(path)) && method === 'POST') {
      const body = await readJson(req);
      checkStore(body.storeId);
      const payment = payments.get(decodeURIComponent(m[1]!));
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
      sendWebhook('Transaction.Cancelled', {
        paymentId: payment.id,
        transactionId: payment.transactionId as string,
        cancellationId: cancellation.id,
      });
      return sendJson(res, 200, { cancellation });
    }

    if ((m = /^\/payments\/([^/]+)\/schedule$/.exec(path)) && method === 'POST') {
      const paymentId = decodeURIComponent(m[1]!);
      const body = await readJson(req);
      const input = paymentInput(isObject(body.payment) ? body.payment : {});
      const timeToPay = body.timeToPay;
      if (typeof timeToPay !== 'string' || Number.isNaN(Date.parse(timeToPay)))
        throw new ApiError(400, 'INVALID_REQUEST', 'timeToPay must be a date-time');
      if (payments.get(paymentId)?.status === 'PAID')
        throw new ApiError(409, 'ALREADY_PAID_OR_WAITING', 'This payment id was paid already');
      if ([...schedules.values()].some((s) => s.paymentId === paymentId && s.status !== 'REVOKED'))
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
      schedules.set(schedule.id, schedule);
      return sendJson(res, 200, { schedule: { id: schedule.id } });
    }

    if ((m = /^\/payments\/([^/]+)$/.exec(path)) && method === 'GET') {
      checkStore(url.searchParams.get('storeId') ?? undefined);
      const payment = payments.get(decodeURIComponent(m[1]!));
      if (!payment) throw new ApiError(404, 'PAYMENT_NOT_FOUND', 'No such payment');
      return sendJson(res, 200, payment);
    }

    if ((m = /^\/payment-schedules\/([^/]+)$/.exec(path)) && method === 'GET') {
      const schedule = schedules.get(decodeURIComponent(m[1]!));
      if (!schedule) throw new ApiError(404, 'PAYMENT_SCHEDULE_NOT_FOUND', 'No such schedule');
      return sendJson(res, 200, scheduleView(schedule));
    }

    if (path === '/payment-schedules' && method === 'DELETE') {
      let body: JsonObject = {};
      try {
        body = JSON.parse(url.searchParams.get('requestBody') ?? '{}') as JsonObject;
      } catch {
        throw new ApiError(400, 'INVALID_REQUEST', 'requestBody is not JSON');
      }
      checkStore(body.storeId);
      let list: Schedule[];
      if (Array.isArray(body.scheduleIds) && body.scheduleIds.length > 0) {
        list = body.scheduleIds.map((id) => {
          const s = schedules.get(String(id));
          if (!s)
            throw new ApiError(404, 'PAYMENT_SCHEDULE_NOT_FOUND', `No such schedule ${String(id)}`);
          if (s.status === 'REVOKED')
            throw new ApiError(409, 'PAYMENT_SCHEDULE_ALREADY_REVOKED', 'Already revoked');
          if (s.status !== 'SCHEDULED')
            throw new ApiError(409, 'PAYMENT_SCHEDULE_ALREADY_PROCESSED', 'Already processed');
          return s;
        });
      } else if (typeof body.billingKey === 'string') {
        const key = billingKeys.get(body.billingKey);
        if (!key) throw new ApiError(404, 'BILLING_KEY_NOT_FOUND', 'No such billing key');
        list = [...schedules.values()].filter(
          (s) => s.billingKey === key.billingKey && s.status === 'SCHEDULED',
        );
      } else {
        throw new ApiError(400, 'INVALID_REQUEST', 'billingKey or scheduleIds is required');
      }
      return sendJson(res, 200, revoke(list));
    }

    throw new ApiError(404, 'NOT_FOUND', `No route for ${method} ${path}`);
  };

  /** The checkout page the stand-in SDK frames. */
  const checkout = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    let requestJson: string;
    let origin: string;
    let decision = '';
    let card = 'ok';
    if (req.method === 'POST') {
      const form = new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
      requestJson = form.get('request') ?? '{}';
      origin = form.get('origin') ?? '';
      decision = form.get('decision') ?? '';
      card = form.get('card') ?? 'ok';
    } else {
      requestJson = url.searchParams.get('request') ?? '{}';
      origin = url.searchParams.get('origin') ?? '';
    }
    if (!/^https?:\/\/[a-z0-9.-]+(:\d+)?$/i.test(origin))
      throw new HttpError(400, 'origin must be the opening page origin');
    let request: CheckoutRequest = {};
    try {
      const parsed = JSON.parse(requestJson) as unknown;
      if (isObject(parsed)) request = parsed as CheckoutRequest;
    } catch {
      // shown as an error below
    }
    const channel = channelByKey(request.channelKey);
    const method = request.billingKeyMethod === 'EASY_PAY' ? 'EASY_PAY' : 'CARD';
    const error =
      request.storeId !== options.storeId
        ? 'Unknown storeId'
        : !channel
          ? 'Unknown channelKey'
          : request.billingKeyMethod !== 'CARD' && request.billingKeyMethod !== 'EASY_PAY'
            ? 'billingKeyMethod must be CARD or EASY_PAY'
            : channel.method !== method
              ? `The channel ${channel.name} does not take ${method}`
              : typeof request.issueName !== 'string' || request.issueName === ''
                ? 'issueName is required'
                : undefined;
    const nonce = randomBytes(16).toString('base64');
    const csp = checkoutCsp(nonce, origin);
    if (req.method !== 'POST') {
      return sendCheckoutPage(
        res,
        200,
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
    let response: Record<string, unknown>;
    if (decision === 'approve' && !error && channel) {
      const c = request.customer ?? {};
      const key = issueBillingKey(
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
      response = { transactionType: 'ISSUE_BILLING_KEY', billingKey: key.billingKey };
    } else {
      response = {
        transactionType: 'ISSUE_BILLING_KEY',
        code: error ? 'FAILURE_TYPE_INVALID_REQUEST' : 'FAILURE_TYPE_PG',
        message: error ?? 'The customer cancelled the checkout',
      };
    }
    return sendCheckoutPage(res, 200, resultPage(response, origin, nonce), csp);
  };

  const control = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const method = req.method ?? 'GET';
    if (path === '/state' && method === 'GET') {
      return sendJson(res, 200, {
        storeId: options.storeId,
        webhookUrl: options.webhookUrl,
        billingKeys: [...billingKeys.values()].map(billingKeyView),
        payments: [...payments.values()],
        schedules: [...schedules.values()].map(scheduleView),
        webhooks: webhooks.log,
      });
    }
    if (path === '/billing-keys' && method === 'POST') {
      const body = await readJson(req);
      const channel = channelByKey(body.channelKey ?? options.channels[0]!.key);
      if (!channel) throw new HttpError(400, 'Unknown channelKey');
      const key = issueBillingKey(
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
      return sendJson(res, 200, billingKeyView(key));
    }
    if (path === '/schedules/run' && method === 'POST') {
      const body = await readJson(req);
      const due = [...schedules.values()].filter(
        (s) =>
          s.status === 'SCHEDULED' &&
          (body.billingKey === undefined || s.billingKey === body.billingKey) &&
          (body.paymentId === undefined || s.paymentId === body.paymentId),
      );
      for (const s of due) runSchedule(s);
      return sendJson(res, 200, { ran: due.map(scheduleView) });
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
  };

  return {
    prefix: '/portone',
    rootPaths: ['/payments', '/billing-keys', '/payment-schedules'],
    title: 'PortOne V2 (fake)',
    options,
    runDueSchedules,
    async handle(req, res, path, url) {
      try {
        if (
          path.startsWith('/payments') ||
          path.startsWith('/billing-keys') ||
          path.startsWith('/payment-schedules')
        ) {
          return await api(req, res, path, url);
        }
      } catch (err) {
        if (err instanceof ApiError)
          return sendJson(res, err.status, { type: err.type, message: err.message, ...err.extra });
        if (err instanceof HttpError)
          return sendJson(res, err.status, { type: 'INVALID_REQUEST', message: err.message });
        throw err;
      }
      if (path === '/browser-sdk.js' && req.method === 'GET') {
        return sendText(res, 200, browserSdkScript(ctx.baseUrl), 'text/javascript; charset=utf-8');
      }
      if (path === '/checkout') return checkout(req, res, url);
      if (path.startsWith('/_control')) return control(req, res, path.slice('/_control'.length));
      throw new HttpError(404, 'Not found');
    },
    section() {
      const e = escapeHtml;
      const rows = [...payments.values()]
        .slice(-50)
        .reverse()
        .map((p) => {
          const amount = p.amount as JsonObject;
          return `<tr><td class="wrap">${e(p.id)}</td><td>${e(String(p.orderName ?? ''))}</td><td>${e(String(amount.total))} ${e(String(p.currency))}</td><td class="${p.status === 'PAID' ? 'ok' : 'bad'}">${e(p.status)}</td><td>${e(String(p.paidAt ?? p.failedAt ?? ''))}</td></tr>`;
        })
        .join('');
      const scheduled = [...schedules.values()].filter((s) => s.status === 'SCHEDULED').length;
      return `<p class="muted">Store ${e(options.storeId)}. API at the root (<code>/payments</code>, <code>/billing-keys</code>, <code>/payment-schedules</code>), browser SDK stand-in at <code>/portone/browser-sdk.js</code>. ${billingKeys.size} billing keys, ${scheduled} scheduled charges, ${webhooks.log.length} webhooks sent.</p>
<table><thead><tr><th>Payment id</th><th>Order</th><th>Amount</th><th>Status</th><th>At</th></tr></thead><tbody>${rows || '<tr><td colspan="5" class="muted">No payments yet.</td></tr>'}</tbody></table>`;
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
    reset() {
      billingKeys.clear();
      payments.clear();
      schedules.clear();
      webhooks.clear();
    },
    close() {
      clearInterval(timer);
      webhooks.close();
    },
  };
}
