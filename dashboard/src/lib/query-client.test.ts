import { describe, expect, it } from 'vitest';
import { isTransient } from './errors';
import { retryDelay, shouldRetry } from './query-client';

describe('retries', () => {
  it('tries a lost connection or a failed server again, twice', () => {
    const network = new TypeError('Failed to fetch');
    expect(isTransient(network)).toBe(true);
    expect(isTransient(Object.assign(new Error('down'), { status: 503 }))).toBe(true);
    expect(isTransient(Object.assign(new Error('slow down'), { status: 429 }))).toBe(true);
    expect(isTransient(Object.assign(new Error('slow down'), { status: 429, retryAfter: 2 }))).toBe(
      true,
    );
    expect(isTransient({ code: 'PGRST001', message: 'no connection to the database' })).toBe(true);
    expect(isTransient({ code: '40001', message: 'could not serialize access' })).toBe(true);
    expect(isTransient(Object.assign(new Error('x'), { name: 'FunctionsFetchError' }))).toBe(true);
    expect(shouldRetry(0, network)).toBe(true);
    expect(shouldRetry(1, network)).toBe(true);
    expect(shouldRetry(2, network)).toBe(false);
  });

  it("waits 1 s, then 2 s, and never less than the answer's Retry-After", () => {
    const network = new TypeError('Failed to fetch');
    expect([retryDelay(0, network), retryDelay(1, network)]).toEqual([1000, 2000]);
    // a function's 503 unavailable says Retry-After: 2
    const unavailable = Object.assign(new Error('The service is briefly unavailable'), {
      status: 503,
      retryAfter: 2,
    });
    expect([retryDelay(0, unavailable), retryDelay(1, unavailable)]).toEqual([2000, 2000]);
  });

  it('does not repeat a request that was refused or wrong', () => {
    for (const refused of [
      // a 429 that asks for a long wait is not tried again in a second
      Object.assign(new Error('Too many coupon tries'), { status: 429, retryAfter: 2520 }),
      Object.assign(new Error('Forbidden'), { status: 403 }),
      Object.assign(new Error('Invalid block'), { status: 400 }),
      { code: '42501', message: 'permission denied for table blocks' },
      { code: 'PGRST116', message: 'JSON object requested, multiple (or no) rows returned' },
      { code: '23505', message: 'duplicate key value' },
      new Error('Invalid input'),
      'a string',
      null,
    ]) {
      expect(isTransient(refused)).toBe(false);
      expect(shouldRetry(0, refused)).toBe(false);
    }
  });
});
