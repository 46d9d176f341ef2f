// A PayPal plan follows what PayPal does (docs/plans.md, "Renewals, Stop, Change"): a subscription
// PayPal still has ACTIVE renews (a failed payment it retries, the billing day before it bills),
// Stop cancels it at PayPal whatever the row says, and what PayPal billed decides the period's plan.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { callFunction, callWaitsOnLock, newUser, sql, stack } from './support/clients.ts';
import * as plans from './support/plans.ts';
import { eventually } from './support/providers.ts';

const row = async (ownerId: string) => (await plans.paymentsOf(ownerId))[0]!;
/**
 * What PayPal says of an ACTIVE subscription of quantity 3 (a webhook, the renewal check), read by
 * sync_paypal_plan: `billed` taken at `paidAt`, the next billing on `next`.
 */
const readBack = (sub: string, next: string, billed: number, paidAt = new Date().toISOString()) =>
  sql('select public.sync_paypal_plan($1, $2)', [
    sub,
    { status: 'ACTIVE', next_billing_date: next, quantity: 3, billed, paid_at: paidAt },
  ]);
/** PayPal bills the subscription's next cycle: the owner's plan runs on past `until`. */
const billedPast = async (ownerId: string, sub: string, until: string) => {
  await plans.control('paypal', `/subscriptions/${sub}/bill`);
  await eventually(async () => (await row(ownerId)).end_date !== until);
};
/** When PayPal tries the plan's failed renewal again, as the row keeps it (ms), or null. */
const retryAt = async (paymentId: string) => {
  const [r] = await sql<{ at: Date | null }>(
    'select renewal_retry_at as at from public.payments where id = $1',
    [paymentId],
  );
  return r?.at ? r.at.getTime() : null;
};
/** Every webhook PayPal sent about a subscription has been answered. */
const webhooksDelivered = (sub: string) =>
  eventually(async () =>
    (await plans.paypalState()).webhooks
      .filter((w) => w.body.includes(sub))
      .every((w) => w.status === 'delivered'),
  );
interface CheckJob {
  status: string;
  run_at: string;
  result: unknown;
}

/** A renewal check that looks at PayPal again later (after PayPal's billing or retry time). */
const looksLater = (job: CheckJob) =>
  job.status === 'queued' && Date.parse(job.run_at) > Date.now() + 1_800_000;

/**
 * The plan's period ended yesterday: the daily expiry queues its renewal check, and the worker
 * runs until the check's job is `looked` (it read PayPal and decided).
 */
async function renewalChecked(paymentId: string, looked: (job: CheckJob) => boolean) {
  await sql(
    `update public.payments set start_date = current_date - 31, end_date = current_date - 1 where id = $1`,
    [paymentId],
  );
  await sql('select private.expire_plans()');
  const check = () =>
    sql<CheckJob>(
      `select status, run_at, result from private.jobs
        where dedupe_key like 'plan.renewal-check:' || $1 || '%'`,
      [paymentId],
    );
  await eventually(
    async () => {
      await plans.runWorker();
      const [job] = await check();
      return !!job && looked(job);
    },
    60_000,
    check,
  );
}

/**
 * A $3 PayPal plan bought (its webhooks answered), then a cycle PayPal could not take: its amount
 * outstanding. `bought`: the plan's row before.
 */
async function cycleNotTaken(name: string) {
  const owner = await newUser(name);
  const { sub } = await plans.boughtByPaypal(owner, 3);
  await webhooksDelivered(sub);
  const bought = await row(owner.id);
  await plans.control('paypal', `/subscriptions/${sub}`, { fail: true });
  await plans.control('paypal', `/subscriptions/${sub}/bill`);
  return { owner, sub, bought };
}

/** The worker runs until PayPal's payments of `sub` read `taken` (plans.takenFor, joined). */
const workedUntilTaken = (sub: string, taken: string) =>
  eventually(
    async () => {
      await plans.runWorker();
      return (await plans.takenFor(sub)).join() === taken;
    },
    60_000,
    () => plans.takenFor(sub),
  );

/** The outstanding-balance refunds queued for the subscription: each job's amount. */
const outstandingRefunds = (sub: string) =>
  sql<{ amount: string }>(
    `select payload ->> 'amount' as amount from private.jobs where dedupe_key like $1`,
    [`plan.paypal-outstanding:${sub}:%`],
  );

/** The day a period that starts the day after `end` ends (one month, inclusive). */
const periodAfter = async (end: string) =>
  (await sql<{ d: string }>(`select private.period_end($1::date + 1)::text as d`, [end]))[0]!.d;

describe('a PayPal plan PayPal still bills', () => {
  it('a failed renewal PayPal retries keeps renewing; paid on the retry, Change and Stop work, and Stop cancels at PayPal', async () => {
    const owner = await newUser('pp-retry');
    const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
    await plans.control('paypal', `/subscriptions/${sub}`, { fail: true });
    await plans.control('paypal', `/subscriptions/${sub}/bill`);
    await eventually(async () => !!(await row(owner.id)).renewal_failed_at);
    const failed = await row(owner.id);
    // PayPal keeps it ACTIVE and tries again: the plan renews, and the row keeps when PayPal tries
    // next (its last_failed_payment), for the Plan page
    expect(failed).toMatchObject({ is_active: true, auto_renew: true });
    const retry = (await plans.paypalState()).subscriptions.find((s) => s.id === sub)?.billing_info
      ?.last_failed_payment?.next_payment_retry_time;
    expect(retry).toBeTruthy();
    expect(await retryAt(paymentId)).toBe(Date.parse(retry!));
    await plans.control('paypal', `/subscriptions/${sub}`, { fail: false });
    await billedPast(owner.id, sub, failed.end_date);
    expect(await row(owner.id)).toMatchObject({ auto_renew: true, renewal_failed_at: null });
    expect(await retryAt(paymentId)).toBeNull();
    await plans.changeByPaypal(owner, paymentId, plans.custom(40, 0));
    const stop = await callFunction('cancel-paypal-payment', { paymentId }, owner.accessToken);
    expect(stop.status).toBe(200);
    expect(await plans.subscriptionStatus(sub)).toBe('CANCELLED');
  });

  it('Stop cancels at PayPal even when the row says the plan does not renew', async () => {
    const owner = await newUser('pp-stop-row');
    const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
    // the row fell behind PayPal (as a failed renewal left it before)
    await sql('update public.payments set auto_renew = false where id = $1', [paymentId]);
    const stop = await callFunction('cancel-paypal-payment', { paymentId }, owner.accessToken);
    expect(stop.status).toBe(200);
    expect(await plans.subscriptionStatus(sub)).toBe('CANCELLED');
    expect(await row(owner.id)).toMatchObject({
      auto_renew: false,
      stopped_at: expect.anything(),
    });
    // a second Stop: PayPal's cancel of a cancelled subscription is no error
    const again = await callFunction('cancel-paypal-payment', { paymentId }, owner.accessToken);
    expect(again.status).toBe(200);
  });

  it('the billing day, before PayPal bills: the renewal check waits for PayPal instead of ending the plan', async () => {
    const owner = await newUser('pp-billing-day');
    const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
    // 00:10 UTC on the billing day: PayPal bills later today (during its billing day, at or a
    // little after the time it gives), our period ended yesterday. The purchase's webhooks are let
    // through first (one applied after the update below would move the period by itself)
    await plans.control('paypal', `/subscriptions/${sub}`, {
      next_billing_time: `${plans.today()}T00:00:00Z`,
    });
    await webhooksDelivered(sub);
    // the check looked, and looks again after PayPal's billing time
    await renewalChecked(paymentId, looksLater);
    expect(await row(owner.id)).toMatchObject({ is_active: true, auto_renew: true });
    expect(await plans.profileOf(owner.id)).toMatchObject({ paid: true, block_limit: 11 });
    // PayPal bills: the next period
    await plans.control('paypal', `/subscriptions/${sub}/bill`);
    await eventually(async () => (await row(owner.id)).end_date >= plans.today());
    expect(await row(owner.id)).toMatchObject({ is_active: true, auto_renew: true });
  });

  it('a cycle PayPal moves on without a payment (the failed amount left outstanding) gives no period', async () => {
    const owner = await newUser('pp-unpaid-cycle');
    const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
    await webhooksDelivered(sub);
    const bought = await row(owner.id);
    // the billing day: PayPal cannot take the payment
    await plans.control('paypal', `/subscriptions/${sub}`, { fail: true });
    await plans.control('paypal', `/subscriptions/${sub}/bill`);
    await webhooksDelivered(sub);
    await eventually(async () => !!(await row(owner.id)).renewal_failed_at);
    // under its payment_failure_threshold PayPal keeps it ACTIVE, carries the amount to the
    // outstanding balance and moves the next billing to the next cycle
    await plans.control('paypal', `/subscriptions/${sub}`, {
      next_billing_time: new Date(
        Date.parse(`${bought.end_date}T10:00:00Z`) + 32 * 86_400_000,
      ).toISOString(),
    });
    // our period is over: the daily expiry's renewal check reads PayPal (and waits for PayPal's
    // retry, or ends the plan)
    await renewalChecked(paymentId, (job) => job.status === 'done' || looksLater(job));
    expect(await plans.takenFor(sub)).toEqual(['COMPLETED:3.00']);
    // nothing paid for the next period: it is not given, and the failure still shows
    const after = await row(owner.id);
    expect(after.end_date < plans.today()).toBe(true);
    expect(after.renewal_failed_at).not.toBeNull();
  });

  it('the next cycle collects the outstanding balance with its own ($6 for a $3 plan): one period, the other $3 given back', async () => {
    // before: the $6 payment gave one period and kept the other $3, which paid for nothing
    // PayPal could not take a cycle: its amount is outstanding, billed with the next one
    // (auto_bill_outstanding, PayPal's default)
    const { owner, sub, bought } = await cycleNotTaken('pp-outstanding');
    await plans.control('paypal', `/subscriptions/${sub}`, {
      fail: false,
      outstanding: '3.00',
      next_billing_time: new Date(
        Date.parse(`${bought.end_date}T10:00:00Z`) + 32 * 86_400_000,
      ).toISOString(),
    });
    await plans.control('paypal', `/subscriptions/${sub}/bill`);
    const billing = (await plans.paypalState()).subscriptions.find(
      (s) => s.id === sub,
    )!.billing_info!;
    const next = billing.next_billing_time!;
    await webhooksDelivered(sub);
    await workedUntilTaken(sub, 'COMPLETED:3.00,PARTIALLY_REFUNDED:6.00');
    expect((await plans.refundsOf(sub)).map((r) => [r.status, r.value])).toEqual([
      ['COMPLETED', '3.00'],
    ]);
    // one period, of the plan at the cycle's price, to the day before PayPal's next billing
    expect(await row(owner.id)).toMatchObject({
      is_active: true,
      price: '3.00',
      end_date: new Date(Date.parse(next) - 86_400_000).toISOString().slice(0, 10),
    });
    // the same payment read again (a webhook PayPal resends, the renewal check): nothing more
    await readBack(sub, next.slice(0, 10), 6, billing.last_payment!.time);
    await plans.runWorker();
    expect(await plans.refundsOf(sub)).toHaveLength(1);
  });

  it('an outstanding balance PayPal collects on its own (no new billing period) is given back whole', async () => {
    // before: the payment moved no period and nothing queued its refund: kept for nothing
    // a cycle PayPal could not take, then its balance captured by itself (PayPal's capture of
    // a subscription's outstanding balance): the next billing stays where it was
    const { owner, sub, bought } = await cycleNotTaken('pp-outstanding-alone');
    await plans.control('paypal', `/subscriptions/${sub}`, { fail: false, outstanding: '3.00' });
    await plans.control('paypal', `/subscriptions/${sub}/collect`);
    await webhooksDelivered(sub);
    await workedUntilTaken(sub, 'COMPLETED:3.00,REFUNDED:3.00');
    // no period added: the plan runs to where the first payment paid it
    expect(await row(owner.id)).toMatchObject({ is_active: true, end_date: bought.end_date });
    // its webhook again: nothing more
    await plans.runWorker();
    expect((await plans.refundsOf(sub)).map((r) => [r.status, r.value])).toEqual([
      ['COMPLETED', '3.00'],
    ]);
  });

  it('a first payment PayPal captures after the check records the plan is the plan’s: nothing given back', async () => {
    const owner = await newUser('pp-first-after-check');
    const { sub } = await plans.boughtUncaptured(owner);
    const first = (await plans.paypalState()).transactions.find((t) => t.subscription_id === sub)!;
    await plans.control('paypal', `/transactions/${first.id}/complete`);
    await webhooksDelivered(sub);
    await plans.runWorker();
    expect(await plans.takenFor(sub)).toEqual(['COMPLETED:3.00']);
    expect(await outstandingRefunds(sub)).toEqual([]);
  });

  it('an outstanding balance that equals a Change not approved ($3 + $3 beside a $6 Change asked) is the $3 plan and $3 given back, the Change still waiting', async () => {
    // before (rev-money3 D3): the $6 took the unapproved Change as the period's plan, cleared it,
    // and the owner kept Custom 24 at PayPal's $3 a month from then on
    const owner = await newUser('pp-outstanding-change');
    const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
    await webhooksDelivered(sub);
    await plans.changeByPaypal(owner, paymentId, plans.custom(24, 0));
    const before = await row(owner.id);
    await readBack(sub, plans.addDays(before.end_date, 32), 6);
    expect(await row(owner.id)).toMatchObject({
      type: 'basic',
      price: '3.00',
      end_date: plans.addDays(before.end_date, 31),
      next_content: { planName: 'Custom', blockLimit: 24, responseMonthlyLimit: 0 },
      next_price: '6.00',
    });
    expect(await plans.profileOf(owner.id)).toMatchObject({ block_limit: 11 });
    expect(await outstandingRefunds(sub)).toEqual([{ amount: '3' }]);
  });

  it('a payment above the quantity at a price of ours (a lower Change approved after PayPal billed) is a period, nothing given back', async () => {
    const owner = await newUser('pp-outstanding-not');
    const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
    await plans.changeByPaypal(owner, paymentId, plans.custom(40, 0));
    await plans.control('paypal', `/subscriptions/${sub}/approve`);
    await plans.control('paypal', `/subscriptions/${sub}/bill`);
    await eventually(async () => (await row(owner.id)).price === '10.00');
    // the next $10 cycle read back only after the owner approved a change back to $3 (quantity 3)
    const before = await row(owner.id);
    await readBack(sub, plans.addDays(before.end_date, 32), 10);
    expect(await row(owner.id)).toMatchObject({
      price: '10.00',
      end_date: plans.addDays(before.end_date, 31),
    });
    expect(await outstandingRefunds(sub)).toEqual([]);
  });

  it('Stop while the webhook of a renewal PayPal just billed is on its way: the owner keeps that period', async () => {
    const owner = await newUser('pp-stop-billed');
    const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
    await webhooksDelivered(sub);
    const before = await row(owner.id);
    // PayPal bills the next period; its webhook is slow (held before it reads PayPal)
    const held = new pg.Client({ connectionString: stack().dbUrl });
    await held.connect();
    let stop;
    try {
      await held.query('begin');
      await held.query('lock table private.provider_events in access exclusive mode');
      await plans.control('paypal', `/subscriptions/${sub}/bill`);
      await callWaitsOnLock('payment_event_seen', 10_000);
      stop = await callFunction('cancel-paypal-payment', { paymentId }, owner.accessToken);
    } finally {
      await held.query('commit');
      await held.end();
    }
    expect(stop.status, JSON.stringify(stop.json)).toBe(200);
    await webhooksDelivered(sub);
    // PayPal took two payments and gave none back: the second paid the period after the first
    const paidThrough = await periodAfter(before.end_date);
    expect(await plans.takenFor(sub)).toEqual(['COMPLETED:3.00', 'COMPLETED:3.00']);
    expect(await plans.refundsOf(sub)).toEqual([]);
    expect(await plans.subscriptionStatus(sub)).toBe('CANCELLED');
    expect(stop.json.data).toMatchObject({ payment: { end_date: paidThrough } });
    expect(await row(owner.id)).toMatchObject({
      is_active: true,
      auto_renew: false,
      stopped_at: expect.anything(),
      end_date: paidThrough,
    });
    // the day after the first period, the plan runs on
    await sql('select private.expire_plans()');
    expect(await row(owner.id)).toMatchObject({ is_active: true, end_date: paidThrough });
  });
});

describe('what PayPal bills decides the plan', () => {
  it('a Change approved, then changed back and not approved: PayPal bills the approved one, and the period has its plan', async () => {
    const owner = await newUser('pp-billed');
    const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
    await plans.changeByPaypal(owner, paymentId, plans.custom(40, 0));
    await plans.control('paypal', `/subscriptions/${sub}/approve`);
    await plans.changeByPaypal(owner, paymentId, plans.BASIC);
    await billedPast(owner.id, sub, (await row(owner.id)).end_date);
    expect(
      (await plans.paypalState()).transactions
        .filter((t) => t.subscription_id === sub)
        .map((t) => t.value),
    ).toEqual(['3.00', '10.00']);
    // $10 taken: the period is Custom 40 blocks; Basic still waits for the owner's approval
    expect(await row(owner.id)).toMatchObject({
      type: 'custom',
      price: '10.00',
      content: { planName: 'Custom', blockLimit: 40, responseMonthlyLimit: 0 },
      next_content: { planName: 'Basic', blockLimit: 8, responseMonthlyLimit: 1000 },
      next_price: '3.00',
    });
    expect(await plans.profileOf(owner.id)).toMatchObject({ block_limit: 43 });
  });

  it('"Cancel and return" at PayPal drops the pending change (declined): nothing revised again; a change PayPal bills already stays', async () => {
    const owner = await newUser('pp-declined');
    const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
    await plans.changeByPaypal(owner, paymentId, plans.custom(24, 0));
    const revision = async () =>
      (await plans.paypalState()).subscriptions.find((s) => s.id === sub)?.pending_revision;
    const asked = await revision();
    const declined = await plans.changeByPaypal(owner, paymentId, plans.BASIC, true);
    expect(declined.json.data).toMatchObject({ links: [] });
    expect(await revision()).toEqual(asked);
    expect(await row(owner.id)).toMatchObject({
      type: 'basic',
      next_content: { planName: 'Basic', blockLimit: 8, responseMonthlyLimit: 1000 },
      next_price: '3.00',
    });
    // approved at $10 first, then another change declined: PayPal bills $10, the row keeps its change
    await plans.changeByPaypal(owner, paymentId, plans.custom(40, 0));
    await plans.control('paypal', `/subscriptions/${sub}/approve`);
    await plans.changeByPaypal(owner, paymentId, plans.custom(20, 0));
    const refused = await callFunction(
      'change-paypal-payment',
      { paymentId, plan: plans.BASIC, declined: true },
      owner.accessToken,
    );
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ error: { code: 'change_approved' } });
    expect(await row(owner.id)).toMatchObject({
      next_content: { planName: 'Custom', blockLimit: 20, responseMonthlyLimit: 0 },
      next_price: '5.00',
    });
  });

  it('a Change to another plan of the same price: PayPal bills the same amount, and the period has the new plan', async () => {
    const owner = await newUser('pp-same-price');
    const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
    await webhooksDelivered(sub);
    await plans.changeByPaypal(owner, paymentId, plans.custom(12, 0));
    await plans.control('paypal', `/subscriptions/${sub}/approve`);
    await billedPast(owner.id, sub, (await row(owner.id)).end_date);
    await webhooksDelivered(sub);
    expect(await plans.takenFor(sub)).toEqual(['COMPLETED:3.00', 'COMPLETED:3.00']);
    expect(await row(owner.id)).toMatchObject({
      type: 'custom',
      price: '3.00',
      content: { planName: 'Custom', blockLimit: 12, responseMonthlyLimit: 0 },
      next_content: null,
    });
    expect(await plans.profileOf(owner.id)).toMatchObject({
      block_limit: 15,
      response_monthly_limit: 100,
    });
  });
});
