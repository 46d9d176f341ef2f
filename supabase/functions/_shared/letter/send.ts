// send-letter and publish-letter: check the sender, reserve the send in one transaction
// (public.reserve_letter: a publish, a delivery and a job per recipient, the quota), kick the
// worker and answer at once with the reserved count; the mails go out at the worker's pace.
import type { SupabaseClient } from '@supabase/supabase-js';
import { kickWorker } from '../background.ts';
import { serviceClient } from '../clients.ts';
import { dbError, HttpError, rpcError } from '../http.ts';
import { letterToSend, senderFor } from './calls.ts';

export interface ReserveInput {
  ownerId: string;
  blockId: string;
  emails: string[] | null;
  group: string | null;
  register: boolean;
}

export async function reserveSend(input: ReserveInput, db: SupabaseClient = serviceClient()) {
  // the block, its sender's fields and the stored letter's verdict: one read
  const { block, refusal } = await letterToSend(db, input.ownerId, input.blockId);
  const {
    data: profile,
    error: profileError,
    status: profileStatus,
  } = await db.from('profiles').select('name').eq('id', input.ownerId).maybeSingle();
  // without the profile the letter would go out under the sender's address, not the name
  if (profileError) throw dbError(profileError, profileStatus);
  const sender = await senderFor(
    db,
    input.ownerId,
    block,
    (profile as { name?: string } | null)?.name ?? '',
  );
  // the stored mail goes out only while the stored letter meets the rules save-letter checks
  if (refusal) throw new HttpError(400, 'invalid_input', refusal);
  const { data, error, status } = await db.rpc('reserve_letter', {
    p_owner_id: input.ownerId,
    p_block_id: input.blockId,
    p_emails: input.emails,
    p_group: input.group,
    p_register: input.register,
    p_sender: sender,
  });
  if (error) throw rpcError(error, status, 'reserve-letter');
  const result = data as { publish_id: string | null; reserved: number; skipped: number };
  if (result.reserved > 0) kickWorker();
  return {
    status: true,
    publishId: result.publish_id,
    reservedCount: result.reserved,
    skippedCount: result.skipped,
  };
}
