// Per-owner hourly limits on the edge functions an owner could call in a loop to guess (coupon
// codes), to make us fetch and store outside pages (letters) or to mail strangers (sender
// emails). The count is in Postgres (public.note_owner_call, service role only), so every
// instance of a function shares it.
import { serviceClient } from './clients.ts';
import { dbError, HttpError } from './http.ts';
import { MESSAGES, SENDER_EMAIL_LIMITS } from '@reaction-blocks/contracts/schemas';

/** Calls an owner may make per hour, per function. */
export const OWNER_CALLS_PER_HOUR = {
  'use-coupon': 10,
  'web-to-template': 60,
  'verify-brunch-id': 20,
  // each request mails an address the owner may not control
  'request-mail-verify': SENDER_EMAIL_LIMITS.requestsPerHour,
} as const;

/**
 * Notes one call of `name` by the owner, or refuses it (429, with Retry-After: when the call
 * that filled the hour is an hour old) when they made their hour's calls already; `message` is
 * what the refusal says is refused (by default "Too many requests"), the wait comes beside it.
 */
export async function limitOwnerCalls(
  userId: string,
  name: keyof typeof OWNER_CALLS_PER_HOUR,
  message: string = MESSAGES.tooManyCalls,
): Promise<void> {
  const { data, error, status } = await serviceClient().rpc('note_owner_call', {
    p_user_id: userId,
    p_name: name,
    p_per_hour: OWNER_CALLS_PER_HOUR[name],
  });
  if (error) throw dbError(error, status, new Error(`note_owner_call: ${error.message}`));
  const wait = Number(data);
  if (wait > 0) throw new HttpError(429, 'too_many_requests', message, wait);
}
