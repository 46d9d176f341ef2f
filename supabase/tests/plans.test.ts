// Plans and payments end to end: the owner's supabase-js calls the payment functions, which talk
// to the PortOne and PayPal fakes of the providers server with the official PortOne SDK and our
// PayPal client; the fakes' signed webhooks come back through the webhook functions; the queue
// (jobs-worker) schedules renewals, reconciles, and mails. Money rules: the server's price, one
// active plan, one charge per submit, webhooks verified and re-read, nothing charged unrecorded.
import { randomUUID } from 'node:crypto';
import { PortOneClient } from '@portone/server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTONE_DEFAULTS, signStandardWebhook } from '../local/providers/portone/index.ts';
import { PAYPAL_DEFAULTS } from '../local/providers/paypal/index.ts';
import { planPrice, PLAN_MESSAGES, type TPlan } from '@reaction-blocks/contracts/plans';
import {
  anonClient,
  callFunction,
  newGuest,
  newUser,
  serviceClient,
  sql,
  stack,
  type TestUser,
} from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import { callWorker } from './support/worker.ts';
import { eventually, fakeControl, fakeState, mailbox, providersUrl } from './support/providers.ts';

const BASIC: TPlan = { type: 'basic', blockLimit: 8, responseMonthlyLimit: 1000 };
const custom = (blockLimit: number, responseMonthlyLimit: number): TPlan => ({
  type: 'custom',
  blockLimit,
  responseMonthlyLimit,
});

const portone = () =>
  PortOneClient({
    secret: PORTONE_DEFAULTS.apiSecret,
    baseUrl: providersUrl(),
    storeId: PORTONE_DEFAULTS.storeId,
  });

const control = <T = Record<string, unknown>>(
  fake: 'portone' | 'paypal',
  path: string,
  body: unknown = {},
) => fakeControl<T>(fake, path, body);

interface FakeState {
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
  billingKeys: Array<{ billingKey: string; status: string }>;
  webhooks: Array<{
    id: string;
    headers: Record<string, string>;
    body: string;
    summary: Record<string, string>;
    status: string;
  }>;
}
const portoneState = () => fakeState<FakeState>('portone');
const paypalState = () =>
  fakeState<{
    subscriptions: Array<{ id: string; status: string; quantity: string }>;
    webhooks: FakeState['webhooks'];
  }>('paypal');

const cardKey = (user: TestUser, decline = false) =>
  control<{ billingKey: string }>('portone', '/billing-keys', {
    customerId: user.id,
    decline,
  }).then((r) => r.billingKey);

const buyByCard = (user: TestUser, billingKey: string, plan: TPlan = BASIC) =>
  callFunction(
    'check-iamport-payment',
    { plan, content: { billingKey, pg: 'kcp_billing' } },
    user.accessToken,
  );

const paypalSubscription = (user: TestUser | { id: string }, quantity: number) =>
  control<{ id: string }>('paypal', '/subscriptions', {
    quantity: String(quantity),
    custom_id: user.id,
  }).then((s) => s.id);

const runWorker = () => callWorker();

/** The owner's plan columns, as only the database writes them. */
const profileOf = async (id: string) =>
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

const paymentsOf = (id: string) =>
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
    stopped_at: string | null;
    renewal_failed_at: string | null;
    provider_payment_id: string | null;
  }>(
    `select id, type, price, method, is_active, auto_renew, start_date::text, end_date::text, content,
            next_content, next_price, stopped_at, renewal_failed_at, provider_payment_id
       from public.payments where user_id = $1 order by created_at`,
    [id],
  );

const chargesOf = (id: string) =>
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
async function footprint(user: TestUser) {
  return {
    profile: await profileOf(user.id),
    payments: await paymentsOf(user.id),
    charges: await chargesOf(user.id),
    fake: (await portoneState()).payments.filter((p) => p.customer.id === user.id).length,
  };
}

/** Runs an attack; asserts the status (and message) and that nothing changed. */
async function refused(
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

const today = () => new Date().toISOString().slice(0, 10);
const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe("the price is the server's", () => {
  it('SQL and TypeScript compute the same price for the same plans', async () => {
    const plans = [
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
    for (const plan of plans) {
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
    const billingKey = await cardKey(owner);
    const { data, error } = await owner.client.functions.invoke('check-iamport-payment', {
      body: { plan: custom(12, 2000), content: { billingKey, pg: 'kcp_billing' } },
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

    expect(await profileOf(owner.id)).toMatchObject({
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
      await runWorker();
      return (await chargesOf(owner.id))[1]?.status === 'scheduled';
    }, 60_000);
    const charges = await chargesOf(owner.id);
    expect(charges.map((c) => [c.kind, c.status, Number(c.amount)])).toEqual([
      ['first', 'recorded', 5000],
      ['renewal', 'scheduled', 5000],
    ]);
    const fake = await portoneState();
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
    const [row] = await paymentsOf(owner.id);
    expect(charges[1]!.period_start).toBe(addDays(row!.end_date, 1));
    expect(schedule.timeToPay.slice(0, 10)).toBe(addDays(row!.end_date, -2));
  });

  it('a double submit charges once', async () => {
    const owner = await newUser('double');
    const billingKey = await cardKey(owner);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => buyByCard(owner, billingKey)),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    const ids = new Set(ok.map((a) => (a.json.data as { payment: { id: string } }).payment.id));
    expect(ids.size).toBe(1);
    expect((await portoneState()).payments.filter((p) => p.customer.id === owner.id)).toHaveLength(
      1,
    );
    expect(await paymentsOf(owner.id)).toHaveLength(1);
    // and again later: the same plan, nothing charged
    const again = await buyByCard(owner, billingKey);
    expect(again.status).toBe(200);
    expect((await portoneState()).payments.filter((p) => p.customer.id === owner.id)).toHaveLength(
      1,
    );
  });

  it('with an active plan, a second purchase is refused and nothing is charged', async () => {
    const owner = await newUser('twice');
    expect((await buyByCard(owner, await cardKey(owner))).status).toBe(200);
    const second = await cardKey(owner);
    await refused(
      owner,
      () => buyByCard(owner, second, custom(40, 0)),
      409,
      PLAN_MESSAGES.activePlan,
    );
    const sub = await paypalSubscription(owner, 3);
    await refused(
      owner,
      () =>
        callFunction(
          'check-paypal-payment',
          { plan: BASIC, subscriptionId: sub },
          owner.accessToken,
        ),
      409,
      PLAN_MESSAGES.activePlan,
    );
    // PayPal would bill that second subscription for nothing: it is cancelled
    expect((await paypalState()).subscriptions.find((s) => s.id === sub)?.status).toBe('CANCELLED');
  });

  it('a declined card records nothing but the failed attempt, and the owner can pay with another card', async () => {
    const owner = await newUser('declined');
    const res = await buyByCard(owner, await cardKey(owner, true));
    expect(res.status).toBe(402);
    expect(res.json.error?.message).toMatch(/^Failed to payment: Declined/);
    expect(await profileOf(owner.id)).toMatchObject({
      paid: false,
      block_limit: 3,
      response_monthly_limit: 100,
    });
    expect(await paymentsOf(owner.id)).toEqual([]);
    expect((await chargesOf(owner.id)).map((c) => c.status)).toEqual(['failed']);
    expect((await buyByCard(owner, await cardKey(owner))).status).toBe(200);
    expect(await profileOf(owner.id)).toMatchObject({ paid: true, block_limit: 11 });
  });

  it("refuses a forged price, an impossible plan and another owner's card, writing nothing", async () => {
    const owner = await newUser('forger');
    const other = await newUser('victim');
    const key = await cardKey(owner);
    await refused(
      owner,
      () => buyByCard(owner, key, { ...custom(40, 0), price: 3 }),
      400,
      /price has changed/,
    );
    await refused(
      owner,
      () => buyByCard(owner, key, { ...BASIC, blockLimit: 400 }),
      400,
      /Invalid plan/,
    );
    await refused(
      owner,
      () => buyByCard(owner, key, custom(4, 1000)),
      400,
      new RegExp(PLAN_MESSAGES.minimumPrice.replace('$', '\\$')),
    );
    await refused(
      owner,
      () =>
        callFunction(
          'check-iamport-payment',
          { plan: BASIC, price: 0.01, content: { billingKey: key } },
          owner.accessToken,
        ),
      400,
    );
    const othersKey = await cardKey(other);
    await refused(
      owner,
      () => buyByCard(owner, othersKey),
      403,
      'This payment method belongs to another account',
    );
    await refused(owner, () => buyByCard(owner, 'billing-key-unknown'), 400, 'Invalid billing key');
    // the card route with a wallet's key, the wallet route with a card's
    const wallet = await control<{ billingKey: string }>('portone', '/billing-keys', {
      customerId: owner.id,
      channelKey: PORTONE_DEFAULTS.channels[1]!.key,
    });
    await refused(owner, () => buyByCard(owner, wallet.billingKey), 400, /does not match/);
    await refused(
      owner,
      () =>
        callFunction(
          'check-iamport-payment',
          { plan: BASIC, content: { billingKey: key } },
          owner.accessToken,
        ),
      400,
      /does not match/,
    );
    // the wallet route works with the wallet's key
    const ok = await callFunction(
      'check-iamport-payment',
      { plan: BASIC, content: { billingKey: wallet.billingKey } },
      owner.accessToken,
    );
    expect(ok.status).toBe(200);
  });
});

describe('purchase by PayPal subscription', () => {
  it('records an ACTIVE subscription on our plan with quantity equal to the price', async () => {
    const owner = await newUser('paypal');
    const plan = custom(16, 2000);
    const subscriptionId = await paypalSubscription(owner, planPrice(plan));
    const res = await callFunction(
      'check-paypal-payment',
      { plan, subscriptionId },
      owner.accessToken,
    );
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const [row] = await paymentsOf(owner.id);
    expect(row).toMatchObject({
      type: 'custom',
      price: '6.00',
      method: 'paypal',
      provider_payment_id: subscriptionId,
      auto_renew: true,
    });
    expect(Date.parse(row!.end_date)).toBeGreaterThan(Date.now() + 26 * 86_400_000);
    expect(await profileOf(owner.id)).toMatchObject({
      paid: true,
      block_limit: 19,
      response_monthly_limit: 2100,
    });
  });

  it("refuses a subscription whose quantity is not the plan's price (and cancels it), or another owner's", async () => {
    const owner = await newUser('paypal-forger');
    const cheap = await paypalSubscription(owner, 3);
    await refused(
      owner,
      () =>
        callFunction(
          'check-paypal-payment',
          { plan: custom(40, 0), subscriptionId: cheap },
          owner.accessToken,
        ),
      400,
      /Failed to payment: The subscription price does not match the plan/,
    );
    expect((await paypalState()).subscriptions.find((s) => s.id === cheap)?.status).toBe(
      'CANCELLED',
    );
    const someoneElse = await paypalSubscription({ id: randomUUID() }, 3);
    await refused(
      owner,
      () =>
        callFunction(
          'check-paypal-payment',
          { plan: BASIC, subscriptionId: someoneElse },
          owner.accessToken,
        ),
      403,
    );
    await refused(
      owner,
      () =>
        callFunction(
          'check-paypal-payment',
          { plan: BASIC, subscriptionId: 'I-NOSUCHONE00' },
          owner.accessToken,
        ),
      400,
      'Invalid subscription id',
    );
    // not approved yet: nothing recorded, the reconcile job waits for it
    const pending = await control<{ id: string }>('paypal', '/subscriptions', {
      quantity: '3',
      custom_id: owner.id,
      approve: false,
    });
    const res = await callFunction(
      'check-paypal-payment',
      { plan: BASIC, subscriptionId: pending.id },
      owner.accessToken,
    );
    expect(res.status).toBe(409);
    expect(await paymentsOf(owner.id)).toEqual([]);
    await control('paypal', `/subscriptions/${pending.id}/approve`);
    // the ACTIVATED webhook finishes the checkout
    await eventually(async () => (await paymentsOf(owner.id)).length === 1, 15_000);
  });
});

describe('bad input', () => {
  it('every function answers a clear 4xx and writes nothing', async () => {
    const owner = await newUser('bad-input');
    const key = await cardKey(owner);
    const cases: Array<[string, unknown, number, RegExp?]> = [
      ['check-iamport-payment', {}, 400],
      ['check-iamport-payment', { plan: BASIC }, 400],
      [
        'check-iamport-payment',
        { plan: BASIC, content: { billingKey: '' } },
        400,
        /Invalid billing key/,
      ],
      [
        'check-iamport-payment',
        { plan: BASIC, content: { billingKey: key, pg: 'nicepay' } },
        400,
        /Invalid payment gateway/,
      ],
      [
        'check-iamport-payment',
        { plan: { ...BASIC, blockLimit: 9 }, content: { billingKey: key } },
        400,
        /Invalid plan/,
      ],
      [
        'check-iamport-payment',
        { plan: { ...BASIC, blockLimit: '8' }, content: { billingKey: key } },
        400,
        /Not a number/,
      ],
      [
        'check-iamport-payment',
        { plan: { ...BASIC, type: 'gold' }, content: { billingKey: key } },
        400,
        /Invalid plan/,
      ],
      [
        'check-paypal-payment',
        { plan: BASIC, subscriptionId: 'x' },
        400,
        /Invalid subscription id/,
      ],
      ['check-paypal-payment', { plan: BASIC }, 400],
      ['cancel-iamport-payment', { paymentId: 'not-a-uuid' }, 400, /Invalid payment id/],
      ['cancel-paypal-payment', {}, 400],
      ['cancel-iamport-payment', { paymentId: randomUUID() }, 404, /No such plan/],
      ['cancel-paypal-payment', { paymentId: randomUUID() }, 404, /No such plan/],
      ['change-iamport-payment', { paymentId: randomUUID(), plan: BASIC }, 404, /No such plan/],
      [
        'change-paypal-payment',
        { paymentId: randomUUID(), plan: custom(0, 0) },
        400,
        /Minimum price/,
      ],
      ['use-coupon', { couponId: '' }, 400, /1 to 99 characters/],
      ['use-coupon', { couponId: 'x'.repeat(100) }, 400, /1 to 99 characters/],
      ['use-coupon', { couponId: 42 }, 400, /1 to 99 characters/],
      ['use-coupon', { couponId: 'OK', extra: 1 }, 400],
    ];
    for (const [name, body, status, message] of cases) {
      await refused(owner, () => callFunction(name, body, owner.accessToken), status, message);
    }
    await refused(
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

describe('webhooks', () => {
  const postPortOne = (body: string, headers: Record<string, string>) =>
    fetch(`${stack().apiUrl}/functions/v1/portone-webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  it('refuses a PortOne webhook with a bad signature, an old one, or none', async () => {
    const body = JSON.stringify({
      type: 'Transaction.Paid',
      timestamp: new Date().toISOString(),
      data: { paymentId: randomUUID(), storeId: 'x', transactionId: 'y' },
    });
    const ts = String(Math.floor(Date.now() / 1000));
    const good = signStandardWebhook(PORTONE_DEFAULTS.webhookSecret, 'msg_1', ts, body);
    const forged = signStandardWebhook(
      `whsec_${Buffer.from('another secret').toString('base64')}`,
      'msg_1',
      ts,
      body,
    );
    expect(
      (
        await postPortOne(body, {
          'webhook-id': 'msg_1',
          'webhook-timestamp': ts,
          'webhook-signature': forged,
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await postPortOne(body.replace('Paid', 'Failed'), {
          'webhook-id': 'msg_1',
          'webhook-timestamp': ts,
          'webhook-signature': good,
        })
      ).status,
    ).toBe(401);
    const old = String(Math.floor(Date.now() / 1000) - 3600);
    expect(
      (
        await postPortOne(body, {
          'webhook-id': 'msg_2',
          'webhook-timestamp': old,
          'webhook-signature': signStandardWebhook(
            PORTONE_DEFAULTS.webhookSecret,
            'msg_2',
            old,
            body,
          ),
        })
      ).status,
    ).toBe(401);
    expect((await postPortOne(body, {})).status).toBe(401);
    // signed right but about a payment that is not ours: accepted, nothing applied
    const res = await postPortOne(body, {
      'webhook-id': 'msg_1',
      'webhook-timestamp': ts,
      'webhook-signature': good,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { applied: 'ignored' } });
  });

  it('a card renewal: the schedule runs, the signed webhook extends the plan once, a replay changes nothing', async () => {
    const owner = await newUser('renewal');
    const key = await cardKey(owner);
    expect((await buyByCard(owner, key)).status).toBe(200);
    const [before] = await paymentsOf(owner.id);
    const renewal = (await chargesOf(owner.id)).find((c) => c.kind === 'renewal')!;
    await control('portone', '/schedules/run', { paymentId: renewal.id });
    const after = await eventually(async () => {
      const [row] = await paymentsOf(owner.id);
      return row!.end_date !== before!.end_date ? row : undefined;
    });
    expect(Date.parse(after!.end_date) - Date.parse(before!.end_date)).toBeGreaterThanOrEqual(
      28 * 86_400_000,
    );
    // the next month's charge is written and scheduled by the queue
    await eventually(async () => {
      await runWorker();
      const next = (await chargesOf(owner.id)).filter((c) => c.kind === 'renewal');
      return next.length === 2 && next[1]!.status === 'scheduled';
    }, 15_000);

    const delivery = (await portoneState()).webhooks.find(
      (w) => w.summary.paymentId === renewal.id && w.summary.type === 'Transaction.Paid',
    )!;
    expect(delivery.status).toBe('delivered');
    const replay = await postPortOne(delivery.body, delivery.headers);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ data: { duplicate: true } });
    // the same event under a new id (a resend): read back from PortOne, already recorded
    const ts = String(Math.floor(Date.now() / 1000));
    const resent = await postPortOne(delivery.body, {
      'webhook-id': 'msg_resent',
      'webhook-timestamp': ts,
      'webhook-signature': signStandardWebhook(
        PORTONE_DEFAULTS.webhookSecret,
        'msg_resent',
        ts,
        delivery.body,
      ),
    });
    expect(resent.status).toBe(200);
    const [final] = await paymentsOf(owner.id);
    expect(final!.end_date).toBe(after!.end_date);
    expect(
      (await portoneState()).payments.filter(
        (p) => p.customer.id === owner.id && p.status === 'PAID',
      ),
    ).toHaveLength(2);
  });

  it('a declined renewal: the plan stops renewing, the owner is mailed, it ends at its end date', async () => {
    const owner = await newUser('renew-fails');
    await sql(`update public.profiles set language = 'ko' where id = $1`, [owner.id]);
    const key = await cardKey(owner);
    expect((await buyByCard(owner, key)).status).toBe(200);
    await control('portone', `/billing-keys/${key}`, { decline: true });
    const renewal = (await chargesOf(owner.id)).find((c) => c.kind === 'renewal')!;
    await control('portone', '/schedules/run', { paymentId: renewal.id });
    await eventually(async () => (await paymentsOf(owner.id))[0]!.renewal_failed_at !== null);
    const [row] = await paymentsOf(owner.id);
    expect(row).toMatchObject({ is_active: true, auto_renew: false });
    const mail = await eventually(async () => {
      await runWorker();
      return (await mailbox(owner.email)).find((m) => m.subject.includes('갱신하지 못했습니다'));
    }, 15_000);
    expect(mail.html).toContain('/profile/plan');
  });

  it('refuses a PayPal webhook that PayPal did not sign, applies a signed one once', async () => {
    const owner = await newUser('paypal-renew');
    const sub = await paypalSubscription(owner, 3);
    expect(
      (
        await callFunction(
          'check-paypal-payment',
          { plan: BASIC, subscriptionId: sub },
          owner.accessToken,
        )
      ).status,
    ).toBe(200);
    const [before] = await paymentsOf(owner.id);
    await control('paypal', `/subscriptions/${sub}/bill`);
    const after = await eventually(async () => {
      const [row] = await paymentsOf(owner.id);
      return row!.end_date !== before!.end_date ? row : undefined;
    });
    expect(Date.parse(after!.end_date) - Date.parse(before!.end_date)).toBeGreaterThanOrEqual(
      28 * 86_400_000,
    );

    const delivery = await eventually(async () =>
      (await paypalState()).webhooks.find(
        (w) =>
          w.summary.resource === sub &&
          w.summary.event_type === 'PAYMENT.SALE.COMPLETED' &&
          w.status === 'delivered',
      ),
    );
    const post = (body: string, headers: Record<string, string>) =>
      fetch(`${stack().apiUrl}/functions/v1/paypal-webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const tampered = delivery.body.replace(/"summary":"[^"]*"/, '"summary":"forged"');
    expect((await post(tampered, delivery.headers)).status).toBe(401);
    expect(
      (await post(delivery.body, { ...delivery.headers, 'paypal-transmission-sig': 'AAAA' }))
        .status,
    ).toBe(401);
    const replay = await post(delivery.body, delivery.headers);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ data: { duplicate: true } });
    expect((await paymentsOf(owner.id))[0]!.end_date).toBe(after!.end_date);
  });
});

describe('stop, change, expiry', () => {
  async function blocks(owner: TestUser, n: number) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      ids.push(await createBlock(owner, 'like'));
    }
    return ids;
  }

  it('stop keeps the plan to its end; expiry then falls back to Starter and deactivates the newest blocks', async () => {
    const owner = await newUser('stopper');
    const key = await cardKey(owner);
    const bought = await buyByCard(owner, key);
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
    const fake = await portoneState();
    expect(fake.billingKeys.find((k) => k.billingKey === key)?.status).toBe('DELETED');
    expect(fake.schedules.filter((s) => s.billingKey === key).map((s) => s.status)).toEqual([
      'REVOKED',
    ]);
    expect(await profileOf(owner.id)).toMatchObject({ paid: true, block_limit: 11 });
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
    expect((await paymentsOf(owner.id))[0]).toMatchObject({ is_active: false });
    expect(await profileOf(owner.id)).toMatchObject({
      paid: false,
      block_limit: 3,
      response_monthly_limit: 100,
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
    expect((await buyByCard(owner, await cardKey(owner))).status).toBe(200);
    const back = await sql<{ deactivated: boolean }>(
      'select deactivated from public.blocks where owner_id = $1',
      [owner.id],
    );
    expect(back.every((r) => !r.deactivated)).toBe(true);
  });

  it('a plan that does not renew is announced three days ahead, once', async () => {
    const owner = await newUser('ending');
    const sub = await paypalSubscription(owner, 3);
    const bought = await callFunction(
      'check-paypal-payment',
      { plan: BASIC, subscriptionId: sub },
      owner.accessToken,
    );
    const paymentId = (bought.json.data as { payment: { id: string } }).payment.id;
    expect(
      (await callFunction('cancel-paypal-payment', { paymentId }, owner.accessToken)).status,
    ).toBe(200);
    expect((await paypalState()).subscriptions.find((s) => s.id === sub)?.status).toBe('CANCELLED');
    await sql(`update public.payments set end_date = current_date + 3 where id = $1`, [paymentId]);
    await sql('select private.expire_plans()');
    await sql('select private.expire_plans()');
    const mail = await eventually(async () => {
      await runWorker();
      return (await mailbox(owner.email)).find((m) =>
        m.subject.startsWith('Your Reaction Blocks plan ends on'),
      );
    }, 15_000);
    expect(mail.subject).toContain(addDays(today(), 3).slice(2).replace(/-/g, '.'));
    expect(mail.html).toContain('/profile/plan');
    expect(
      (await mailbox(owner.email)).filter((m) =>
        m.subject.startsWith('Your Reaction Blocks plan ends'),
      ),
    ).toHaveLength(1);
  });

  it('a renewing plan past its end is checked with the provider before it ends', async () => {
    const owner = await newUser('check');
    const sub = await paypalSubscription(owner, 3);
    const bought = await callFunction(
      'check-paypal-payment',
      { plan: BASIC, subscriptionId: sub },
      owner.accessToken,
    );
    const paymentId = (bought.json.data as { payment: { id: string } }).payment.id;
    // our record fell behind (a lost webhook): PayPal still bills it
    await sql(
      `update public.payments set start_date = current_date - 31, end_date = current_date - 1 where id = $1`,
      [paymentId],
    );
    await sql('select private.expire_plans()');
    await eventually(async () => {
      await runWorker();
      const [row] = await paymentsOf(owner.id);
      return row!.is_active && row!.end_date > today();
    }, 60_000); // the shared queue may hold other files' jobs ahead of it
    // PayPal ended it: the check ends the plan. The fake tells us by webhook too; that is let
    // through first (on a busy machine it came after the update below and undid it), then
    // forgotten, as if it had been lost
    await paypalClientCancel(sub);
    await eventually(async () => {
      await runWorker();
      return !(await paymentsOf(owner.id))[0]!.auto_renew;
    }, 60_000);
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
        await runWorker();
        return !(await paymentsOf(owner.id))[0]!.is_active;
      },
      60_000, // the shared queue may hold other files' jobs ahead of it
      async () => ({
        payments: await paymentsOf(owner.id),
        jobs: await sql(
          `select kind, status, attempts, run_at, last_error, result from private.jobs
           where dedupe_key like 'plan.renewal-check:' || $1 || '%'`,
          [paymentId],
        ),
      }),
    );
    expect(await profileOf(owner.id)).toMatchObject({ paid: false, block_limit: 3 });
  }, 150_000);

  it('change by card: the next month is charged at the new price; by PayPal: an approval link, applied once approved and billed', async () => {
    const owner = await newUser('changer');
    const key = await cardKey(owner);
    const paymentId = ((await buyByCard(owner, key)).json.data as { payment: { id: string } })
      .payment.id;
    const res = await callFunction(
      'change-iamport-payment',
      { paymentId, plan: custom(20, 5000) },
      owner.accessToken,
    );
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect((await paymentsOf(owner.id))[0]).toMatchObject({
      next_price: '10.00',
      next_content: { planName: 'Custom', blockLimit: 20, responseMonthlyLimit: 5000 },
    });
    // this month is still the one paid for
    expect(await profileOf(owner.id)).toMatchObject({ block_limit: 11 });
    const schedule = await eventually(async () => {
      await runWorker();
      return (await portoneState()).schedules.find(
        (s) => s.billingKey === key && s.status === 'SCHEDULED' && s.totalAmount === 10000,
      );
    }, 15_000);
    expect(
      (await portoneState()).schedules
        .filter((s) => s.billingKey === key)
        .map((s) => s.status)
        .sort(),
    ).toEqual(['REVOKED', 'SCHEDULED']);
    await control('portone', '/schedules/run', { paymentId: schedule.paymentId });
    await eventually(async () => (await profileOf(owner.id)).block_limit === 23);
    expect((await paymentsOf(owner.id))[0]).toMatchObject({
      price: '10.00',
      next_content: null,
      type: 'custom',
    });

    const payer = await newUser('paypal-changer');
    const sub = await paypalSubscription(payer, 3);
    const ppId = (
      (
        await callFunction(
          'check-paypal-payment',
          { plan: BASIC, subscriptionId: sub },
          payer.accessToken,
        )
      ).json.data as {
        payment: { id: string };
      }
    ).payment.id;
    const change = await callFunction(
      'change-paypal-payment',
      { paymentId: ppId, plan: custom(8, 4000) },
      payer.accessToken,
    );
    expect(change.status).toBe(200);
    const links = (change.json.data as { links: Array<{ href: string; rel: string }> }).links;
    expect(links[0]!.rel).toBe('approve');
    expect(links[0]!.href).toContain('/paypal/checkout/approve?token=RV-');
    await control('paypal', `/subscriptions/${sub}/approve`);
    await control('paypal', `/subscriptions/${sub}/bill`);
    await eventually(async () => (await profileOf(payer.id)).response_monthly_limit === 4100);
  });
});

async function paypalClientCancel(subscriptionId: string) {
  const { paypalClient } = await import('../functions/_shared/paypal.ts');
  await paypalClient({
    baseUrl: `${providersUrl()}/paypal`,
    clientId: PAYPAL_DEFAULTS.clientId,
    clientSecret: PAYPAL_DEFAULTS.clientSecret,
    webhookId: PAYPAL_DEFAULTS.webhookId,
  }).cancelSubscription(subscriptionId, 'test');
}

describe('nothing charged stays unrecorded', () => {
  it('a function that stopped after PortOne took the money: the reconcile job records the plan', async () => {
    const owner = await newUser('crash');
    const key = await cardKey(owner);
    // what check-iamport-payment writes before asking for money, then the charge, then... nothing
    const { data: charge, error } = await serviceClient().rpc('start_plan_checkout', {
      p_user_id: owner.id,
      p_method: 'iamport',
      p_provider_ref: key,
      p_plan: BASIC,
      p_price: 3,
    });
    expect(error).toBeNull();
    const chargeId = (charge as { id: string }).id;
    await portone().payment.payWithBillingKey({
      paymentId: chargeId,
      billingKey: key,
      orderName: 'x',
      customer: { id: owner.id },
      amount: { total: 3000 },
      currency: 'KRW',
      noticeUrls: ['http://127.0.0.1:9/nowhere'],
    });
    expect(await paymentsOf(owner.id)).toEqual([]);
    await sql(`update private.jobs set run_at = now() where dedupe_key = $1`, [
      `plan.reconcile:${chargeId}`,
    ]);
    await eventually(async () => {
      await runWorker();
      return (await paymentsOf(owner.id)).length === 1;
    }, 15_000);
    expect(await profileOf(owner.id)).toMatchObject({ paid: true, block_limit: 11 });
    expect((await chargesOf(owner.id)).map((c) => c.status)).toEqual(['recorded', 'scheduled']);
  });

  it('a checkout that never reached PortOne is closed, and the owner can buy again', async () => {
    const owner = await newUser('never');
    const { data: charge } = await serviceClient().rpc('start_plan_checkout', {
      p_user_id: owner.id,
      p_method: 'iamport',
      p_provider_ref: await cardKey(owner),
      p_plan: BASIC,
      p_price: 3,
    });
    const chargeId = (charge as { id: string }).id;
    // while it is open, another purchase waits
    await refused(owner, () => buyByCard(owner, 'x'.repeat(10)), 400);
    const blocked = await buyByCard(owner, await cardKey(owner));
    expect(blocked.status).toBe(409);
    expect(blocked.json.error?.message).toBe(PLAN_MESSAGES.paymentInProgress);
    await sql(
      `update private.payment_charges set created_at = now() - interval '11 minutes' where id = $1`,
      [chargeId],
    );
    await sql(`update private.jobs set run_at = now() where dedupe_key = $1`, [
      `plan.reconcile:${chargeId}`,
    ]);
    await eventually(async () => {
      await runWorker();
      return (await chargesOf(owner.id)).some((c) => c.id === chargeId && c.status === 'failed');
    }, 15_000);
    expect((await buyByCard(owner, await cardKey(owner))).status).toBe(200);
  });
});

describe('coupons', () => {
  let code: string;
  let capped: string;
  let expired: string;
  let promo: string;
  beforeAll(async () => {
    const suffix = randomUUID().slice(0, 8).toUpperCase();
    code = `WELCOME-${suffix}`;
    capped = `ONCE-${suffix}`;
    expired = `OLD-${suffix}`;
    promo = `PROMO-${suffix}`;
    await sql(
      `insert into public.coupons (code, type, content, duration_days, max_redemptions, valid_until) values
        ($1, 'coupon', '{"planName":"Coupon","blockLimit":8,"responseMonthlyLimit":1000}', 30, null, null),
        ($2, 'coupon', '{"planName":"Coupon","blockLimit":4,"responseMonthlyLimit":0}', 30, 1, null),
        ($3, 'coupon', '{"planName":"Coupon","blockLimit":4,"responseMonthlyLimit":0}', 30, null, now() - interval '1 day'),
        ($4, 'promote_coupon', '{"planName":"Launch","blockLimit":8,"responseMonthlyLimit":1000}', 60, null, null)`,
      [code, capped, expired, promo],
    );
  });
  afterAll(async () => {
    await sql('delete from public.coupons where code = any($1)', [[code, capped, expired, promo]]);
  });
  const use = (user: TestUser, couponId: string) =>
    callFunction('use-coupon', { couponId }, user.accessToken);

  it('grants its plan for its duration, once per owner, case-insensitively', async () => {
    const owner = await newUser('coupon');
    const res = await use(owner, `  ${code.toLowerCase()} `);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const [row] = await paymentsOf(owner.id);
    expect(row).toMatchObject({
      type: 'coupon',
      price: '0.00',
      method: null,
      is_active: true,
      auto_renew: false,
    });
    expect(row!.end_date).toBe(addDays(today(), 29));
    expect(await profileOf(owner.id)).toMatchObject({
      paid: true,
      block_limit: 11,
      response_monthly_limit: 1100,
    });
    await refused(owner, () => use(owner, code), 409, PLAN_MESSAGES.couponUsed);
  });

  it('unknown and expired codes are refused', async () => {
    const owner = await newUser('coupon-bad');
    await refused(owner, () => use(owner, 'NO-SUCH-CODE'), 404, PLAN_MESSAGES.couponNotFound);
    await refused(owner, () => use(owner, expired), 410, PLAN_MESSAGES.couponExpired);
  });

  it('ten tries an hour per owner: then even a good code waits, and other owners are not held', async () => {
    const guesser = await newUser('coupon-guess');
    const tries = await Promise.all(
      Array.from({ length: 12 }, (_, i) => use(guesser, `GUESS-${i}-${randomUUID().slice(0, 6)}`)),
    );
    expect(tries.map((r) => r.status).sort()).toEqual([...Array(10).fill(404), 429, 429]);
    for (const r of tries.filter((t) => t.status === 429)) {
      expect(r.json.error?.message).toBe(PLAN_MESSAGES.couponAttempts);
      // the wait: until the first of the ten tries is an hour old, in the body and the header
      expect(r.json.error?.retryAfter).toBeGreaterThan(3500);
      expect(r.json.error?.retryAfter).toBeLessThanOrEqual(3600);
      expect(r.retryAfter).toBe(String(r.json.error?.retryAfter));
    }
    await refused(guesser, () => use(guesser, code), 429, PLAN_MESSAGES.couponAttempts);
    expect(await paymentsOf(guesser.id)).toHaveLength(0);
    // an hour later the tries have run out of the window
    await sql(
      `update private.owner_calls set called_at = called_at - interval '61 minutes' where user_id = $1`,
      [guesser.id],
    );
    expect((await use(guesser, code)).status).toBe(200);
    // the purge keeps only the last hour's tries
    await sql('select private.purge_trust()');
    const [{ n }] = (await sql<{ n: number }>(
      'select count(*)::int as n from private.owner_calls where user_id = $1',
      [guesser.id],
    )) as [{ n: number }];
    expect(n).toBe(1);
    const other = await newUser('coupon-other');
    expect((await use(other, code)).status).toBe(200);
  });

  it('used twice in parallel: once per owner, and a capped coupon by one owner only', async () => {
    const owner = await newUser('coupon-race');
    const twice = await Promise.all([use(owner, code), use(owner, code), use(owner, code)]);
    expect(twice.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await paymentsOf(owner.id)).toHaveLength(1);

    const many = await Promise.all(Array.from({ length: 5 }, () => newUser('coupon-cap')));
    const answers = await Promise.all(many.map((u) => use(u, capped)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(
      answers
        .filter((r) => r.status === 409)
        .every((r) => r.json.error?.message === PLAN_MESSAGES.couponUsedUp),
    ).toBe(true);
    const [{ n }] = (await sql<{ n: number }>(
      `select redemption_count as n from public.coupons where code = $1`,
      [capped],
    )) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('a promote coupon is for owners who never had a plan; beside a paid plan the larger limits apply', async () => {
    const fresh = await newUser('promo');
    expect((await use(fresh, promo)).status).toBe(200);
    expect((await paymentsOf(fresh.id))[0]!.end_date).toBe(addDays(today(), 59));
    const customer = await newUser('promo-customer');
    expect((await buyByCard(customer, await cardKey(customer), custom(20, 0))).status).toBe(200);
    await refused(customer, () => use(customer, promo), 403, PLAN_MESSAGES.couponNewOnly);
    expect((await use(customer, code)).status).toBe(200);
    expect(await profileOf(customer.id)).toMatchObject({
      block_limit: 23,
      response_monthly_limit: 1100,
    });
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
          p_plan: BASIC,
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
    expect(await profileOf(owner.id)).toMatchObject({
      paid: false,
      block_limit: 3,
      response_monthly_limit: 100,
    });
  });

  it('payments: owners read their own rows only; visitors none', async () => {
    const a = await newUser('reader-a');
    const b = await newUser('reader-b');
    expect((await buyByCard(a, await cardKey(a))).status).toBe(200);
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
    expect((await buyByCard(owner, await cardKey(owner))).status).toBe(200);
    await expect(
      sql(
        `insert into public.payments (user_id, type, price, is_active, content) values ($1, 'custom', 3, true, '{}')`,
        [owner.id],
      ),
    ).rejects.toThrow(/payments_one_active_plan_idx/);
  });

  it("the demo owner's plan is a real history row, with a legacy plan readable in history", async () => {
    const rows = await paymentsOf('00000000-0000-4000-8000-000000000001');
    expect(rows.map((r) => [r.type, r.is_active, r.content.planName])).toEqual([
      ['subscription', false, '$7 Plan'],
      ['custom', true, 'Custom'],
    ]);
    expect(await profileOf('00000000-0000-4000-8000-000000000001')).toMatchObject({
      paid: true,
      block_limit: 19,
      response_monthly_limit: 9100,
    });
  });
});
