// The PayPal fake, driven by the functions' own typed PayPal client (PayPal's official server SDK
// cannot change its base URL) and, for the calls the functions do not make, by plain REST as
// PayPal documents it: OAuth client credentials, Subscriptions v1 (create with an approval link,
// get, revise, cancel), webhooks signed over "<id>|<time>|<webhook id>|<crc32>" and PayPal's
// verify-webhook-signature; the JS SDK stand-in and its approval pages.
import { describe, expect, it } from 'vitest';
import { PAYPAL_DEFAULTS, crc32 } from '../local/providers/paypal/index.ts';
import { DEMO_SUBSCRIPTION } from '../local/providers/payments-env.ts';
import { paypalClient, PayPalError, type PayPalConfig } from '../functions/_shared/paypal.ts';
import { eventually, fakeControl, fakeState, providersUrl } from './support/providers.ts';

const config = (over: Partial<PayPalConfig> = {}): PayPalConfig => ({
  baseUrl: `${providersUrl()}/paypal`,
  clientId: PAYPAL_DEFAULTS.clientId,
  clientSecret: PAYPAL_DEFAULTS.clientSecret,
  webhookId: PAYPAL_DEFAULTS.webhookId,
  ...over,
});

interface Delivery {
  id: string;
  headers: Record<string, string>;
  body: string;
  summary: Record<string, string>;
}

const state = () =>
  fakeState<{
    subscriptions: Array<{ id: string; status: string }>;
    webhooks: Delivery[];
    certUrl: string;
  }>('paypal');

const control = <T = Record<string, unknown>>(path: string, body: unknown = {}) =>
  fakeControl<T>('paypal', path, body);

async function token(secret = PAYPAL_DEFAULTS.clientSecret) {
  return fetch(`${providersUrl()}/paypal/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${PAYPAL_DEFAULTS.clientId}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
}

const webhookOf = (subscriptionId: string, type: string) =>
  eventually(async () =>
    (await state()).webhooks.find(
      (d) => d.summary.resource === subscriptionId && d.summary.event_type === type,
    ),
  );

describe('PayPal fake', () => {
  it('hands out a token for the client credentials only', async () => {
    const ok = await token();
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      token_type: 'Bearer',
      access_token: expect.any(String),
    });
    const bad = await token('wrong');
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: 'invalid_client' });
    await expect(
      paypalClient(config({ clientSecret: 'wrong' })).getSubscription('I-ABCDEF123'),
    ).rejects.toBeInstanceOf(PayPalError);
    const noToken = await fetch(`${providersUrl()}/paypal/v1/billing/subscriptions/I-ABCDEF123`);
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toMatchObject({ name: 'AUTHENTICATION_FAILURE' });
  });

  it('creates a subscription with an approval link; approved, it is active and paid', async () => {
    const { access_token } = (await (await token()).json()) as { access_token: string };
    const res = await fetch(`${providersUrl()}/paypal/v1/billing/subscriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        plan_id: PAYPAL_DEFAULTS.planId,
        quantity: '5',
        custom_id: 'owner-7',
      }),
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as {
      id: string;
      status: string;
      links: Array<{ rel: string; href: string }>;
    };
    expect(created.status).toBe('APPROVAL_PENDING');
    const approve = created.links.find((l) => l.rel === 'approve')!.href;
    const page = await (await fetch(approve)).text();
    expect(page).toContain('LOCAL test checkout');
    expect(page).toContain('$5.00 USD every month');
    const client = paypalClient(config());
    expect((await client.getSubscription(created.id)).status).toBe('APPROVAL_PENDING');

    const form = new URL(approve);
    const done = await fetch(`${providersUrl()}/paypal/checkout/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: form.searchParams.get('token')!, decision: 'approve' }),
    });
    expect(done.status).toBe(200);
    const s = await client.getSubscription(created.id);
    expect(s).toMatchObject({
      status: 'ACTIVE',
      quantity: '5',
      custom_id: 'owner-7',
      plan_id: PAYPAL_DEFAULTS.planId,
    });
    expect(s.billing_info?.last_payment?.amount.value).toBe('5.00');
    expect(Date.parse(s.billing_info!.next_billing_time!)).toBeGreaterThan(
      Date.now() + 27 * 86_400_000,
    );
    await webhookOf(created.id, 'BILLING.SUBSCRIPTION.ACTIVATED');
  });

  it("refuses an unknown plan and answers 404 in PayPal's shape", async () => {
    const { access_token } = (await (await token()).json()) as { access_token: string };
    const res = await fetch(`${providersUrl()}/paypal/v1/billing/subscriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ plan_id: 'P-NOPE', quantity: '5' }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      name: 'RESOURCE_NOT_FOUND',
      details: [{ issue: 'INVALID_RESOURCE_ID' }],
    });
    const err = await paypalClient(config())
      .getSubscription('I-NOSUCH0000')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PayPalError);
    expect((err as PayPalError).status).toBe(404);
  });

  it('revises the quantity after the buyer approves, and cancels once', async () => {
    const created = await control<{ id: string }>('/subscriptions', {
      quantity: '3',
      custom_id: 'owner-8',
    });
    const client = paypalClient(config());
    const revision = await client.reviseSubscription(created.id, {
      plan_id: PAYPAL_DEFAULTS.planId,
      quantity: '8',
    });
    expect(revision.links?.[0]).toMatchObject({ rel: 'approve' });
    expect((await client.getSubscription(created.id)).quantity).toBe('3');
    const token = new URL(revision.links![0]!.href).searchParams.get('token')!;
    expect(await (await fetch(revision.links![0]!.href)).text()).toContain('$8.00 USD every month');
    await fetch(`${providersUrl()}/paypal/checkout/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, decision: 'approve' }),
    });
    expect((await client.getSubscription(created.id)).quantity).toBe('8');
    await webhookOf(created.id, 'BILLING.SUBSCRIPTION.UPDATED');

    await client.cancelSubscription(created.id, 'test');
    expect((await client.getSubscription(created.id)).status).toBe('CANCELLED');
    // cancelling a cancelled subscription is done, not an error
    await client.cancelSubscription(created.id, 'again');
    await expect(
      client.reviseSubscription(created.id, { plan_id: PAYPAL_DEFAULTS.planId, quantity: '4' }),
    ).rejects.toMatchObject({
      issue: 'SUBSCRIPTION_STATUS_INVALID',
    });
  });

  it('signs webhooks that verify-webhook-signature accepts, and only those', async () => {
    const created = await control<{ id: string }>('/subscriptions', {
      quantity: '4',
      custom_id: 'owner-9',
    });
    await control(`/subscriptions/${created.id}/bill`);
    const delivery = await webhookOf(created.id, 'PAYMENT.SALE.COMPLETED');
    const event = JSON.parse(delivery.body) as Record<string, unknown>;
    const headers = {
      authAlgo: delivery.headers['paypal-auth-algo']!,
      certUrl: delivery.headers['paypal-cert-url']!,
      transmissionId: delivery.headers['paypal-transmission-id']!,
      transmissionSig: delivery.headers['paypal-transmission-sig']!,
      transmissionTime: delivery.headers['paypal-transmission-time']!,
    };
    expect(headers.certUrl).toBe((await state()).certUrl);
    expect((await fetch(headers.certUrl)).status).toBe(200);
    const client = paypalClient(config());
    expect(await client.verifyWebhook(headers, event)).toBe(true);
    expect(await client.verifyWebhook(headers, { ...event, summary: 'changed' })).toBe(false);
    expect(
      await client.verifyWebhook({ ...headers, transmissionTime: new Date().toISOString() }, event),
    ).toBe(false);
    expect(
      await paypalClient(config({ webhookId: 'WH-OTHER' })).verifyWebhook(headers, event),
    ).toBe(false);
    expect(crc32('The quick brown fox jumps over the lazy dog')).toBe(0x414fa339);
  });

  it('fails a renewal payment on demand', async () => {
    const created = await control<{ id: string }>('/subscriptions', {
      quantity: '3',
      custom_id: 'owner-10',
    });
    await control(`/subscriptions/${created.id}`, { fail: true });
    await control(`/subscriptions/${created.id}/bill`);
    await webhookOf(created.id, 'BILLING.SUBSCRIPTION.PAYMENT.FAILED');
    expect(
      (await paypalClient(config()).getSubscription(created.id)).billing_info
        ?.failed_payments_count,
    ).toBe(1);
  });

  it("lists a subscription's payments and refunds one once, as Payments v2 does", async () => {
    const client = paypalClient(config());
    const created = await control<{ id: string }>('/subscriptions', {
      quantity: '4',
      custom_id: 'owner-11',
    });
    const day = 86_400_000;
    const from = new Date(Date.now() - day).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const [paid, ...more] = await client.listTransactions(created.id, from, to);
    expect(more).toEqual([]);
    expect(paid).toMatchObject({
      status: 'COMPLETED',
      amount_with_breakdown: { gross_amount: { currency_code: 'USD', value: '4.00' } },
    });
    // the sale webhook names the same payment; a window before it lists nothing
    const sale = await webhookOf(created.id, 'PAYMENT.SALE.COMPLETED');
    expect((JSON.parse(sale.body) as { resource: { id: string } }).resource.id).toBe(paid!.id);
    expect(
      await client.listTransactions(created.id, new Date(Date.now() - 2 * day).toISOString(), from),
    ).toEqual([]);
    // PayPal requires both times
    const { access_token } = (await (await token()).json()) as { access_token: string };
    const noEnd = await fetch(
      `${providersUrl()}/paypal/v1/billing/subscriptions/${created.id}/transactions?start_time=${from}`,
      { headers: { authorization: `Bearer ${access_token}` } },
    );
    expect(noEnd.status).toBe(400);
    expect(await noEnd.json()).toMatchObject({
      name: 'INVALID_REQUEST',
      details: [{ issue: 'MISSING_REQUIRED_PARAMETER' }],
    });

    const refund = await client.refundCapture(paid!.id, 'refund-test-1', 'not a plan');
    expect(refund.status).toBe('COMPLETED');
    // the same PayPal-Request-Id again: the same refund, nothing more
    expect((await client.refundCapture(paid!.id, 'refund-test-1', 'not a plan')).id).toBe(
      refund.id,
    );
    // another request: refused, the capture is refunded already
    const again = await client.refundCapture(paid!.id, 'refund-test-2', 'x').catch((e) => e);
    expect(again).toBeInstanceOf(PayPalError);
    expect(again).toMatchObject({ status: 422, issue: 'CAPTURE_FULLY_REFUNDED' });
    expect((await client.listTransactions(created.id, from, to))[0]!.status).toBe('REFUNDED');
    const { refunds } = await fakeState<{ refunds: Array<{ capture_id: string }> }>('paypal');
    expect(refunds.filter((r) => r.capture_id === paid!.id)).toHaveLength(1);
    const unknown = await client.refundCapture('0NOSUCHCAPTURE00', 'r-3', 'x').catch((e) => e);
    expect(unknown).toMatchObject({ status: 404, issue: 'INVALID_RESOURCE_ID' });
  });

  it('refuses to refund a payment not captured yet, and answers 503 while down', async () => {
    const client = paypalClient(config());
    const created = await control<{ id: string }>('/subscriptions', {
      quantity: '3',
      custom_id: 'owner-12',
      pending_payments: true,
    });
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const [pending] = await client.listTransactions(created.id, from, to);
    expect(pending?.status).toBe('PENDING');
    // not taken yet: no last payment
    expect((await client.getSubscription(created.id)).billing_info?.last_payment).toBeUndefined();
    expect(
      await client.refundCapture(pending!.id, 'refund-pending-1', 'x').catch((e) => e),
    ).toMatchObject({ status: 422, issue: 'PENDING_CAPTURE' });
    await control(`/transactions/${pending!.id}/complete`);
    await webhookOf(created.id, 'PAYMENT.SALE.COMPLETED');
    expect((await client.getSubscription(created.id)).billing_info?.last_payment?.amount).toEqual({
      currency_code: 'USD',
      value: '3.00',
    });
    await control('/outage', { refund: 1, subscription: created.id });
    expect(
      await client.refundCapture(pending!.id, 'refund-pending-2', 'x').catch((e) => e),
    ).toMatchObject({ status: 503, name_: 'SERVICE_UNAVAILABLE' });
    expect((await client.refundCapture(pending!.id, 'refund-pending-2', 'x')).status).toBe(
      'COMPLETED',
    );
  });

  it("knows the seed's demo subscription", async () => {
    const s = await paypalClient(config()).getSubscription(DEMO_SUBSCRIPTION.id);
    expect(s).toMatchObject({
      status: 'ACTIVE',
      quantity: '13',
      custom_id: DEMO_SUBSCRIPTION.customId,
    });
  });
});

describe('PayPal JS SDK stand-in', () => {
  it('serves window.paypal for our client id only', async () => {
    const ok = await fetch(
      `${providersUrl()}/paypal/sdk/js?client-id=${PAYPAL_DEFAULTS.clientId}&vault=true&intent=subscription`,
    );
    expect(ok.status).toBe(200);
    const text = await ok.text();
    expect(text).toContain('LOCAL STAND-IN');
    expect(text).toContain('createSubscription');
    expect((await fetch(`${providersUrl()}/paypal/sdk/js?client-id=other`)).status).toBe(400);
  });

  it("answers an unknown plan as PayPal's create call does: the opener's onError, by name", async () => {
    const body = JSON.stringify({ plan_id: 'P-NOSUCHPLAN', quantity: '3', custom_id: 'owner-12' });
    const html = await (
      await fetch(
        `${providersUrl()}/paypal/checkout/subscribe?client_id=${PAYPAL_DEFAULTS.clientId}&origin=http://127.0.0.1:5&body=${encodeURIComponent(body)}`,
      )
    ).text();
    // no page to approve: the SDK stand-in rejects the create call with RESOURCE_NOT_FOUND
    expect(html).not.toContain('Agree &amp; Subscribe');
    expect(html).toContain('"result":"error","name":"RESOURCE_NOT_FOUND"');
    const sdk = await (
      await fetch(`${providersUrl()}/paypal/sdk/js?client-id=${PAYPAL_DEFAULTS.clientId}`)
    ).text();
    expect(sdk).toContain("if (data.result === 'error') reject(new Error(String(data.name)))");
  });

  it('subscribes from the popup page and tells the opener', async () => {
    const body = JSON.stringify({
      plan_id: PAYPAL_DEFAULTS.planId,
      quantity: '6',
      custom_id: 'owner-11',
    });
    const page = await (
      await fetch(
        `${providersUrl()}/paypal/checkout/subscribe?client_id=${PAYPAL_DEFAULTS.clientId}&origin=http://127.0.0.1:5&body=${encodeURIComponent(body)}`,
      )
    ).text();
    expect(page).toContain('$6.00 USD every month');
    const html = await (
      await fetch(`${providersUrl()}/paypal/checkout/subscribe`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: PAYPAL_DEFAULTS.clientId,
          origin: 'http://127.0.0.1:5',
          body,
          decision: 'approve',
        }),
      })
    ).text();
    const id = /"subscriptionID":"(I-[A-Z0-9]+)"/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain('"http://127.0.0.1:5"');
    expect(await paypalClient(config()).getSubscription(id!)).toMatchObject({
      status: 'ACTIVE',
      quantity: '6',
      custom_id: 'owner-11',
    });
  });
});
