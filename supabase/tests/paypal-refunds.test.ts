// A PayPal checkout that cannot become a plan gives its first payment back (docs/plans.md, "What
// if recording fails"): another plan became active meanwhile (PT409), or the subscription is not
// the plan ordered; so does one paid for after plan.reconcile closed its checkout, or cancelled by
// the buyer after paying. Against the PayPal fake through the functions, the webhooks and the jobs
// worker: the payment is refunded once, `refunded` only when it went back and `refund_pending`
// (or a second purchase's own code) when the queue gives it back (PayPal down, a payment not
// captured yet), never twice; a refund PayPal refuses, or one the job gives up on, is recorded
// `failed` for the owner's Plan page and mailed to the operator.
import { describe, expect, it } from 'vitest';
import {
  PLAN_MESSAGES,
  SECOND_PURCHASE_CODES,
  SECOND_PURCHASE_REFUNDED_CODES,
} from '@reaction-blocks/contracts/plans';
import { newUser, sql, type TestUser } from './support/clients.ts';
import * as plans from './support/plans.ts';
import { eventually, mailbox } from './support/providers.ts';

/** Where the local stack sends the operator's alerts (stack.ts backgroundEnv OPERATOR_EMAIL). */
const OPERATOR = 'operator@reaction-blocks.local';

const jobKey = (subscriptionId: string) => `plan.paypal-refund:${subscriptionId}`;

/** What PayPal has of the subscription: its payments and the refunds made of them. */
async function atPayPal(subscriptionId: string) {
  const state = await plans.paypalState();
  return {
    status: state.subscriptions.find((s) => s.id === subscriptionId)?.status,
    payments: state.transactions
      .filter((t) => t.subscription_id === subscriptionId)
      .map((t) => t.status),
    refunds: state.refunds.filter((r) => r.subscription_id === subscriptionId).length,
  };
}

/**
 * What PayPal has of the subscription once the settle running beside the test (a webhook's) has
 * cancelled it and, unless told, refunded its payment.
 */
async function settledAtPayPal(subscriptionId: string, refunds = 1) {
  await eventually(async () => {
    const now = await atPayPal(subscriptionId);
    return now.status === 'CANCELLED' && now.refunds === refunds;
  });
  return atPayPal(subscriptionId);
}

/** The checkout_cancelled answer of a subscription cancelled before its first payment. */
const CANCELLED_CHECKOUT = {
  code: 'checkout_cancelled',
  message:
    'The subscription was cancelled before its first payment. No plan was added and nothing was charged.',
};

/** The owner's public.paypal_refunds rows, as the owner reads them (RLS), newest first. */
async function refundsOf(owner: TestUser) {
  const { data, error } = await owner.client
    .from('paypal_refunds')
    .select('subscription_id, user_id, status, error')
    .order('created_at', { ascending: false });
  if (error) throw error;
  return data;
}

const refundJob = async (subscriptionId: string) =>
  (
    await sql<{ status: string; attempts: number; result: unknown; last_error: string | null }>(
      'select status, attempts, result, last_error from private.jobs where dedupe_key = $1',
      [jobKey(subscriptionId)],
    )
  )[0];

/**
 * Runs the subscription's refund job now (whenever it was due), even a finished one again, and
 * waits for its outcome (the schedule's worker may be the one that claims it).
 */
async function runRefundJob(subscriptionId: string) {
  await sql(
    `update private.jobs set status = 'queued', run_at = now(), locked_until = null
      where dedupe_key = $1`,
    [jobKey(subscriptionId)],
  );
  await eventually(async () => {
    await plans.runWorker();
    const [job] = await sql<{ settled: boolean }>(
      `select status <> 'running' and (status <> 'queued' or run_at > now()) as settled
         from private.jobs where dedupe_key = $1`,
      [jobKey(subscriptionId)],
    );
    return job?.settled;
  });
}

/** A $3 subscription of the owner's at PayPal, approved unless `extra` says otherwise. */
const subscriptionOf = (owner: TestUser, extra: Record<string, unknown> = {}) =>
  plans
    .control<{ id: string }>('paypal', '/subscriptions', {
      quantity: '3',
      custom_id: owner.id,
      ...extra,
    })
    .then((s) => s.id);

/** A subscription the owner approves later ($3 unless told), its checkout started and pending. */
async function pendingCheckout(owner: TestUser, plan = plans.BASIC, extra = {}) {
  const sub = await subscriptionOf(owner, { approve: false, ...extra });
  const res = await plans.buyByPaypal(owner, sub, plan);
  expect(res.json.error?.code).toBe('payment_pending');
  return sub;
}

/** A plan written by hand while the checkout waits: recording it is refused with PT409. */
const planByHand = (owner: TestUser) =>
  sql(
    `insert into public.payments (user_id, type, price, is_active, content) values ($1, 'custom', 3, true, '{}')`,
    [owner.id],
  );

/**
 * Approved: the webhooks (and the owner's check right after the approval) settle the checkout,
 * which ends given back; the check's answer.
 */
async function approveAndSettle(owner: TestUser, sub: string) {
  await plans.control('paypal', `/subscriptions/${sub}/approve`);
  const answer = await plans.buyByPaypal(owner, sub);
  await givenBack(owner, sub);
  return answer;
}

const givenBack = (owner: TestUser, sub: string) =>
  eventually(async () =>
    (await plans.chargesOf(owner.id)).some((c) => c.provider_ref === sub && c.status === 'failed'),
  );

describe('a PayPal checkout that cannot become a plan gives the payment back', () => {
  it('another plan became active meanwhile (PT409): refunded once, and a retry or the job refunds nothing more', async () => {
    const owner = await newUser('paypal-409');
    const sub = await pendingCheckout(owner);
    await planByHand(owner);
    const answer = await approveAndSettle(owner, sub);
    // refunded by this call or by the webhook's settle a moment before it (then a retry's answer)
    expect(answer.status).toBe(409);
    expect(answer.json.error).toMatchObject(
      answer.json.error?.code === SECOND_PURCHASE_REFUNDED_CODES.activePlan
        ? { message: `${PLAN_MESSAGES.activePlan}. The payment was given back.` }
        : {
            code: SECOND_PURCHASE_CODES.activePlan,
            message: `${PLAN_MESSAGES.activePlan}. The payment will be given back.`,
          },
    );
    expect(await settledAtPayPal(sub)).toEqual({
      status: 'CANCELLED',
      payments: ['REFUNDED'],
      refunds: 1,
    });
    // a retry answers without refunding again, as the refund stands (given back: its code says
    // another plan came first and the payment went back, not refund_pending's "start again");
    // the job finds it refunded
    const retry = await plans.buyByPaypal(owner, sub);
    expect(retry.json.error?.code).toBe(SECOND_PURCHASE_REFUNDED_CODES.activePlan);
    await runRefundJob(sub);
    expect(await refundJob(sub)).toMatchObject({ status: 'done', result: { refunded: true } });
    expect((await atPayPal(sub)).refunds).toBe(1);
    expect((await plans.paymentsOf(owner.id)).map((p) => p.provider_payment_id)).toEqual([null]);
  });

  it('a subscription not as ordered (a price that does not match): refunded once', async () => {
    const owner = await newUser('paypal-mismatch');
    // a $3 subscription for a $10 plan, found out when PayPal activates it (the webhook's settle;
    // the owner's check would refuse it before its checkout: the last test's case)
    const plan = plans.custom(40, 0);
    const sub = await pendingCheckout(owner, plan);
    await plans.control('paypal', `/subscriptions/${sub}/approve`);
    await givenBack(owner, sub);
    const atPayPalNow = await settledAtPayPal(sub);
    // a retry says how the refund stands: given back (it said "will be given back" before)
    const retry = await plans.buyByPaypal(owner, sub, plan);
    expect(retry.json.error).toMatchObject({
      code: 'refunded',
      message: 'The subscription price does not match the plan. The payment was given back.',
    });
    expect(atPayPalNow).toEqual({
      status: 'CANCELLED',
      payments: ['REFUNDED'],
      refunds: 1,
    });
    await runRefundJob(sub);
    expect((await atPayPal(sub)).refunds).toBe(1);
    expect(await plans.paymentsOf(owner.id)).toEqual([]);
  });

  it('PayPal down (503) when refunding: the answer says it will be given back, and the job refunds it once', async () => {
    const owner = await newUser('paypal-503');
    const sub = await pendingCheckout(owner);
    await planByHand(owner);
    try {
      await plans.control('paypal', '/outage', { refund: 1000, subscription: sub });
      const answer = await approveAndSettle(owner, sub);
      expect(answer.json.error).toMatchObject({
        code: SECOND_PURCHASE_CODES.activePlan,
        message: `${PLAN_MESSAGES.activePlan}. The payment will be given back.`,
      });
      expect(await settledAtPayPal(sub, 0)).toEqual({
        status: 'CANCELLED',
        payments: ['COMPLETED'],
        refunds: 0,
      });
      // the job meets PayPal still down: tried again later; then PayPal is back
      await runRefundJob(sub);
      expect(await refundJob(sub)).toMatchObject({ status: 'queued' });
      expect((await refundJob(sub))!.last_error).toMatch(/PayPal 503 SERVICE_UNAVAILABLE/);
      expect((await atPayPal(sub)).refunds).toBe(0);
      await plans.control('paypal', '/outage', { refund: 0, subscription: sub });
      await runRefundJob(sub);
      expect(await refundJob(sub)).toMatchObject({ status: 'done', result: { refunded: true } });
      expect(await atPayPal(sub)).toMatchObject({ payments: ['REFUNDED'], refunds: 1 });
      // never twice: the job again, a retry of the checkout (which says it was given back)
      await runRefundJob(sub);
      expect((await plans.buyByPaypal(owner, sub)).json.error?.code).toBe(
        SECOND_PURCHASE_REFUNDED_CODES.activePlan,
      );
      expect((await atPayPal(sub)).refunds).toBe(1);
    } finally {
      await plans.control('paypal', '/outage', { refund: 0, subscription: sub });
    }
  });

  it('a first payment PayPal captures only after the cancel is refunded once it is captured', async () => {
    const owner = await newUser('paypal-late');
    const sub = await pendingCheckout(owner, plans.BASIC, { pending_payments: true });
    await planByHand(owner);
    const answer = await approveAndSettle(owner, sub);
    expect(answer.json.error?.code).toBe(SECOND_PURCHASE_CODES.activePlan);
    expect(await settledAtPayPal(sub, 0)).toEqual({
      status: 'CANCELLED',
      payments: ['PENDING'],
      refunds: 0,
    });
    // not captured yet: looked at again in an hour, its attempt not counted
    await runRefundJob(sub);
    expect(await refundJob(sub)).toMatchObject({ status: 'queued', attempts: 0 });
    const payment = (await plans.paypalState()).transactions.find((t) => t.subscription_id === sub);
    await plans.control('paypal', `/transactions/${payment!.id}/complete`);
    await runRefundJob(sub);
    expect(await refundJob(sub)).toMatchObject({ status: 'done', result: { refunded: true } });
    expect(await atPayPal(sub)).toMatchObject({ payments: ['REFUNDED'], refunds: 1 });
  });

  it('a subscription refused before its checkout (a plan is active, or not the plan ordered) is refunded by the queue, never a plan', async () => {
    const owner = await newUser('paypal-second');
    const { sub: plan } = await plans.boughtByPaypal(owner, 3);
    const second = await plans.paypalSubscription(owner, 3);
    const refused = await plans.buyByPaypal(owner, second);
    expect(refused.json.error).toMatchObject({
      code: SECOND_PURCHASE_CODES.activePlan,
      message: `${PLAN_MESSAGES.activePlan}. The payment will be given back.`,
    });
    const forged = await plans.paypalSubscription(owner, 3);
    const mismatch = await plans.buyByPaypal(owner, forged, plans.custom(40, 0));
    expect(mismatch.json.error?.code).toBe('plan_mismatch');
    // the owner's own plan sent as another plan: left alone (before: cancelled, and answered a
    // refund that never came), nothing queued
    const own = await plans.buyByPaypal(owner, plan, plans.custom(40, 0));
    expect(own.json.error).toMatchObject({
      code: 'subscription_in_use',
      message:
        'This subscription already pays for your plan, or its payment is being completed. Nothing changed.',
    });
    for (const sub of [second, forged]) await runRefundJob(sub);
    expect(await atPayPal(second)).toMatchObject({ payments: ['REFUNDED'], refunds: 1 });
    expect(await atPayPal(forged)).toMatchObject({ payments: ['REFUNDED'], refunds: 1 });
    expect(await atPayPal(plan)).toEqual({ status: 'ACTIVE', payments: ['COMPLETED'], refunds: 0 });
    expect(await refundJob(plan)).toBeUndefined();
    expect((await plans.paymentsOf(owner.id)).filter((p) => p.is_active)).toHaveLength(1);
    expect(await refundsOf(owner)).toEqual([
      expect.objectContaining({ subscription_id: forged, status: 'refunded' }),
      expect.objectContaining({ subscription_id: second, status: 'refunded' }),
    ]);
  });

  it('a second subscription approved while another checkout is being settled is cancelled and refunded; the first becomes the plan', async () => {
    // before: answered "try again in a few minutes" and left billed, with no checkout of its own
    const owner = await newUser('paypal-during');
    const first = await pendingCheckout(owner);
    const second = await plans.paypalSubscription(owner, 3);
    const refused = await plans.buyByPaypal(owner, second);
    expect(refused.json.error).toMatchObject({
      code: SECOND_PURCHASE_CODES.paymentInProgress,
      message: `${PLAN_MESSAGES.paymentInProgress}. The payment will be given back.`,
    });
    await runRefundJob(second);
    expect(await atPayPal(second)).toMatchObject({
      status: 'CANCELLED',
      payments: ['REFUNDED'],
      refunds: 1,
    });
    await plans.control('paypal', `/subscriptions/${first}/approve`);
    await eventually(async () => {
      await plans.buyByPaypal(owner, first);
      return (await plans.paymentsOf(owner.id)).some((p) => p.is_active);
    });
    expect(await atPayPal(first)).toMatchObject({ status: 'ACTIVE', refunds: 0 });
  });
});

describe('a PayPal subscription paid for a checkout that had ended, or cancelled before it was recorded', () => {
  it('approved after plan.reconcile closed its checkout: refunded once, cancelled, no plan', async () => {
    const owner = await newUser('paypal-late-approval');
    const sub = await pendingCheckout(owner);
    const [charge] = await plans.chargesOf(owner.id);
    // an hour without the buyer: the reconcile job closes the checkout
    await sql(
      `update private.payment_charges set created_at = now() - interval '61 minutes' where id = $1`,
      [charge!.id],
    );
    await sql(`update private.jobs set run_at = now() where dedupe_key = $1`, [
      `plan.reconcile:${charge!.id}`,
    ]);
    await eventually(async () => {
      await plans.runWorker();
      return (await plans.chargesOf(owner.id)).some(
        (c) => c.id === charge!.id && c.status === 'failed',
      );
    });
    // then the buyer approves: PayPal takes the first payment; its webhooks give it back
    await plans.control('paypal', `/subscriptions/${sub}/approve`);
    expect(await settledAtPayPal(sub)).toEqual({
      status: 'CANCELLED',
      payments: ['REFUNDED'],
      refunds: 1,
    });
    // the owner's check says so; neither it nor the job refunds again
    const answer = await plans.buyByPaypal(owner, sub);
    expect(answer.status).toBe(409);
    expect(answer.json.error).toMatchObject({
      code: 'refunded',
      message: 'Not approved in time. The payment was given back.',
    });
    await runRefundJob(sub);
    expect(await refundJob(sub)).toMatchObject({ status: 'done', result: { refunded: true } });
    expect((await atPayPal(sub)).refunds).toBe(1);
    expect(await plans.paymentsOf(owner.id)).toEqual([]);
    expect(await plans.profileOf(owner.id)).toMatchObject(plans.FREE_PROFILE);
  });

  it('cancelled at PayPal by the buyer after paying, before the plan was recorded: refunded once', async () => {
    const owner = await newUser('paypal-buyer-cancel');
    // approved and paid (no checkout yet: the owner's check has not come), then cancelled
    const sub = await plans.paypalSubscription(owner, 3);
    await plans.paypalClientCancel(sub);
    const answer = await plans.buyByPaypal(owner, sub);
    expect(answer.status).toBe(409);
    expect(answer.json.error).toMatchObject({
      code: 'refunded',
      message: 'The subscription is cancelled. The payment was given back.',
    });
    expect(await atPayPal(sub)).toEqual({
      status: 'CANCELLED',
      payments: ['REFUNDED'],
      refunds: 1,
    });
    const retry = await plans.buyByPaypal(owner, sub);
    expect(retry.json.error).toMatchObject({
      code: 'refunded',
      message: 'The subscription is cancelled. The payment was given back.',
    });
    await runRefundJob(sub);
    expect((await atPayPal(sub)).refunds).toBe(1);
    expect(await plans.paymentsOf(owner.id)).toEqual([]);
  });

  it('cancelled at PayPal before any payment: a cancelled checkout, nothing to give back', async () => {
    const owner = await newUser('paypal-cancel-unpaid');
    const sub = await subscriptionOf(owner, { approve: false });
    await plans.control('paypal', `/subscriptions/${sub}`, { status: 'CANCELLED' });
    const answer = await plans.buyByPaypal(owner, sub);
    expect(answer.json.error).toMatchObject(CANCELLED_CHECKOUT);
    // a retry answers the same; the queue looks for a late payment and finds none
    expect((await plans.buyByPaypal(owner, sub)).json.error).toMatchObject(CANCELLED_CHECKOUT);
    await runRefundJob(sub);
    expect(await refundJob(sub)).toMatchObject({ status: 'queued', attempts: 0 });
    expect((await atPayPal(sub)).refunds).toBe(0);
  });

  it('cancelled by the buyer while the first payment is not captured: a cancelled checkout, and the payment given back once PayPal captures it', async () => {
    // before: checkout_failed ("we could not confirm this payment") and nothing looked for the
    // payment PayPal still captured
    const owner = await newUser('paypal-cancel-pending');
    const sub = await subscriptionOf(owner, { pending_payments: true });
    await plans.paypalClientCancel(sub);
    const answer = await plans.buyByPaypal(owner, sub);
    expect(answer.status).toBe(409);
    expect(answer.json.error).toMatchObject(CANCELLED_CHECKOUT);
    expect(await plans.paymentsOf(owner.id)).toEqual([]);
    const payment = (await plans.paypalState()).transactions.find((t) => t.subscription_id === sub);
    expect(payment?.status).toBe('PENDING');
    await runRefundJob(sub);
    expect(await refundJob(sub)).toMatchObject({ status: 'queued', attempts: 0 });
    await plans.control('paypal', `/transactions/${payment!.id}/complete`);
    await runRefundJob(sub);
    expect(await refundJob(sub)).toMatchObject({ status: 'done', result: { refunded: true } });
    expect(await atPayPal(sub)).toMatchObject({ payments: ['REFUNDED'], refunds: 1 });
  });
});

describe('a refund PayPal does not make is never counted as given back', () => {
  /** An owner with a PayPal plan and a second subscription of theirs, approved and paid. */
  async function secondBesidePlan(label: string) {
    const owner = await newUser(label);
    await plans.boughtByPaypal(owner, 3);
    return { owner, second: await plans.paypalSubscription(owner, 3) };
  }

  /** PayPal answers the subscription's refunds `status` (null: COMPLETED) while `fn` runs. */
  async function withRefundAnswer(sub: string, status: string, fn: () => Promise<void>) {
    await plans.control('paypal', '/refund-answer', { subscription: sub, status });
    try {
      await fn();
    } finally {
      await plans.control('paypal', '/refund-answer', { subscription: sub, status: null });
    }
  }

  /** The operator's alert about the subscription, once the worker has sent it. */
  const alertOf = (sub: string) =>
    eventually(async () => {
      await plans.runWorker();
      return (await mailbox(OPERATOR)).find((m) => m.subject.includes(sub));
    });

  it.each(['FAILED', 'CANCELLED'] as const)(
    'PayPal answers the refund %s: recorded failed, the owner reads it, the operator is mailed once',
    async (status) => {
      // before: `refunded`, the job done, and nobody told
      const { owner, second } = await secondBesidePlan(`paypal-refund-${status.toLowerCase()}`);
      await withRefundAnswer(second, status, async () => {
        const refused = await plans.buyByPaypal(owner, second);
        expect(refused.json.error?.code).toBe(SECOND_PURCHASE_CODES.activePlan);
        await runRefundJob(second);
        expect(await refundJob(second)).toMatchObject({
          status: 'failed',
          last_error: expect.stringContaining(`refund of payment`) as string,
        });
        expect((await refundJob(second))!.last_error).toContain(status);
        expect(await atPayPal(second)).toEqual({
          status: 'CANCELLED',
          payments: ['COMPLETED'],
          refunds: 1,
        });
        expect(await refundsOf(owner)).toEqual([
          {
            subscription_id: second,
            user_id: owner.id,
            status: 'failed',
            error: expect.stringContaining(status) as string,
          },
        ]);
        const alert = await alertOf(second);
        expect(alert?.html).toContain(owner.id);
        expect(alert?.html).toContain(status);
        // the job again: nothing more refunded, no second alert
        await runRefundJob(second);
        await plans.runWorker();
        expect((await atPayPal(second)).refunds).toBe(1);
        expect((await mailbox(OPERATOR)).filter((m) => m.subject.includes(second))).toHaveLength(1);
      });
    },
  );

  it('a refund tried at once that PayPal answers CANCELLED is said and recorded failed at once, the operator mailed once', async () => {
    // before: "will be given back" until the job, two minutes later, recorded it failed
    const owner = await newUser('paypal-refund-now-cancelled');
    const sub = await pendingCheckout(owner);
    await planByHand(owner);
    await withRefundAnswer(sub, 'CANCELLED', async () => {
      const answer = await approveAndSettle(owner, sub);
      // the webhook's settle or this check tried the refund: never `refunded`; `refund_failed`
      // once PayPal has answered (a check that met the webhook's refund under way: the retry)
      expect([SECOND_PURCHASE_CODES.activePlan, 'refund_failed']).toContain(
        answer.json.error?.code,
      );
      await eventually(async () => (await atPayPal(sub)).refunds === 1);
      // recorded failed without the job
      await eventually(async () => (await refundsOf(owner))[0]?.status === 'failed');
      expect(await refundJob(sub)).toMatchObject({ status: 'queued', attempts: 0 });
      expect(await refundsOf(owner)).toEqual([
        {
          subscription_id: sub,
          user_id: owner.id,
          status: 'failed',
          error: expect.stringContaining('CANCELLED') as string,
        },
      ]);
      const retry = await plans.buyByPaypal(owner, sub);
      expect(retry.json.error).toMatchObject({
        code: 'refund_failed',
        message: `${PLAN_MESSAGES.activePlan}. PayPal refused to give the payment back; the Plan page says whom to write to.`,
      });
      // the job, when it runs, finds the same: nothing more refunded, no second alert
      await alertOf(sub);
      await runRefundJob(sub);
      expect(await refundJob(sub)).toMatchObject({ status: 'failed' });
      await plans.runWorker();
      expect((await atPayPal(sub)).refunds).toBe(1);
      expect((await mailbox(OPERATOR)).filter((m) => m.subject.includes(sub))).toHaveLength(1);
    });
  });

  it('a refund PayPal answers PENDING is looked at again, and given back once PayPal completes it', async () => {
    const { owner, second } = await secondBesidePlan('paypal-refund-pending');
    await withRefundAnswer(second, 'PENDING', async () => {
      await plans.buyByPaypal(owner, second);
      await runRefundJob(second);
      expect(await refundJob(second)).toMatchObject({ status: 'queued', attempts: 0 });
      expect(await refundsOf(owner)).toMatchObject([{ status: 'queued' }]);
      await plans.control('paypal', '/refund-answer', { subscription: second, status: null });
      await runRefundJob(second);
      expect(await refundJob(second)).toMatchObject({ status: 'done', result: { refunded: true } });
      expect(await atPayPal(second)).toMatchObject({ payments: ['REFUNDED'], refunds: 1 });
      expect(await refundsOf(owner)).toMatchObject([{ status: 'refunded' }]);
    });
  });

  it('the job gives up (PayPal down through its last attempt): recorded failed and the operator mailed', async () => {
    // before: the job failed quietly, purged after 30 days, and the owner kept reading "will be
    // given back"
    const { owner, second } = await secondBesidePlan('paypal-refund-gave-up');
    await plans.buyByPaypal(owner, second);
    try {
      await plans.control('paypal', '/outage', { refund: 1000, subscription: second });
      await sql(`update private.jobs set attempts = max_attempts - 1 where dedupe_key = $1`, [
        jobKey(second),
      ]);
      await runRefundJob(second);
      expect(await refundJob(second)).toMatchObject({
        status: 'failed',
        last_error: expect.stringMatching(/^Gave up after 100 attempts: PayPal 503/) as string,
      });
      expect(await refundsOf(owner)).toMatchObject([{ subscription_id: second, status: 'failed' }]);
      expect((await alertOf(second))?.subject).toBe(`PayPal payment not given back: ${second}`);
    } finally {
      await plans.control('paypal', '/outage', { refund: 0, subscription: second });
    }
  });

  it('a refund the job could not make for an account deleted meanwhile: kept with no owner, the operator mailed; settled ones go with the account', async () => {
    // before: the paypal_refunds row went with the account, so `failed` was written nowhere and
    // nobody was told
    const { owner, second } = await secondBesidePlan('paypal-refund-deleted');
    const settled = await plans.paypalSubscription(owner, 3);
    await withRefundAnswer(second, 'FAILED', async () => {
      try {
        // PayPal is down for this one's refunds until the account is gone: it waits for its job
        await plans.control('paypal', '/outage', { refund: 1000, subscription: second });
        await plans.buyByPaypal(owner, second);
        expect(await refundsOf(owner)).toEqual([
          expect.objectContaining({ subscription_id: second, status: 'queued' }),
        ]);
        // another one given back: settled, it goes with the account
        await plans.buyByPaypal(owner, settled);
        await runRefundJob(settled);
        expect((await refundsOf(owner)).find((r) => r.subscription_id === settled)?.status).toBe(
          'refunded',
        );
        await sql('delete from auth.users where id = $1', [owner.id]);
      } finally {
        await plans.control('paypal', '/outage', { refund: 0, subscription: second });
      }
      await runRefundJob(second);
      expect(await refundJob(second)).toMatchObject({ status: 'failed' });
    });
    expect(
      await sql(
        'select subscription_id, user_id, status from public.paypal_refunds where subscription_id = any($1)',
        [[second, settled]],
      ),
    ).toEqual([{ subscription_id: second, user_id: null, status: 'failed' }]);
    const alert = await alertOf(second);
    expect(alert?.html).toContain('a deleted account');
    expect(alert?.html).toContain('FAILED');
  });

  it('an owner reads only their own refunds, and cannot write them', async () => {
    const { owner, second } = await secondBesidePlan('paypal-refund-rls');
    const other = await newUser('paypal-refund-rls-other');
    await plans.buyByPaypal(owner, second);
    expect(await refundsOf(owner)).toHaveLength(1);
    expect(await refundsOf(other)).toEqual([]);
    const { error } = await owner.client
      .from('paypal_refunds')
      .update({ status: 'refunded' })
      .eq('subscription_id', second);
    expect(error?.code).toBe('42501');
    const calls = [
      [
        'queue_paypal_refund',
        { p_subscription_id: 'I-FORGED0000', p_user_id: owner.id, p_reason: 'x' },
      ],
      ['finish_paypal_refund', { p_subscription_id: second, p_status: 'refunded' }],
    ] as const;
    for (const [fn, args] of calls)
      expect((await owner.client.rpc(fn, args)).error?.code).toBe('42501');
    expect(await refundsOf(owner)).toMatchObject([{ status: 'queued' }]);
  });
});
