// Plans and payments end to end: the owner's supabase-js calls the payment functions, which talk
// to the PortOne and PayPal fakes of the providers server with the official PortOne SDK and our
// PayPal client. Money rules at purchase: the server's price, one active plan, one charge per
// submit, bad input refused with nothing written, and the rules the database keeps whoever
// writes. Renewals and webhooks: plan-renewals.test.ts; stop, change and expiry:
// plan-stop-change.test.ts; coupons: coupons.test.ts (their helpers: support/plans.ts).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PORTONE_DEFAULTS } from '../local/providers/portone/index.ts';
import { PLAN_MESSAGES, planPrice } from '@reaction-blocks/contracts/plans';
import { anonClient, callFunction, newGuest, newUser, sql } from './support/clients.ts';
import * as plans from './support/plans.ts';
import { eventually } from './support/providers.ts';

describe("the price is the server's", () => {
  it('SQL and TypeScript compute the same price for the same plans', async () => {
    const orders = [
      { type: 'basic', blockLimit: 8, responseMonthlyLimit: 1000 },
      { type: 'basic', blockLimit: 12, responseMonthlyLimit: 1000 },
      { type: 'custom', blockLimit: 8, responseMonthlyLimit: 1000 },
      { type: 'custom', blockLimit: 0, responseMonthlyLimit: 3000 },
      { type: 'custom', blockLimit: 12, responseMonthlyLimit: 0 },
      { type: 'custom', blockLimit: 4, responseMonthlyLimit: 1000 },
      { type: 'custom', blockLimit: 400, responseMonthlyLimit: 100000 },
      { type: 'custom', blockLimit: 404, responseMonthlyLimit: 0 },
      { type: 'custom', blockLimit: 6, responseMonthlyLimit: 3000 },
      { type: 'custom', blockLimit: 8, responseMonthlyLimit: 2500 },
      { type: 'custom', blockLimit: -4, responseMonthlyLimit: 5000 },
      { type: 'gold', blockLimit: 8, responseMonthlyLimit: 1000 },
    ];
    const { ZPlan } = await import('@reaction-blocks/contracts/plans');
    for (const plan of orders) {
      const [row] = await sql<{ price: string | null }>(
        'select private.plan_price($1::jsonb)::text as price',
        [plan],
      );
      const parsed = ZPlan.safeParse(plan);
      expect(row!.price === null ? null : Number(row!.price), JSON.stringify(plan)).toBe(
        parsed.success ? planPrice(parsed.data) : null,
      );
    }
  });
});

describe('purchase by card (PortOne)', () => {
  it("charges the server's price once with our charge id, schedules the next month, then records the plan", async () => {
    const owner = await newUser('card');
    const billingKey = await plans.cardKey(owner);
    const { data, error } = await owner.client.functions.invoke('check-iamport-payment', {
      body: { plan: plans.custom(12, 2000), content: { billingKey, pg: 'kcp_billing' } },
    });
    expect(error).toBeNull();
    const payment = (data as { data: { status: boolean; payment: { id: string } } }).data.payment;
    expect(payment).toMatchObject({
      type: 'custom',
      price: 5,
      method: 'iamport',
      is_active: true,
      auto_renew: true,
    });

    expect(await plans.profileOf(owner.id)).toMatchObject({
      paid: true,
      block_limit: 15,
      response_monthly_limit: 2100,
    });
    // the owner reads it in the history, through RLS
    const { data: history } = await owner.client
      .from('payments')
      .select('id, type, price, is_active, content');
    expect(history).toEqual([
      expect.objectContaining({
        id: payment.id,
        is_active: true,
        content: { planName: 'Custom', blockLimit: 12, responseMonthlyLimit: 2000 },
      }),
    ]);

    // the next month is scheduled at PortOne in the request, or, when that call fails (it timed
    // out on a busy machine), by the job the purchase left for it
    await eventually(async () => {
      await plans.runWorker();
      return (await plans.chargesOf(owner.id))[1]?.status === 'scheduled';
    });
    const charges = await plans.chargesOf(owner.id);
    expect(charges.map((c) => [c.kind, c.status, Number(c.amount)])).toEqual([
      ['first', 'recorded', 5000],
      ['renewal', 'scheduled', 5000],
    ]);
    const fake = await plans.portoneState();
    const paid = fake.payments.filter((p) => p.customer.id === owner.id);
    expect(paid).toEqual([
      expect.objectContaining({
        id: charges[0]!.id,
        status: 'PAID',
        amount: expect.objectContaining({ total: 5000 }),
      }),
    ]);
    const schedule = fake.schedules.find((s) => s.paymentId === charges[1]!.id)!;
    expect(schedule).toMatchObject({ status: 'SCHEDULED', billingKey, totalAmount: 5000 });
    // charged three days before the next period starts
    const [row] = await plans.paymentsOf(owner.id);
    expect(charges[1]!.period_start).toBe(plans.addDays(row!.end_date, 1));
    expect(schedule.timeToPay.slice(0, 10)).toBe(plans.addDays(row!.end_date, -2));
  });

  it('a double submit charges once', async () => {
    const owner = await newUser('double');
    const billingKey = await plans.cardKey(owner);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => plans.buyByCard(owner, billingKey)),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    const ids = new Set(ok.map((a) => (a.json.data as { payment: { id: string } }).payment.id));
    expect(ids.size).toBe(1);
    expect(
      (await plans.portoneState()).payments.filter((p) => p.customer.id === owner.id),
    ).toHaveLength(1);
    expect(await plans.paymentsOf(owner.id)).toHaveLength(1);
    // and again later: the same plan, nothing charged
    const again = await plans.buyByCard(owner, billingKey);
    expect(again.status).toBe(200);
    expect(
      (await plans.portoneState()).payments.filter((p) => p.customer.id === owner.id),
    ).toHaveLength(1);
  });

  it('with an active plan, a second purchase is refused and nothing is charged', async () => {
    const owner = await newUser('twice');
    expect((await plans.buyByCard(owner, await plans.cardKey(owner))).status).toBe(200);
    const second = await plans.cardKey(owner);
    await plans.refused(
      owner,
      () => plans.buyByCard(owner, second, plans.custom(40, 0)),
      409,
      PLAN_MESSAGES.activePlan,
    );
    const sub = await plans.paypalSubscription(owner, 3);
    await plans.refused(
      owner,
      () => plans.buyByPaypal(owner, sub),
      409,
      `${PLAN_MESSAGES.activePlan}. The payment will be given back.`,
    );
    // PayPal would bill that second subscription for nothing: it is cancelled
    expect((await plans.paypalState()).subscriptions.find((s) => s.id === sub)?.status).toBe(
      'CANCELLED',
    );
  });

  it('a declined card records nothing but the failed attempt, and the owner can pay with another card', async () => {
    const owner = await newUser('declined');
    const declined = await plans.cardKey(owner, true);
    // the provider's refusal, the one code the dashboard reads as a declined card; a second
    // submit (or a check after the webhook settled it) answers the same decline
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await plans.buyByCard(owner, declined);
      expect(res.status, `attempt ${attempt}: ${JSON.stringify(res.json)}`).toBe(402);
      expect(res.json.error?.code).toBe('payment_failed');
      expect(res.json.error?.message).toMatch(/^Failed to payment: Declined/);
    }
    expect(await plans.profileOf(owner.id)).toMatchObject(plans.FREE_PROFILE);
    expect(await plans.paymentsOf(owner.id)).toEqual([]);
    expect((await plans.chargesOf(owner.id)).map((c) => c.status)).toEqual(['failed']);
    expect((await plans.buyByCard(owner, await plans.cardKey(owner))).status).toBe(200);
    expect(await plans.profileOf(owner.id)).toMatchObject({ paid: true, block_limit: 11 });
  });

  it("refuses a forged price, an impossible plan and another owner's card, writing nothing", async () => {
    const owner = await newUser('forger');
    const other = await newUser('victim');
    const key = await plans.cardKey(owner);
    await plans.refused(
      owner,
      () => plans.buyByCard(owner, key, { ...plans.custom(40, 0), price: 3 }),
      400,
      /price has changed/,
    );
    await plans.refused(
      owner,
      () => plans.buyByCard(owner, key, { ...plans.BASIC, blockLimit: 400 }),
      400,
      /Invalid plan/,
    );
    await plans.refused(
      owner,
      () => plans.buyByCard(owner, key, plans.custom(4, 1000)),
      400,
      new RegExp(PLAN_MESSAGES.minimumPrice.replace('$', '\\$')),
    );
    await plans.refused(
      owner,
      () =>
        callFunction(
          'check-iamport-payment',
          { plan: plans.BASIC, price: 0.01, content: { billingKey: key } },
          owner.accessToken,
        ),
      400,
    );
    const othersKey = await plans.cardKey(other);
    await plans.refused(
      owner,
      () => plans.buyByCard(owner, othersKey),
      403,
      'This payment method belongs to another account',
    );
    await plans.refused(
      owner,
      () => plans.buyByCard(owner, 'billing-key-unknown'),
      400,
      'Invalid billing key',
    );
    // the card route with a wallet's key, the wallet route with a card's
    const wallet = await plans.control<{ billingKey: string }>('portone', '/billing-keys', {
      customerId: owner.id,
      channelKey: PORTONE_DEFAULTS.channels[1]!.key,
    });
    await plans.refused(
      owner,
      () => plans.buyByCard(owner, wallet.billingKey),
      400,
      /does not match/,
    );
    await plans.refused(
      owner,
      () =>
        callFunction(
          'check-iamport-payment',
          { plan: plans.BASIC, content: { billingKey: key } },
          owner.accessToken,
        ),
      400,
      /does not match/,
    );
    // the wallet route works with the wallet's key
    const ok = await callFunction(
      'check-iamport-payment',
      { plan: plans.BASIC, content: { billingKey: wallet.billingKey } },
      owner.accessToken,
    );
    expect(ok.status).toBe(200);
  });
});

describe('purchase by PayPal subscription', () => {
  it('records an ACTIVE subscription on our plan with quantity equal to the price', async () => {
    const owner = await newUser('paypal');
    const plan = plans.custom(16, 2000);
    const subscriptionId = await plans.paypalSubscription(owner, planPrice(plan));
    const res = await plans.buyByPaypal(owner, subscriptionId, plan);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const [row] = await plans.paymentsOf(owner.id);
    expect(row).toMatchObject({
      type: 'custom',
      price: '6.00',
      method: 'paypal',
      provider_payment_id: subscriptionId,
      auto_renew: true,
    });
    expect(Date.parse(row!.end_date)).toBeGreaterThan(Date.now() + 26 * 86_400_000);
    expect(await plans.profileOf(owner.id)).toMatchObject({
      paid: true,
      block_limit: 19,
      response_monthly_limit: 2100,
    });
  });

  it('a check sent again for the same subscription (the tab reloaded before its answer) records nothing more and cancels nothing', async () => {
    // the dashboard checks again, after a reload, the subscription it kept at onApprove (U13)
    const owner = await newUser('paypal-again');
    const sub = await plans.paypalSubscription(owner, 3);
    const first = await plans.buyByPaypal(owner, sub);
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    const again = await plans.buyByPaypal(owner, sub);
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    expect(await plans.paymentsOf(owner.id)).toHaveLength(1);
    expect(await plans.subscriptionStatus(sub)).toBe('ACTIVE');
    expect(await plans.takenFor(sub)).toEqual(['COMPLETED:3.00']);
  });

  it("refuses a subscription whose quantity is not the plan's price (and cancels it), or another owner's", async () => {
    const owner = await newUser('paypal-forger');
    const cheap = await plans.paypalSubscription(owner, 3);
    await plans.refused(
      owner,
      () => plans.buyByPaypal(owner, cheap, plans.custom(40, 0)),
      400,
      /Failed to payment: The subscription price does not match the plan/,
    );
    expect((await plans.paypalState()).subscriptions.find((s) => s.id === cheap)?.status).toBe(
      'CANCELLED',
    );
    const someoneElse = await plans.paypalSubscription({ id: randomUUID() }, 3);
    await plans.refused(owner, () => plans.buyByPaypal(owner, someoneElse), 403);
    await plans.refused(
      owner,
      () => plans.buyByPaypal(owner, 'I-NOSUCHONE00'),
      400,
      'Invalid subscription id',
    );
    // a cancelled subscription (the one cancelled above) that PayPal took a payment for ends the
    // checkout by our own reading, not by a refusal (never the decline's `payment_failed`), and
    // its payment goes back: `refunded`; a retry of that checkout (no longer pending) says the
    // same, as its refund stands (paypal-refunds.test.ts, the buyer's cancel)
    const ended = await plans.buyByPaypal(owner, cheap);
    expect(ended.status, JSON.stringify(ended.json)).toBe(409);
    expect(ended.json.error).toMatchObject({
      code: 'refunded',
      message: 'The subscription is cancelled. The payment was given back.',
    });
    const again = await plans.buyByPaypal(owner, cheap);
    expect(again.status, JSON.stringify(again.json)).toBe(409);
    expect(again.json.error).toMatchObject({
      code: 'refunded',
      message: 'The subscription is cancelled. The payment was given back.',
    });
    expect(await plans.paymentsOf(owner.id)).toEqual([]);
    // not approved yet: nothing recorded, the reconcile job waits for it
    const pending = await plans.control<{ id: string }>('paypal', '/subscriptions', {
      quantity: '3',
      custom_id: owner.id,
      approve: false,
    });
    const res = await plans.buyByPaypal(owner, pending.id);
    expect(res.status).toBe(409);
    expect(await plans.paymentsOf(owner.id)).toEqual([]);
    await plans.control('paypal', `/subscriptions/${pending.id}/approve`);
    // the ACTIVATED webhook finishes the checkout
    await eventually(async () => (await plans.paymentsOf(owner.id)).length === 1);
  });

  it('a first PayPal payment refused after the approval is a decline (payment_failed), while PayPal retries it or once it suspended or cancelled the subscription', async () => {
    const owner = await newUser('paypal-refused');
    for (const status of ['ACTIVE', 'SUSPENDED', 'CANCELLED']) {
      // approved, its first payment fails: the subscription stays ACTIVE while PayPal retries,
      // then PayPal suspends it (payment_failure_threshold) or cancels it: a failed payment, none
      // paid. The dashboard checks as soon as the buyer approved, so ACTIVE is what it meets.
      const sub = await plans.control<{ id: string }>('paypal', '/subscriptions', {
        quantity: '3',
        custom_id: owner.id,
        approve: false,
      });
      await plans.control('paypal', `/subscriptions/${sub.id}`, { fail: true });
      await plans.control('paypal', `/subscriptions/${sub.id}/approve`);
      if (status !== 'ACTIVE')
        await plans.control('paypal', `/subscriptions/${sub.id}`, { status });
      // a second check of the same checkout (no longer pending) answers the same decline
      for (let attempt = 0; attempt < 2; attempt++) {
        const res = await plans.buyByPaypal(owner, sub.id);
        expect(res.status, `${status} ${attempt}: ${JSON.stringify(res.json)}`).toBe(402);
        expect(res.json.error).toMatchObject({
          code: 'payment_failed',
          message: 'Failed to payment: PayPal refused the first payment',
        });
      }
    }
    expect(await plans.paymentsOf(owner.id)).toEqual([]);
    expect(await plans.profileOf(owner.id)).toMatchObject(plans.FREE_PROFILE);
  });
});

describe('bad input', () => {
  it('every function answers a clear 4xx and writes nothing', async () => {
    const owner = await newUser('bad-input');
    const key = await plans.cardKey(owner);
    const cases: Array<[string, unknown, number, RegExp?]> = [
      ['check-iamport-payment', {}, 400],
      ['check-iamport-payment', { plan: plans.BASIC }, 400],
      [
        'check-iamport-payment',
        { plan: plans.BASIC, content: { billingKey: '' } },
        400,
        /Invalid billing key/,
      ],
      [
        'check-iamport-payment',
        { plan: plans.BASIC, content: { billingKey: key, pg: 'nicepay' } },
        400,
        /Invalid payment gateway/,
      ],
      [
        'check-iamport-payment',
        { plan: { ...plans.BASIC, blockLimit: 9 }, content: { billingKey: key } },
        400,
        /Invalid plan/,
      ],
      [
        'check-iamport-payment',
        { plan: { ...plans.BASIC, blockLimit: '8' }, content: { billingKey: key } },
        400,
        /Not a number/,
      ],
      [
        'check-iamport-payment',
        { plan: { ...plans.BASIC, type: 'gold' }, content: { billingKey: key } },
        400,
        /Invalid plan/,
      ],
      [
        'check-paypal-payment',
        { plan: plans.BASIC, subscriptionId: 'x' },
        400,
        /Invalid subscription id/,
      ],
      ['check-paypal-payment', { plan: plans.BASIC }, 400],
      ['cancel-iamport-payment', { paymentId: 'not-a-uuid' }, 400, /Invalid payment id/],
      ['cancel-paypal-payment', {}, 400],
      ['cancel-iamport-payment', { paymentId: randomUUID() }, 404, /No such plan/],
      ['cancel-paypal-payment', { paymentId: randomUUID() }, 404, /No such plan/],
      [
        'change-iamport-payment',
        { paymentId: randomUUID(), plan: plans.BASIC },
        404,
        /No such plan/,
      ],
      [
        'change-paypal-payment',
        { paymentId: randomUUID(), plan: plans.custom(0, 0) },
        400,
        /Minimum price/,
      ],
      ['use-coupon', { couponId: '' }, 400, /1 to 99 characters/],
      ['use-coupon', { couponId: 'x'.repeat(100) }, 400, /1 to 99 characters/],
      ['use-coupon', { couponId: 42 }, 400, /1 to 99 characters/],
      ['use-coupon', { couponId: 'OK', extra: 1 }, 400],
    ];
    for (const [name, body, status, message] of cases) {
      await plans.refused(
        owner,
        () => callFunction(name, body, owner.accessToken),
        status,
        message,
      );
    }
    await plans.refused(
      owner,
      () => callFunction('check-iamport-payment', '{not json', owner.accessToken, { raw: true }),
      400,
    );
    // no session, a guest: refused before anything else
    const guest = await newGuest();
    for (const name of [
      'check-iamport-payment',
      'check-paypal-payment',
      'use-coupon',
      'cancel-iamport-payment',
    ]) {
      expect((await callFunction(name, {}, undefined)).status).toBe(401);
      expect((await callFunction(name, { couponId: 'X' }, guest.accessToken)).status).toBe(403);
    }
  });
});

describe('rules in the database', () => {
  it('owners cannot write their plan: not the profile columns, not payments, not the charges', async () => {
    const owner = await newUser('hacker');
    for (const change of [
      { paid: true },
      { block_limit: 999 },
      { response_monthly_limit: 999999 },
    ]) {
      const { error } = await owner.client.from('profiles').update(change).eq('id', owner.id);
      expect(error?.message).toMatch(/permission denied/);
    }
    const insert = await owner.client.from('payments').insert({
      user_id: owner.id,
      type: 'custom',
      price: 0,
      is_active: true,
      content: { blockLimit: 400 },
    });
    expect(insert.error?.message).toMatch(/permission denied/);
    const coupon = await owner.client.from('coupons').select('code');
    expect(coupon.error?.message).toMatch(/permission denied/);
    for (const [fn, args] of [
      [
        'start_plan_checkout',
        {
          p_user_id: owner.id,
          p_method: 'iamport',
          p_provider_ref: 'k',
          p_plan: plans.BASIC,
          p_price: 3,
        },
      ],
      ['record_plan_checkout', { p_charge_id: randomUUID() }],
      ['redeem_coupon', { p_user_id: owner.id, p_code: 'X' }],
      ['note_owner_call', { p_user_id: owner.id, p_name: 'use-coupon', p_per_hour: 1000 }],
      ['sync_paypal_plan', { p_subscription_id: 'I-X', p_state: { status: 'ACTIVE' } }],
      ['expire_plans', {}],
      ['plan_charge', { p_charge_id: randomUUID() }],
    ] as const) {
      const { error } = await owner.client.rpc(fn, args);
      expect(error?.message, fn).toMatch(/permission denied/);
    }
    // PostgREST does not expose the private schema at all
    const charges = await owner.client
      .schema('private' as never)
      .from('payment_charges')
      .select('*');
    expect(charges.error).not.toBeNull();
    for (const role of ['anon', 'authenticated']) {
      await expect(
        sql(`begin; set local role ${role}; select * from private.payment_charges; commit;`),
      ).rejects.toThrow(/permission denied/);
    }
    expect(await plans.profileOf(owner.id)).toMatchObject(plans.FREE_PROFILE);
  });

  it('payments: owners read their own rows only; visitors none', async () => {
    const a = await newUser('reader-a');
    const b = await newUser('reader-b');
    expect((await plans.buyByCard(a, await plans.cardKey(a))).status).toBe(200);
    expect((await a.client.from('payments').select('id')).data).toHaveLength(1);
    expect((await b.client.from('payments').select('id').eq('user_id', a.id)).data).toEqual([]);
    expect(
      (await anonClient().from('payments').select('id').eq('user_id', a.id)).data ?? [],
    ).toEqual([]);
    const { error } = await a.client
      .from('payments')
      .update({ is_active: false })
      .eq('user_id', a.id);
    expect(error?.message).toMatch(/permission denied/);
    const del = await a.client.from('payments').delete().eq('user_id', a.id);
    expect(del.error?.message).toMatch(/permission denied/);
  });

  it('one active paid plan per owner, whoever writes', async () => {
    const owner = await newUser('unique');
    expect((await plans.buyByCard(owner, await plans.cardKey(owner))).status).toBe(200);
    await expect(
      sql(
        `insert into public.payments (user_id, type, price, is_active, content) values ($1, 'custom', 3, true, '{}')`,
        [owner.id],
      ),
    ).rejects.toThrow(/payments_one_active_plan_idx/);
  });

  it("the demo owner's plan is a real history row, with a legacy plan readable in history", async () => {
    const rows = await plans.paymentsOf('00000000-0000-4000-8000-000000000001');
    expect(rows.map((r) => [r.type, r.is_active, r.content.planName])).toEqual([
      ['subscription', false, '$7 Plan'],
      ['custom', true, 'Custom'],
    ]);
    expect(await plans.profileOf('00000000-0000-4000-8000-000000000001')).toMatchObject({
      paid: true,
      block_limit: 19,
      response_monthly_limit: 9100,
    });
  });
});
