// Deleting an account stops what its providers would still charge (docs/plans.md, "Deleting an
// account"): the card plan's PortOne schedule revoked and its billing key deleted, the PayPal
// subscription cancelled, through the queue (plan.account-stop, from private.account_stops, the
// provider ids kept after the profile goes); a payment that arrives for the deleted account (a
// webhook, the reconcile job, a checkout racing the deletion) is given back, once.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  callFunction,
  callWaitsOnLock,
  newUser,
  sql,
  stack,
  transaction,
  type TestUser,
} from './support/clients.ts';
import * as plans from './support/plans.ts';
import { eventually, mailbox } from './support/providers.ts';
import {
  boughtByCard,
  paymentStatus,
  renewalDue,
  scheduleAtPortOne,
  releaseRevokeJob,
  scheduled,
  stoppedLate,
} from './support/renewals.ts';

/** Where the local stack sends the operator's alerts (stack.ts backgroundEnv OPERATOR_EMAIL). */
const OPERATOR = 'operator@reaction-blocks.local';

const deleteAccount = async (owner: TestUser) => {
  const res = await callFunction('delete-user', {}, owner.accessToken);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
};

/** The account's stop jobs (plan.account-stop), queued ones only, due at `runAt`. */
const stopsDueAt = (runAt: string) =>
  `update private.jobs j set run_at = ${runAt} from private.account_stops s
    where j.payload ->> 'stop_id' = s.id::text and s.user_id = $1 and j.status = 'queued'
    returning j.id`;

/**
 * The same deletion without delete-user's kick of the worker, so the provider can be made to
 * charge (or fail) before the stop job runs: the stop jobs the deletion queues are held, due in
 * an hour from the deleting transaction on, until stopsDue. Queued due now, the queue's 5-second
 * tick could run them first (the schedule revoked before PortOne ran it, the subscription
 * cancelled before PayPal billed it).
 */
const deleteQuietly = (owner: TestUser) =>
  transaction(async (client) => {
    await client.query('delete from auth.users where id = $1', [owner.id]);
    const held = await client.query(stopsDueAt(`now() + interval '1 hour'`), [owner.id]);
    expect(held.rowCount).toBeGreaterThan(0);
  });

/** The deleted account's held stop jobs due now. */
const stopsDue = async (owner: TestUser) =>
  expect(await sql(stopsDueAt('now()'), [owner.id])).not.toEqual([]);

const stopJobs = (ref: string) =>
  sql(
    `select j.status, j.attempts, j.last_error, j.result from private.jobs j
       join private.account_stops s on j.payload ->> 'stop_id' = s.id::text
      where s.provider_ref = $1`,
    [ref],
  );

/**
 * Runs the worker until `done` holds of what `seen` reads (the shared queue may hold other files'
 * jobs first); a timeout says what was seen last beside the stop jobs of `ref` (a billing key or
 * a subscription).
 */
const untilWorked = async <T>(ref: string, seen: () => Promise<T>, done: (value: T) => boolean) => {
  await eventually(
    async () => {
      await plans.runWorker();
      return done(await seen());
    },
    60_000,
    async () => ({ seen: await seen(), jobs: await stopJobs(ref) }),
  );
};

/** PortOne gave the payment back. */
const givenBack = (status: string | undefined) => status === 'CANCELLED';

const ownPortonePayments = async (owner: TestUser) =>
  (await plans.portoneState()).payments
    .filter((p) => p.customer.id === owner.id)
    .map((p) => [p.id, p.status]);

const subTransactions = async (sub: string) =>
  (await plans.paypalState()).transactions
    .filter((t) => t.subscription_id === sub)
    .map((t) => t.status);

describe('deleting an account with a plan', () => {
  it('card: the renewal schedule is revoked and the billing key deleted; nothing more is charged', async () => {
    const owner = await newUser('del-card');
    const { key } = await boughtByCard(owner);
    const sched = await scheduled(key, 3);
    await deleteAccount(owner);
    const keyState = async () =>
      (await plans.portoneState()).billingKeys.find((k) => k.billingKey === key)?.status;
    await untilWorked(key, keyState, (state) => state === 'DELETED');
    const st = await plans.portoneState();
    expect(st.schedules.find((s) => s.id === sched.id)?.status).toBe('REVOKED');
    // PortOne's run of the day finds nothing to charge
    await plans.control('portone', '/schedules/run', { billingKey: key });
    expect(await ownPortonePayments(owner)).toEqual([[expect.any(String), 'PAID']]);
    // what the stop keeps: the provider ids, not the charge rows
    expect(
      await sql('select count(*)::int as n from private.payment_charges where user_id = $1', [
        owner.id,
      ]),
    ).toEqual([{ n: 0 }]);
  });

  it('card: a renewal PortOne charged as the account went (its webhook after) is refunded, once', async () => {
    const { owner, key, chargeId } = await renewalDue('del-card-ran');
    await deleteQuietly(owner);
    // PortOne runs the schedule before the stop job revoked it; its webhook reaches us
    await plans.control('portone', '/schedules/run', { paymentId: chargeId });
    await stopsDue(owner);
    await untilWorked(key, () => paymentStatus(chargeId), givenBack);
    // the first payment (the period the owner had) stays; the webhook replayed changes nothing
    const st = await plans.portoneState();
    expect(
      st.payments
        .filter((p) => p.customer.id === owner.id)
        .map((p) => p.status)
        .sort(),
    ).toEqual(['CANCELLED', 'PAID']);
    const hook = st.webhooks.find((w) => w.summary.paymentId === chargeId);
    const replay = await fetch(`${stack().apiUrl}/functions/v1/portone-webhook`, {
      method: 'POST',
      headers: hook!.headers,
      body: hook!.body,
    });
    expect(replay.status).toBe(200);
    await plans.runWorker();
    expect(await paymentStatus(chargeId)).toBe('CANCELLED');
  });

  it('card: a schedule a Stop revoked too late runs after the deletion: refunded', async () => {
    const { owner, key, paymentId, chargeId } = await renewalDue('del-card-late');
    // the Stop is recorded as the schedule job marked the charge after PortOne's revoke by key
    // (a schedule made late): plan.revoke-schedule is queued for it, and has not run (held, as
    // the stop jobs are, until PortOne has run the schedule)
    await stoppedLate(owner, paymentId, chargeId, { held: true });
    await deleteQuietly(owner);
    // PortOne runs the schedule before the stop job revoked it; its webhook reaches us
    await plans.control('portone', '/schedules/run', { paymentId: chargeId });
    await releaseRevokeJob(chargeId);
    await stopsDue(owner);
    await untilWorked(key, () => paymentStatus(chargeId), givenBack);
    // the first payment (the period the owner had) stays
    expect((await ownPortonePayments(owner)).map(([, status]) => status).sort()).toEqual([
      'CANCELLED',
      'PAID',
    ]);
  });

  it("card: PortOne charges the deleted account's key under ids its stop does not hold: found by the key, refunded, never recorded", async () => {
    // before: the webhook looked the stop up by the payment's id only, so these stayed PAID
    const owner = await newUser('del-card-key');
    const { key } = await boughtByCard(owner);
    await scheduled(key, 3);
    // schedules PortOne has on the key under payment ids the deleting transaction did not know
    // (one of ours by its shape, one not)
    const ids = [crypto.randomUUID(), `other-${crypto.randomUUID()}`];
    for (const paymentId of ids) await scheduleAtPortOne(owner, key, paymentId);
    await deleteQuietly(owner);
    // PortOne runs them before the stop job revoked the key's schedules; their webhooks reach us
    for (const paymentId of ids) await plans.control('portone', '/schedules/run', { paymentId });
    await stopsDue(owner);
    const states = async () => Promise.all(ids.map(paymentStatus));
    await untilWorked(key, states, (seen) => seen.join() === 'CANCELLED,CANCELLED');
    // the first payment (the period the owner had) stays; nothing was recorded for the account
    expect((await ownPortonePayments(owner)).map(([, status]) => status).sort()).toEqual([
      'CANCELLED',
      'CANCELLED',
      'PAID',
    ]);
    expect(await sql('select 1 from public.payments where user_id = $1', [owner.id])).toEqual([]);
  });

  it('paypal: the subscription is cancelled; a payment PayPal took after the deletion is refunded, not the one before', async () => {
    const owner = await newUser('del-pp');
    const { sub } = await plans.boughtByPaypal(owner, 3);
    // PayPal bills once more before the stop job cancels it, and is down for the first refund
    await deleteQuietly(owner);
    await plans.control('paypal', '/outage', { subscription: sub, refund: 1 });
    await plans.control('paypal', `/subscriptions/${sub}/bill`);
    await stopsDue(owner);
    await untilWorked(
      sub,
      () => subTransactions(sub),
      (tx) => tx.join() === 'COMPLETED,REFUNDED',
    );
    expect(await plans.subscriptionStatus(sub)).toBe('CANCELLED');
    expect(await plans.refundsOf(sub)).toHaveLength(1);
  });
  it('paypal: a refund PayPal refuses after the deletion is kept for the operator (no owner) and mailed to them, once', async () => {
    // before: the stop job retried PayPal's final answer for about 90 hours, then only logged it
    const owner = await newUser('del-pp-refused');
    const { sub } = await plans.boughtByPaypal(owner, 3);
    await deleteQuietly(owner);
    await plans.control('paypal', '/refund-answer', { subscription: sub, status: 'FAILED' });
    try {
      await plans.control('paypal', `/subscriptions/${sub}/bill`);
      await stopsDue(owner);
      await untilWorked(
        sub,
        async () => ({
          tx: await subTransactions(sub),
          failed: (await stopJobs(sub)).some((j) => j.status === 'failed'),
          mailed: (await mailbox(OPERATOR)).some((m) => m.subject.includes(sub)),
        }),
        ({ failed, mailed }) => failed && mailed,
      );
    } finally {
      await plans.control('paypal', '/refund-answer', { subscription: sub, status: null });
    }
    expect(
      await sql(
        'select user_id, reason, status, error from public.paypal_refunds where subscription_id = $1',
        [sub],
      ),
    ).toEqual([
      {
        user_id: null,
        reason: 'The account was deleted',
        status: 'failed',
        error: expect.stringContaining('FAILED') as string,
      },
    ]);
    expect((await stopJobs(sub)).find((j) => j.status === 'failed')?.last_error).toContain(
      'FAILED',
    );
    const alerts = (await mailbox(OPERATOR)).filter((m) => m.subject.includes(sub));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.html).toContain('a deleted account');
    expect(await plans.subscriptionStatus(sub)).toBe('CANCELLED');
  });

  it("card: a stop that gives up (PortOne failing through the job's last attempt) mails the operator, once", async () => {
    // before: it only logged an [alert] line in the functions' log
    const { owner, key, chargeId } = await renewalDue('del-card-gave-up');
    await deleteQuietly(owner);
    // PortOne does not answer about the key's payments; the stop job is at its last attempt
    await plans.control('portone', `/billing-keys/${key}`, { unanswered: true });
    try {
      await sql(
        `update private.jobs j set attempts = max_attempts - 1 from private.account_stops s
          where j.payload ->> 'stop_id' = s.id::text and s.provider_ref = $1`,
        [key],
      );
      await stopsDue(owner);
      await untilWorked(
        key,
        async () => ({
          failed: (await stopJobs(key)).some((j) => j.status === 'failed'),
          mail: await mailbox(OPERATOR),
        }),
        ({ failed, mail }) => failed && mail.some((m) => m.subject.includes(key)),
      );
    } finally {
      await plans.control('portone', `/billing-keys/${key}`, { unanswered: false });
    }
    await plans.runWorker();
    const alerts = (await mailbox(OPERATOR)).filter((m) => m.subject.includes(key));
    expect(alerts.map((m) => m.subject)).toEqual([`PortOne payment not given back: ${key}`]);
    expect(alerts[0]!.html).toContain(chargeId);
    expect(alerts[0]!.html).toContain('Gave up after 100 attempts');
  });
});

describe('a checkout racing the deletion', () => {
  it('card: charged while PortOne did not answer, account deleted, then the reconcile job: refunded', async () => {
    const owner = await newUser('del-card-inflight');
    const key = await plans.cardKey(owner);
    await plans.control('portone', `/billing-keys/${key}`, { unanswered: true });
    const res = await plans.buyByCard(owner, key);
    expect(res.status).toBe(502);
    const [charge] = await plans.chargesOf(owner.id);
    expect(charge!.status).toBe('pending');
    await deleteAccount(owner);
    await plans.control('portone', `/billing-keys/${key}`, { unanswered: false });
    await sql(`update private.jobs set run_at = now() where dedupe_key = $1`, [
      `plan.reconcile:${charge!.id}`,
    ]);
    const reconcileResult = async () =>
      (
        await sql<{ result: unknown }>(`select result from private.jobs where dedupe_key = $1`, [
          `plan.reconcile:${charge!.id}`,
        ])
      )[0]?.result ?? null;
    // the deletion's own stop job may refund the charge before the reconcile job has run (the
    // shared queue decides): wait for both, not for the first
    await untilWorked(
      key,
      async () => ({ paid: await ownPortonePayments(owner), reconcile: await reconcileResult() }),
      ({ paid, reconcile }) => paid.join() === `${charge!.id},CANCELLED` && reconcile !== null,
    );
    expect(await reconcileResult()).toMatchObject({ account_deleted: expect.any(String) });
  });

  it('paypal: approved as the account is deleted (the check finds no owner): cancelled and refunded', async () => {
    const owner = await newUser('del-pp-race');
    const sub = await plans.paypalSubscription(owner, 3);
    const held = new pg.Client({ connectionString: stack().dbUrl });
    await held.connect();
    try {
      await held.query('begin');
      await held.query('select 1 from public.profiles where id = $1 for update', [owner.id]);
      const call = plans.buyByPaypal(owner, sub);
      await callWaitsOnLock('start_plan_checkout', 20_000);
      await held.query('delete from auth.users where id = $1', [owner.id]);
      await held.query('commit');
      expect((await call).status).toBe(403);
    } finally {
      await held.query('rollback').catch(() => undefined);
      await held.end();
    }
    await untilWorked(
      sub,
      () => subTransactions(sub),
      (tx) => tx.join() === 'REFUNDED',
    );
    expect(await plans.subscriptionStatus(sub)).toBe('CANCELLED');
  });

  it('a live owner cannot have a subscription stopped as a deleted account', async () => {
    const owner = await newUser('del-not');
    const { sub } = await plans.boughtByPaypal(owner, 3);
    const [row] = await sql<{ r: boolean }>(
      `select public.stop_for_deleted_account($1, 'paypal', $2) as r`,
      [owner.id, sub],
    );
    expect(row!.r).toBe(false);
    expect(await sql('select 1 from private.account_stops where provider_ref = $1', [sub])).toEqual(
      [],
    );
  });
});
