// The local settings of the payment providers, in one place: the fakes' options, the edge
// functions' environment (the same names a project sets, docs/self-hosting.md) and the
// dashboard's browser configuration (/env.js). Every value is a local dummy the fakes accept.
import { PAYPAL_DEFAULTS, type PayPalFakeOptions } from './paypal/index.ts';
import { PORTONE_DEFAULTS, type PortOneFakeOptions } from './portone/index.ts';

/** The seed's demo owner and its PayPal subscription (supabase/seed/01-demo-owner.sql). */
export const DEMO_SUBSCRIPTION = {
  id: 'I-DEMO0PLAN0001',
  customId: '00000000-0000-4000-8000-000000000001',
  quantity: 13,
  email: 'demo@reaction-blocks.local',
};

/** Options of the two fakes; their webhooks go to the stack's functions. */
export function paymentFakeOptions(apiUrl: string): {
  portone: Partial<PortOneFakeOptions>;
  paypal: Partial<PayPalFakeOptions>;
} {
  return {
    portone: { webhookUrl: `${apiUrl}/functions/v1/portone-webhook` },
    paypal: { webhookUrl: `${apiUrl}/functions/v1/paypal-webhook`, seeded: [DEMO_SUBSCRIPTION] },
  };
}

/** What the payment functions read (docs/self-hosting.md, "Payments"). */
export function paymentFunctionsEnv(providersUrl: string): Record<string, string> {
  return {
    // PortOne's server SDK resolves its paths against the origin, so the fake's API is at the root
    PORTONE_API_URL: providersUrl,
    PORTONE_API_SECRET: PORTONE_DEFAULTS.apiSecret,
    PORTONE_STORE_ID: PORTONE_DEFAULTS.storeId,
    PORTONE_WEBHOOK_SECRET: PORTONE_DEFAULTS.webhookSecret,
    PAYPAL_API_URL: `${providersUrl}/paypal`,
    PAYPAL_CLIENT_ID: PAYPAL_DEFAULTS.clientId,
    PAYPAL_CLIENT_SECRET: PAYPAL_DEFAULTS.clientSecret,
    PAYPAL_PLAN_ID: PAYPAL_DEFAULTS.planId,
    PAYPAL_WEBHOOK_ID: PAYPAL_DEFAULTS.webhookId,
  };
}

/** The dashboard's `payments` key in /env.js (docs/dashboard.md, "Configuration"). */
export function paymentBrowserConfig(providersUrl: string) {
  const [card, wallet] = PORTONE_DEFAULTS.channels;
  return {
    portone: {
      storeId: PORTONE_DEFAULTS.storeId,
      cardChannelKey: card!.key,
      walletChannelKey: wallet!.key,
      sdkUrl: `${providersUrl}/portone/browser-sdk.js`,
    },
    paypal: {
      clientId: PAYPAL_DEFAULTS.clientId,
      planId: PAYPAL_DEFAULTS.planId,
      sdkBaseUrl: `${providersUrl}/paypal/sdk/js`,
    },
  };
}
