// Coupons (use-coupon): a coupon grants its plan for its duration once per owner, unknown and
// expired codes are refused, tries are limited per owner, parallel uses count once, and a promote
// coupon is for owners who never had a plan. Plans bought with money: plans.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksAllowed, PLAN_MESSAGES } from '@reaction-blocks/contracts/plans';
import { callFunction, newUser, sql, type TestUser } from './support/clients.ts';
import * as plans from './support/plans.ts';

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
    const [row] = await plans.paymentsOf(owner.id);
    expect(row).toMatchObject({
      type: 'coupon',
      price: '0.00',
      method: null,
      is_active: true,
      auto_renew: false,
    });
    expect(row!.end_date).toBe(plans.addDays(plans.today(), 29));
    expect(await plans.profileOf(owner.id)).toMatchObject({
      paid: true,
      block_limit: 11,
      response_monthly_limit: 1100,
    });
    await plans.refused(owner, () => use(owner, code), 409, PLAN_MESSAGES.couponUsed);
  });

  it('unknown and expired codes are refused', async () => {
    const owner = await newUser('coupon-bad');
    await plans.refused(owner, () => use(owner, 'NO-SUCH-CODE'), 404, PLAN_MESSAGES.couponNotFound);
    await plans.refused(owner, () => use(owner, expired), 410, PLAN_MESSAGES.couponExpired);
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
    await plans.refused(guesser, () => use(guesser, code), 429, PLAN_MESSAGES.couponAttempts);
    expect(await plans.paymentsOf(guesser.id)).toHaveLength(0);
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
    expect(await plans.paymentsOf(owner.id)).toHaveLength(1);

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
    expect((await plans.paymentsOf(fresh.id))[0]!.end_date).toBe(plans.addDays(plans.today(), 59));
    const customer = await newUser('promo-customer');
    expect(
      (await plans.buyByCard(customer, await plans.cardKey(customer), plans.custom(20, 0))).status,
    ).toBe(200);
    await plans.refused(customer, () => use(customer, promo), 403, PLAN_MESSAGES.couponNewOnly);
    expect((await use(customer, code)).status).toBe(200);
    expect(await plans.profileOf(customer.id)).toMatchObject({
      block_limit: 23,
      response_monthly_limit: 1100,
    });
    // the plan-change warning counts as the server: the larger addition, not the sum
    expect(blocksAllowed([20, 8])).toBe(23);
  });

  it('a free coupon redeemed first does not spend the promote coupon; a second promotion is refused', async () => {
    const owner = await newUser('promo-after-coupon');
    expect((await use(owner, code)).status).toBe(200);
    const res = await use(owner, promo);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const second = `PROMO2-${randomUUID().slice(0, 8).toUpperCase()}`;
    await sql(
      `insert into public.coupons (code, type, content, duration_days) values
        ($1, 'promote_coupon', '{"planName":"Spring","blockLimit":4,"responseMonthlyLimit":0}', 14)`,
      [second],
    );
    try {
      await plans.refused(owner, () => use(owner, second), 403, PLAN_MESSAGES.couponNewOnly);
    } finally {
      await sql('delete from public.coupons where code = $1', [second]);
    }
  });

  it('deleting the account does not give the coupons back: the same person signing in again is refused', async () => {
    const owner = await newUser('coupon-deleted');
    expect((await use(owner, promo)).status).toBe(200);
    expect((await use(owner, code)).status).toBe(200);
    expect((await callFunction('delete-user', {}, owner.accessToken)).status).toBe(200);
    const again = await newUser('coupon-deleted', owner.email.toUpperCase());
    await plans.refused(again, () => use(again, code), 409, PLAN_MESSAGES.couponUsed);
    await plans.refused(again, () => use(again, promo), 409, PLAN_MESSAGES.couponUsed);
    // another person is not held back by it
    expect((await use(await newUser('coupon-other'), code)).status).toBe(200);
  });

  it('a coupon larger than the plan gives its blocks, not the sum, as blocksAllowed counts', async () => {
    const owner = await newUser('coupon-over-plan');
    expect(
      (await plans.buyByCard(owner, await plans.cardKey(owner), plans.custom(4, 2000))).status,
    ).toBe(200);
    expect((await plans.profileOf(owner.id)).block_limit).toBe(blocksAllowed([4]));
    expect((await use(owner, code)).status).toBe(200);
    const { block_limit } = await plans.profileOf(owner.id);
    expect(block_limit).toBe(11);
    expect(block_limit).toBe(blocksAllowed([4, 8]));
  });
});
