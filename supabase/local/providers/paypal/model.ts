// The PayPal fake's state: subscriptions on the one plan with their payments, access tokens,
// refunds, and what happens to a subscription (created, activated, billed) with the signed
// webhooks each step sends.
import { createHash, randomBytes, randomUUID, sign } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { crc32 } from 'node:zlib';
import type { Log } from '../../process.ts';
import { HttpError, isObject, type JsonObject } from '../http.ts';
import { ApiError, notFound, unprocessable } from './errors.ts';
import { makeSigningIdentity, type SigningIdentity } from '../ses/x509.ts';
import { WebhookSender } from '../webhooks.ts';

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

/** A payment of a subscription: a sale PayPal captured (or will: PENDING), later refunded. */
export interface Transaction {
  /** The capture's id, which the Payments v2 refund takes. */
  id: string;
  status: 'COMPLETED' | 'PENDING' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
  value: string;
  time: string;
  /** What completed refunds gave back of it (a part: PARTIALLY_REFUNDED). */
  refunded?: string;
}

/**
 * A refund's status as Payments v2 answers it: COMPLETED, or PENDING (it completes later: an
 * e-check), FAILED or CANCELLED (the money did not go back).
 */
export type RefundStatus = 'COMPLETED' | 'PENDING' | 'FAILED' | 'CANCELLED';

/** A refund made, as the Payments v2 refund answered it. */
export interface Refund {
  id: string;
  status: RefundStatus;
  capture_id: string;
  subscription_id: string;
  request_id: string | null;
  value: string;
  time: string;
}

export type OutageKind = 'refund' | 'transactions';

export interface Subscription {
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
  /** The last failed payment and when PayPal retries it (billing_info.last_failed_payment). */
  last_failed_payment?: {
    amount: { currency_code: string; value: string };
    time: string;
    reason_code: string;
    next_payment_retry_time: string;
  };
  /** Every renewal payment fails (control API). */
  fail: boolean;
  /**
   * The outstanding balance: a cycle's amount PayPal failed to take after its retries, billed with
   * the next cycle (the plan's auto_bill_outstanding, true by default) and then 0 (control API).
   */
  outstanding?: string;
  /** Payments are captured later: PENDING until the control API completes them (an e-check). */
  pending_payments?: boolean;
  /** The payments, oldest first (absent in state saved before they were kept). */
  transactions?: Transaction[];
  /** A revision waiting for the buyer's approval. */
  pending_revision?: { plan_id: string; quantity: string; token: string };
  status_change_note?: string;
}

/** A quantity PayPal takes: 1 to 999999 units. */
export const validQuantity = (quantity: string) => /^[1-9][0-9]{0,5}$/.test(quantity);

export const now = () => new Date().toISOString();

/** The longest a held cancel waits for its release (only bounds a test that never releases it). */
const CANCEL_HOLD_MS = 60_000;
export const addMonth = (iso: string) => {
  const d = new Date(iso);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString();
};

/** The fake's state and what changes it; the routes (rest.ts, checkout.ts, control.ts) call it. */
export class PayPalModel {
  readonly tokens = new Map<string, number>();
  readonly subscriptions = new Map<string, Subscription>();
  /** Refunds made, oldest first, and each by its PayPal-Request-Id (a repeat answers the same). */
  readonly refunds: Refund[] = [];
  readonly refundsByRequest = new Map<string, Refund>();
  /**
   * How many of the next calls of each kind answer 503 (control API: PayPal down), for one
   * subscription's payments (by its id) or for any ('').
   */
  readonly outages = new Map<string, Record<OutageKind, number>>();
  /**
   * How PayPal answers the refund of a payment (control API: refund-answer), by its capture id or
   * its subscription's id; COMPLETED when neither is set.
   */
  readonly refundAnswers = new Map<string, RefundStatus>();
  /**
   * Cancels held (control API: hold-cancel), by subscription: its next cancel request waits until
   * released (at most CANCEL_HOLD_MS), as a cancel slow to reach PayPal, so a test can make a
   * call happen between a job's look at the subscription and its cancel. `waiting` once it waits.
   */
  readonly cancelHolds = new Map<
    string,
    { waiting: boolean; release: () => void; released: Promise<void> }
  >();
  readonly webhooks: WebhookSender;
  /** The fake's own origin and prefix, for the links it hands out. */
  readonly api: string;
  readonly certName: string;
  readonly certUrl: string;

  private constructor(
    readonly options: PayPalFakeOptions,
    readonly identity: SigningIdentity,
    baseUrl: string,
    log: Log,
  ) {
    this.webhooks = new WebhookSender('paypal', log, { retries: 3, delayMs: 500 });
    this.api = `${baseUrl}/paypal`;
    this.certName = `CERT-${createHash('sha256').update(identity.certDer).digest('hex').slice(0, 16)}`;
    this.certUrl = `${baseUrl}/paypal/certs/${this.certName}.pem`;
    this.seed();
  }

  static async create(options: PayPalFakeOptions, baseUrl: string, log: Log): Promise<PayPalModel> {
    const identity = await makeSigningIdentity({
      commonName: 'messageverificationcerts.paypal.local',
      organization: 'PayPal (local fake)',
    });
    return new PayPalModel(options, identity, baseUrl, log);
  }

  /** The seeded subscriptions, active and paid once. */
  seed(): void {
    for (const s of this.options.seeded) {
      const t = now();
      this.subscriptions.set(s.id, {
        id: s.id,
        plan_id: this.options.planId,
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
        transactions: [{ id: saleId(), status: 'COMPLETED', value: `${s.quantity}.00`, time: t }],
        next_billing_time: addMonth(t),
        failed_payments_count: 0,
        fail: false,
      });
    }
  }

  reset(): void {
    this.subscriptions.clear();
    this.tokens.clear();
    this.refunds.length = 0;
    this.refundsByRequest.clear();
    this.outages.clear();
    this.refundAnswers.clear();
    for (const hold of this.cancelHolds.values()) hold.release();
    this.cancelHolds.clear();
    this.webhooks.clear();
    this.seed();
  }

  links(s: Subscription) {
    const api = this.api;
    return [
      ...(s.status === 'APPROVAL_PENDING'
        ? [{ href: `${api}/checkout/approve?token=${s.id}`, rel: 'approve', method: 'GET' }]
        : []),
      { href: `${api}/v1/billing/subscriptions/${s.id}`, rel: 'edit', method: 'PATCH' },
      { href: `${api}/v1/billing/subscriptions/${s.id}`, rel: 'self', method: 'GET' },
    ];
  }

  /** A subscription as PayPal's GET answers it. */
  view(s: Subscription) {
    return {
      id: s.id,
      plan_id: s.plan_id,
      start_time: s.start_time,
      quantity: s.quantity,
      shipping_amount: { currency_code: 'USD', value: '0.0' },
      subscriber: s.subscriber,
      billing_info: {
        outstanding_balance: { currency_code: 'USD', value: s.outstanding ?? '0.0' },
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
        ...(s.last_failed_payment ? { last_failed_payment: s.last_failed_payment } : {}),
      },
      create_time: s.create_time,
      update_time: s.update_time,
      ...(s.custom_id ? { custom_id: s.custom_id } : {}),
      plan_overridden: false,
      status: s.status,
      status_update_time: s.status_update_time,
      ...(s.status_change_note ? { status_change_note: s.status_change_note } : {}),
      links: this.links(s),
    };
  }

  /** Sends a webhook signed as PayPal signs them (nowhere when no webhook URL is set). */
  sendWebhook(
    eventType: string,
    resourceType: string,
    resource: JsonObject,
    summary: string,
  ): void {
    const { options, identity } = this;
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
    this.webhooks.send(
      options.webhookUrl,
      transmissionId,
      {
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': this.certUrl,
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
  }

  subscriptionEvent(s: Subscription, type: string, summary: string): void {
    this.sendWebhook(type, 'subscription', this.view(s) as unknown as JsonObject, summary);
  }

  /**
   * A billing cycle: a payment (or a failed one) and the next billing time. A payment captured
   * later (pending_payments) is PENDING, without last_payment or webhook until completePayment.
   */
  bill(s: Subscription): void {
    const t = now();
    if (s.fail) {
      s.failed_payments_count++;
      // PayPal tries a failed payment again a few days later (its subscriptions' retry)
      s.last_failed_payment = {
        amount: { currency_code: 'USD', value: `${Number(s.quantity)}.00` },
        time: t,
        reason_code: 'PAYMENT_DENIED',
        next_payment_retry_time: new Date(Date.parse(t) + 5 * 86_400_000).toISOString(),
      };
      s.update_time = t;
      this.subscriptionEvent(
        s,
        'BILLING.SUBSCRIPTION.PAYMENT.FAILED',
        'Subscription payment failed',
      );
      return;
    }
    // the cycle's amount and the outstanding balance, in one payment (auto_bill_outstanding)
    const value = (Number(s.quantity) + Number(s.outstanding ?? 0)).toFixed(2);
    s.outstanding = undefined;
    const payment: Transaction = {
      id: saleId(),
      status: s.pending_payments ? 'PENDING' : 'COMPLETED',
      value,
      time: t,
    };
    (s.transactions ??= []).push(payment);
    // PayPal counts consecutive failures: a payment made sets the count back to 0
    s.failed_payments_count = 0;
    s.cycles_completed++;
    s.next_billing_time = addMonth(
      s.next_billing_time && s.cycles_completed > 1 ? s.next_billing_time : t,
    );
    s.update_time = t;
    // captured as it is billed: one time for the listed payment and the last payment (a second
    // now() differed by a millisecond now and then, and the refund of a payment after a plan's
    // end, which looks for it from its time on, missed it)
    if (payment.status === 'COMPLETED') this.paid(s, payment, t);
  }

  /**
   * The outstanding balance collected on its own, as PayPal's capture of a subscription's
   * outstanding balance (POST /v1/billing/subscriptions/{id}/capture, capture_type
   * OUTSTANDING_BALANCE) takes it: one payment of it, with its webhook; the billing cycle and the
   * next billing time stay where they were (control API).
   */
  collectOutstanding(s: Subscription): Transaction {
    if (!s.outstanding) throw new HttpError(409, 'Nothing is outstanding');
    const t = now();
    const payment: Transaction = {
      id: saleId(),
      status: 'COMPLETED',
      value: s.outstanding,
      time: t,
    };
    s.outstanding = undefined;
    (s.transactions ??= []).push(payment);
    s.failed_payments_count = 0;
    s.update_time = t;
    this.paid(s, payment, t);
    return payment;
  }

  /** A PENDING payment captured (control API): paid, with its webhook. */
  completePayment(captureId: string): Transaction {
    const { subscription, payment } = this.payment(captureId);
    if (payment.status !== 'PENDING') throw new HttpError(409, 'The payment is not pending');
    payment.status = 'COMPLETED';
    this.paid(subscription, payment);
    return payment;
  }

  /** A payment captured: the subscription's last payment, and PAYMENT.SALE.COMPLETED. */
  private paid(s: Subscription, payment: Transaction, t = now()): void {
    const value = payment.value;
    s.last_payment = { amount: { currency_code: 'USD', value }, time: t };
    this.sendWebhook(
      'PAYMENT.SALE.COMPLETED',
      'sale',
      {
        id: payment.id,
        state: 'completed',
        amount: { total: value, currency: 'USD', details: { subtotal: value } },
        payment_mode: 'INSTANT_TRANSFER',
        billing_agreement_id: s.id,
        create_time: t,
        update_time: t,
      },
      `Payment completed for $ ${value} USD`,
    );
  }

  activate(s: Subscription): void {
    const t = now();
    s.status = 'ACTIVE';
    s.status_update_time = t;
    s.start_time = t;
    s.cycles_completed = 0;
    s.next_billing_time = undefined;
    this.subscriptionEvent(s, 'BILLING.SUBSCRIPTION.ACTIVATED', 'Subscription activated');
    this.bill(s);
  }

  /** Applies the revision the buyer approved. */
  applyRevision(s: Subscription, revision: NonNullable<Subscription['pending_revision']>): void {
    s.plan_id = revision.plan_id;
    s.quantity = revision.quantity;
    s.pending_revision = undefined;
  }

  /** A subscription waiting for the buyer's approval, as POST /v1/billing/subscriptions makes. */
  create(body: JsonObject, extra: Partial<Subscription> = {}): Subscription {
    if (body.plan_id !== this.options.planId) throw notFound();
    const quantity = String(body.quantity ?? '1');
    if (!validQuantity(quantity)) throw unprocessable('INVALID_PARAMETER_VALUE');
    const context = isObject(body.application_context) ? body.application_context : {};
    const t = now();
    const s: Subscription = {
      id: `I-${randomBytes(6).toString('hex').toUpperCase()}`,
      plan_id: this.options.planId,
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
    this.subscriptions.set(s.id, s);
    return s;
  }

  /** Refuses a REST call without a live access token. */
  bearer(req: IncomingMessage): void {
    const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const expires = token ? this.tokens.get(token) : undefined;
    if (!expires || expires < Date.now()) {
      throw new ApiError(
        401,
        'AUTHENTICATION_FAILURE',
        'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
      );
    }
  }

  /** The next cancel of the subscription waits until releaseCancel (control API). */
  holdCancel(id: string): void {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    this.cancelHolds.get(id)?.release();
    this.cancelHolds.set(id, { waiting: false, release, released });
  }

  releaseCancel(id: string): void {
    this.cancelHolds.get(id)?.release();
  }

  /** Before a cancel of the subscription is carried out: a held one waits to be released. */
  async beforeCancel(id: string): Promise<void> {
    const hold = this.cancelHolds.get(id);
    if (!hold) return;
    hold.waiting = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      hold.released,
      new Promise((r) => (timer = setTimeout(r, CANCEL_HOLD_MS))),
    ]);
    clearTimeout(timer);
    if (this.cancelHolds.get(id) === hold) this.cancelHolds.delete(id);
  }

  find(id: string): Subscription {
    const s = this.subscriptions.get(id);
    if (!s) throw notFound();
    return s;
  }

  /** A payment by its capture id, with its subscription. */
  payment(captureId: string): { subscription: Subscription; payment: Transaction } {
    for (const subscription of this.subscriptions.values()) {
      const payment = subscription.transactions?.find((p) => p.id === captureId);
      if (payment) return { subscription, payment };
    }
    throw notFound();
  }

  /**
   * Refunds a captured payment, in full or `amount` of it, as Payments v2 does: a repeat of a
   * PayPal-Request-Id
   * answers the refund it made, as it is now (a PENDING one completes once its answer is no longer
   * PENDING); a payment not captured yet, or refunded already, is refused. The refund answers
   * refundAnswers' status: the payment is REFUNDED only when it is COMPLETED.
   */
  refund(
    captureId: string,
    requestId: string | null,
    amount?: string,
  ): { refund: Refund; repeated: boolean } {
    const earlier = requestId ? this.refundsByRequest.get(requestId) : undefined;
    if (earlier?.capture_id === captureId) {
      if (earlier.status === 'PENDING') this.settleRefund(earlier);
      return { refund: earlier, repeated: true };
    }
    const { subscription, payment } = this.payment(captureId);
    if (payment.status === 'PENDING')
      throw unprocessable('PENDING_CAPTURE', 'Cannot initiate a refund as the capture is pending.');
    if (payment.status === 'REFUNDED')
      throw unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded.');
    // what is left of the capture: a refund without an amount gives back all of it
    const left = Number(payment.value) - Number(payment.refunded ?? 0);
    if (amount !== undefined && Number(amount) > left + 1e-9)
      throw unprocessable(
        'REFUND_AMOUNT_EXCEEDED',
        'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
      );
    const refund: Refund = {
      id: saleId(),
      status: 'PENDING',
      capture_id: captureId,
      subscription_id: subscription.id,
      request_id: requestId,
      value: (amount === undefined ? left : Number(amount)).toFixed(2),
      time: now(),
    };
    this.settleRefund(refund);
    this.refunds.push(refund);
    if (requestId) this.refundsByRequest.set(requestId, refund);
    return { refund, repeated: false };
  }

  /** A pending refund as refundAnswers says now: COMPLETED refunds its payment. */
  private settleRefund(refund: Refund): void {
    refund.status =
      this.refundAnswers.get(refund.capture_id) ??
      this.refundAnswers.get(refund.subscription_id) ??
      'COMPLETED';
    if (refund.status !== 'COMPLETED') return;
    const { payment } = this.payment(refund.capture_id);
    const refunded = Number(payment.refunded ?? 0) + Number(refund.value);
    payment.refunded = refunded.toFixed(2);
    payment.status = refunded + 1e-9 >= Number(payment.value) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  }

  /** Counts down an outage of `kind` for the subscription or any: true when this call answers 503. */
  down(kind: OutageKind, subscriptionId: string): boolean {
    for (const key of [subscriptionId, '']) {
      const outage = this.outages.get(key);
      if (outage && outage[kind] > 0) {
        outage[kind]--;
        return true;
      }
    }
    return false;
  }
}

/** A capture or refund id in PayPal's shape (17 characters). */
const saleId = () => randomBytes(9).toString('hex').toUpperCase().slice(0, 17);
