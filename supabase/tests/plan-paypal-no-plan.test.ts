// A PayPal subscription PayPal may bill with no live plan of ours (docs/plans.md, "A subscription
// with no live plan"; rev-money3 D1, D2): a plan our side ended has its subscription cancelled at
// PayPal and a later payment for it given back, never revived; a subscription approved and billed
// whose check never ran is cancelled and given back once its check has had its hour.
import { describe, expect, it } from 'vitest';
import { callFunction, newUser, sql, type TestUser } from './support/clients.ts';
import * as plans from './support/plans.ts';
import { eventually } from './support/providers.ts';

const row = async (ownerId: string) => (await plans.paymentsOf(ownerId))[0]!;
/** Every webhook PayPal sent about a subscription has been answered (or given up on). */
const webhooksAnswered = (sub: string) =>
  eventually(async () =>
    (await plans.paypalState()).webhooks
      .filter((w) => w.body.includes(sub))
      .every((w) => w.status === 'delivered' || w.status === 'failed'),
  );
const refundRow = async (sub: string) =>
  (
    await sql<{ status: string; user_id: string | null }>(
      'select status, user_id from public.paypal_refunds where subscription_id = $1',
      [sub],
    )
  )[0];
/** The worker runs until `done` holds. */
const workedUntil = (done: () => Promise<boolean>) =>
  eventually(async () => {
    await plans.runWorker();
    return done();
  });

/** A PayPal plan whose renewal PayPal could not take, a week ago: PayPal still has it ACTIVE. */
async function unpaidForAWeek(owner: TestUser) {
  const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
  await webhooksAnswered(sub);
  await plans.control('paypal', `/subscriptions/${sub}`, { fail: true });
  await plans.control('paypal', `/subscriptions/${sub}/bill`);
  await eventually(async () => !!(await row(owner.id)).renewal_failed_at);
  await webhooksAnswered(sub);
  await sql(
    `update public.payments set start_date = current_date - 39, end_date = current_date - 8 where id = $1`,
    [paymentId],
  );
  await plans.control('paypal', `/subscriptions/${sub}`, { fail: false });
  return { sub, paymentId };
}

describe('a PayPal plan our side ends', () => {
  it('the daily expiry ends it: the subscription is cancelled at PayPal, and a Stop answers 200', async () => {
    const owner = await newUser('ppend-expiry');
    const { sub, paymentId } = await unpaidForAWeek(owner);
    await sql('select private.expire_plans()');
    expect(await row(owner.id)).toMatchObject({ is_active: false, auto_renew: false });
    await workedUntil(async () => (await plans.subscriptionStatus(sub)) === 'CANCELLED');
    // nothing taken after the end: nothing given back, no refund row
    expect(await plans.takenFor(sub)).toEqual(['COMPLETED:3.00']);
    expect(await refundRow(sub)).toBeUndefined();
    // the owner's Stop of the ended plan is not "No such plan"
    const stop = await callFunction('cancel-paypal-payment', { paymentId }, owner.accessToken);
    expect(stop.status, JSON.stringify(stop.json)).toBe(200);
  });

  it('end_plan (the renewal check) ends it: the subscription is cancelled at PayPal', async () => {
    const owner = await newUser('ppend-endplan');
    const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
    await webhooksAnswered(sub);
    await sql('select public.end_plan($1)', [paymentId]);
    await workedUntil(async () => (await plans.subscriptionStatus(sub)) === 'CANCELLED');
    expect(await row(owner.id)).toMatchObject({ is_active: false });
  });

  it('a payment PayPal takes after the end, beside a newer card plan: given back, nothing revived, the webhook answered', async () => {
    const owner = await newUser('ppend-late');
    const { sub, paymentId } = await unpaidForAWeek(owner);
    // ended on our side, its cancel not at PayPal yet (PayPal down, or its bill came first)
    await sql('update public.payments set is_active = false, auto_renew = false where id = $1', [
      paymentId,
    ]);
    const card = await plans.buyByCard(owner, await plans.cardKey(owner));
    expect(card.status, JSON.stringify(card.json)).toBe(200);
    await plans.control('paypal', `/subscriptions/${sub}/bill`);
    await webhooksAnswered(sub);
    const hooks = (await plans.paypalState()).webhooks.filter((w) => w.body.includes(sub));
    expect(hooks.every((w) => w.status === 'delivered')).toBe(true);
    await workedUntil(async () => (await refundRow(sub))?.status === 'refunded');
    expect(await plans.subscriptionStatus(sub)).toBe('CANCELLED');
    expect(await plans.takenFor(sub)).toEqual(['COMPLETED:3.00', 'REFUNDED:3.00']);
    const rows = await plans.paymentsOf(owner.id);
    expect(rows.filter((r) => r.is_active).map((r) => r.method)).toEqual(['iamport']);
    expect((await refundRow(sub))?.user_id).toBe(owner.id);
  });

  it('a payment PayPal takes after the end, no other plan: given back, the plan stays ended', async () => {
    const owner = await newUser('ppend-revive');
    const { sub, paymentId } = await unpaidForAWeek(owner);
    await sql('update public.payments set is_active = false, auto_renew = false where id = $1', [
      paymentId,
    ]);
    await plans.control('paypal', `/subscriptions/${sub}/bill`);
    await webhooksAnswered(sub);
    expect(await row(owner.id)).toMatchObject({ is_active: false, auto_renew: false });
    expect(await plans.profileOf(owner.id)).toMatchObject(plans.FREE_PROFILE);
    await workedUntil(async () => (await refundRow(sub))?.status === 'refunded');
    expect(await plans.subscriptionStatus(sub)).toBe('CANCELLED');
    // the period paid before the end stays paid; only the payment after it goes back
    expect(await plans.takenFor(sub)).toEqual(['COMPLETED:3.00', 'REFUNDED:3.00']);
  });

  it('a payment after the end that PayPal lists days before its last_payment.time (an e-check cleared later): given back', async () => {
    // before: the job looked for it from last_payment.time on, missed it and gave nothing back
    const owner = await newUser('ppend-echeck');
    const { sub, paymentId } = await unpaidForAWeek(owner);
    const day = 86_400_000;
    // the period paid before the end was paid 39 days ago, as the row says
    const [first] = (await plans.paypalState()).transactions.filter(
      (t) => t.subscription_id === sub,
    );
    await plans.control('paypal', `/transactions/${first!.id}`, {
      time: new Date(Date.now() - 39 * day).toISOString(),
    });
    await sql('update public.payments set is_active = false, auto_renew = false where id = $1', [
      paymentId,
    ]);
    // an e-check made three days ago, listed then, cleared (the last payment) now
    await plans.control('paypal', `/subscriptions/${sub}`, { pending_payments: true });
    await plans.control('paypal', `/subscriptions/${sub}/bill`);
    const echeck = (await plans.paypalState()).transactions.find(
      (t) => t.subscription_id === sub && t.status === 'PENDING',
    )!;
    await plans.control('paypal', `/transactions/${echeck.id}`, {
      time: new Date(Date.now() - 3 * day).toISOString(),
    });
    await plans.control('paypal', `/transactions/${echeck.id}/complete`);
    await webhooksAnswered(sub);
    await workedUntil(async () => (await refundRow(sub))?.status === 'refunded');
    expect(await plans.subscriptionStatus(sub)).toBe('CANCELLED');
    // that payment goes back, the one before the end stays the owner's
    expect(await plans.takenFor(sub)).toEqual(['COMPLETED:3.00', 'REFUNDED:3.00']);
    expect((await plans.paypalState()).refunds.map((r) => r.capture_id)).toContain(echeck.id);
  });

  it('an ended plan’s account deleted: its subscription is stopped too', async () => {
    const owner = await newUser('ppend-deleted');
    const { sub, paymentId } = await unpaidForAWeek(owner);
    // ended on our side, its cancel not at PayPal yet
    await sql('update public.payments set is_active = false, auto_renew = false where id = $1', [
      paymentId,
    ]);
    const del = await callFunction('delete-user', {}, owner.accessToken);
    expect(del.status, JSON.stringify(del.json)).toBe(200);
    expect(
      await sql('select was_plan from private.account_stops where provider_ref = $1', [sub]),
    ).toEqual([{ was_plan: true }]);
    await workedUntil(async () => (await plans.subscriptionStatus(sub)) === 'CANCELLED');
  });
});

describe('a PayPal subscription approved and billed whose check never ran', () => {
  const orphanJob = async (sub: string) =>
    (
      await sql<{ status: string; run_at: Date; result: Record<string, unknown> | null }>(
        'select status, run_at, result from private.jobs where dedupe_key = $1',
        [`plan.paypal-orphan:${sub}`],
      )
    )[0];

  it('is cancelled and given back once its check had its hour', async () => {
    const owner = await newUser('pporphan');
    // approved in PayPal's window (ACTIVE, the first payment taken); the tab closed before the check
    const sub = await plans.paypalSubscription(owner, 3);
    await webhooksAnswered(sub);
    const job = await orphanJob(sub);
    expect(job?.status).toBe('queued');
    // the check has an hour: nothing is cancelled before
    expect(job!.run_at.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(await plans.subscriptionStatus(sub)).toBe('ACTIVE');
    await sql('update private.jobs set run_at = now() where dedupe_key = $1', [
      `plan.paypal-orphan:${sub}`,
    ]);
    await workedUntil(async () => (await refundRow(sub))?.status === 'refunded');
    expect(await plans.subscriptionStatus(sub)).toBe('CANCELLED');
    expect(await plans.takenFor(sub)).toEqual(['REFUNDED:3.00']);
    expect(await plans.paymentsOf(owner.id)).toEqual([]);
  });

  it('a check that comes after the job gave it back is told so: given back, buy again', async () => {
    const owner = await newUser('pporphan-late');
    const sub = await plans.paypalSubscription(owner, 3);
    await webhooksAnswered(sub);
    await sql('update private.jobs set run_at = now() where dedupe_key = $1', [
      `plan.paypal-orphan:${sub}`,
    ]);
    await workedUntil(async () => (await refundRow(sub))?.status === 'refunded');
    // the buyer's tab comes back an hour late and checks the approved subscription
    const late = await plans.buyByPaypal(owner, sub);
    expect(late.status, JSON.stringify(late.json)).toBe(409);
    expect(late.json.error).toMatchObject({ code: 'approval_expired_refunded' });
    // no checkout left behind, nothing recorded, nothing given back twice
    expect(await plans.chargesOf(owner.id)).toEqual([]);
    expect(await plans.paymentsOf(owner.id)).toEqual([]);
    expect(await plans.takenFor(sub)).toEqual(['REFUNDED:3.00']);
    // the same while PayPal's refund is still on its way: it will be given back
    const owner2 = await newUser('pporphan-late-pending');
    const sub2 = await plans.paypalSubscription(owner2, 3);
    await webhooksAnswered(sub2);
    await plans.control('paypal', '/refund-answer', { subscription: sub2, status: 'PENDING' });
    await sql('update private.jobs set run_at = now() where dedupe_key = $1', [
      `plan.paypal-orphan:${sub2}`,
    ]);
    await workedUntil(async () => (await plans.subscriptionStatus(sub2)) === 'CANCELLED');
    const late2 = await plans.buyByPaypal(owner2, sub2);
    expect(late2.status, JSON.stringify(late2.json)).toBe(409);
    expect(late2.json.error).toMatchObject({ code: 'approval_expired' });
  });

  it('a check that came within the hour keeps its plan: its orphan job is taken out, nothing run', async () => {
    // before: every PayPal purchase left a plan.paypal-orphan job (its webhook comes before the
    // check) that ran an hour later only to find the plan ('skipped: a plan')
    const owner = await newUser('pporphan-checked');
    const sub = await plans.paypalSubscription(owner, 3);
    await webhooksAnswered(sub);
    expect((await orphanJob(sub))?.status).toBe('queued');
    const bought = await plans.buyByPaypal(owner, sub);
    expect(bought.status, JSON.stringify(bought.json)).toBe(200);
    expect(await orphanJob(sub)).toBeUndefined();
    // PayPal's next webhooks find the plan: nothing queued again
    await plans.control('paypal', `/subscriptions/${sub}/bill`);
    await webhooksAnswered(sub);
    expect(await orphanJob(sub)).toBeUndefined();
    expect(await plans.subscriptionStatus(sub)).toBe('ACTIVE');
    expect(await row(owner.id)).toMatchObject({ is_active: true, method: 'paypal' });
    expect(await refundRow(sub)).toBeUndefined();
  });

  it('a check that comes while the job cancels the subscription records no plan: told it is given back', async () => {
    // an outside tester's note: the job looked (no checkout), then cancelled and refunded at
    // PayPal with nothing to stop a check in between; the check recorded a plan whose
    // subscription the job then cancelled and gave back (before: 200, an active plan, its
    // subscription CANCELLED and its payment REFUNDED)
    const owner = await newUser('pporphan-race');
    const sub = await plans.paypalSubscription(owner, 3);
    await webhooksAnswered(sub);
    await plans.control('paypal', `/subscriptions/${sub}/hold-cancel`);
    await sql('update private.jobs set run_at = now() where dedupe_key = $1', [
      `plan.paypal-orphan:${sub}`,
    ]);
    const worker = plans.runWorker();
    // the job has looked and its cancel waits at PayPal, the subscription still ACTIVE
    await eventually(async () => (await plans.paypalState()).cancelsHeld.includes(sub));
    const check = await plans.buyByPaypal(owner, sub);
    await plans.control('paypal', `/subscriptions/${sub}/release-cancel`);
    await worker;
    await workedUntil(async () => (await refundRow(sub))?.status === 'refunded');
    expect(check.status, JSON.stringify(check.json)).toBe(409);
    expect(check.json.error).toMatchObject({ code: 'approval_expired' });
    expect(await plans.paymentsOf(owner.id)).toEqual([]);
    expect(await plans.chargesOf(owner.id)).toEqual([]);
    expect(await plans.subscriptionStatus(sub)).toBe('CANCELLED');
    expect(await plans.takenFor(sub)).toEqual(['REFUNDED:3.00']);
  });

  it('an orphan job already running when a late check starts is left to run', async () => {
    const owner = await newUser('pporphan-settling');
    const sub = await plans.paypalSubscription(owner, 3);
    await webhooksAnswered(sub);
    // the job already claimed (running) when the check starts: it is not taken out
    await sql(`update private.jobs set status = 'running' where dedupe_key = $1`, [
      `plan.paypal-orphan:${sub}`,
    ]);
    const bought = await plans.buyByPaypal(owner, sub);
    expect(bought.status, JSON.stringify(bought.json)).toBe(200);
    expect((await orphanJob(sub))?.status).toBe('running');
  });
});

describe('a PayPal plan granted before PayPal captured its first payment (an e-check)', () => {
  const firstPaymentJob = async (sub: string) =>
    (
      await sql<{ status: string; result: Record<string, unknown> | null }>(
        'select status, result from private.jobs where dedupe_key = $1',
        [`plan.paypal-first-payment:${sub}`],
      )
    )[0];
  /** The owner approves with a payment PayPal captures later; the check grants the plan. */
  async function grantedUncaptured(owner: TestUser) {
    const bought = await plans.boughtUncaptured(owner);
    expect((await firstPaymentJob(bought.sub))?.status).toBe('queued');
    return bought;
  }
  /** The job's next look, `daysOld` days after it was written. */
  const lookNow = (sub: string, daysOld: number) =>
    sql(
      `update private.jobs set run_at = now(), created_at = now() - make_interval(days => $2)
        where dedupe_key = $1`,
      [`plan.paypal-first-payment:${sub}`, daysOld],
    );

  it('never captured: the plan is taken back and the subscription cancelled', async () => {
    const owner = await newUser('ppfirst-never');
    const { sub, paymentId } = await grantedUncaptured(owner);
    // still pending within the 14 days: the plan stays
    await lookNow(sub, 2);
    await workedUntil(async () => (await firstPaymentJob(sub))?.status === 'queued');
    expect(await row(owner.id)).toMatchObject({ is_active: true });
    // still pending after 14 days: nothing was paid
    await lookNow(sub, 15);
    await workedUntil(async () => (await firstPaymentJob(sub))?.status === 'done');
    expect((await firstPaymentJob(sub))?.result).toEqual({ ended: paymentId });
    expect(await row(owner.id)).toMatchObject({ is_active: false });
    expect(await plans.profileOf(owner.id)).toMatchObject(plans.FREE_PROFILE);
    await workedUntil(async () => (await plans.subscriptionStatus(sub)) === 'CANCELLED');
  });

  it('captured: the plan stays', async () => {
    const owner = await newUser('ppfirst-cleared');
    const { sub } = await grantedUncaptured(owner);
    const payment = (await plans.paypalState()).transactions.find((t) => t.subscription_id === sub);
    await plans.control('paypal', `/transactions/${payment!.id}/complete`);
    await webhooksAnswered(sub);
    await lookNow(sub, 15);
    await workedUntil(async () => (await firstPaymentJob(sub))?.status === 'done');
    expect((await firstPaymentJob(sub))?.result).toEqual({ captured: true });
    expect(await row(owner.id)).toMatchObject({ is_active: true });
    expect(await plans.subscriptionStatus(sub)).toBe('ACTIVE');
  });
});
