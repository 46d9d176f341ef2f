// Plans and payments tests' helpers (plans, plan-renewals, plan-stop-change and coupons tests):
// the PortOne and PayPal fakes' controls and state, buying by card and by PayPal, and the owner's
// plan, payments and charges as the database has them.
import { PortOneClient } from '@portone/server-sdk';
import { expect } from 'vitest';
import { PORTONE_DEFAULTS } from '../../local/providers/portone/index.ts';
import { PAYPAL_DEFAULTS } from '../../local/providers/paypal/index.ts';
import type { TPlan } from '@reaction-blocks/contracts/plans';
import { callFunction, sql, type TestUser } from './clients.ts';
import { callWorker } from './worker.ts';
import { fakeControl, fakeState, providersUrl } from './providers.ts';

export const BASIC: TPlan = { type: 'basic', blockLimit: 8, responseMonthlyLimit: 1000 };
export const custom = (blockLimit: number, responseMonthlyLimit: number): TPlan => ({
  type: 'custom',
  blockLimit,
  responseMonthlyLimit,
});

export const portone = () =>
  PortOneClient({
    secret: PORTONE_DEFAULTS.apiSecret,
    baseUrl: providersUrl(),
    storeId: PORTONE_DEFAULTS.storeId,
  });

export const control = <T = Record<string, unknown>>(
  fake: 'portone' | 'paypal',
  path: string,
  body: unknown = {},
) => fakeControl<T>(fake, path, body);

export interface FakeState {
  payments: Array<{
    id: string;
    status: string;
    customer: { id?: string };
    amount: { total: number };
  }>;
  schedules: Array<{
    id: string;
    paymentId: string;
    billingKey: string;
    status: string;
    totalAmount: number;
    timeToPay: string;
  }>;
  /** deleteRequests: the DELETE requests made for the key (the fake's count). */
  billingKeys: Array<{ billingKey: string; status: string; deleteRequests: number }>;
  webhooks: Array<{
    id: string;
    headers: Record<string, string>;
    body: string;
    summary: Record<string, string>;
    status: string;
  }>;
}
export const portoneState = () => fakeState<FakeState>('portone');
export const paypalState = () =>
  fakeState<{
    subscriptions: Array<{
      id: string;
      status: string;
      quantity: string;
      /** A revision asked and not approved yet. */
      pending_revision?: { quantity: string; token: string };
      billing_info?: {
        last_failed_payment?: { next_payment_retry_time: string };
        last_payment?: { time: string };
        next_billing_time?: string;
      };
    }>;
    /** Every subscription's payments (capture ids). */
    transactions: Array<{ id: string; subscription_id: string; status: string; value: string }>;
    refunds: Array<{
      id: string;
      capture_id: string;
      subscription_id: string;
      value: string;
      status: string;
    }>;
    webhooks: FakeState['webhooks'];
    /** Subscriptions whose held cancel waits for its release (hold-cancel). */
    cancelsHeld: string[];
  }>('paypal');

export const cardKey = (user: TestUser, decline = false) =>
  control<{ billingKey: string }>('portone', '/billing-keys', {
    customerId: user.id,
    decline,
  }).then((r) => r.billingKey);

export const buyByCard = (user: TestUser, billingKey: string, plan: TPlan = BASIC) =>
  callFunction(
    'check-iamport-payment',
    { plan, content: { billingKey, pg: 'kcp_billing' } },
    user.accessToken,
  );

/**
 * A subscription the owner approved in PayPal's window (`extra`: the fake's other fields, such as
 * pending_payments: its first payment captured later, an e-check's).
 */
export const paypalSubscription = (user: TestUser | { id: string }, quantity: number, extra = {}) =>
  control<{ id: string }>('paypal', '/subscriptions', {
    quantity: String(quantity),
    custom_id: user.id,
    ...extra,
  }).then((s) => s.id);

/** check-paypal-payment: `plan` bought with the PayPal subscription `subscriptionId`. */
export const buyByPaypal = (user: TestUser, subscriptionId: string, plan: TPlan = BASIC) =>
  callFunction('check-paypal-payment', { plan, subscriptionId }, user.accessToken);

/** The status PayPal gives the subscription `sub` (ACTIVE, CANCELLED, ...). */
export const subscriptionStatus = async (sub: string) =>
  (await paypalState()).subscriptions.find((s) => s.id === sub)?.status;

/** What PayPal took for the subscription `sub`: each payment's status and amount. */
export const takenFor = async (sub: string) =>
  (await paypalState()).transactions
    .filter((t) => t.subscription_id === sub)
    .map((t) => `${t.status}:${t.value}`);

/** The refunds PayPal made of the subscription `sub`'s payments. */
export const refundsOf = async (sub: string) =>
  (await paypalState()).refunds.filter((r) => r.subscription_id === sub);

/**
 * change-paypal-payment: the owner's Change of their PayPal plan to `plan`, answered 200;
 * `declined`: back from PayPal's "Cancel and return" with the plan held.
 */
export async function changeByPaypal(
  owner: TestUser,
  paymentId: string,
  plan: TPlan,
  declined?: true,
) {
  const res = await callFunction(
    'change-paypal-payment',
    { paymentId, plan, ...(declined && { declined }) },
    owner.accessToken,
  );
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res;
}

/**
 * The owner buys Basic with a $3 subscription whose first payment PayPal captures later (pending,
 * no last_payment: an e-check, or the seconds after the activation); the check grants the plan.
 */
export async function boughtUncaptured(owner: TestUser) {
  const sub = await paypalSubscription(owner, 3, { pending_payments: true });
  const bought = await buyByPaypal(owner, sub);
  expect(bought.status, JSON.stringify(bought.json)).toBe(200);
  return { sub, paymentId: (bought.json.data as { payment: { id: string } }).payment.id };
}

/** The basic plan bought with a PayPal subscription of `quantity` (check-paypal-payment). */
export async function boughtByPaypal(owner: TestUser, quantity: number) {
  const sub = await paypalSubscription(owner, quantity);
  const bought = await buyByPaypal(owner, sub);
  return { sub, paymentId: (bought.json.data as { payment: { id: string } }).payment.id };
}

export const runWorker = () => callWorker();

/** The owner's plan columns, as only the database writes them. */
export const profileOf = async (id: string) =>
  (
    await sql<{
      paid: boolean;
      block_limit: number;
      response_monthly_limit: number;
      block_count: number;
    }>(
      'select paid, block_limit, response_monthly_limit, block_count from public.profiles where id = $1',
      [id],
    )
  )[0]!;

/** profileOf's plan columns for an owner on the free plan (a new one, or one whose plan ended). */
export const FREE_PROFILE = { paid: false, block_limit: 3, response_monthly_limit: 100 } as const;

export const paymentsOf = (id: string) =>
  sql<{
    id: string;
    type: string;
    price: string;
    method: string | null;
    is_active: boolean;
    auto_renew: boolean;
    start_date: string;
    end_date: string;
    content: Record<string, unknown>;
    next_content: Record<string, unknown> | null;
    next_price: string | null;
    paid_next_content: Record<string, unknown> | null;
    paid_next_price: string | null;
    paid_next_from: string | null;
    stopped_at: string | null;
    renewal_failed_at: string | null;
    provider_payment_id: string | null;
  }>(
    `select id, type, price, method, is_active, auto_renew, start_date::text, end_date::text, content,
            next_content, next_price, paid_next_content, paid_next_price, paid_next_from::text,
            stopped_at, renewal_failed_at, provider_payment_id
       from public.payments where user_id = $1 order by created_at`,
    [id],
  );

export const chargesOf = (id: string) =>
  sql<{
    id: string;
    kind: string;
    status: string;
    amount: string;
    period_start: string;
    provider_ref: string;
  }>(
    `select id, kind, status, amount, period_start::text, provider_ref from private.payment_charges
      where user_id = $1 order by created_at`,
    [id],
  );

/** Everything a refused call must leave as it was. */
export async function footprint(user: TestUser) {
  return {
    profile: await profileOf(user.id),
    payments: await paymentsOf(user.id),
    charges: await chargesOf(user.id),
    fake: (await portoneState()).payments.filter((p) => p.customer.id === user.id).length,
  };
}

/** Runs an attack; asserts the status (and message) and that nothing changed. */
export async function refused(
  user: TestUser,
  attack: () => Promise<{ status: number; json: { error?: { message: string } } }>,
  status: number,
  message?: string | RegExp,
) {
  const before = await footprint(user);
  const res = await attack();
  expect(res.status, JSON.stringify(res.json)).toBe(status);
  if (typeof message === 'string') expect(res.json.error?.message).toBe(message);
  else if (message) expect(res.json.error?.message).toMatch(message);
  expect(await footprint(user)).toEqual(before);
  return res;
}

export const today = () => new Date().toISOString().slice(0, 10);
export const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export async function paypalClientCancel(subscriptionId: string) {
  const { paypalClient } = await import('../../functions/_shared/paypal.ts');
  await paypalClient({
    baseUrl: `${providersUrl()}/paypal`,
    clientId: PAYPAL_DEFAULTS.clientId,
    clientSecret: PAYPAL_DEFAULTS.clientSecret,
    webhookId: PAYPAL_DEFAULTS.webhookId,
  }).cancelSubscription(subscriptionId, 'test');
}
