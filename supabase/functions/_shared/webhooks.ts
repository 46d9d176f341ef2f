// Outgoing webhooks (docs/webhooks.md): the Standard Webhooks scheme and one delivery through the
// SSRF guard (letter/fetch-guard.ts, the same rules as for fetched pages: https on 443, a host
// whose every address is public, no redirects, a time limit), sent to the very address the guard
// approved (pinned-http.ts).
//   webhook-id         the delivery's id (the same on every retry: receivers deduplicate by it)
//   webhook-timestamp  seconds since the epoch, of this attempt
//   webhook-signature  "v1,<base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`>", keyed with the
//                      secret's bytes (whsec_<base64>); space-separated when two secrets sign
//                      (a day after a rotation)
import { optionalEnv } from './env.ts';
import {
  FetchRefused,
  guardedFetch,
  type GuardDeps,
  type GuardPolicy,
} from './letter/fetch-guard.ts';
import { resolveHost } from './letter/runtime.ts';
import { pinnedRequest } from './pinned-http.ts';
import { hmacKey } from './signed-token.ts';

const encoder = new TextEncoder();

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** A new signing secret: whsec_ and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${b64(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** The webhook-signature header for a body signed with each secret. */
export async function signWebhook(
  secrets: string[],
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const content = encoder.encode(`${id}.${timestamp}.${body}`);
  const signatures = await Promise.all(
    secrets.map(async (secret) => {
      const key = await hmacKey(unb64(secret.replace(/^whsec_/, '')));
      return `v1,${b64(new Uint8Array(await crypto.subtle.sign('HMAC', key, content)))}`;
    }),
  );
  return signatures.join(' ');
}

/** Any public host name; the guard checks its addresses. */
export const WEBHOOK_POLICY: GuardPolicy = {
  allowHost: (host) => host.includes('.') && !/(^|\.)localhost$/.test(host),
  maxBytes: 64 * 1024,
  timeoutMs: 15_000,
  maxRedirects: 0,
  accept: () => true,
};

/**
 * The guard's outside world: DNS, and a POST pinned to an address the guard approved (a webhook's
 * host is anyone's, so its DNS may answer the check one address and a second lookup another);
 * locally WEBHOOK_ORIGIN_OVERRIDE, the receiver fake, told which address (pinned-http.ts).
 */
export function webhookGuardDeps(): GuardDeps {
  const override = optionalEnv('WEBHOOK_ORIGIN_OVERRIDE', '') || undefined;
  return {
    resolve: resolveHost,
    fetch: () => Promise.reject(new Error('webhooks are sent pinned')),
    pinned: (url, addresses, init) => pinnedRequest(url, addresses, { ...init, override }),
  };
}

export interface WebhookAttempt {
  ok: boolean;
  /** The receiver's HTTP status (none when it could not be reached or was refused). */
  status: number | null;
  error: string | null;
  /** Worth trying again: a network failure, a timeout, 408, 429 or 5xx, or another non-2xx. */
  retry: boolean;
}

/** One signed POST of a delivery's body to its endpoint. */
export async function deliverWebhook(
  url: string,
  id: string,
  payload: unknown,
  secrets: string[],
  deps: GuardDeps = webhookGuardDeps(),
): Promise<WebhookAttempt> {
  const body = JSON.stringify(payload);
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const res = await guardedFetch(url, WEBHOOK_POLICY, deps, {
      method: 'POST',
      body,
      statusOnly: true,
      accept: '*/*',
      userAgent: 'ReactionBlocksWebhooks/1.0',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': await signWebhook(secrets, id, timestamp, body),
      },
    });
    if (res.status >= 200 && res.status < 300)
      return { ok: true, status: res.status, error: null, retry: false };
    return { ok: false, status: res.status, error: `answered ${res.status}`, retry: true };
  } catch (err) {
    if (err instanceof FetchRefused) {
      // an address that is not allowed stays not allowed; a timeout or a lost connection may pass
      const lasting = ['scheme', 'host', 'port', 'address', 'redirect'].includes(err.reason);
      return { ok: false, status: null, error: `${err.reason}: ${err.message}`, retry: !lasting };
    }
    return { ok: false, status: null, error: String((err as Error)?.message ?? err), retry: true };
  }
}
