// The plan screens' data and calls: the history (RLS: the owner's rows), the usage numbers, the
// PayPal payments not given back, and the spec's calls as edge functions. Bodies are checked with the payment functions' schemas.
import { readProfile } from '../../../lib/profile';
import { readRows } from '../../../lib/read-rows';
import { supabase, invokeFunction } from '../../../lib/supabase';
import {
  ZCancelPayment,
  ZChangePayment,
  ZCheckIamportPayment,
  ZCheckPaypalPayment,
  ZUseCoupon,
} from '@reaction-blocks/contracts/plans';
import type { PlanRow, TPlan } from '../model/plans';

export const HISTORY_PAGE_SIZE = 10;

const PLAN_COLUMNS =
  'id, type, price, method, start_date, end_date, is_active, content, auto_renew, stopped_at, renewal_failed_at, renewal_retry_at, next_content, next_price, paid_next_content, paid_next_price, paid_next_from, created_at';

/** One page of the history, newest first (spec: page size 10). */
export async function listPlanHistory(page: number, signal: AbortSignal): Promise<PlanRow[]> {
  const from = page * HISTORY_PAGE_SIZE;
  return toPlanRows(
    await readRows(
      supabase
        .from('payments')
        .select(PLAN_COLUMNS)
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .range(from, from + HISTORY_PAGE_SIZE - 1)
        .abortSignal(signal),
    ),
  );
}

/** Every active row (the plan and coupons): few, and what the top of the page needs. */
export async function listActivePlans(signal: AbortSignal): Promise<PlanRow[]> {
  return toPlanRows(
    await readRows(
      supabase
        .from('payments')
        .select(PLAN_COLUMNS)
        .eq('is_active', true)
        .order('created_at', { ascending: false })
        .abortSignal(signal),
    ),
  );
}

/** Prices come as numeric strings (Postgres numeric): numbers for the screens. */
function toPlanRows<R extends { price: unknown; next_price: unknown; paid_next_price: unknown }>(
  rows: R[],
): PlanRow[] {
  return rows.map((r) => ({
    ...r,
    price: Number(r.price),
    next_price: r.next_price === null ? null : Number(r.next_price),
    paid_next_price: r.paid_next_price === null ? null : Number(r.paid_next_price),
  })) as unknown as PlanRow[];
}

/** A PayPal payment the refund job could not give back (public.paypal_refunds; RLS: the owner's). */
export interface FailedRefund {
  subscription_id: string;
  created_at: string;
  /** Why it was to go back: PAYPAL_ENDED_REASON (a payment after the plan's end) or another. */
  reason: string;
}

/** The owner's PayPal payments not given back, newest first (few: each is an operator's case). */
export function listFailedRefunds(signal: AbortSignal): Promise<FailedRefund[]> {
  return readRows(
    supabase
      .from('paypal_refunds')
      .select('subscription_id, created_at, reason')
      .eq('status', 'failed')
      .order('created_at', { ascending: false })
      .abortSignal(signal),
  );
}

export interface Usage {
  block_count: number;
  block_limit: number;
  /** this month's count: a computed field, the sum of the owner's count shards */
  response_monthly_count: number;
  response_monthly_limit: number;
}

export async function loadUsage(userId: string, signal: AbortSignal): Promise<Usage> {
  const data = await readProfile(
    userId,
    'block_count, block_limit, response_monthly_count, response_monthly_limit',
    signal,
  );
  if (!data) throw new Error('No profile');
  return data as Usage;
}

interface PaymentAnswer {
  status: boolean;
  payment: PlanRow;
}

export function checkIamportPayment(plan: TPlan, billingKey: string, route: 'card' | 'wallet') {
  return invokeFunction<PaymentAnswer>(
    'check-iamport-payment',
    ZCheckIamportPayment.parse({
      plan,
      content: { billingKey, ...(route === 'card' ? { pg: 'kcp_billing' } : {}) },
    }),
  );
}

export function checkPaypalPayment(plan: TPlan, subscriptionId: string) {
  return invokeFunction<PaymentAnswer>(
    'check-paypal-payment',
    ZCheckPaypalPayment.parse({ plan, subscriptionId }),
  );
}

export function cancelPayment(row: Pick<PlanRow, 'id' | 'method'>) {
  const name = row.method === 'paypal' ? 'cancel-paypal-payment' : 'cancel-iamport-payment';
  return invokeFunction<PaymentAnswer>(name, ZCancelPayment.parse({ paymentId: row.id }));
}

/**
 * The plan of the next periods; `declined`: back from PayPal's "Cancel and return", `plan` being
 * the plan held, the pending change is dropped without another revision at PayPal.
 */
export function changePayment(row: Pick<PlanRow, 'id' | 'method'>, plan: TPlan, declined?: true) {
  const name = row.method === 'paypal' ? 'change-paypal-payment' : 'change-iamport-payment';
  return invokeFunction<PaymentAnswer & { links?: Array<{ href: string; rel: string }> }>(
    name,
    ZChangePayment.parse({ paymentId: row.id, plan, ...(declined && { declined }) }),
  );
}

export function useCoupon(code: string) {
  return invokeFunction<PaymentAnswer>('use-coupon', ZUseCoupon.parse({ couponId: code }));
}
