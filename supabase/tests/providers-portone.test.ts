// The PortOne V2 fake, driven by the unmodified official server SDK (`@portone/server-sdk`, its
// base URL pointed at the providers server) and its webhook verifier: billing keys, payments by
// billing key with the merchant's payment id (a second call cannot charge twice), a declined card,
// schedules, cancel, Standard Webhooks signatures; and the browser SDK stand-in's checkout page.
import { randomUUID } from 'node:crypto';
import { PortOneClient, RestError, Webhook } from '@portone/server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTONE_DEFAULTS } from '../local/providers/portone/index.ts';
import { fakeControl, fakeState, providersUrl, snsReceiver } from './support/providers.ts';

const client = () =>
  PortOneClient({
    secret: PORTONE_DEFAULTS.apiSecret,
    baseUrl: providersUrl(),
    storeId: PORTONE_DEFAULTS.storeId,
  });

const control = <T = Record<string, unknown>>(path: string, body: unknown = {}) =>
  fakeControl<T>('portone', path, body);

const newKey = (decline = false, customerId = randomUUID()) =>
  control<{ billingKey: string }>('/billing-keys', { customerId, decline }).then(
    (r) => r.billingKey,
  );

/** The error type PortOne answered, through the SDK's error classes. */
async function errorType(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(RestError);
    return (err as RestError & { data: { type: string } }).data.type;
  }
  throw new Error('expected PortOne to refuse');
}

const pay = (paymentId: string, billingKey: string, total = 3000, noticeUrls?: string[]) =>
  client().payment.payWithBillingKey({
    paymentId,
    billingKey,
    orderName: 'Test plan',
    customer: { id: 'customer-1' },
    amount: { total },
    currency: 'KRW',
    ...(noticeUrls ? { noticeUrls } : {}),
  });

let receiver: Awaited<ReturnType<typeof snsReceiver>>;
beforeAll(async () => {
  receiver = await snsReceiver();
});
afterAll(() => receiver.close());

describe('PortOne fake with the official server SDK', () => {
  it('reads a billing key with its customer and channel', async () => {
    const customerId = randomUUID();
    const billingKey = await newKey(false, customerId);
    const info = await client().payment.billingKey.getBillingKeyInfo({ billingKey });
    expect(info).toMatchObject({ status: 'ISSUED', billingKey, customer: { id: customerId } });
    expect('channels' in info && info.channels[0]?.key).toBe(PORTONE_DEFAULTS.channels[0]!.key);
    expect(
      await errorType(client().payment.billingKey.getBillingKeyInfo({ billingKey: 'nope' })),
    ).toBe('BILLING_KEY_NOT_FOUND');
  });

  it('refuses another API secret', async () => {
    const other = PortOneClient({ secret: 'wrong', baseUrl: providersUrl() });
    expect(await errorType(other.payment.getPayment({ paymentId: 'x' }))).toBe('UNAUTHORIZED');
  });

  it('charges a billing key once per payment id: a second call answers ALREADY_PAID', async () => {
    const billingKey = await newKey();
    const paymentId = randomUUID();
    const first = await pay(paymentId, billingKey);
    expect(first.payment.pgTxId).toBeTruthy();
    expect(await errorType(pay(paymentId, billingKey))).toBe('ALREADY_PAID');
    // ten at once: still one payment
    const again = await Promise.allSettled(
      Array.from({ length: 10 }, () => pay(paymentId, billingKey)),
    );
    expect(again.every((r) => r.status === 'rejected')).toBe(true);
    const payment = await client().payment.getPayment({ paymentId });
    expect(payment).toMatchObject({ status: 'PAID', id: paymentId, billingKey, currency: 'KRW' });
    expect(payment.status === 'PAID' && payment.amount.total).toBe(3000);
    const state = await fakeState<{ payments: Array<{ id: string }> }>('portone');
    expect(state.payments.filter((p) => p.id === paymentId)).toHaveLength(1);
  });

  it('declines the test card on demand and records the failure', async () => {
    const billingKey = await newKey(true);
    const paymentId = randomUUID();
    expect(await errorType(pay(paymentId, billingKey))).toBe('PG_PROVIDER');
    const payment = await client().payment.getPayment({ paymentId });
    expect(payment.status).toBe('FAILED');
    expect(payment.status === 'FAILED' && payment.failure.pgMessage).toMatch(/Declined/);
    // the same key turned good: the failed id may be tried again
    await control(`/billing-keys/${billingKey}`, { decline: false });
    await pay(paymentId, billingKey);
    expect((await client().payment.getPayment({ paymentId })).status).toBe('PAID');
  });

  it('cancels a payment once', async () => {
    const billingKey = await newKey();
    const paymentId = randomUUID();
    await pay(paymentId, billingKey, 7000);
    const { cancellation } = await client().payment.cancelPayment({ paymentId, reason: 'test' });
    expect(cancellation).toMatchObject({ status: 'SUCCEEDED', totalAmount: 7000 });
    expect((await client().payment.getPayment({ paymentId })).status).toBe('CANCELLED');
    expect(await errorType(client().payment.cancelPayment({ paymentId, reason: 'again' }))).toBe(
      'PAYMENT_ALREADY_CANCELLED',
    );
  });

  it('schedules a charge, runs it, and revokes schedules with the billing key', async () => {
    const billingKey = await newKey();
    const paymentId = randomUUID();
    const timeToPay = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const payment = {
      billingKey,
      orderName: 'Renewal',
      customer: { id: 'customer-1' },
      amount: { total: 3000 },
      currency: 'KRW' as const,
      noticeUrls: [receiver.url],
    };
    const { schedule } = await client().payment.paymentSchedule.createPaymentSchedule({
      paymentId,
      payment,
      timeToPay,
    });
    expect(
      await client().payment.paymentSchedule.getPaymentSchedule({ paymentScheduleId: schedule.id }),
    ).toMatchObject({
      status: 'SCHEDULED',
      paymentId,
      totalAmount: 3000,
      timeToPay,
    });
    expect(
      await errorType(
        client().payment.paymentSchedule.createPaymentSchedule({ paymentId, payment, timeToPay }),
      ),
    ).toBe('PAYMENT_SCHEDULE_ALREADY_EXISTS');
    await control('/schedules/run', { paymentId });
    expect((await client().payment.getPayment({ paymentId })).status).toBe('PAID');
    expect(
      (
        await client().payment.paymentSchedule.getPaymentSchedule({
          paymentScheduleId: schedule.id,
        })
      ).status,
    ).toBe('SUCCEEDED');
    const post = await receiver.waitFor((p) => p.raw.includes(paymentId));
    // verified with the official SDK's Standard Webhooks verifier
    const event = await Webhook.verify(
      PORTONE_DEFAULTS.webhookSecret,
      post.raw,
      post.headers as Record<string, string>,
    );
    expect(event).toMatchObject({
      type: 'Transaction.Paid',
      data: { paymentId, storeId: PORTONE_DEFAULTS.storeId },
    });
    await expect(
      Webhook.verify(
        PORTONE_DEFAULTS.webhookSecret,
        post.raw.replace(paymentId, randomUUID()),
        post.headers as Record<string, string>,
      ),
    ).rejects.toBeInstanceOf(Webhook.WebhookVerificationError);

    const second = randomUUID();
    await client().payment.paymentSchedule.createPaymentSchedule({
      paymentId: second,
      payment,
      timeToPay,
    });
    const revoked = await client().payment.paymentSchedule.revokePaymentSchedules({ billingKey });
    expect(revoked.revokedScheduleIds).toHaveLength(1);
    await control('/schedules/run', { paymentId: second });
    expect(await errorType(client().payment.getPayment({ paymentId: second }))).toBe(
      'PAYMENT_NOT_FOUND',
    );
  });

  it('deletes a billing key once its schedules are revoked, and it can no longer be charged', async () => {
    const billingKey = await newKey();
    const paymentId = randomUUID();
    await client().payment.paymentSchedule.createPaymentSchedule({
      paymentId,
      payment: { billingKey, orderName: 'x', amount: { total: 1000 }, currency: 'KRW' },
      timeToPay: new Date(Date.now() + 86_400_000).toISOString(),
    });
    // a schedule waiting: PortOne refuses the delete
    expect(await errorType(client().payment.billingKey.deleteBillingKey({ billingKey }))).toBe(
      'PAYMENT_SCHEDULE_ALREADY_EXISTS',
    );
    await client().payment.paymentSchedule.revokePaymentSchedules({ billingKey });
    const { deletedAt } = await client().payment.billingKey.deleteBillingKey({ billingKey });
    expect(deletedAt).toBeTruthy();
    expect((await client().payment.billingKey.getBillingKeyInfo({ billingKey })).status).toBe(
      'DELETED',
    );
    expect(await errorType(pay(randomUUID(), billingKey))).toBe('BILLING_KEY_ALREADY_DELETED');
    expect(await errorType(client().payment.billingKey.deleteBillingKey({ billingKey }))).toBe(
      'BILLING_KEY_ALREADY_DELETED',
    );
  });

  it("checks what a charge needs, in PortOne's error shape", async () => {
    const billingKey = await newKey();
    expect(await errorType(pay(randomUUID(), billingKey, -5))).toBe('INVALID_REQUEST');
    expect(
      await errorType(
        client().payment.payWithBillingKey({
          paymentId: randomUUID(),
          billingKey,
          orderName: 'x',
          amount: { total: 1000 },
          currency: 'KRW',
          storeId: 'store-of-someone-else',
        }),
      ),
    ).toBe('FORBIDDEN');
  });
});

describe('PortOne browser SDK stand-in', () => {
  const request = (extra: Record<string, unknown> = {}) => ({
    storeId: PORTONE_DEFAULTS.storeId,
    channelKey: PORTONE_DEFAULTS.channels[0]!.key,
    billingKeyMethod: 'CARD',
    issueId: randomUUID(),
    issueName: 'Reaction Blocks Basic plan',
    customer: { customerId: 'owner-1', email: 'owner@example.com' },
    ...extra,
  });
  const checkoutUrl = (req: unknown) =>
    `${providersUrl()}/portone/checkout?request=${encodeURIComponent(JSON.stringify(req))}&origin=${encodeURIComponent('http://127.0.0.1:5')}`;

  it('serves window.PortOne, clearly a local stand-in', async () => {
    const res = await fetch(`${providersUrl()}/portone/browser-sdk.js`);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    const text = await res.text();
    expect(text).toContain('LOCAL STAND-IN');
    expect(text).toContain('requestIssueBillingKey');
  });

  it('shows a checkout page marked LOCAL that only the opening page may frame', async () => {
    const res = await fetch(checkoutUrl(request()));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain(
      'frame-ancestors http://127.0.0.1:5',
    );
    const html = await res.text();
    expect(html).toContain('LOCAL test checkout');
    expect(html).toContain('KCP billing (local)');
    const bad = await (await fetch(checkoutUrl(request({ storeId: 'other' })))).text();
    expect(bad).toContain('Unknown storeId');
    expect(
      (await fetch(`${providersUrl()}/portone/checkout?origin=javascript:alert(1)`)).status,
    ).toBe(400);
  });

  it('issues a billing key for the customer on Register, and answers a cancel', async () => {
    const req = request();
    const post = (decision: string, card = 'ok') =>
      fetch(`${providersUrl()}/portone/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: providersUrl() },
        body: new URLSearchParams({
          request: JSON.stringify(req),
          origin: 'http://127.0.0.1:5',
          decision,
          card,
        }),
      }).then((r) => r.text());
    const html = await post('approve', 'decline');
    const billingKey = /"billingKey":"([^"]+)"/.exec(html)?.[1];
    expect(billingKey).toBeTruthy();
    expect(html).toContain('postMessage');
    const info = await client().payment.billingKey.getBillingKeyInfo({ billingKey: billingKey! });
    expect(info).toMatchObject({
      status: 'ISSUED',
      customer: { id: 'owner-1', email: 'owner@example.com' },
    });
    expect(await errorType(pay(randomUUID(), billingKey!))).toBe('PG_PROVIDER');
    expect(await post('cancel')).toContain('FAILURE_TYPE_PG');
  });

  it('refuses a cross-site form post', async () => {
    const res = await fetch(`${providersUrl()}/portone/checkout`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
      },
      body: 'decision=approve',
    });
    expect(res.status).toBe(403);
  });
});
