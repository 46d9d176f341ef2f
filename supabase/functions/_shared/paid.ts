// The paid check of the functions that serve a paid feature (integrations, webhooks): the
// caller's profile says paid, else 403 paid_plan_required with the blocks' message. The
// database's own rules refuse the same writes; this answers before any outside call is made.
import { BLOCK_MESSAGES } from '@reaction-blocks/contracts/schemas';
import { serviceClient } from './clients.ts';
import { dbError, HttpError } from './http.ts';

/** A profile read that fails is not a refusal of the plan: it throws (dbError: 503 in transit). */
export async function requirePaid(userId: string): Promise<void> {
  const {
    data: profile,
    error,
    status,
  } = await serviceClient().from('profiles').select('paid').eq('id', userId).maybeSingle();
  if (error) throw dbError(error, status);
  if (!profile?.paid)
    throw new HttpError(403, 'paid_plan_required', BLOCK_MESSAGES.paidPlanRequired);
}
