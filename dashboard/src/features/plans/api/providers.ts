// The payment providers' browser SDKs, loaded through their official npm loaders with the URLs
// this server configures (/env.js `payments`): PortOne's `@portone/browser-sdk` (its script URL
// through the package's exported setter, since the package has no option for it) and PayPal's
// `@paypal/paypal-js` (its `sdkBaseUrl` option). Locally both point at the providers server's
// stand-ins, whose checkout pages are clearly marked LOCAL; in production at PortOne's CDN and
// PayPal, the packages' defaults.
import type { PayPalNamespace } from '@paypal/paypal-js';
import { env, type PaymentsEnv } from '../../../lib/env';

/** The spec's payment popup timeout. */
export const PAYMENT_TIMEOUT_MS = 300_000;

export const paymentsConfig = (): PaymentsEnv => env.payments ?? {};

/**
 * `refused`: the provider answered with a failure (a declined card; its message is the
 * provider's, for the log); `failed`: the checkout could not run (not configured, no SDK).
 */
export type BillingKeyResult =
  | { ok: true; billingKey: string }
  | { ok: false; reason: 'cancelled' | 'timeout' | 'refused' | 'failed'; message?: string };

export interface BillingKeyRequest {
  route: 'card' | 'wallet';
  issueName: string;
  customer: { id: string; email?: string; name?: string };
  language: 'en' | 'ko';
}

/** PortOne's checkout issues a billing key (card through KCP billing, or a wallet). */
export async function requestBillingKey(request: BillingKeyRequest): Promise<BillingKeyResult> {
  const config = paymentsConfig().portone;
  const channelKey = request.route === 'card' ? config?.cardChannelKey : config?.walletChannelKey;
  if (!config || !channelKey) return { ok: false, reason: 'failed', message: 'not configured' };
  const sdk = await import('@portone/browser-sdk/v2');
  if (config.sdkUrl) sdk.__INTERNAL__setPortOneSdkUrl(config.sdkUrl);
  const issue = sdk.requestIssueBillingKey({
    storeId: config.storeId,
    channelKey,
    billingKeyMethod: request.route === 'card' ? 'CARD' : 'EASY_PAY',
    issueId: crypto.randomUUID(),
    issueName: request.issueName,
    customer: {
      customerId: request.customer.id,
      ...(request.customer.email ? { email: request.customer.email } : {}),
      ...(request.customer.name ? { fullName: request.customer.name } : {}),
    },
    locale: request.language === 'ko' ? 'KO_KR' : 'EN_US',
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), PAYMENT_TIMEOUT_MS);
  });
  try {
    const answer = await Promise.race([issue, timeout]);
    if (answer === 'timeout') return { ok: false, reason: 'timeout' };
    if (!answer) return { ok: false, reason: 'cancelled' };
    if (answer.code !== undefined || !answer.billingKey) {
      // the payment gateway's own answer (a refusal, or the payer's cancel); anything else (the
      // request, the channel, the connection) is a failure with its reason, not a declined card
      const pg = answer.code === 'FAILURE_TYPE_PG' || answer.pgCode !== undefined;
      const cancelled = pg && /cancel|취소/i.test(answer.message ?? '');
      const reason = cancelled ? 'cancelled' : pg ? 'refused' : 'failed';
      return { ok: false, reason, message: answer.message ?? answer.code ?? '' };
    }
    return { ok: true, billingKey: answer.billingKey };
  } catch (cause) {
    return { ok: false, reason: 'failed', message: (cause as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** PayPal's JS SDK for subscriptions (vault on, intent subscription), as the spec's route needs. */
export async function loadPaypal(): Promise<PayPalNamespace> {
  const config = paymentsConfig().paypal;
  if (!config) throw new Error('not configured');
  const { loadScript } = await import('@paypal/paypal-js');
  const paypal = await loadScript({
    clientId: config.clientId,
    vault: true,
    intent: 'subscription',
    ...(config.sdkBaseUrl ? { sdkBaseUrl: config.sdkBaseUrl } : {}),
  });
  if (!paypal?.Buttons) throw new Error('PayPal did not load');
  return paypal;
}
