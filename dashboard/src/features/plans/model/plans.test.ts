import { describe, expect, it } from 'vitest';
import {
  activePlan,
  basketFor,
  basketOf,
  heldBasketOf,
  basketFromSearch,
  basketPrice,
  basketToSearch,
  blocksAllowedFrom,
  blocksDropAfter,
  canBuy,
  countChange,
  couponsRunUntil,
  periodEnd,
  renewalState,
  retryLine,
  routePrice,
  rowPrice,
  upcomingPlans,
  usagePercent,
  withBlocks,
  withEmails,
} from './plans';
import { planRow as row } from '../test/fixtures';

describe('the basket', () => {
  it("starts as the spec's default and Basic is fixed", () => {
    expect(basketFromSearch('')).toEqual({
      type: 'custom',
      blockLimit: 8,
      responseMonthlyLimit: 1000,
    });
    expect(basketFromSearch('?focus=basic&blocks=40')).toEqual({
      type: 'basic',
      blockLimit: 8,
      responseMonthlyLimit: 1000,
    });
    expect(basketPrice(basketFor('basic'))).toBe(3);
    expect(withBlocks(basketFor('basic'), 40)).toEqual(basketFor('basic'));
  });

  it('rounds typed counts as the spec says: up by 4 when growing, down when shrinking, negatives ignored', () => {
    const b = basketFor('custom');
    const full = { ...b, blockLimit: 400, responseMonthlyLimit: 100_000 };
    expect(withBlocks(b, 13).blockLimit).toBe(16);
    expect(withBlocks(full, 13).blockLimit).toBe(12);
    expect(withBlocks(b, 7).blockLimit).toBe(4);
    expect(withBlocks(b, -4).blockLimit).toBe(8);
    expect(withBlocks(b, Number.NaN).blockLimit).toBe(8);
    expect(withBlocks(b, 100000).blockLimit).toBe(400);
    expect(withEmails(b, 1001).responseMonthlyLimit).toBe(2000);
    expect(withEmails(full, 1001).responseMonthlyLimit).toBe(1000);
    expect(withEmails(b, 999).responseMonthlyLimit).toBe(0);
    expect(withEmails(b, -1).responseMonthlyLimit).toBe(1000);
    // a typed "-0" is 0, never a negative zero (a price of -$0.00: break8 F4)
    const none = withEmails(withBlocks({ ...b, blockLimit: 0, responseMonthlyLimit: 0 }, -0), -0);
    expect(Object.is(none.blockLimit, 0)).toBe(true);
    expect(Object.is(none.responseMonthlyLimit, 0)).toBe(true);
  });

  it('names why a typed count was not taken as typed', () => {
    expect(countChange(16, 16, 400)).toBeNull();
    expect(countChange(13, 16, 400)).toBe('up');
    expect(countChange(13, 12, 400)).toBe('down');
    expect(countChange(99999, 400, 400)).toBe('max');
    expect(countChange(-5, 400, 400)).toBe('negative');
    expect(countChange(Number.NaN, 400, 400)).toBe('empty');
  });

  it('prices by the formula with a $3 minimum', () => {
    expect(basketPrice({ type: 'custom', blockLimit: 12, responseMonthlyLimit: 2000 })).toBe(5);
    const cheap = { type: 'custom' as const, blockLimit: 4, responseMonthlyLimit: 1000 };
    expect(basketPrice(cheap)).toBe(2);
    expect(canBuy(cheap)).toBe(false);
    expect(canBuy(basketFor('custom'))).toBe(true);
  });

  it('goes into the URL and comes back, rounded', () => {
    const b = { type: 'custom' as const, blockLimit: 16, responseMonthlyLimit: 3000 };
    expect(basketFromSearch(basketToSearch(b))).toEqual(b);
    expect(basketFromSearch('?focus=custom&blocks=13&emails=abc')).toEqual({
      type: 'custom',
      blockLimit: 16,
      responseMonthlyLimit: 1000,
    });
    expect(basketFromSearch('?focus= custom ')).toMatchObject({ type: 'custom' });
  });
});

describe('history and usage', () => {
  it('writes a price in the currency of its route, won as the reader writes it', () => {
    expect(routePrice(10, 'iamport', 'en')).toBe('₩10,000');
    expect(routePrice(10, 'iamport', 'ko')).toBe('10,000원');
    expect(routePrice(2.5, 'paypal', 'ko')).toBe('$2.50');
    // no route (a coupon, an old plan): the reader's currency
    expect(routePrice(3, null, 'en')).toBe('$3');
    expect(routePrice(3, null, 'ko')).toBe('3,000원');
  });

  it('the active plan is the first active basic, custom or subscription row', () => {
    const rows = [
      row({ id: 'coupon', type: 'coupon', method: null }),
      row({ id: 'old', is_active: false }),
      row({ id: 'now' }),
    ];
    expect(activePlan(rows)?.id).toBe('now');
    expect(activePlan([rows[0]!])).toBeUndefined();
  });

  it('shows legacy plans at their price', () => {
    expect(rowPrice(row({ price: 3, content: { planName: '$7 Plan' } }))).toBe(7);
    expect(rowPrice(row({ price: 13 }))).toBe(13);
  });

  it('caps the gauge at 100%', () => {
    expect(usagePercent(5, 11)).toBe(45);
    expect(usagePercent(20, 11)).toBe(100);
    expect(usagePercent(0, 0)).toBe(0);
  });

  it('the coming periods: the one charged already from its first day, then a change after end_date', () => {
    const paid = { planName: 'Custom', blockLimit: 20, responseMonthlyLimit: 5000 };
    const asked = { planName: 'Basic', blockLimit: 8, responseMonthlyLimit: 1000 };
    const basic = row({ type: 'basic', content: asked, end_date: '2026-12-29' });
    expect(upcomingPlans(basic)).toEqual([]);
    expect(basketOf(basic)).toEqual({ type: 'basic', blockLimit: 8, responseMonthlyLimit: 1000 });
    // charged 3 days before 2026-11-30, the first day of the period it paid for
    const charged = {
      ...basic,
      paid_next_content: paid,
      paid_next_price: 10,
      paid_next_from: '2026-11-30',
    };
    expect(upcomingPlans(charged)).toEqual([
      { from: '2026-11-30', content: paid, price: 10, paid: true },
    ]);
    // a Change starts from the plan paid for, a Custom one on a Basic row
    expect(basketOf(charged)).toEqual({
      type: 'custom',
      blockLimit: 20,
      responseMonthlyLimit: 5000,
    });
    const changedAgain = { ...charged, next_content: asked, next_price: 3 };
    expect(upcomingPlans(changedAgain)).toEqual([
      { from: '2026-11-30', content: paid, price: 10, paid: true },
      { from: '2026-12-30', content: asked, price: 3, paid: false },
    ]);
    expect(basketOf(changedAgain)).toEqual({
      type: 'basic',
      blockLimit: 8,
      responseMonthlyLimit: 1000,
    });
    // a plan that does not renew never starts the change asked after end_date; the paid one starts
    const paidLine = [{ from: '2026-11-30', content: paid, price: 10, paid: true }];
    expect(upcomingPlans({ ...changedAgain, auto_renew: false, stopped_at: 'x' })).toEqual(
      paidLine,
    );
    expect(upcomingPlans({ ...basic, next_content: asked, renewal_failed_at: 'x' })).toEqual([]);
    // a change back to the plan held (U9) changes nothing: no line, and Change starts from it
    expect(upcomingPlans({ ...basic, next_content: { ...asked }, next_price: 3 })).toEqual([]);
    expect(upcomingPlans({ ...changedAgain, next_content: { ...paid } })).toEqual(paidLine);
    expect(heldBasketOf(changedAgain)).toEqual(basketOf(charged));
    expect(heldBasketOf({ ...basic, next_content: paid })).toEqual(basketOf(basic));
    expect(upcomingPlans({ ...changedAgain, auto_renew: false, renewal_failed_at: 'x' })).toEqual(
      paidLine,
    );
  });

  it("a failed renewal PayPal retries: retrying, PayPal's next try while it is to come, the plan on for the expiry's week", () => {
    const failed = { renewal_failed_at: '2026-12-23T00:20:00Z' };
    expect(renewalState(row(failed))).toBe('retrying');
    expect(renewalState(row({ ...failed, auto_renew: false }))).toBe('failed');
    expect(renewalState(row())).toBe('renews');
    const retrying = row({ ...failed, renewal_retry_at: '2026-12-28T01:00:00+00:00' });
    expect(retryLine({ ...retrying, end_date: '2026-12-22' }, '2026-12-23')).toEqual({
      retry: '2026-12-28',
      until: '2026-12-29',
    });
    // that try has passed (another failure not seen yet), or PayPal gave no time
    expect(retryLine({ ...retrying, end_date: '2026-12-22' }, '2026-12-29').retry).toBeNull();
    expect(retryLine({ ...row(failed), end_date: '2026-12-22' }, '2026-12-23').retry).toBeNull();
  });

  it('a period runs a month less a day', () => {
    expect(periodEnd('2026-11-23')).toBe('2026-12-22');
    expect(periodEnd('2026-01-31')).toBe('2026-02-27');
    expect(periodEnd('2026-12-15')).toBe('2027-01-14');
  });
});

describe('coupons beside a plan, as private.apply_plan_limits and expire_plans count them', () => {
  const coupon = (id: string, end: string | null, blockLimit: number) =>
    row({ id, type: 'coupon', price: 0, end_date: end, content: { blockLimit } });
  const basic = { type: 'basic' as const, blockLimit: 7, responseMonthlyLimit: 900 };

  it('a coupon without an end date runs on every day after: counted, never ending, never dropping', () => {
    const coupons = [coupon('dated', '2027-01-31', 17), coupon('lasting', null, 12)];
    // the dated one counts through its last day, the lasting one every day after it
    expect(blocksAllowedFrom(basic, coupons, '2027-01-31')).toBe(20);
    expect(blocksAllowedFrom(basic, coupons, '2027-02-01')).toBe(15);
    expect(blocksAllowedFrom(basic, coupons, '2099-01-01')).toBe(15);
    // the limit drops once, when the dated one ends, to the lasting one's, and no lower
    expect(blocksDropAfter(basic, coupons, '2026-12-23', 20)).toEqual({
      date: '2027-02-01',
      limit: 15,
    });
    expect(blocksDropAfter(basic, coupons, '2026-12-23', 15)).toBeNull();
    // after a stopped plan, the coupons' limits have no last day
    expect(couponsRunUntil(coupons, '2026-12-23')).toEqual({ until: null });
    expect(couponsRunUntil([coupons[0]!], '2026-12-23')).toEqual({ until: '2027-01-31' });
    expect(couponsRunUntil([coupons[0]!], '2027-02-01')).toBeNull();
  });
});
