// Card renewal tests' steps (plan-renewals, plan-stop-change and plan-renewals-races): buying
// Basic by card, changing or stopping it, moving its period to end in two days, and PortOne's side
// (its schedules, a renewal charged without its webhook, what it took).
import { expect } from 'vitest';
import type { TPlan } from '@reaction-blocks/contracts/plans';
import { callFunction, newUser, sql, transaction, type TestUser } from './clients.ts';
import * as plans from './plans.ts';
import { eventually } from './providers.ts';

/** The first day and the last of the period after one ending in two days (the next one). */
export const nextPeriod = async () =>
  (
    await sql<{ start: string; end: string }>(
      `select (current_date + 3)::text as start, private.period_end(current_date + 3)::text as end`,
    )
  )[0]!;

/** A card owner buys Basic: the billing key and the plan row's id. */
export async function boughtByCard(owner: TestUser) {
  const key = await plans.cardKey(owner);
  const paymentId = ((await plans.buyByCard(owner, key)).json.data as { payment: { id: string } })
    .payment.id;
  return { key, paymentId };
}

/** The owner changes the card plan to `plan`, which is accepted. */
export async function changeByCard(owner: TestUser, paymentId: string, plan: TPlan) {
  const res = await callFunction('change-iamport-payment', { paymentId, plan }, owner.accessToken);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

/** The owner stops the card plan, which is accepted. */
export async function stopByCard(owner: TestUser, paymentId: string) {
  const res = await callFunction('cancel-iamport-payment', { paymentId }, owner.accessToken);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

/** The plan's period ends in two days; its renewal charge `chargeId` is for the next one. */
export async function endsInTwoDays(paymentId: string, chargeId: string) {
  await sql(`update public.payments set end_date = current_date + 2 where id = $1`, [paymentId]);
  await sql(
    `update private.payment_charges
        set period_start = current_date + 3, period_end = private.period_end(current_date + 3)
      where id = $1`,
    [chargeId],
  );
}

/** The billing key's schedule at PortOne for `price` dollars, once the queue has made it. */
export const scheduled = (key: string, price: number) =>
  eventually(async () => {
    await plans.runWorker();
    return (await plans.portoneState()).schedules.find(
      (s) => s.billingKey === key && s.status === 'SCHEDULED' && s.totalAmount === price * 1000,
    );
  });

/**
 * A new card owner (`label`) on Basic whose period ends in two days: its renewal charge
 * `chargeId`, for the next period, is scheduled at PortOne.
 */
export async function renewalDue(label: string) {
  const owner = await newUser(label);
  const { key, paymentId } = await boughtByCard(owner);
  const chargeId = (await scheduled(key, 3)).paymentId;
  await endsInTwoDays(paymentId, chargeId);
  return { owner, key, paymentId, chargeId };
}

/** The dedupe key of the job that revokes the renewal charge `chargeId`'s schedule. */
const revokeJobKey = (chargeId: string) => `plan.revoke-schedule:${chargeId}`;

/**
 * A Stop recorded as the schedule job marked the renewal charge `chargeId` after PortOne's revoke
 * by key (a schedule made late): plan.revoke-schedule is queued for it and has not run. Answers
 * the plan's end date. `held`: the job is queued an hour out in the Stop's own transaction, so
 * that no worker (the queue's 5-second tick, a kick) takes it before the caller has PortOne run
 * the schedule (once the job revoked it, PortOne runs nothing); releaseRevokeJob makes it due.
 */
export async function stoppedLate(
  owner: TestUser,
  paymentId: string,
  chargeId: string,
  { held = false } = {},
) {
  await sql(`update private.payment_charges set schedule_id = 'existing' where id = $1`, [
    chargeId,
  ]);
  return transaction(async (client) => {
    const { rows } = await client.query<{ end_date: string }>(
      `select (public.record_plan_stop($1, $2) ->> 'end_date') as end_date`,
      [owner.id, paymentId],
    );
    if (held) {
      const job = await client.query(
        `update private.jobs set run_at = now() + interval '1 hour'
          where dedupe_key = $1 and status = 'queued'`,
        [revokeJobKey(chargeId)],
      );
      expect(job.rowCount).toBe(1);
    }
    return rows[0]!.end_date;
  });
}

/**
 * The held plan.revoke-schedule job of `chargeId` due now; `createdDaysAgo`: as if queued that
 * many days ago (how long it has looked at a payment under way).
 */
export async function releaseRevokeJob(chargeId: string, createdDaysAgo = 0) {
  const released = await sql(
    `update private.jobs set run_at = now(), created_at = least(created_at, now() - make_interval(days => $2))
      where dedupe_key = $1 and status = 'queued' returning id`,
    [revokeJobKey(chargeId), createdDaysAgo],
  );
  expect(released).toHaveLength(1);
}

/**
 * A schedule put on the owner's billing key at PortOne by someone else than our queue (a schedule
 * made late, one of another id or amount), for tomorrow: the Basic plan's order at `won`.
 */
export const scheduleAtPortOne = (owner: TestUser, key: string, paymentId: string, won = 3000) =>
  plans.portone().payment.paymentSchedule.createPaymentSchedule({
    paymentId,
    payment: {
      billingKey: key,
      orderName: 'Reaction Blocks Basic plan',
      customer: { id: owner.id },
      amount: { total: won },
      currency: 'KRW',
    },
    timeToPay: new Date(Date.now() + 86_400_000).toISOString(),
  });

/**
 * PortOne has charged the next period's renewal (3 days before it) and its webhook has not
 * reached us (on its way, or lost until the renewal check): the charge row still says scheduled.
 */
export async function chargedUnrecorded(label: string) {
  const { owner, key, paymentId, chargeId } = await renewalDue(label);
  await plans.control('portone', '/schedules/run', { paymentId: chargeId, webhook: false });
  expect((await plans.chargesOf(owner.id)).map((c) => c.status)).toEqual(['recorded', 'scheduled']);
  return { owner, key, paymentId, chargeId, next: await nextPeriod() };
}

/** The status PortOne gives its payment `paymentId` (PAID, CANCELLED, PAY_PENDING...), if it has one. */
export const paymentStatus = async (paymentId: string) =>
  (await plans.portoneState()).payments.find((p) => p.id === paymentId)?.status;

/** Runs the worker until PortOne has given the payment `paymentId` back (CANCELLED). */
export const untilGivenBack = (paymentId: string) =>
  eventually(
    async () => {
      await plans.runWorker();
      return (await paymentStatus(paymentId)) === 'CANCELLED';
    },
    60_000,
    () => paymentStatus(paymentId),
  );

/** The owner's payments PortOne took. */
export const paidAtPortOne = async (owner: TestUser) =>
  (await plans.portoneState()).payments.filter(
    (p) => p.customer.id === owner.id && p.status === 'PAID',
  ).length;

/** The Stop's plan.delete-billing-key job of a key: its status and result. */
export const deleteKeyJob = async (key: string) =>
  (
    await sql<{ status: string; result: unknown }>(
      `select status, result from private.jobs where dedupe_key = $1`,
      [`plan.delete-billing-key:${key}`],
    )
  )[0];
