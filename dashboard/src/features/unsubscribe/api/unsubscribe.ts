// The unsubscribe function, with plain fetch: the public page needs no session and no supabase-js.
import { ZUnsubscribe } from '@reaction-blocks/contracts/schemas';
import { env } from '../../../lib/env';

export interface UnsubscribeInfo {
  scope: 'owner' | 'reply' | 'letter';
  /** masked: a***@example.com */
  email: string;
  blockName: string | null;
  /** The address already left these mails (absent from an older server: not known). */
  unsubscribed?: boolean;
}

/** The server's answer to a forged, damaged or malformed token. */
export const INVALID_LINK = 'Invalid link';

async function call<T>(method: 'GET' | 'POST', token: string): Promise<T> {
  const parsed = ZUnsubscribe.safeParse({ token });
  // the same words as the server's refusal: a token that cannot be one is as invalid as a forged one
  if (!parsed.success) throw new Error(INVALID_LINK);
  const valid = parsed.data.token;
  const url = `${env.supabaseUrl}/functions/v1/unsubscribe`;
  const res = await fetch(method === 'GET' ? `${url}?token=${encodeURIComponent(valid)}` : url, {
    method,
    headers: method === 'POST' ? { 'content-type': 'application/json' } : undefined,
    body: method === 'POST' ? JSON.stringify({ token: valid }) : undefined,
  });
  const payload = (await res.json().catch(() => null)) as {
    data?: T;
    error?: { message?: string };
  } | null;
  if (!res.ok || !payload?.data)
    throw Object.assign(new Error(payload?.error?.message ?? `HTTP ${res.status}`), {
      status: res.status,
    });
  return payload.data;
}

export const readUnsubscribe = (token: string) => call<UnsubscribeInfo>('GET', token);
export const confirmUnsubscribe = (token: string) => call<{ status: boolean }>('POST', token);
