// A plan's stop, change and expiry, after its purchase (support/renewals.ts): through the
// functions as the dashboard calls them, the fakes' signed webhooks and the queue (jobs-worker);
// the daily expiry as the service role runs it. Webhooks, renewals and reconciles:
// plan-renewals.test.ts; the purchase itself: plans.test.ts.
import { describe, expect, it } from 'vitest';
import { planPrice, type TPlan } from '@reaction-blocks/contracts/plans';
import { callFunction, newUser, sql, type TestUser } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import * as plans from './support/plans.ts';
import { eventually, mailbox } from './support/providers.ts';
import {
  boughtByCard,
  changeByCard,
  chargedUnrecorded,
  deleteKeyJob,
  endsInTwoDays,
  nextPeriod,
  paidAtPortOne,
  scheduled,
  stopByCard,
} from './support/renewals.ts';

describe('stop, change, expiry', () => {
  async function blocks(owner: TestUser, n: number) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      ids.push(await createBlock(owner, 'like'));
    }
    return ids;
  }

  const deactivated = async (owner: TestUser) =>
    (
      await sql<{ deactivated: boolean }>(
        'select deactivated from public.blocks where owner_id = $1 order by created_at, id',
        [owner.id],
      )
    ).map((r) => r.deactivated);

  /**
   * A card owner on Basic changes to `plan`: the next period's charge is replaced by one at the
   * new price, which the queue schedules at PortOne. Then the period is made to end in two days
   * (the schedule stays due later, so only charge() runs it).
   */
  async function changedBeforeRenewal(owner: TestUser, plan: TPlan) {
    const { key, paymentId } = await boughtByCard(owner);
    await changeByCard(owner, paymentId, plan);
    const chargeId = (await scheduled(key, planPrice(plan)!)).paymentId;
    await endsInTwoDays(paymentId, chargeId);
    return { key, paymentId, chargeId };
  }

  /** PortOne charges a scheduled renewal (3 days before its period, as it does); it is recorded. */
  async function charge(owner: TestUser, chargeId: string) {
    await plans.control('portone', '/schedules/run', { paymentId: chargeId });
    await eventually(async () =>
      (await plans.chargesOf(owner.id)).some((c) => c.id === chargeId && c.status === 'recorded'),
    );
  }

  /**
   * Between the charge and the period it paid for: a card owner on Basic changed to Custom
   * 20/5000, charged 3 days before the next period, whose following period's charge is scheduled.
   */
  async function chargedInWindow(label: string) {
    const owner = await newUser(label);
    const { key, paymentId, chargeId } = await changedBeforeRenewal(owner, plans.custom(20, 5000));
    const next = await nextPeriod();
    await charge(owner, chargeId);
    await scheduled(key, 10);
    return { owner, key, paymentId, next };
  }

  /**
   * `days` pass: the plan's dates and its renewals' move back, and (unless told not to) the daily
   * expiry runs, as the service role runs it (public.expire_plans).
   */
  async function daysPass(paymentId: string, days: number, expire = true) {
    await sql(
      `update public.payments
          set start_date = start_date - $2::int, end_date = end_date - $2::int,
              paid_next_from = paid_next_from - $2::int
        where id = $1`,
      [paymentId, days],
    );
    await sql(
      `update private.payment_charges
          set period_start = period_start - $2::int, period_end = period_end - $2::int
        where payment_id = $1 and kind = 'renewal'`,
      [paymentId, days],
    );
    if (expire) {
      await sql('begin; set local role service_role; select public.expire_plans(); commit');
    }
  }

  const BASIC_CONTENT = { planName: 'Basic', blockLimit: 8, responseMonthlyLimit: 1000 };
  const custom = (blockLimit: number, responseMonthlyLimit: number) => ({
    planName: 'Custom',
    blockLimit,
    responseMonthlyLimit,
  });

  /**
   * Stop after the renewal was charged: the plan keeps the Basic content it had, runs to `end`
   * (the paid period's) and renews no more; `more` says what else the row holds.
   */
  async function stopKeepsPaidPeriod(
    owner: TestUser,
    paymentId: string,
    end: string,
    more: Record<string, unknown> = {},
  ) {
    await stopByCard(owner, paymentId);
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      is_active: true,
      auto_renew: false,
      end_date: end,
      content: BASIC_CONTENT,
      ...more,
    });
  }

  it('stop keeps the plan to its end; expiry then falls back to Starter and deactivates the newest blocks', async () => {
    const owner = await newUser('stopper');
    const key = await plans.cardKey(owner);
    const bought = await plans.buyByCard(owner, key);
    const paymentId = (bought.json.data as { payment: { id: string } }).payment.id;
    const ids = await blocks(owner, 5);

    const { data, error } = await owner.client.functions.invoke('cancel-iamport-payment', {
      body: { paymentId },
    });
    expect(error).toBeNull();
    expect(
      (data as { data: { payment: { auto_renew: boolean; is_active: boolean } } }).data.payment,
    ).toMatchObject({
      auto_renew: false,
      is_active: true,
    });
    const fake = await plans.portoneState();
    expect(fake.billingKeys.find((k) => k.billingKey === key)?.status).toBe('DELETED');
    expect(fake.schedules.filter((s) => s.billingKey === key).map((s) => s.status)).toEqual([
      'REVOKED',
    ]);
    expect(await plans.profileOf(owner.id)).toMatchObject({ paid: true, block_limit: 11 });
    // the Stop deleted the key itself: no plan.delete-billing-key is queued, and PortOne was asked
    // to delete it once (before: the job asked again and found it deleted, a second request)
    await plans.runWorker();
    expect(await deleteKeyJob(key)).toBeUndefined();
    expect(
      (await plans.portoneState()).billingKeys.find((k) => k.billingKey === key)?.deleteRequests,
    ).toBe(1);
    // stopping again is done already
    expect(
      (await callFunction('cancel-iamport-payment', { paymentId }, owner.accessToken)).status,
    ).toBe(200);

    // the period ends
    await sql(
      `update public.payments set start_date = current_date - 31, end_date = current_date - 1 where id = $1`,
      [paymentId],
    );
    await sql('select private.expire_plans()');
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({ is_active: false });
    expect(await plans.profileOf(owner.id)).toMatchObject({
      ...plans.FREE_PROFILE,
      block_count: 5,
    });
    const rows = await sql<{ id: string; deactivated: boolean }>(
      'select id, deactivated from public.blocks where owner_id = $1 order by created_at, id',
      [owner.id],
    );
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(rows.map((r) => r.deactivated)).toEqual([false, false, false, true, true]);
    const { error: createError } = await owner.client.rpc('create_block', { p_block_type: 'like' });
    expect(createError?.message).toBe('Block limit reached!');

    // a new plan brings the blocks back
    expect((await plans.buyByCard(owner, await plans.cardKey(owner))).status).toBe(200);
    const back = await sql<{ deactivated: boolean }>(
      'select deactivated from public.blocks where owner_id = $1',
      [owner.id],
    );
    expect(back.every((r) => !r.deactivated)).toBe(true);
  });

  it('a Stop after the end date (the renewal never came) ends the plan at once', async () => {
    // before: it stayed active until the next daily expiry, a day later when the Stop came in the
    // expiry's own run
    const owner = await newUser('stop-past-end');
    const { paymentId } = await boughtByCard(owner);
    await sql(
      `update public.payments set start_date = current_date - 32, end_date = current_date - 1 where id = $1`,
      [paymentId],
    );
    const res = await callFunction('cancel-iamport-payment', { paymentId }, owner.accessToken);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect((res.json.data as { payment: unknown }).payment).toMatchObject({
      is_active: false,
      auto_renew: false,
    });
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({ is_active: false });
    expect(await plans.profileOf(owner.id)).toMatchObject(plans.FREE_PROFILE);
  });

  it('a plan that does not renew is announced three days ahead, once', async () => {
    const owner = await newUser('ending');
    const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
    expect(
      (await callFunction('cancel-paypal-payment', { paymentId }, owner.accessToken)).status,
    ).toBe(200);
    expect((await plans.paypalState()).subscriptions.find((s) => s.id === sub)?.status).toBe(
      'CANCELLED',
    );
    await sql(`update public.payments set end_date = current_date + 3 where id = $1`, [paymentId]);
    await sql('select private.expire_plans()');
    await sql('select private.expire_plans()');
    const mail = await eventually(async () => {
      await plans.runWorker();
      return (await mailbox(owner.email)).find((m) =>
        m.subject.startsWith('Your Reaction Blocks plan ends on'),
      );
    });
    expect(mail.subject).toContain(plans.addDays(plans.today(), 3).slice(2).replace(/-/g, '.'));
    expect(mail.html).toContain('/profile/plan');
    expect(
      (await mailbox(owner.email)).filter((m) =>
        m.subject.startsWith('Your Reaction Blocks plan ends'),
      ),
    ).toHaveLength(1);
  });

  it('a renewing plan past its end is checked with the provider before it ends', async () => {
    const owner = await newUser('check');
    const { sub, paymentId } = await plans.boughtByPaypal(owner, 3);
    // PayPal billed the next period and our record fell behind (its webhook lost): the row, and
    // the last PayPal payment applied to it, as they were before that payment
    const bought = (await plans.paymentsOf(owner.id))[0]!.end_date;
    await plans.control('paypal', `/subscriptions/${sub}/bill`);
    await eventually(async () => (await plans.paymentsOf(owner.id))[0]!.end_date !== bought);
    await sql(
      `update public.payments set start_date = current_date - 31, end_date = current_date - 1 where id = $1`,
      [paymentId],
    );
    await sql('delete from private.paypal_payments where payment_id = $1', [paymentId]);
    await sql('select private.expire_plans()');
    await eventually(async () => {
      await plans.runWorker();
      const [row] = await plans.paymentsOf(owner.id);
      return row!.is_active && row!.end_date > plans.today();
    }); // the shared queue may hold other files' jobs ahead of it
    // PayPal ended it: the check ends the plan. The fake tells us by webhook too; that is let
    // through first (on a busy machine it came after the update below and undid it), then
    // forgotten, as if it had been lost
    await plans.paypalClientCancel(sub);
    await eventually(async () => {
      await plans.runWorker();
      return !(await plans.paymentsOf(owner.id))[0]!.auto_renew;
    });
    await sql(
      `update public.payments set start_date = current_date - 31, end_date = current_date - 1, auto_renew = true where id = $1`,
      [paymentId],
    );
    await sql(`delete from private.jobs where dedupe_key like 'plan.renewal-check:' || $1 || '%'`, [
      paymentId,
    ]);
    await sql('select private.expire_plans()');
    await eventually(
      async () => {
        await plans.runWorker();
        return !(await plans.paymentsOf(owner.id))[0]!.is_active;
      },
      60_000, // the shared queue may hold other files' jobs ahead of it
      async () => ({
        payments: await plans.paymentsOf(owner.id),
        jobs: await sql(
          `select kind, status, attempts, run_at, last_error, result from private.jobs
           where dedupe_key like 'plan.renewal-check:' || $1 || '%'`,
          [paymentId],
        ),
      }),
    );
    expect(await plans.profileOf(owner.id)).toMatchObject({ paid: false, block_limit: 3 });
  });

  it('change by card: the next month is charged at the new price, 3 days early, and starts on its first day; by PayPal: an approval link, applied once approved and billed', async () => {
    const owner = await newUser('changer');
    const { key, paymentId, chargeId } = await changedBeforeRenewal(owner, plans.custom(20, 5000));
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      next_price: '10.00',
      next_content: custom(20, 5000),
    });
    // this month is still the one paid for
    expect(await plans.profileOf(owner.id)).toMatchObject({ block_limit: 11 });
    expect(
      (await plans.portoneState()).schedules
        .filter((s) => s.billingKey === key)
        .map((s) => s.status)
        .sort(),
    ).toEqual(['REVOKED', 'SCHEDULED']);

    const next = await nextPeriod();
    await charge(owner, chargeId);
    // paid for the next period, kept beside this one's plan until the next period starts
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      type: 'basic',
      price: '3.00',
      content: BASIC_CONTENT,
      end_date: next.end,
      next_content: null,
      paid_next_content: custom(20, 5000),
      paid_next_price: '10.00',
      paid_next_from: next.start,
    });
    expect(await plans.profileOf(owner.id)).toMatchObject({
      block_limit: 11,
      response_monthly_limit: 1100,
    });
    // the month after is charged at the new price too
    await scheduled(key, 10);
    // the day before it starts, the daily expiry leaves it waiting
    await daysPass(paymentId, 2);
    expect(await plans.profileOf(owner.id)).toMatchObject({ block_limit: 11 });
    // its first day: it starts
    await daysPass(paymentId, 1);
    expect(await plans.profileOf(owner.id)).toMatchObject({
      block_limit: 23,
      response_monthly_limit: 5100,
    });
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      price: '10.00',
      content: custom(20, 5000),
      next_content: null,
      type: 'custom',
      paid_next_content: null,
      paid_next_price: null,
      paid_next_from: null,
    });

    const payer = await newUser('paypal-changer');
    const { sub, paymentId: ppId } = await plans.boughtByPaypal(payer, 3);
    const change = await plans.changeByPaypal(payer, ppId, plans.custom(8, 4000));
    const links = (change.json.data as { links: Array<{ href: string; rel: string }> }).links;
    expect(links[0]!.rel).toBe('approve');
    expect(links[0]!.href).toContain('/paypal/checkout/approve?token=RV-');
    await plans.control('paypal', `/subscriptions/${sub}/approve`);
    await plans.control('paypal', `/subscriptions/${sub}/bill`);
    await eventually(async () => (await plans.profileOf(payer.id)).response_monthly_limit === 4100);
  });

  it('a smaller plan charged 3 days early deactivates no block before its first day', async () => {
    const owner = await newUser('downgrader');
    const { paymentId, chargeId } = await changedBeforeRenewal(owner, plans.custom(4, 2000));
    await blocks(owner, 8);
    await charge(owner, chargeId);
    expect(await plans.profileOf(owner.id)).toMatchObject({
      block_limit: 11,
      response_monthly_limit: 1100,
    });
    expect(await deactivated(owner)).toEqual(Array(8).fill(false));
    await daysPass(paymentId, 3);
    expect(await plans.profileOf(owner.id)).toMatchObject({
      block_limit: 7,
      response_monthly_limit: 2100,
    });
    expect(await deactivated(owner)).toEqual([...Array(7).fill(false), true]);
  });

  it('a changed plan charged on its first day or later (a late webhook, the renewal check) starts at once', async () => {
    const owner = await newUser('late-renewal');
    const { paymentId, chargeId } = await changedBeforeRenewal(owner, plans.custom(20, 5000));
    // no daily expiry here: on a plan past its end it queues the renewal check, which the
    // schedule's worker could run before the charge below and end the plan (a race of the
    // test's own making: a real renewal is charged 3 days before, long before any check)
    await daysPass(paymentId, 3, false);
    await charge(owner, chargeId);
    expect(await plans.profileOf(owner.id)).toMatchObject({ block_limit: 23 });
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      type: 'custom',
      price: '10.00',
      content: custom(20, 5000),
      paid_next_content: null,
      paid_next_from: null,
    });
  });

  it('Stop between the renewal charge and its period: the paid period keeps its plan, then the plan ends', async () => {
    const { owner, paymentId, next } = await chargedInWindow('stop-paid');
    await stopKeepsPaidPeriod(owner, paymentId, next.end, {
      paid_next_content: custom(20, 5000),
      paid_next_price: '10.00',
      paid_next_from: next.start,
    });
    // the checkout's renewal (replaced by the change), the paid one, the one after (stopped)
    expect((await plans.chargesOf(owner.id)).map((c) => c.status)).toEqual([
      'recorded',
      'revoked',
      'recorded',
      'revoked',
    ]);
    expect(await plans.profileOf(owner.id)).toMatchObject({ block_limit: 11 });

    await daysPass(paymentId, 3);
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      is_active: true,
      content: custom(20, 5000),
      paid_next_content: null,
    });
    expect(await plans.profileOf(owner.id)).toMatchObject({ paid: true, block_limit: 23 });

    // its period ends
    await sql(
      `update public.payments set start_date = current_date - 31, end_date = current_date - 1 where id = $1`,
      [paymentId],
    );
    await sql('select private.expire_plans()');
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({ is_active: false });
    expect(await plans.profileOf(owner.id)).toMatchObject(plans.FREE_PROFILE);
  });

  it('a plan ended between the renewal charge and its period keeps the plan it had (the paid one never starts on it)', async () => {
    const { owner, paymentId, next } = await chargedInWindow('ended-paid');
    await sql('select public.end_plan($1)', [paymentId]);
    await daysPass(paymentId, 3);
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      is_active: false,
      type: 'basic',
      content: BASIC_CONTENT,
      paid_next_content: custom(20, 5000),
      paid_next_from: plans.addDays(next.start, -3),
    });
    expect(await plans.profileOf(owner.id)).toMatchObject(plans.FREE_PROFILE);
  });

  it('a second Change between the renewal charge and its period is for the period after; the paid plan stays', async () => {
    const { owner, key, paymentId, next } = await chargedInWindow('rechanger');
    await changeByCard(owner, paymentId, plans.custom(12, 3000));
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      content: BASIC_CONTENT,
      end_date: next.end,
      next_content: custom(12, 3000),
      next_price: '6.00',
      paid_next_content: custom(20, 5000),
      paid_next_price: '10.00',
      paid_next_from: next.start,
    });
    expect(await plans.profileOf(owner.id)).toMatchObject({ block_limit: 11 });
    // the period after the paid one is charged at the second change's price, the $10 one revoked
    const after = await scheduled(key, 6);
    expect(
      (await plans.portoneState()).schedules
        .filter((s) => s.billingKey === key && s.totalAmount === 10000)
        .map((s) => s.status)
        .sort(),
    ).toEqual(['REVOKED', 'SUCCEEDED']);

    await daysPass(paymentId, 3);
    expect(await plans.profileOf(owner.id)).toMatchObject({ block_limit: 23 });
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      type: 'custom',
      price: '10.00',
      content: custom(20, 5000),
      next_content: custom(12, 3000),
      paid_next_content: null,
    });

    // the period after, charged in its turn, brings the second change on its own first day
    await charge(owner, after.paymentId);
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      content: custom(20, 5000),
      next_content: null,
      paid_next_content: custom(12, 3000),
      paid_next_price: '6.00',
    });
    expect(await plans.profileOf(owner.id)).toMatchObject({ block_limit: 23 });
  });

  it('Change after PortOne charged the renewal, before its webhook: the renewal is recorded first, the period charged once, the change is for the period after', async () => {
    const { owner, key, paymentId, chargeId, next } = await chargedUnrecorded('change-unrecorded');
    await changeByCard(owner, paymentId, plans.custom(20, 5000));
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      type: 'basic',
      content: BASIC_CONTENT,
      price: '3.00',
      end_date: next.end,
      next_content: custom(20, 5000),
      next_price: '10.00',
      paid_next_content: null,
    });
    // the paid renewal recorded; the change is charged for the period after it, nothing else
    const after = await scheduled(key, 10);
    const renewals = (await plans.chargesOf(owner.id)).filter(
      (c) => c.kind === 'renewal' && c.status !== 'revoked',
    );
    expect(renewals.map((c) => [c.id, c.status, c.period_start])).toEqual([
      [chargeId, 'recorded', next.start],
      [after.paymentId, 'scheduled', plans.addDays(next.end, 1)],
    ]);
    expect(
      (await plans.portoneState()).schedules
        .filter((s) => s.billingKey === key && s.status === 'SCHEDULED')
        .map((s) => s.paymentId),
    ).toEqual([after.paymentId]);
    expect(await paidAtPortOne(owner)).toBe(2);

    // the webhook arrives late: the renewal was recorded already, the change stays
    await sql('select public.record_plan_renewal($1, $2)', [chargeId, 'late-webhook']);
    expect((await plans.paymentsOf(owner.id))[0]).toMatchObject({
      end_date: next.end,
      next_content: custom(20, 5000),
      next_price: '10.00',
    });
    expect(await plans.profileOf(owner.id)).toMatchObject({ block_limit: 11 });
  });

  it('Stop after PortOne charged the renewal, before its webhook: the paid period is kept, nothing after it', async () => {
    const { owner, key, paymentId, next } = await chargedUnrecorded('stop-unrecorded');
    await stopKeepsPaidPeriod(owner, paymentId, next.end);
    expect((await plans.chargesOf(owner.id)).map((c) => c.status)).toEqual([
      'recorded',
      'recorded',
      'revoked',
    ]);
    expect(
      (await plans.portoneState()).schedules.filter(
        (s) => s.billingKey === key && s.status === 'SCHEDULED',
      ),
    ).toEqual([]);
    expect(await paidAtPortOne(owner)).toBe(2);
  });

  it('Change or Stop when PortOne does not answer about the pending renewal: 502, nothing changed', async () => {
    const { owner, key, paymentId } = await chargedUnrecorded('renewal-unanswered');
    await plans.control('portone', `/billing-keys/${key}`, { unanswered: true });
    await plans.refused(
      owner,
      () =>
        callFunction(
          'change-iamport-payment',
          { paymentId, plan: plans.custom(20, 5000) },
          owner.accessToken,
        ),
      502,
    );
    await plans.refused(
      owner,
      () => callFunction('cancel-iamport-payment', { paymentId }, owner.accessToken),
      502,
    );
    await plans.control('portone', `/billing-keys/${key}`, { unanswered: false });
  });
});
