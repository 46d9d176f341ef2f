// How PortOne's checkout answers map to what the purchase page says: only the payment gateway's
// own refusal is a declined card; a request, channel or connection problem is a failure with its
// reason (the installed SDK's codes), and the gateway's cancel is a cancel.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { env } from '../../../lib/env';
import { requestBillingKey } from './providers';

const answer = vi.hoisted(() => ({ current: undefined as unknown }));
vi.mock('@portone/browser-sdk/v2', () => ({
  __INTERNAL__setPortOneSdkUrl: () => {},
  requestIssueBillingKey: async () => answer.current,
}));

const request = {
  route: 'card',
  issueName: 'Reaction Blocks Basic',
  customer: { id: 'u1' },
  language: 'en',
} as const;

describe('requestBillingKey', () => {
  const payments = env.payments;
  afterEach(() => {
    env.payments = payments;
  });

  it.each([
    [
      { transactionType: 'ISSUE_BILLING_KEY', billingKey: 'bk-1' },
      { ok: true, billingKey: 'bk-1' },
    ],
    [
      { code: 'FAILURE_TYPE_PG', message: '[KCP] 카드 한도 초과', pgCode: '8012' },
      { ok: false, reason: 'refused', message: '[KCP] 카드 한도 초과' },
    ],
    [
      { code: 'SOMETHING', message: 'Declined', pgCode: '3001' },
      { ok: false, reason: 'refused', message: 'Declined' },
    ],
    [
      { code: 'FAILURE_TYPE_PG', message: '사용자가 결제를 취소하였습니다' },
      { ok: false, reason: 'cancelled', message: '사용자가 결제를 취소하였습니다' },
    ],
    [
      { code: 'Unavailable', message: 'Failed to fetch' },
      { ok: false, reason: 'failed', message: 'Failed to fetch' },
    ],
    [
      { code: 'ChannelNotFound', message: 'No such channel' },
      { ok: false, reason: 'failed', message: 'No such channel' },
    ],
    [{ code: 'BadRequest' }, { ok: false, reason: 'failed', message: 'BadRequest' }],
    [{ transactionType: 'ISSUE_BILLING_KEY' }, { ok: false, reason: 'failed', message: '' }],
  ])('%j -> %j', async (given, expected) => {
    env.payments = { portone: { storeId: 's', cardChannelKey: 'c', walletChannelKey: 'w' } };
    answer.current = given;
    expect(await requestBillingKey(request)).toEqual(expected);
  });
});
