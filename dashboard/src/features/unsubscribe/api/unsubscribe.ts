// The unsubscribe function, with plain fetch: the public page needs no session and no supabase-js.
import { ZUnsubscribe } from '@reaction-blocks/contracts/schemas';
import { env } from '../../../lib/env';

export interface UnsubscribeInfo {
  scope: 'owner' | 'reply' | 'letter';
  /** masked: a***@example.com */
  email: string;
  blockName: string | null;
}

async function call<T>(method: 'GET' | 'POST', token: string): Promise<T> {
  const { token: valid } = ZUnsubscribe.parse({ token });
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
  if (!res.ok || !payload?.data) throw new Error(payload?.error?.message ?? `HTTP ${res.status}`);
  return payload.data;
}

export const readUnsubscribe = (token: string) => call<UnsubscribeInfo>('GET', token);
export const confirmUnsubscribe = (token: string) => call<{ status: boolean }>('POST', token);
