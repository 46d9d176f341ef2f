// The PortOne fake's state: billing keys, payments and scheduled charges, what changes them
// (issue a key, charge it, run a schedule, revoke), PortOne's views of them and the Standard
// Webhooks each change sends.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Log } from '../../process.ts';
import { isObject, type JsonObject } from '../http.ts';
import { WebhookSender } from '../webhooks.ts';

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

export interface BillingKey {
  billingKey: string;
  status: 'ISSUED' | 'DELETED';
  channel: PortOneChannel;
  customer: JsonObject;
  issueId?: string;
  issueName?: string;
  issuedAt: string;
  deletedAt?: string;
  /** DELETE requests made for it (the control state shows them: what a Stop costs). */
  deleteRequests?: number;
  /** Every charge with this key is declined (the test card 4000 0000 0000 0002). */
  decline: boolean;
  /** The API answers 503 when asked about this key's payments (PortOne down, for tests). */
  unanswered?: boolean;
  /**
   * Tests of the moment a revoke meets a schedule (once): the next revoke of the key's schedules
   * runs them first, as PortOne may between a read and the revoke (`runOnRevoke`); or it waits
   * for a schedule to be asked for, which is made just after it (`lateSchedules`).
   */
  runOnRevoke?: boolean;
  lateSchedules?: boolean;
  /** The next schedule of this key is made, and its answer lost (503): the caller tries again. */
  scheduleAnswerLost?: boolean;
  /**
   * Its charges stay PAY_PENDING (under way at the card company), with no webhook, until the control
   * API completes them: PAID, with Transaction.Paid.
   */
  pendingPayments?: boolean;
}

/** How long a `lateSchedules` revoke or schedule waits for the other before going on alone. */
const LATE_WAIT_MS = 15_000;

/** A promise and what settles it. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Waits for `promise`, at most `ms`: whether it settled in time. */
const within = (promise: Promise<void>, ms: number) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });

export type Payment = JsonObject & { id: string; status: string };

export interface Schedule {
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

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly extra: JsonObject = {},
  ) {
    super(message);
  }
}

export const now = () => new Date().toISOString();

/** Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" with the secret's bytes>. */
export function signStandardWebhook(secret: string, id: string, timestamp: string, body: string) {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** What a charge of a billing key needs (checked by `paymentInput`, or a schedule's record). */
export interface ChargeInput {
  billingKey: string;
  orderName: string;
  customer: JsonObject;
  customData?: string;
  total: number;
  currency: string;
  scheduleId?: string;
  noticeUrls?: string[];
  /** No webhook reports it (one lost on its way, for tests). */
  silent?: boolean;
}

const billingKeyNotFound = () => new ApiError(404, 'BILLING_KEY_NOT_FOUND', 'No such billing key');
const invalid = (message: string) => new ApiError(400, 'INVALID_REQUEST', message);

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

/** A payment's amount as PortOne shows it (VAT one eleventh of the total). */
const amountOf = (total: number, paid: number) => ({
  total,
  taxFree: 0,
  vat: Math.round(total / 11),
  supply: total - Math.round(total / 11),
  discount: 0,
  paid,
  cancelled: 0,
  cancelledTaxFree: 0,
});

/** The fake's state and what changes it; the routes (rest.ts, checkout.ts, control.ts) call it. */
export class PortOneModel {
  readonly billingKeys = new Map<string, BillingKey>();
  readonly payments = new Map<string, Payment>();
  readonly schedules = new Map<string, Schedule>();
  readonly webhooks: WebhookSender;
  /** A `lateSchedules` key's meeting of a revoke and a schedule request. */
  private readonly late = new Map<
    string,
    { asked: ReturnType<typeof deferred>; revoked: ReturnType<typeof deferred> }
  >();

  constructor(
    readonly options: PortOneFakeOptions,
    private readonly baseUrl: string,
    log: Log,
    /** Marks the kept state changed (a schedule run by the timer, not by a request). */
    private readonly changed: () => void,
  ) {
    this.webhooks = new WebhookSender('portone', log, { retries: 3, delayMs: 500 });
  }

  reset(): void {
    this.billingKeys.clear();
    this.payments.clear();
    this.schedules.clear();
    this.webhooks.clear();
  }

  channelByKey(key: unknown): PortOneChannel | undefined {
    return this.options.channels.find((c) => c.key === key);
  }

  /** Sends a Standard Webhooks event to the request's noticeUrls, else to the webhook URL. */
  sendWebhook(type: string, data: JsonObject, noticeUrls?: string[]): void {
    const { options } = this;
    const urls = noticeUrls?.length ? noticeUrls : options.webhookUrl ? [options.webhookUrl] : [];
    const body = JSON.stringify({
      type,
      timestamp: now(),
      data: { storeId: options.storeId, ...data },
    });
    for (const url of urls) {
      const id = `msg_${randomBytes(12).toString('hex')}`;
      const timestamp = String(Math.floor(Date.now() / 1000));
      this.webhooks.send(
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
  }

  authorize(req: IncomingMessage): void {
    if (req.headers.authorization !== `PortOne ${this.options.apiSecret}`) {
      throw new ApiError(401, 'UNAUTHORIZED', 'The API secret is not valid');
    }
  }

  checkStore(storeId: unknown): void {
    if (storeId !== undefined && storeId !== null && storeId !== this.options.storeId) {
      throw new ApiError(403, 'FORBIDDEN', 'No access to this store');
    }
  }

  /** A live billing key, or PortOne's error for an unknown or deleted one. */
  issuedKey(billingKey: string): BillingKey {
    const key = this.billingKeys.get(billingKey);
    if (!key) throw billingKeyNotFound();
    if (key.status === 'DELETED')
      throw new ApiError(409, 'BILLING_KEY_ALREADY_DELETED', 'The billing key was deleted');
    return key;
  }

  billingKeyView(k: BillingKey) {
    return {
      status: k.status,
      billingKey: k.billingKey,
      merchantId: 'merchant-local',
      storeId: this.options.storeId,
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
    };
  }

  scheduleView(s: Schedule) {
    return {
      status: s.status,
      id: s.id,
      merchantId: 'merchant-local',
      storeId: this.options.storeId,
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
    };
  }

  issueBillingKey(
    channel: PortOneChannel,
    customer: JsonObject,
    extra: { issueId?: string; issueName?: string; decline?: boolean },
  ): BillingKey {
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
    this.billingKeys.set(key.billingKey, key);
    this.sendWebhook('BillingKey.Issued', { billingKey: key.billingKey });
    return key;
  }

  /**
   * Deletes a billing key. PortOne refuses while a schedule of it waits
   * (PAYMENT_SCHEDULE_ALREADY_EXISTS, in its API's errors for the delete): revoke them first.
   */
  deleteBillingKey(key: BillingKey): void {
    if (
      [...this.schedules.values()].some(
        (s) => s.billingKey === key.billingKey && s.status === 'SCHEDULED',
      )
    )
      throw new ApiError(409, 'PAYMENT_SCHEDULE_ALREADY_EXISTS', 'The key has a waiting schedule');
    key.status = 'DELETED';
    key.deletedAt = now();
    this.sendWebhook('BillingKey.Deleted', { billingKey: key.billingKey });
  }

  /** Charges a billing key; the payment is recorded PAID or FAILED either way. */
  charge(paymentId: string, input: ChargeInput): Payment {
    const key = this.billingKeys.get(input.billingKey)!;
    const at = now();
    const base = {
      id: paymentId,
      transactionId: randomUUID(),
      merchantId: 'merchant-local',
      storeId: this.options.storeId,
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
    const payment: Payment =
      key.pendingPayments && !key.decline
        ? { ...base, status: 'PAY_PENDING', amount: amountOf(input.total, 0) }
        : key.decline
          ? {
              ...base,
              status: 'FAILED',
              amount: amountOf(input.total, 0),
              failedAt: at,
              failure: {
                reason: 'Card declined (local test card)',
                pgCode: '8012',
                pgMessage: 'Declined: local test card 4000 0000 0000 0002',
              },
            }
          : {
              ...base,
              status: 'PAID',
              amount: amountOf(input.total, input.total),
              paidAt: at,
              pgTxId: `pg-${randomBytes(8).toString('hex')}`,
              receiptUrl: `${this.baseUrl}/portone/receipts/${encodeURIComponent(paymentId)}`,
              disputes: [],
            };
    this.payments.set(paymentId, payment);
    if (input.silent || payment.status === 'PAY_PENDING') return payment;
    this.sendWebhook(
      key.decline ? 'Transaction.Failed' : 'Transaction.Paid',
      { paymentId, transactionId: base.transactionId },
      input.noticeUrls,
    );
    return payment;
  }

  /** A payment under way (pendingPayments) completes: PAID, and its webhook unless `silent`. */
  completePayment(paymentId: string, silent = false): Payment {
    const payment = this.payments.get(paymentId);
    if (payment?.status !== 'PAY_PENDING')
      throw new ApiError(409, 'INVALID_REQUEST', 'Not under way');
    const at = now();
    const total = (payment.amount as { total: number }).total;
    Object.assign(payment, {
      status: 'PAID',
      amount: amountOf(total, total),
      paidAt: at,
      updatedAt: at,
      statusChangedAt: at,
      pgTxId: `pg-${randomBytes(8).toString('hex')}`,
      receiptUrl: `${this.baseUrl}/portone/receipts/${encodeURIComponent(paymentId)}`,
      disputes: [],
    });
    for (const s of this.schedules.values())
      if (s.paymentId === paymentId && s.status === 'STARTED') {
        s.status = 'SUCCEEDED';
        s.completedAt = at;
      }
    this.changed();
    if (!silent)
      this.sendWebhook('Transaction.Paid', {
        paymentId,
        transactionId: String(payment.transactionId),
      });
    return payment;
  }

  /** Checks a billing-key payment input as PortOne's API does; answers what a charge needs. */
  paymentInput(body: JsonObject): ChargeInput {
    this.checkStore(body.storeId);
    const billingKey = body.billingKey;
    if (typeof billingKey !== 'string') throw invalid('billingKey is required');
    this.issuedKey(billingKey);
    if (typeof body.orderName !== 'string' || body.orderName === '')
      throw invalid('orderName is required');
    const amount = isObject(body.amount) ? body.amount : {};
    const total = amount.total;
    if (typeof total !== 'number' || !Number.isInteger(total) || total <= 0)
      throw invalid('amount.total must be a positive integer');
    if (body.currency !== 'KRW' && body.currency !== 'USD')
      throw invalid('currency must be KRW or USD');
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
  }

  /** Runs a scheduled charge; `webhook: false` charges without reporting it (a lost webhook). */
  runSchedule(s: Schedule, { webhook = true }: { webhook?: boolean } = {}): void {
    if (s.status !== 'SCHEDULED') return;
    this.changed();
    s.status = 'STARTED';
    s.startedAt = now();
    const key = this.billingKeys.get(s.billingKey);
    const existing = this.payments.get(s.paymentId);
    if (!key || key.status !== 'ISSUED' || existing?.status === 'PAID') {
      s.status = 'FAILED';
      s.completedAt = now();
      return;
    }
    const payment = this.charge(s.paymentId, {
      billingKey: s.billingKey,
      orderName: s.orderName,
      customer: s.customer,
      customData: s.customData,
      total: s.totalAmount,
      currency: s.currency,
      scheduleId: s.id,
      noticeUrls: s.noticeUrls,
      silent: !webhook,
    });
    // one under way stays STARTED until it completes (completePayment)
    if (payment.status === 'PAY_PENDING') return;
    s.status = payment.status === 'PAID' ? 'SUCCEEDED' : 'FAILED';
    s.completedAt = now();
  }

  /** Runs every schedule due now (the fake's timer does it every few seconds). */
  runDueSchedules(): void {
    const t = Date.now();
    for (const s of this.schedules.values())
      if (s.status === 'SCHEDULED' && Date.parse(s.timeToPay) <= t) this.runSchedule(s);
  }

  /** Whether a payment id's billing key (its payment's, else its schedule's) does not answer. */
  unanswered(paymentId: string): boolean {
    const key =
      this.payments.get(paymentId)?.billingKey ??
      [...this.schedules.values()].find((s) => s.paymentId === paymentId)?.billingKey;
    return typeof key === 'string' && this.billingKeys.get(key)?.unanswered === true;
  }

  private lateOf(billingKey: string) {
    let gate = this.late.get(billingKey);
    if (!gate) this.late.set(billingKey, (gate = { asked: deferred(), revoked: deferred() }));
    return gate;
  }

  /** Before a schedule of the key is made: a `lateSchedules` one waits for the revoke. */
  async beforeSchedule(billingKey: string): Promise<void> {
    if (!this.billingKeys.get(billingKey)?.lateSchedules) return;
    const gate = this.lateOf(billingKey);
    gate.asked.resolve();
    await within(gate.revoked.promise, LATE_WAIT_MS);
  }

  /**
   * Revokes the key's waiting schedules, after the test hooks: `runOnRevoke` runs them first
   * (without their webhook, on its way); `lateSchedules` waits for a schedule to be asked for and
   * lets it be made just after.
   */
  async revokeOfKey(key: BillingKey) {
    const waiting = () =>
      [...this.schedules.values()].filter(
        (s) => s.billingKey === key.billingKey && s.status === 'SCHEDULED',
      );
    if (key.runOnRevoke) {
      key.runOnRevoke = false;
      for (const s of waiting()) this.runSchedule(s, { webhook: false });
    }
    if (!key.lateSchedules) return this.revoke(waiting());
    const gate = this.lateOf(key.billingKey);
    const met = await within(gate.asked.promise, LATE_WAIT_MS);
    const revoked = this.revoke(waiting());
    key.lateSchedules = false;
    this.late.delete(key.billingKey);
    gate.revoked.resolve();
    // a test whose meeting never happened must not pass as if it had
    if (!met) throw new ApiError(500, 'INTERNAL', 'lateSchedules: no schedule was asked for');
    return revoked;
  }

  revoke(list: Schedule[]) {
    const at = now();
    for (const s of list) {
      s.status = 'REVOKED';
      s.revokedAt = at;
    }
    return { revokedScheduleIds: list.map((s) => s.id), revokedAt: at };
  }
}
