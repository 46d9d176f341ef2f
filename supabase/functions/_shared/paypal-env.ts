// The functions' PayPal client, configured from their environment (docs/self-hosting.md):
// PAYPAL_API_URL (https://api-m.paypal.com, the sandbox's, or locally the fake), PAYPAL_CLIENT_ID,
// PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID. One client per isolate, so its token is reused.
import { env, optionalEnv } from './env.ts';
import { paypalClient as clientFor, type PayPal } from './paypal.ts';
import { providerFetch } from './provider-fetch.ts';

let shared: PayPal | undefined;

export function paypalClient(): PayPal {
  shared ??= clientFor(
    {
      baseUrl: optionalEnv('PAYPAL_API_URL', 'https://api-m.paypal.com'),
      clientId: env('PAYPAL_CLIENT_ID'),
      clientSecret: env('PAYPAL_CLIENT_SECRET'),
      webhookId: env('PAYPAL_WEBHOOK_ID'),
    },
    // writes on fresh connections, never re-sent by the runtime (provider-fetch.ts)
    providerFetch,
  );
  return shared;
}
