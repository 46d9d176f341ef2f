// Card renewals at the moments two steps meet: PortOne running a renewal between a Stop's or
// Change's read and its revoke, the queue scheduling a renewal just after their revoke, and a
// checkout recorded while its owner's account is deleted. Each meeting is made to happen (the
// PortOne fake's runOnRevoke and lateSchedules, a lock held on a second connection), never waited
// for with a sleep. The flows themselves: plan-renewals.test.ts and plan-stop-change.test.ts.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { backendPid, newUser, sql, stack, waitsOnLock } from './support/clients.ts';
import * as plans from './support/plans.ts';
import { eventually, mailbox } from './support/providers.ts';
import * as renewals from './support/renewals.ts';
import { held, recordedJobs } from './support/worker.ts';

const CUSTOM_20 = { planName: 'Custom', blockLimit: 20, responseMonthlyLimit: 5000 };

/**
 * The jobs of the billing key's renewal charges (their schedules and revokes at PortOne): what
 * they are and how they stand, and whether one queued is due (within a minute: a retry's backoff),
 * work still to do.
 */
const chargeJobs = (key: string) =>
  sql<{ kind: string; status: string; due: boolean; charge_id: string; result: unknown }>(
    `select j.kind, j.status, j.status = 'queued' and j.run_at <= now() + interval '1 minute' as due,
            c.id as charge_id, j.result
       from private.jobs j
       join private.payment_charges c on j.payload ->> 'charge_id' = c.id::text
      where c.provider_ref = $1
      order by j.id`,
    [key],
  );

/** The billing key's schedules at PortOne. */
const schedulesOf = async (key: string) =>
  (await plans.portoneState()).schedules.filter((s) => s.billingKey === key);

/**
 * The billing key's schedules PortOne would still charge (their amounts in won, in the order
 * made: `amounts`) once the queue has run its jobs: none held by a worker, none queued and due.
 * The jobs are read before PortOne: a job's calls at PortOne come before its outcome, so jobs seen
 * settled have made their changes there. Read the other way round (before), a worker that the
 * owner's call kicked finished between the two reads: PortOne read with the replaced charge's
 * late schedule waiting and the change's not made yet, the jobs read done ('expected 3000 to be
 * 10000': 1 run in 20-27, 4 of 46 in a loop of that test). A job another worker claimed reads `queued` until its claim
 * commits (claim_jobs skips it, locked, so this run's worker finds nothing): due counts it. On
 * failure, the jobs and the key's schedules as last seen.
 */
const waitingAfterQueue = (key: string, amounts: number[]) => {
  let seen: unknown;
  return eventually(
    async () => {
      await plans.runWorker();
      const jobs = await chargeJobs(key);
      const schedules = await schedulesOf(key);
      seen = { jobs, schedules };
      const waiting = schedules.filter((s) => s.status === 'SCHEDULED');
      return (
        !jobs.some((j) => held(j) || j.due) &&
        waiting.map((s) => s.totalAmount).join() === amounts.join() &&
        waiting
      );
    },
    60_000,
    () => seen,
  );
};

describe('PortOne runs the renewal between the read and the revoke', () => {
  /** Basic by card, its renewal due: PortOne runs it when the owner's call revokes the key's schedules. */
  async function runsOnRevoke(label: string) {
    const { owner, key, paymentId, chargeId } = await renewals.renewalDue(label);
    await plans.control('portone', `/billing-keys/${key}`, { runOnRevoke: true });
    return { owner, key, paymentId, chargeId, next: await renewals.nextPeriod() };
  }

  it('Stop: the payment that slipped through is recorded, the paid period kept, nothing after it', async () => {
    const { owner, key, paymentId, next } = await runsOnRevoke('stop-slipped');
    await renewals.stopByCard(owner, paymentId);
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      is_active: true,
      auto_renew: false,
      end_date: next.end,
    });
    expect((await plans.chargesOf(owner.id)).map((c) => c.status)).toEqual([
      'recorded',
      'recorded',
      'revoked',
    ]);
    expect(await renewals.paidAtPortOne(owner)).toBe(2);
    await waitingAfterQueue(key, []);
  });

  it('Change: the payment that slipped through is recorded, the change is for the period after it, charged once', async () => {
    const { owner, key, paymentId, chargeId, next } = await runsOnRevoke('change-slipped');
    await renewals.changeByCard(owner, paymentId, plans.custom(20, 5000));
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      type: 'basic',
      end_date: next.end,
      next_content: CUSTOM_20,
      paid_next_content: null,
    });
    const [after] = await waitingAfterQueue(key, [10_000]);
    expect(after!.totalAmount).toBe(10_000);
    const kept = (await plans.chargesOf(owner.id)).filter(
      (c) => c.kind === 'renewal' && c.status !== 'revoked',
    );
    expect(kept.map((c) => [c.id, c.status, c.period_start])).toEqual([
      [chargeId, 'recorded', next.start],
      [after!.paymentId, 'scheduled', plans.addDays(next.end, 1)],
    ]);
    expect(await renewals.paidAtPortOne(owner)).toBe(2);
  });
});

describe('a Stop that finds the renewal declined', () => {
  /** The key's DELETE requests at PortOne once the queue has settled its delete job. */
  const deletesOnceSettled = (key: string) =>
    eventually(async () => {
      await plans.runWorker();
      const job = await renewals.deleteKeyJob(key);
      const state = (await plans.portoneState()).billingKeys.find((k) => k.billingKey === key);
      return job?.status === 'done' && state?.status === 'DELETED' && state.deleteRequests;
    });

  it('declined between the read and the revoke: the plan stops renewing, the key deleted with one request', async () => {
    // before: the failure queued plan.delete-billing-key, the Stop deleted the key itself, and the
    // job asked again (2 requests)
    const { owner, key, paymentId } = await renewals.renewalDue('stop-declined-revoke');
    await plans.control('portone', `/billing-keys/${key}`, { runOnRevoke: true, decline: true });
    await renewals.stopByCard(owner, paymentId);
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      is_active: true,
      auto_renew: false,
    });
    expect(await deletesOnceSettled(key)).toBe(1);
  });

  it("declined before the Stop (its webhook not here yet): the Stop's read records it, the key deleted with one request", async () => {
    const { owner, key, paymentId, chargeId } = await renewals.renewalDue('stop-declined-read');
    await plans.control('portone', `/billing-keys/${key}`, { decline: true });
    await plans.control('portone', '/schedules/run', { paymentId: chargeId, webhook: false });
    await renewals.stopByCard(owner, paymentId);
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      is_active: true,
      auto_renew: false,
    });
    expect(await deletesOnceSettled(key)).toBe(1);
  });
});

describe('the queue schedules the next charge just after a Stop or Change revoked the schedules', () => {
  /**
   * The owner's call records the renewal PortOne charged (its webhook not here yet), which queues
   * the next period's charge; the queue's job reads it before the call revokes the key's
   * schedules and asks PortOne for its schedule just after (the fake's lateSchedules). The job
   * is run here, or by the queue's own 5-second tick, which may take it first: the next charge
   * is then unscheduled only for a moment, so it is waited for in any state.
   */
  async function scheduledLate(label: string, call: 'stop' | 'change', flags = {}) {
    const charged = await renewals.chargedUnrecorded(label);
    const { owner, key, paymentId, chargeId } = charged;
    await plans.control('portone', `/billing-keys/${key}`, { lateSchedules: true, ...flags });
    const answer =
      call === 'stop'
        ? renewals.stopByCard(owner, paymentId)
        : renewals.changeByCard(owner, paymentId, plans.custom(20, 5000));
    const next = await eventually(async () =>
      (await plans.chargesOf(owner.id)).find((c) => c.kind === 'renewal' && c.id !== chargeId),
    );
    await plans.runWorker();
    await answer;
    return { ...charged, nextCharge: next.id };
  }

  it('Stop: the late schedule is revoked; PortOne keeps nothing to charge, and the key goes', async () => {
    const { owner, key, next, nextCharge } = await scheduledLate('stop-late', 'stop');
    await waitingAfterQueue(key, []);
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      auto_renew: false,
      end_date: next.end,
    });
    const charges = await plans.chargesOf(owner.id);
    expect(charges.find((c) => c.id === nextCharge)!.status).toBe('revoked');
    expect(await renewals.paidAtPortOne(owner)).toBe(2);
    // the Stop's delete met the late schedule (PortOne refuses then); the queue deletes the key
    // once that schedule is revoked, once
    await keyDeleted(key);
    expect(await renewals.deleteKeyJob(key)).toMatchObject({
      status: 'done',
      result: { deleted: true },
    });
  });

  it("Stop: a late schedule whose answer was lost is found by the charge's id and revoked", async () => {
    // the queue's schedule request is made at PortOne just after the Stop's revoke, and its
    // answer lost: the job tries again after the Stop revoked the charge, with no schedule id kept
    const { owner, key, nextCharge } = await scheduledLate('stop-lost', 'stop', {
      scheduleAnswerLost: true,
    });
    await waitingAfterQueue(key, []);
    expect((await plans.chargesOf(owner.id)).find((c) => c.id === nextCharge)!.status).toBe(
      'revoked',
    );
    await keyDeleted(key);
  });

  it("Change: the late schedule of the replaced charge is revoked; only the change's is left", async () => {
    const { owner, key, next, nextCharge } = await scheduledLate('change-late', 'change');
    const [left] = await waitingAfterQueue(key, [10_000]);
    expect(left!.totalAmount).toBe(10_000);
    expect(left!.paymentId).not.toBe(nextCharge);
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      end_date: next.end,
      next_content: CUSTOM_20,
    });
    const charges = await plans.chargesOf(owner.id);
    expect(charges.find((c) => c.id === nextCharge)!.status).toBe('revoked');
    expect(charges.find((c) => c.id === left!.paymentId)!.status).toBe('scheduled');
  });
});

/**
 * The billing key is deleted at PortOne, once the queue has run its jobs (PortOne deletes it
 * before plan.delete-billing-key records its outcome).
 */
const keyDeleted = (key: string) =>
  eventually(
    async () => {
      await plans.runWorker();
      // the effect first, then its job: seen deleted, the job is held or done
      const deleted =
        (await plans.portoneState()).billingKeys.find((k) => k.billingKey === key)?.status ===
        'DELETED';
      const job = await renewals.deleteKeyJob(key);
      return deleted && !(job && held(job));
    },
    60_000,
    async () => (await plans.portoneState()).billingKeys.find((k) => k.billingKey === key),
  );

/** A renewal charge's schedule id as we keep it. */
const scheduleIdOf = async (chargeId: string) =>
  (
    await sql<{ schedule_id: string | null }>(
      'select schedule_id from private.payment_charges where id = $1',
      [chargeId],
    )
  )[0]!.schedule_id;

describe('a schedule PortOne made whose id we do not have', () => {
  it("the schedule request's answer was lost: the next try finds the schedule's id at PortOne", async () => {
    const owner = await newUser('schedule-lost');
    const key = await plans.cardKey(owner);
    await plans.control('portone', `/billing-keys/${key}`, { scheduleAnswerLost: true });
    // the checkout's schedule request is made and its answer lost: the plan is recorded and the
    // queue asks again, which PortOne answers PAYMENT_SCHEDULE_ALREADY_EXISTS
    await plans.buyByCard(owner, key);
    const renewal = (await plans.chargesOf(owner.id)).find((c) => c.kind === 'renewal')!;
    const made = await renewals.scheduled(key, 3);
    expect(made.paymentId).toBe(renewal.id);
    await eventually(async () => {
      await plans.runWorker();
      return (await scheduleIdOf(renewal.id)) === made.id;
    });
  });

  it('a charge marked `existing` (an older row) whose plan stopped: its schedule is revoked', async () => {
    const owner = await newUser('schedule-existing');
    const { key, paymentId } = await renewals.boughtByCard(owner);
    const made = await renewals.scheduled(key, 3);
    // as the schedule job marked a charge PortOne had a schedule for before this change; the Stop
    // is recorded without PortOne's revoke by key, which came before that schedule was made
    await renewals.stoppedLate(owner, paymentId, made.paymentId);
    await waitingAfterQueue(key, []);
    expect((await plans.portoneState()).schedules.find((s) => s.id === made.id)!.status).toBe(
      'REVOKED',
    );
    await keyDeleted(key);
  });

  /**
   * Basic by card, its renewal due in three days; the Stop is recorded as the schedule job marked
   * it before PortOne's revoke by key reached it (a schedule made late): plan.revoke-schedule is
   * queued, and PortOne runs the schedule before that job (`webhook`: whether its webhook reaches us),
   * which is held until then.
   */
  async function ranAfterStop(label: string, webhook: boolean) {
    const { owner, key, paymentId, chargeId } = await renewals.renewalDue(label);
    const end = await renewals.stoppedLate(owner, paymentId, chargeId, { held: true });
    await plans.control('portone', '/schedules/run', { paymentId: chargeId, webhook });
    await renewals.releaseRevokeJob(chargeId);
    const status = () => renewals.paymentStatus(chargeId);
    // PortOne took it; its webhook, sent as it ran, may already have had it given back (it read
    // PAID unless the webhook won the race: 1 run in 9 it read CANCELLED)
    const taken = (await plans.portoneState()).payments.find((p) => p.id === chargeId) as
      { status: string; paidAt?: string } | undefined;
    expect(taken?.paidAt, JSON.stringify(taken)).toBeTruthy();
    if (!webhook) expect(taken?.status).toBe('PAID');
    return { owner, key, paymentId, chargeId, end, status };
  }

  /**
   * As ranAfterStop, but PortOne's payment of the renewal stays under way (PAY_PENDING) and its
   * webhook is lost. Its plan.revoke-schedule job is still held (renewals.releaseRevokeJob).
   */
  async function pendingAfterStop(label: string) {
    const { owner, key, paymentId, chargeId } = await renewals.renewalDue(label);
    await renewals.stoppedLate(owner, paymentId, chargeId, { held: true });
    await plans.control('portone', `/billing-keys/${key}`, { pendingPayments: true });
    await plans.control('portone', '/schedules/run', { paymentId: chargeId, webhook: false });
    return { owner, chargeId };
  }

  it('PortOne runs a schedule the Stop revoked too late: the payment is given back, no period added', async () => {
    const { owner, key, chargeId, end, status } = await ranAfterStop('late-run-hook', true);
    // its webhook settles the revoked charge: refunded at once, before the queue runs
    await eventually(async () => (await status()) === 'CANCELLED', 60_000, status);
    await keyDeleted(key);
    expect(await plans.paymentsOf(owner.id)).toMatchObject([
      { end_date: end, auto_renew: false, paid_next_content: null },
    ]);
    expect((await plans.chargesOf(owner.id)).find((c) => c.id === chargeId)?.status).toBe(
      'revoked',
    );
    expect(await renewals.paidAtPortOne(owner)).toBe(1);
  });

  it('the same with its webhook lost: plan.revoke-schedule gives the payment back', async () => {
    const { owner, chargeId, end, status } = await ranAfterStop('late-run-lost', false);
    await renewals.untilGivenBack(chargeId);
    // PortOne's refund comes before the job records its outcome
    const [job] = await recordedJobs(() =>
      sql<{ status: string; result: unknown }>(
        `select status, result from private.jobs where dedupe_key = $1`,
        [`plan.revoke-schedule:${chargeId}`],
      ),
    );
    expect(job!.result).toMatchObject({ refunded: chargeId });
    expect(await plans.paymentsOf(owner.id)).toMatchObject([{ end_date: end, auto_renew: false }]);
    // a retry of the job gives nothing back twice
    await sql(`update private.jobs set status = 'queued', run_at = now() where dedupe_key = $1`, [
      `plan.revoke-schedule:${chargeId}`,
    ]);
    await plans.runWorker();
    expect(await status()).toBe('CANCELLED');
    expect(await renewals.paidAtPortOne(owner)).toBe(1);
  });

  it('the same still under way when plan.revoke-schedule reads it, its webhook lost: the job looks again and gives it back', async () => {
    // before: the job read it under way, took it as nothing taken and ended; completed later with
    // its webhook lost, the payment stayed PAID with no period
    const { owner, chargeId } = await pendingAfterStop('late-run-pending');
    const status = () => renewals.paymentStatus(chargeId);
    expect(await status()).toBe('PAY_PENDING');
    const job = async () =>
      (
        await sql<{ status: string; run_at: Date }>(
          `select status, run_at from private.jobs where dedupe_key = $1`,
          [`plan.revoke-schedule:${chargeId}`],
        )
      )[0];
    // the job reads it under way: it looks again later, not done
    await renewals.releaseRevokeJob(chargeId);
    await eventually(
      async () => {
        await plans.runWorker();
        const j = await job();
        return j?.status === 'queued' && j.run_at.getTime() > Date.now() + 1_800_000;
      },
      60_000,
      job,
    );
    await plans.control('portone', `/payments/${chargeId}/complete`, { webhook: false });
    await sql(`update private.jobs set run_at = now() where dedupe_key = $1`, [
      `plan.revoke-schedule:${chargeId}`,
    ]);
    await renewals.untilGivenBack(chargeId);
    expect(await renewals.paidAtPortOne(owner)).toBe(1);
  });

  it('one still under way after 14 days: the job stops looking and mails the operator', async () => {
    const { chargeId } = await pendingAfterStop('late-run-stuck');
    // 15 days old, its next look due (held until now: a worker that took it younger deferred it
    // an hour, the payment under way, and one holding it as it aged wrote that hour after)
    await renewals.releaseRevokeJob(chargeId, 15);
    const alerts = async () =>
      (await mailbox('operator@reaction-blocks.local')).filter((m) => m.subject.includes(chargeId));
    await eventually(
      async () => {
        await plans.runWorker();
        return (await alerts()).length > 0;
      },
      60_000,
      () =>
        sql(`select status, last_error from private.jobs where dedupe_key = $1`, [
          `plan.revoke-schedule:${chargeId}`,
        ]),
    );
    expect((await alerts()).map((m) => m.subject)).toEqual([
      `PortOne payment not given back: ${chargeId}`,
    ]);
  });
});

/**
 * Two sessions meet on a lock: `holder` takes it in a transaction (a plan function's first
 * statement), `waiter` then runs its call, which waits on it, and `holder` goes on and commits.
 * Answers each side's outcome: 'done', or its error ('deadlock detected' when they deadlocked).
 */
async function meetOnLock(
  holder: { lock: Query; then: Query },
  waiter: Query,
): Promise<{ holder: string; waiter: string }> {
  const held = new pg.Client({ connectionString: stack().dbUrl });
  const waiting = new pg.Client({ connectionString: stack().dbUrl });
  await held.connect();
  await waiting.connect();
  const outcome = (client: pg.Client, [text, values]: Query) =>
    client.query(text, values).then(
      () => 'done',
      (e: Error) => e.message,
    );
  try {
    await held.query('begin');
    await held.query(...holder.lock);
    const pid = await backendPid(waiting);
    const waited = outcome(waiting, waiter);
    await waitsOnLock(pid);
    const then = await outcome(held, holder.then);
    await held.query(then === 'done' ? 'commit' : 'rollback');
    return { holder: then, waiter: await waited };
  } finally {
    await held.query('rollback').catch(() => undefined);
    await held.end();
    await waiting.end();
  }
}

type Query = [string, unknown[]];

describe('plan functions take their locks in one order', () => {
  it('a renewal recorded while a Change holds the plan row waits for it; neither deadlocks', async () => {
    const owner = await newUser('lock-order');
    const { paymentId } = await renewals.boughtByCard(owner);
    const renewal = (await plans.chargesOf(owner.id)).find((c) => c.kind === 'renewal')!;
    // record_plan_change has locked the owner and the plan row (its first statement,
    // private.lock_plan) when the renewal's webhook records it; the change goes on to the plan's
    // charges, revoking this one: the renewal then finds it revoked and refuses it (its caller
    // gives the payment back, settleCardRenewal), so the period is not charged twice
    expect(
      await meetOnLock(
        {
          lock: ['select private.lock_plan($1, $2)', [owner.id, paymentId]],
          then: [
            'select public.record_plan_change($1, $2, $3, $4)',
            [owner.id, paymentId, JSON.stringify(plans.custom(20, 5000)), 10],
          ],
        },
        ['select public.record_plan_renewal($1, $2)', [renewal.id, 'tx-lock-order']],
      ),
    ).toEqual({ holder: 'done', waiter: 'This renewal was revoked' });
    expect((await plans.chargesOf(owner.id)).find((c) => c.id === renewal.id)!.status).toBe(
      'revoked',
    );
  });

  it('a checkout recorded while the account is deleted waits for it; neither deadlocks', async () => {
    const owner = await newUser('checkout-delete');
    const [started] = await sql<{ r: { id: string } }>(
      `select public.start_plan_checkout($1, 'iamport', $2, $3, 3) as r`,
      [owner.id, `key-${owner.id}`, JSON.stringify(plans.BASIC)],
    );
    // deleting the account has the owner's profile (its cascade starts there) when the paid
    // checkout is recorded; the deletion goes on to the owner's charges
    expect(
      await meetOnLock(
        {
          lock: ['select 1 from public.profiles where id = $1 for update', [owner.id]],
          then: ['delete from auth.users where id = $1', [owner.id]],
        },
        [
          `select public.record_plan_checkout($1, '{"provider_payment_id": "tx"}')`,
          [started!.r.id],
        ],
      ),
    ).toEqual({ holder: 'done', waiter: 'No such plan' });
  });
});

/**
 * A plan bought and recorded in SQL, as check-iamport-payment or check-paypal-payment records it
 * (a card plan's next charge already scheduled at PortOne, so no job is queued): the plan row's id
 * and the next period's charge (card only).
 */
async function recordedPlan(owner: { id: string }, method: 'iamport' | 'paypal') {
  const ref = `${method}-${owner.id}`;
  const [started] = await sql<{ r: { id: string } }>(
    `select public.start_plan_checkout($1, $2, $3, $4, 3) as r`,
    [owner.id, method, ref, JSON.stringify(plans.BASIC)],
  );
  const [recorded] = await sql<{ r: { id: string } }>(
    `select public.record_plan_checkout($1, $2) as r`,
    [
      started!.r.id,
      JSON.stringify({ provider_payment_id: `tx-${ref}`, schedule_id: `sch-${ref}` }),
    ],
  );
  const renewal = (await plans.chargesOf(owner.id)).find((c) => c.kind === 'renewal');
  return { ref, paymentId: recorded!.r.id, chargeId: renewal?.id };
}

/** Each plan function that writes a plan row and then the owner's profile (its limits, or a charge's key on it). */
const PLAN_CALLS: Record<
  string,
  (plan: Awaited<ReturnType<typeof recordedPlan>>, ownerId: string) => Query
> = {
  record_plan_renewal: ({ chargeId }) => [
    'select public.record_plan_renewal($1, $2)',
    [chargeId, 'tx-renewal'],
  ],
  record_plan_change: ({ paymentId }, ownerId) => [
    'select public.record_plan_change($1, $2, $3, $4)',
    [ownerId, paymentId, JSON.stringify(plans.custom(20, 5000)), 10],
  ],
  record_plan_stop: ({ paymentId }, ownerId) => [
    'select public.record_plan_stop($1, $2)',
    [ownerId, paymentId],
  ],
  end_plan: ({ paymentId }) => ['select public.end_plan($1)', [paymentId]],
  mark_charge_scheduled: ({ chargeId }) => [
    'select public.mark_charge_scheduled($1, $2)',
    [chargeId, 'sch-again'],
  ],
  record_renewal_failed: ({ paymentId, chargeId }) => [
    'select public.record_renewal_failed($1, $2, $3)',
    [paymentId, chargeId, 'Declined'],
  ],
  sync_paypal_plan: ({ ref }) => [
    'select public.sync_paypal_plan($1, $2)',
    [ref, JSON.stringify({ status: 'ACTIVE', next_billing_date: '2099-01-01', quantity: 3 })],
  ],
};
const methodOf = (call: string) => (call === 'sync_paypal_plan' ? 'paypal' : 'iamport');

describe('deleting an account while a plan function runs on its plan', () => {
  // deleting the account has the owner's profile (its cascade starts there: auth.users, then
  // profiles, then their plan rows and charges) when the plan function is called
  it.each(Object.keys(PLAN_CALLS))('%s waits for the deletion; neither deadlocks', async (call) => {
    const owner = await newUser(`delete-${call.replaceAll('_', '-')}`);
    const plan = await recordedPlan(owner, methodOf(call));
    const met = await meetOnLock(
      {
        lock: ['select 1 from public.profiles where id = $1 for update', [owner.id]],
        then: ['delete from auth.users where id = $1', [owner.id]],
      },
      PLAN_CALLS[call]!(plan, owner.id),
    );
    expect(met.holder).toBe('done');
    expect(['done', 'No such plan']).toContain(met.waiter);
  });

  it('a deletion and a plan function at the same moment, 28 times: no deadlock', async () => {
    const calls = Object.keys(PLAN_CALLS);
    const outcomes: string[] = [];
    for (let i = 0; i < 4 * calls.length; i++) {
      const call = calls[i % calls.length]!;
      const owner = await newUser(`delete-race-${i}`);
      const plan = await recordedPlan(owner, methodOf(call));
      const [deleting, calling] = [0, 1].map(
        () => new pg.Client({ connectionString: stack().dbUrl }),
      ) as [pg.Client, pg.Client];
      await Promise.all([deleting.connect(), calling.connect()]);
      const outcome = (client: pg.Client, [text, values]: Query) =>
        client.query(text, values).then(
          () => 'done',
          (e: Error) => e.message,
        );
      try {
        const [text, values] = PLAN_CALLS[call]!(plan, owner.id);
        outcomes.push(
          ...(
            await Promise.all([
              outcome(deleting, ['delete from auth.users where id = $1', [owner.id]]),
              outcome(calling, [text, values]),
            ])
          ).map((o) => `${call}: ${o}`),
        );
      } finally {
        await Promise.all([deleting.end(), calling.end()]);
      }
    }
    expect(outcomes.filter((o) => !/: (done|No such plan)$/.test(o))).toEqual([]);
  });
});
