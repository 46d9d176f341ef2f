// The confirm-email function, with plain fetch: the public page needs no session and no
// supabase-js. Double opt-in of an address a visitor typed (supabase/schemas/mail-consent.sql).
import { ZMailConsent } from '@reaction-blocks/contracts/schemas';
import { env } from '../../../lib/env';

export interface MailConsentInfo {
  /** reply: reply notifications of comments; letters: an owner's letters. */
  scope: 'reply' | 'letters';
  /** masked: a***@example.com */
  email: string;
  blockName: string | null;
  ownerName: string | null;
}

export type ConsentAnswer = 'confirm' | 'not-me';

/** The server's answer to a token that is unknown, spent, expired or malformed. */
export const INVALID_LINK = 'Invalid link';

async function call<T>(token: string, answer?: ConsentAnswer): Promise<T> {
  const parsed = ZMailConsent.safeParse({ token, answer: answer ?? 'confirm' });
  // the same words as the server's refusal: a token that cannot be one is as invalid as a spent one
  if (!parsed.success) throw new Error(INVALID_LINK);
  const url = `${env.supabaseUrl}/functions/v1/confirm-email`;
  const res = await fetch(answer ? url : `${url}?token=${encodeURIComponent(token)}`, {
    method: answer ? 'POST' : 'GET',
    headers: answer ? { 'content-type': 'application/json' } : undefined,
    body: answer ? JSON.stringify(parsed.data) : undefined,
  });
  const payload = (await res.json().catch(() => null)) as {
    data?: T;
    error?: { message?: string };
  } | null;
  if (!res.ok || !payload?.data) throw new Error(payload?.error?.message ?? `HTTP ${res.status}`);
  return payload.data;
}

export const readMailConsent = (token: string) => call<MailConsentInfo>(token);
export const answerMailConsent = (token: string, answer: ConsentAnswer) =>
  call<{ outcome: 'confirmed' | 'declined' }>(token, answer);
