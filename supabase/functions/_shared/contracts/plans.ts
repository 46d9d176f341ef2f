// Plans and their prices (spec: account section 9), shared by the payment functions and the
// dashboard, so the screen and the server compute the same counts and the same price. The server
// never takes a price from the client: it computes it here from the plan (and the database checks
// the same formula again in private.plan_price, tied to this one by a contract test).
//
// A plan is the spec's basket: `blockLimit` and `responseMonthlyLimit` are what the plan ADDS to
// Starter's 3 blocks and 100 emails (the basket's 8 and 1000 are shown as 11 and 1100).
import { z } from 'zod';
import type { TPaymentMethod, TPaymentType } from './enums.ts';
import { COUPON_CODE_MAX } from './limits.ts';

export const STARTER = { blocks: 3, emails: 100 } as const;

/**
 * public.paypal_refunds.reason of a payment PayPal took for a plan already ended
 * (plan.paypal-ended): the owner's Plan page says that case in its own words when PayPal refused
 * the refund, where every other refund is of a subscription cancelled without a plan.
 */
export const PAYPAL_ENDED_REASON = 'The plan had ended; this payment paid no period';

export const PLAN_RULES = {
  /** Blocks and emails one dollar a month buys on the Custom plan. */
  blocksPerUnit: 4,
  emailsPerUnit: 1000,
  /** Basic is fixed at the basket's default. */
  basic: { blockLimit: 8, responseMonthlyLimit: 1000 },
  minimumPrice: 3,
  /** Upper bounds of a Custom plan (our choice; the spec names none): $100 of blocks, $100 of emails. */
  maxBlockLimit: 400,
  maxResponseMonthlyLimit: 100_000,
  /** Days before a plan ends that the owner is told (and a card renewal is charged). */
  noticeDays: 3,
  /**
   * Days a renewing plan past its end date waits for its provider (a PayPal payment it retries)
   * before the daily expiry ends it (private.expire_plans); a payment after that brings it back.
   */
  renewalWaitDays: 7,
} as const;

export const PLAN_MESSAGES = {
  minimumPrice: 'Minimum price for subscription is $3',
  failedToPayment: 'Failed to payment',
  activePlan: 'You already have an active plan',
  paymentInProgress: 'A payment is already in progress; try again in a few minutes',
  priceChanged: 'The price has changed; check the plan and try again',
  invalidPlan: 'Invalid plan',
  notANumber: 'Not a number',
  couponLength: 'A coupon code has 1 to 99 characters',
  couponNotFound: 'No such coupon',
  couponExpired: 'This coupon has expired',
  couponUsedUp: 'This coupon has been used up',
  couponUsed: 'You have already used this coupon',
  couponNewOnly: 'This coupon is for owners who have never had a plan',
  couponAttempts: 'Too many coupon tries',
  noPlan: 'No such plan',
  notRenewing: 'This plan does not renew',
  renewalPending: 'The renewal payment is under way; try again in a moment',
  changeApproved: 'PayPal bills another price already: a change was approved there',
  declinedCardOnly: 'Only a PayPal change is declined at the provider',
} as const;

/**
 * A PayPal purchase refused because the owner cannot buy another plan now (a plan is active, or
 * another checkout is being completed), its subscription cancelled and what PayPal took for it
 * given back: the code check-paypal-payment answers (409) for each refusal, by the plan message
 * it stands for. The dashboard reads the code (plans.payment.second.<key>), never the message.
 */
export const SECOND_PURCHASE_CODES = {
  activePlan: 'second_plan_refused',
  paymentInProgress: 'second_checkout_refused',
} as const satisfies Partial<Record<keyof typeof PLAN_MESSAGES, string>>;

/**
 * The same refusals when PayPal gave the payment back at once (check-paypal-payment's settle
 * refunded it before answering): their codes, by the same plan messages
 * (plans.payment.secondRefunded.<key>).
 */
export const SECOND_PURCHASE_REFUNDED_CODES = {
  activePlan: 'second_plan_refunded',
  paymentInProgress: 'second_checkout_refunded',
} as const satisfies Record<keyof typeof SECOND_PURCHASE_CODES, string>;

/** The second-purchase refusal a plan message is, if it is one. */
export const secondPurchaseOf = (message: string) =>
  (Object.keys(SECOND_PURCHASE_CODES) as Array<keyof typeof SECOND_PURCHASE_CODES>).find(
    (key) => PLAN_MESSAGES[key] === message,
  );

/** The plans an owner buys (the database's payment_type also has coupons and subscriptions). */
export const PLAN_TYPES = ['basic', 'custom'] as const satisfies readonly TPaymentType[];
export type TPlanType = (typeof PLAN_TYPES)[number];

export interface PlanLimits {
  blockLimit: number;
  responseMonthlyLimit: number;
}

/** The spec's formula: floor(blockLimit / 4) + floor(responseMonthlyLimit / 1000), in dollars. */
export function planPrice(plan: PlanLimits): number {
  return (
    Math.floor(plan.blockLimit / PLAN_RULES.blocksPerUnit) +
    Math.floor(plan.responseMonthlyLimit / PLAN_RULES.emailsPerUnit)
  );
}

/**
 * The spec's rounding of a typed count: a negative or non-number value is ignored (the previous
 * value stays; the screen says so); going up rounds up to a multiple of `step`, going down rounds
 * down; the result is at most `max` (docs/plans.md, "Typed counts").
 */
export function roundCount(previous: number, typed: number, step: number, max: number): number {
  if (!Number.isFinite(typed) || typed < 0) return previous;
  // a typed "-0" is 0 (kept as -0 it became a price of -$0.00: break8 F4)
  const count = Math.max(typed, 0);
  const rounded =
    count >= previous ? Math.ceil(count / step) * step : Math.floor(count / step) * step;
  return Math.min(rounded, Math.floor(max / step) * step);
}

export const roundBlocks = (previous: number, typed: number) =>
  roundCount(previous, typed, PLAN_RULES.blocksPerUnit, PLAN_RULES.maxBlockLimit);
export const roundEmails = (previous: number, typed: number) =>
  roundCount(previous, typed, PLAN_RULES.emailsPerUnit, PLAN_RULES.maxResponseMonthlyLimit);

/** What the owner gets in total with a plan (Starter's part included), as the screens show it. */
export const shownBlocks = (blockLimit: number) => STARTER.blocks + blockLimit;
export const shownEmails = (responseMonthlyLimit: number) => STARTER.emails + responseMonthlyLimit;

/**
 * The blocks an owner may keep active under the active rows adding these `blockLimit`s (a plan,
 * coupons), as private.apply_plan_limits counts them: Starter's plus the LARGEST addition (a
 * coupon beside a plan gives the larger of the two, not the sum).
 */
export const blocksAllowed = (blockLimits: readonly number[]) =>
  shownBlocks(Math.max(0, ...blockLimits));

/** What a plan row's content, next_content and paid_next_content say of the plan (a coupon's row names its code). */
export interface TPlanContent {
  planName?: string;
  blockLimit?: number;
  responseMonthlyLimit?: number;
  coupon?: string;
}

/**
 * A row of public.payments: what the payment functions answer (checkout, renewal, coupon,
 * change, stop) and what the plan page reads, its history and its active plan.
 */
export interface TPaymentRow {
  id: string;
  user_id: string;
  type: TPaymentType;
  price: number;
  method: TPaymentMethod | null;
  start_date: string;
  end_date: string | null;
  is_active: boolean;
  content: TPlanContent;
  provider_payment_id: string | null;
  auto_renew: boolean;
  stopped_at: string | null;
  renewal_failed_at: string | null;
  /** PayPal: when PayPal tries the failed renewal payment again (while it retries) */
  renewal_retry_at: string | null;
  /** a change not charged yet: from the period after end_date */
  next_content: TPlanContent | null;
  next_price: number | null;
  /** a change charged already (3 days before its period): the plan from paid_next_from */
  paid_next_content: TPlanContent | null;
  paid_next_price: number | null;
  paid_next_from: string | null;
  created_at: string;
}

/** The spec's default basket. */
export const DEFAULT_BASKET = {
  type: 'custom' as TPlanType,
  blockLimit: 8,
  responseMonthlyLimit: 1000,
  price: 3,
};

/** Legacy plans of the old system, by name (spec: $3 Plan = 3, $7 Plan = 7, $10 Plan = 10). */
export const LEGACY_PLAN_PRICES: Record<string, number> = {
  '$3 Plan': 3,
  '$7 Plan': 7,
  '$10 Plan': 10,
};

/** The price a history row shows: a legacy plan's by its name, else the row's. */
export function historyPrice(row: { price: number | string; content: unknown }): number {
  const name =
    row.content && typeof row.content === 'object'
      ? (row.content as { planName?: unknown }).planName
      : undefined;
  if (typeof name === 'string' && name in LEGACY_PLAN_PRICES) return LEGACY_PLAN_PRICES[name]!;
  return Number(row.price);
}

/** Money as the owner reads it: won in Korean ({price}000 won), dollars otherwise. */
export function formatPlanPrice(dollars: number, lang: string): string {
  return lang === 'ko'
    ? `${(dollars * 1000).toLocaleString('ko-KR')}원`
    : `$${Number.isInteger(dollars) ? dollars : dollars.toFixed(2)}`;
}

/** The amount charged through the Korean card route: whole won (3 -> 3000). */
export const wonAmount = (dollars: number) => Math.round(dollars * 1000);

/** YY.MM.DD (the spec's date format) of a date (YYYY-MM-DD) or a timestamp. */
export function formatPlanDate(value: string | Date): string {
  const text = typeof value === 'string' ? value : value.toISOString();
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!m) return text;
  return `${m[1]!.slice(2)}.${m[2]}.${m[3]}`;
}

// ---------------------------------------------------------------------------------------------
// Payloads (spec: account section 7). One schema each, used by the dashboard before it sends and
// by the functions on what they receive.

const count = (max: number, step: number) =>
  z
    .int({ error: PLAN_MESSAGES.notANumber })
    .min(0, { error: PLAN_MESSAGES.invalidPlan })
    .max(max, { error: PLAN_MESSAGES.invalidPlan })
    .refine((v) => v % step === 0, { error: PLAN_MESSAGES.invalidPlan });

/**
 * The plan being bought or changed to. `price` is optional and only checked: when the client
 * sends the price it showed, it must be the server's, so a stale or edited screen is refused
 * instead of charging something else than what the owner saw.
 */
export const ZPlan = z
  .strictObject({
    type: z.enum(PLAN_TYPES, { error: PLAN_MESSAGES.invalidPlan }),
    blockLimit: count(PLAN_RULES.maxBlockLimit, PLAN_RULES.blocksPerUnit),
    responseMonthlyLimit: count(PLAN_RULES.maxResponseMonthlyLimit, PLAN_RULES.emailsPerUnit),
    price: z.number({ error: PLAN_MESSAGES.notANumber }).optional(),
  })
  .refine(
    (p) =>
      p.type === 'custom' ||
      (p.blockLimit === PLAN_RULES.basic.blockLimit &&
        p.responseMonthlyLimit === PLAN_RULES.basic.responseMonthlyLimit),
    { error: PLAN_MESSAGES.invalidPlan },
  )
  .refine((p) => planPrice(p) >= PLAN_RULES.minimumPrice, { error: PLAN_MESSAGES.minimumPrice })
  .refine((p) => p.price === undefined || p.price === planPrice(p), {
    error: PLAN_MESSAGES.priceChanged,
  });
export type TPlan = z.infer<typeof ZPlan>;

const paymentId = z.uuid({ error: 'Invalid payment id' });

/** checkIamportPayment: the billing key PortOne's checkout issued (card through KCP, or a wallet). */
export const ZCheckIamportPayment = z.strictObject({
  plan: ZPlan,
  content: z.strictObject({
    billingKey: z
      .string({ error: 'Invalid billing key' })
      .regex(/^[A-Za-z0-9_-]{1,200}$/, { error: 'Invalid billing key' }),
    /** The spec's card route; absent for a wallet. */
    pg: z.literal('kcp_billing', { error: 'Invalid payment gateway' }).optional(),
  }),
});
export type TCheckIamportPayment = z.infer<typeof ZCheckIamportPayment>;

/** checkPaypalPayment: the subscription the owner approved on PayPal. */
export const ZCheckPaypalPayment = z.strictObject({
  plan: ZPlan,
  subscriptionId: z
    .string({ error: 'Invalid subscription id' })
    .regex(/^I-[A-Z0-9]{6,40}$/, { error: 'Invalid subscription id' }),
});
export type TCheckPaypalPayment = z.infer<typeof ZCheckPaypalPayment>;

/** cancelIamportPayment, cancelPaypalPayment: stop the plan's renewals. */
export const ZCancelPayment = z.strictObject({ paymentId });
export type TCancelPayment = z.infer<typeof ZCancelPayment>;

/**
 * changeIamportPayment, changePaypalPayment: the plan of the next periods. `declined` (PayPal
 * only): the owner came back from the revise's "Cancel and return"; `plan` is the plan held, and
 * the pending change is dropped without asking PayPal for another revision, when PayPal still
 * bills that plan's price (else 409 change_approved, nothing changed).
 */
export const ZChangePayment = z.strictObject({
  paymentId,
  plan: ZPlan,
  declined: z.literal(true).optional(),
});
export type TChangePayment = z.infer<typeof ZChangePayment>;

/** useCoupon: the code (the spec calls it couponId). */
export const ZUseCoupon = z.strictObject({
  couponId: z
    .string({ error: PLAN_MESSAGES.couponLength })
    .trim()
    .min(1, { error: PLAN_MESSAGES.couponLength })
    .max(COUPON_CODE_MAX, { error: PLAN_MESSAGES.couponLength }),
});
export type TUseCoupon = z.infer<typeof ZUseCoupon>;
