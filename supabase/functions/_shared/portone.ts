// PortOne V2 through its official server SDK. The base URL is configurable (PORTONE_API_URL):
// locally and in tests it is the providers server, whose fake answers the API at the root
// because the SDK resolves '/payments/...' against the base URL's origin.
import { PortOneClient, RestError } from '@portone/server-sdk';
import { env, optionalEnv } from './env.ts';

export type PortOne = ReturnType<typeof PortOneClient>;

let client: PortOne | undefined;
export function portone(): PortOne {
  client ??= PortOneClient({
    secret: env('PORTONE_API_SECRET'),
    baseUrl: optionalEnv('PORTONE_API_URL', 'https://api.portone.io'),
    storeId: optionalEnv('PORTONE_STORE_ID', '') || undefined,
  });
  return client;
}

/** The error type PortOne answered (ALREADY_PAID, PG_PROVIDER, ...), or null for anything else. */
export function portoneErrorType(err: unknown): string | null {
  if (err instanceof RestError) {
    const type = (err.data as { type?: unknown }).type;
    return typeof type === 'string' ? type : 'UNKNOWN';
  }
  return null;
}

/** PortOne has no such billing key, or deleted it already: nothing is left to delete. */
export function billingKeyGone(err: unknown): boolean {
  const type = portoneErrorType(err);
  return type === 'BILLING_KEY_NOT_FOUND' || type === 'BILLING_KEY_ALREADY_DELETED';
}

/** A PG's refusal as the owner should read it ("Card declined ..."). */
export function portoneFailureMessage(err: unknown): string {
  if (err instanceof RestError) {
    const data = err.data as { message?: string; pgMessage?: string };
    return data.pgMessage || data.message || 'The card was declined';
  }
  return 'The card was declined';
}
