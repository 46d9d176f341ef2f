// The plan screens' pure rules: the basket being bought (spec: account sections 3, 4, 5, 9), the
// active plan and history rows, usage. The price and rounding come from the module the payment
// functions use (supabase/functions/_shared/contracts/plans.ts), so the screen shows what the server charges.
import {
  blocksAllowed,
  DEFAULT_BASKET,
  formatPlanPrice as formatPlanPriceFor,
  historyPrice,
  planPrice,
  PLAN_RULES,
  roundBlocks,
  roundEmails,
  shownBlocks,
  shownEmails,
  ZPlan,
  type TPaymentRow,
  type TPlan,
  type TPlanContent,
  type TPlanType,
  wonAmount,
} from '@reaction-blocks/contracts/plans';
import type { TPaymentType } from '@reaction-blocks/contracts/enums';

export {
  formatPlanDate,
  formatPlanPrice,
  planPrice,
  PLAN_MESSAGES,
  PLAN_RULES,
  shownBlocks,
  shownEmails,
  STARTER,
  ZPlan,
  ZUseCoupon,
} from '@reaction-blocks/contracts/plans';
export type { TPlan, TPlanType };

export interface Basket {
  type: TPlanType;
  blockLimit: number;
  responseMonthlyLimit: number;
}

/** The basket a plan type starts with (Basic is fixed at the default; Custom starts there). */
export function basketFor(type: TPlanType, current?: Basket): Basket {
  if (type === 'basic') return { type, ...PLAN_RULES.basic };
  return current && current.type === 'custom'
    ? current
    : {
        type,
        blockLimit: DEFAULT_BASKET.blockLimit,
        responseMonthlyLimit: DEFAULT_BASKET.responseMonthlyLimit,
      };
}

/** A typed block count applied to the basket: by 4, up when growing and down when shrinking, at
 * most 400; a negative or empty entry keeps the count (spec; docs/plans.md, "Typed counts"). */
export const withBlocks = (b: Basket, typed: number): Basket =>
  b.type === 'basic' ? b : { ...b, blockLimit: roundBlocks(b.blockLimit, typed) };
/** A typed email count applied to the basket: by 1000 as blocks are by 4, at most 100,000. */
export const withEmails = (b: Basket, typed: number): Basket =>
  b.type === 'basic'
    ? b
    : { ...b, responseMonthlyLimit: roundEmails(b.responseMonthlyLimit, typed) };

/**
 * Why a typed count is not the count the basket took, for the note under the field: `empty` and
 * `negative` kept the previous count, `max` cut it to the maximum, `up` and `down` took the step
 * above or below; null when it was taken as typed.
 */
export type CountChange = 'empty' | 'negative' | 'max' | 'up' | 'down';
export function countChange(typed: number, taken: number, max: number): CountChange | null {
  if (!Number.isFinite(typed)) return 'empty';
  if (typed < 0) return 'negative';
  if (typed > max) return 'max';
  if (typed === taken) return null;
  return taken > typed ? 'up' : 'down';
}

export const basketPrice = (b: Basket) => planPrice(b);
export const canBuy = (b: Basket) => ZPlan.safeParse(b).success;

/** The basket in a URL (so /purchase/payment survives a reload), and back. */
export function basketToSearch(b: Basket): string {
  const params = new URLSearchParams({ focus: b.type });
  if (b.type === 'custom') {
    params.set('blocks', String(b.blockLimit));
    params.set('emails', String(b.responseMonthlyLimit));
  }
  return `?${params.toString()}`;
}

/** The basket a URL names: `focus=basic|custom` (spec) and, for Custom, its counts. */
export function basketFromSearch(search: string): Basket {
  const params = new URLSearchParams(search);
  const focus = params.get('focus')?.trim();
  const type: TPlanType = focus === 'basic' ? 'basic' : 'custom';
  if (type === 'basic') return basketFor('basic');
  const number = (name: string, fallback: number) => {
    const raw = params.get(name);
    const n = raw === null || raw.trim() === '' ? NaN : Number(raw);
    return Number.isInteger(n) ? n : fallback;
  };
  const base = basketFor('custom');
  // counts from the URL are rounded like typed ones, so a hand-edited link cannot name an
  // impossible plan
  return withEmails(
    withBlocks(base, number('blocks', base.blockLimit)),
    number('emails', base.responseMonthlyLimit),
  );
}

// ---------------------------------------------------------------------------------------------
// history

/** A plan row as the page reads it (the columns of PLAN_COLUMNS in api/plans.ts). */
export type PlanRow = Omit<TPaymentRow, 'user_id' | 'provider_payment_id'>;

export const PAID_TYPES = [
  'basic',
  'custom',
  'subscription',
] as const satisfies readonly TPaymentType[];

/** The spec's active plan: the first history row that is active and basic, custom or subscription. */
export const activePlan = (rows: PlanRow[]): PlanRow | undefined =>
  rows.find((r) => r.is_active && (PAID_TYPES as readonly string[]).includes(r.type));

/** Active coupon rows (they add to the limits beside a plan). */
export const activeCoupons = (rows: PlanRow[]) =>
  rows.filter((r) => r.is_active && (r.type === 'coupon' || r.type === 'promote_coupon'));

export const rowPrice = (row: Pick<PlanRow, 'price' | 'content'>) => historyPrice(row);
export const rowBlocks = (row: Pick<PlanRow, 'content'>) =>
  shownBlocks(row.content?.blockLimit ?? 0);
export const rowEmails = (row: Pick<PlanRow, 'content'>) =>
  shownEmails(row.content?.responseMonthlyLimit ?? 0);

/** What the renewal line says about an active plan. */
export type RenewalState = 'renews' | 'retrying' | 'stopped' | 'failed' | 'ends';
export function renewalState(row: PlanRow): RenewalState {
  // renewing after a failed payment: PayPal retries it (a card renewal that fails stops renewing)
  if (row.auto_renew) return row.renewal_failed_at ? 'retrying' : 'renews';
  if (row.renewal_failed_at) return 'failed';
  if (row.stopped_at) return 'stopped';
  return 'ends';
}

/** The date `days` after a date (YYYY-MM-DD). */
export function daysAfter(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The day after a date (YYYY-MM-DD): when a renewing plan's next period starts. */
export const dayAfter = (date: string): string => daysAfter(date, 1);

/** The last day of a one-month period starting on `start` (23 Nov -> 22 Dec), as the server. */
export function periodEnd(start: string): string {
  // Postgres' date + interval '1 month': the same day next month, or that month's last day
  const d = new Date(`${start}T00:00:00Z`);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const next = Date.UTC(year, month, Math.min(d.getUTCDate(), lastDay));
  return new Date(next - 86_400_000).toISOString().slice(0, 10);
}

/** Today in UTC (the server's day), YYYY-MM-DD. */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);

/**
 * What the renewal line of a plan whose failed renewal PayPal retries says: when PayPal tries
 * again (null: not known, or passed) and the last day the plan stays on without a payment (the
 * daily expiry waits PLAN_RULES.renewalWaitDays past its end date).
 */
export function retryLine(row: PlanRow & { end_date: string }, today = todayUtc()) {
  const retry = row.renewal_retry_at?.slice(0, 10) ?? null;
  return {
    retry: retry && retry >= today ? retry : null,
    until: daysAfter(row.end_date, PLAN_RULES.renewalWaitDays),
  };
}

/** Usage as a share for the gauge: capped at 100% (spec), 0 when there is no limit. */
export function usagePercent(used: number, limit: number): number {
  if (!(limit > 0)) return used > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, Math.round((used / limit) * 100)));
}

/**
 * Whether a coupon runs on `date` (YYYY-MM-DD), as the server has it: through its end date, and
 * for good without one. private.expire_plans ends active rows whose end_date is before today (a
 * null end_date never is) and private.apply_plan_limits counts every active row; redeem_coupon
 * always sets one, so a coupon without it is one an operator wrote by hand.
 */
const runsOn = (coupon: PlanRow, date: string) => !coupon.end_date || coupon.end_date >= date;

/** The last day of each coupon running on `date`; one without an end date has none. */
const endsOfCouponsOn = (coupons: PlanRow[], date: string): string[] =>
  coupons.flatMap((c) => (c.end_date && runsOn(c, date) ? [c.end_date] : []));

/**
 * The blocks the owner may keep active once `basket` starts on `start` (YYYY-MM-DD): the server's
 * count (blocksAllowed, private.apply_plan_limits) over the new plan and the coupons running
 * that day (runsOn).
 */
export function blocksAllowedFrom(basket: Basket, coupons: PlanRow[], start: string): number {
  return limitsOn(basket, coupons, start).blocks;
}

/**
 * The blocks and monthly emails a plan of `content` allows on `date` beside the coupons running
 * then, as the server counts them (private.apply_plan_limits: Starter's plus the largest addition
 * of each).
 */
export function limitsOn(
  content: { blockLimit?: number; responseMonthlyLimit?: number },
  coupons: PlanRow[],
  date: string,
): { blocks: number; emails: number } {
  const running = coupons.filter((c) => runsOn(c, date));
  const largest = (key: 'blockLimit' | 'responseMonthlyLimit') =>
    Math.max(0, content[key] ?? 0, ...running.map((c) => c.content?.[key] ?? 0));
  return {
    blocks: blocksAllowed([largest('blockLimit')]),
    emails: shownEmails(largest('responseMonthlyLimit')),
  };
}

/**
 * How long the coupons running on `date` (YYYY-MM-DD) keep their limits, after a stopped plan
 * ends (private.apply_plan_limits), rather than Starter's: `until` their last day, or null when
 * one of them has no end date (it runs until ended by hand); null when none adds anything.
 */
export function couponsRunUntil(coupons: PlanRow[], date: string): { until: string | null } | null {
  // a coupon that adds nothing to Starter keeps nothing
  const adds = (c: PlanRow) => !!(c.content?.blockLimit || c.content?.responseMonthlyLimit);
  const running = coupons.filter((c) => adds(c) && runsOn(c, date));
  if (running.length === 0) return null;
  if (running.some((c) => !c.end_date)) return { until: null };
  return { until: endsOfCouponsOn(running, date).sort().at(-1)! };
}

/**
 * The first day after `start` on which the coupons running then have ended so far that the
 * count falls below `below`, with the count from that day; null when it never does. The server
 * expires a coupon the day after its end date and then deactivates blocks down to the limit.
 */
export function blocksDropAfter(
  basket: Basket,
  coupons: PlanRow[],
  start: string,
  below: number,
): { date: string; limit: number } | null {
  const ends = endsOfCouponsOn(coupons, start).map(dayAfter).sort();
  for (const date of ends) {
    const limit = blocksAllowedFrom(basket, coupons, date);
    if (limit < below) return { date, limit };
  }
  return null;
}

/** A plan a row's coming period has: from its first day, charged already or not yet. */
export interface UpcomingPlan {
  from: string;
  content: TPlanContent;
  price: number;
  paid: boolean;
}

/**
 * What the row's coming periods have, in order: a change charged already (a card renewal is
 * charged 3 days before its period), from its first day; then a change not charged yet, from
 * the period after end_date (for PayPal, once the owner approves it).
 */
export function upcomingPlans(row: PlanRow): UpcomingPlan[] {
  const plans: UpcomingPlan[] = [];
  if (row.paid_next_content && row.paid_next_from)
    plans.push({
      from: row.paid_next_from,
      content: row.paid_next_content,
      price: row.paid_next_price ?? 0,
      paid: true,
    });
  // a change asked for the period after end_date starts only if the plan renews: a stopped plan
  // or a failed renewal ends on end_date (record_renewal_failed leaves next_content on the row);
  // a change back to the plan held then changes nothing and is not shown (U9)
  if (
    row.next_content &&
    row.end_date &&
    row.auto_renew &&
    !row.renewal_failed_at &&
    !samePlanContent(row.next_content, plans[0]?.content ?? row.content)
  )
    plans.push({
      from: dayAfter(row.end_date),
      content: row.next_content,
      price: row.next_price ?? 0,
      paid: false,
    });
  return plans;
}

const samePlanContent = (a: UpcomingPlan['content'], b: PlanRow['content']): boolean =>
  !!b &&
  a.planName === b.planName &&
  a.blockLimit === b.blockLimit &&
  a.responseMonthlyLimit === b.responseMonthlyLimit;

/** The basket a plan row would be changed from: the plan of its last period known. */
export const basketOf = (row: PlanRow): Basket => basketFrom(row, upcomingPlans(row).at(-1));

/**
 * The plan held before a change not yet charged: the period paid already, or the current one.
 * Asking it while a change is pending drops the change, on either route (U8, U9).
 */
export const heldBasketOf = (row: PlanRow): Basket =>
  basketFrom(
    row,
    upcomingPlans(row).find((next) => next.paid),
  );

function basketFrom(row: PlanRow, next: UpcomingPlan | undefined): Basket {
  const content = next?.content ?? row.content ?? {};
  const basic = next ? next.content.planName === 'Basic' : row.type === 'basic';
  const type: TPlanType = basic ? 'basic' : 'custom';
  return {
    type,
    blockLimit: content.blockLimit ?? DEFAULT_BASKET.blockLimit,
    responseMonthlyLimit: content.responseMonthlyLimit ?? DEFAULT_BASKET.responseMonthlyLimit,
  };
}

export const toPlan = (b: Basket): TPlan => ({
  type: b.type,
  blockLimit: b.blockLimit,
  responseMonthlyLimit: b.responseMonthlyLimit,
});

/**
 * A price as the owner is billed: a card or wallet plan in won, a PayPal plan in dollars (spec:
 * "card-route prices shown as {price}000 won, international route as $price"); a plan without a
 * route (a coupon, an old plan) in the reader's currency: won in Korean, dollars otherwise.
 */
export function routePrice(price: number, method: PlanRow['method'], lang: string): string {
  return method === 'paypal' || (method !== 'iamport' && lang !== 'ko')
    ? formatPlanPriceFor(price, 'en')
    : wonPrice(price, lang);
}

/**
 * A price in won as the reader writes it: 3,000원 in Korean, ₩3,000 in English, where a Korean
 * unit was the one word of Korean on the English page (/purchase/payment, the plan page).
 */
export const wonPrice = (price: number, lang: string) =>
  lang === 'ko' ? formatPlanPriceFor(price, 'ko') : `₩${wonAmount(price).toLocaleString('en-US')}`;
