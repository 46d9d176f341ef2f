// The `letter.trigger` job kind: the letter a form response sends by itself (issue 18;
// schemas/letter-triggers.sql). submit_response queues one per answered mail question that names
// a letter; here the sender is decided as for a manual send (senderFor: the owner's verified
// address, SES asked whether it still sends as it) and reserve_trigger_letter adds the delivery
// and the `letter` job to the letter's automatic send. The mail itself is the `letter` kind's
// (job-handlers.ts): the same footer, unsubscribe link and headers, counts and retries.
//
// Reserving is a database write made while preparing: it is idempotent (one delivery per
// address and send, the letter job's dedupe key), so a worker that dies after it and before the
// outcome is recorded only makes the next run answer "already went to this address".
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError } from '../http.ts';
import type { ClaimedJob, JobHandler, Outcome } from '../jobs.ts';
import { letterToSend, senderFor, type Sender } from './calls.ts';

interface TriggerPayload {
  owner_id?: string;
  letter_block_id?: string;
}

type Reserved =
  | { skip: string; awaiting?: string }
  | { delivery_id: string; publish_id: string; skipped?: string };

/**
 * The sender of each letter of the batch, decided once (a sender refused is a skip reason, and so
 * is a stored letter the rules save-letter checks now refuse, as send-letter refuses it).
 */
async function senderOf(
  db: SupabaseClient,
  ownerId: string,
  letterId: string,
): Promise<Sender | { skip: string }> {
  try {
    // one read; the stored model only when this process has not checked the letter as it is
    const { block, refusal } = await letterToSend(db, ownerId, letterId, { reuseVerdict: true });
    // a letter with no stored model (never saved, or a copy made before 20261129120906 that
    // holds an old mail) is skipped as send-letter refuses it: its mail was never checked by
    // today's rules (break5 F1: such a copy's mail went out with an image address holding a
    // user name and password)
    if (refusal) return { skip: refusal };
    const { data: profile } = await db
      .from('profiles')
      .select('name')
      .eq('id', ownerId)
      .maybeSingle();
    return await senderFor(db, ownerId, block, (profile as { name?: string } | null)?.name ?? '');
  } catch (err) {
    // 404: the letter is gone or not the owner's; 400/403: no verified sender, or suspended
    if (err instanceof HttpError && err.status < 500) return { skip: err.message };
    throw err;
  }
}

export const letterTriggerHandler: JobHandler = {
  async prepare(jobs: ClaimedJob[], { db }) {
    const senders = new Map<string, Promise<Sender | { skip: string }>>();
    const outcomes: Outcome[] = [];
    // one at a time: jobs of one letter share its automatic send's row
    for (const job of jobs) {
      const payload = job.payload as TriggerPayload;
      if (!payload.owner_id || !payload.letter_block_id) {
        outcomes.push({ status: 'failed', error: 'the job names no letter' });
        continue;
      }
      try {
        const key = `${payload.owner_id}:${payload.letter_block_id}`;
        if (!senders.has(key)) {
          senders.set(key, senderOf(db, payload.owner_id, payload.letter_block_id));
        }
        const sender = await senders.get(key)!;
        if ('skip' in sender) {
          outcomes.push({ status: 'done', result: { skipped: sender.skip } });
          continue;
        }
        const { data, error } = await db.rpc('reserve_trigger_letter', {
          p_job_id: job.id,
          p_sender: { from: sender.from, from_name: sender.from_name, reply_to: sender.reply_to },
        });
        if (error) throw new Error(`reserve_trigger_letter: ${error.message}`);
        const reserved = data as Reserved;
        outcomes.push({
          status: 'done',
          // `awaiting`: the address has not confirmed; answer_mail_consent queues it again then
          result:
            'skip' in reserved
              ? {
                  skipped: reserved.skip,
                  ...(reserved.awaiting && { awaiting: reserved.awaiting }),
                }
              : reserved,
        });
      } catch (err) {
        outcomes.push({ status: 'retry', error: err instanceof Error ? err.message : String(err) });
      }
    }
    return outcomes;
  },
};
