// Sender emails (/profile/email): shared by the functions of the spec's calls. A row is one
// owner's claim on an address. It is verified only when that owner confirmed it (the link with a
// single-use token mailed to the address, confirmed_at) and the provider can send as the address
// (the SES identity, which is the platform's and shared by every owner who confirmed it).
import type { SupabaseClient } from '@supabase/supabase-js';
import { kickWorker } from './background.ts';
import { dbError, HttpError } from './http.ts';
import { failureText } from './errors.ts';
import type { JobHandler, Outcome } from './jobs.ts';
import { mapLimit } from './map-limit.ts';
import type { Mailer } from './mail.ts';
import { MailError } from './mail-errors.ts';
import { platformSender } from './mail-delivery.ts';
import { base64url } from './signed-token.ts';
import { SENDER_MESSAGES } from '@reaction-blocks/contracts/schemas';

export interface SenderEmailRow {
  id: string;
  user_id: string;
  email: string;
  status: 'pending' | 'not_verified' | 'verified';
  spf_verified: boolean;
  dkim_verified: boolean;
  dmarc_policy: 'none' | 'quarantine' | 'reject' | null;
  confirmed_at: string | null;
}

/** The answer for a claim that went (or never was), or went while a call was on its way (the list's "reload" answer). */
export const claimGone = () => new HttpError(404, 'not_found', 'No such sender email');

/** The caller's row for this address, or 404. */
export async function ownSenderEmail(
  db: SupabaseClient,
  userId: string,
  email: string,
): Promise<SenderEmailRow> {
  const { data, error, status } = await db
    .from('sender_emails')
    .select('id, user_id, email, status, spf_verified, dkim_verified, dmarc_policy, confirmed_at')
    .eq('user_id', userId)
    .eq('email', email)
    .maybeSingle();
  if (error) throw dbError(error, status);
  if (!data) throw claimGone();
  return data as SenderEmailRow;
}

/** A provider failure as the caller should see it: the mail service is out, try again. */
export function providerError(err: unknown, what: string): HttpError {
  if (err instanceof MailError && err.outcome === 'rejected') {
    return new HttpError(400, 'provider_rejected', err.message);
  }
  console.error(`[${what}]`, err);
  return new HttpError(503, 'provider_unavailable', SENDER_MESSAGES.unavailable);
}

/** The domain part of an address. */
export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

const hex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** What the database keeps of a confirmation token: its SHA-256, never the token. */
export async function tokenHash(token: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
}

/** A fresh confirmation token (256 random bits, base64url: 43 characters) and its hash. */
export async function newConfirmationToken(): Promise<{ token: string; hash: string }> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = base64url(bytes);
  return { token, hash: await tokenHash(token) };
}

/**
 * Whether SES sends as the address, as SES decides it: the address's own identity is verified, or
 * its domain's or a parent domain's (the platform's domain, or one an operator verified with
 * DKIM). Read from SES every time: the database only remembers what SES said.
 */
export async function canSendAs(mailer: Mailer, address: string): Promise<boolean> {
  if ((await mailer.getIdentity(address))?.verified) return true;
  const labels = domainOf(address).split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    if ((await mailer.getIdentity(labels.slice(i).join('.')))?.verified) return true;
  }
  return false;
}

/** Whether the claim `id` is still there and confirmed by its owner, as the database has it now. */
export async function stillConfirmed(db: SupabaseClient, id: string): Promise<boolean> {
  const { data, error, status } = await db
    .from('sender_emails')
    .select('id')
    .eq('id', id)
    .not('confirmed_at', 'is', null)
    .maybeSingle();
  if (error) throw dbError(error, status);
  return data !== null;
}

/**
 * Writes `verified` on a confirmed claim that SES was just read to send as, then reads SES again:
 * a release (another owner's claim went) may have deleted the identity after that read and read
 * the claims again before this write, so its "not verified until SES verifies it again"
 * (releaseIdentity) came first and this write undid it. The job's re-read comes after its delete
 * and its update after that re-read: either the job's update follows this write (and corrects
 * it) or the read here follows the delete and sees it; the claim is then put back to
 * not_verified. Whether the claim stays verified.
 */
export async function writeVerified(
  db: SupabaseClient,
  mailer: Mailer,
  row: Pick<SenderEmailRow, 'id' | 'email'>,
): Promise<boolean> {
  const { error, status } = await db
    .from('sender_emails')
    .update({ status: 'verified' })
    .eq('id', row.id)
    .not('confirmed_at', 'is', null);
  if (error) throw dbError(error, status);
  if (await canSendAs(mailer, row.email)) return true;
  const undo = await db
    .from('sender_emails')
    .update({ status: 'not_verified' })
    .eq('id', row.id)
    .eq('status', 'verified');
  if (undo.error) throw dbError(undo.error, undo.status);
  return false;
}

/**
 * A sender.release job for an address whose identity a call just created for a claim that went
 * meanwhile (the claim's own job may have run before the create: it found nothing to delete).
 * No dedupe key: the claim's job has taken its key already.
 */
async function queueRelease(db: SupabaseClient, email: string): Promise<void> {
  const { error, status } = await db.rpc('enqueue_job', {
    p_kind: 'sender.release',
    p_payload: { email },
    p_max_attempts: 100,
  });
  if (error) throw dbError(error, status);
  kickWorker();
}

/**
 * After creating the identity for the claim `row`: the claim must still be confirmed. A claim
 * deleted before this read may have had its sender.release job run before the create (it found
 * no identity, or deleted the old one): a job of its own releases the new one now, and the
 * caller is told the claim went (404). A claim deleted after this read enqueues its own job then,
 * which runs after the create and sees the identity. Either way no identity stays without a
 * confirmed claim.
 */
async function keepOnlyForClaim(db: SupabaseClient, row: Pick<SenderEmailRow, 'id' | 'email'>) {
  if (await stillConfirmed(db, row.id)) return;
  await queueRelease(db, row.email);
  throw claimGone();
}

/**
 * After the owner's own confirmation: the claim is verified when the provider can send as the
 * address. Otherwise the provider's identity is created (or, with `restart`, created anew: a
 * fresh link) so that SES mails its own verification link, and the claim waits for it.
 * `reserve`, when given, is called just before SES is asked to mail (and not when no mail goes):
 * it notes that mail in the mailbox's day, or throws to refuse it (request-mail-verify's restart:
 * SES's mail counts as the platform's own confirmation mail does; it also answers 404 when the
 * claim went meanwhile, so nothing is created). Its id is released when SES certainly did not
 * take the request. An identity created here for a claim that went meanwhile is released again
 * (keepOnlyForClaim; 404).
 */
export async function settleWithProvider(
  db: SupabaseClient,
  mailer: Mailer,
  row: Pick<SenderEmailRow, 'id' | 'email'>,
  restart = false,
  reserve?: () => Promise<number>,
): Promise<'verified' | 'awaiting_provider'> {
  if (await canSendAs(mailer, row.email)) {
    if (await writeVerified(db, mailer, row)) return 'verified';
    if (!(await mailer.getIdentity(row.email))) {
      await mailer.createIdentity(row.email);
      await keepOnlyForClaim(db, row);
    }
    return 'awaiting_provider';
  }
  const identity = await mailer.getIdentity(row.email);
  if (identity && !restart) return 'awaiting_provider';
  const reservation = reserve ? await reserve() : null;
  try {
    if (identity) await mailer.deleteIdentity(row.email);
    await mailer.createIdentity(row.email);
  } catch (err) {
    // refused or certainly not taken: no mail went, the day is not spent
    if (reservation !== null && !(err instanceof MailError && err.outcome === 'unknown')) {
      await db.rpc('release_sender_confirmation', { p_id: reservation });
    }
    throw err;
  }
  await keepOnlyForClaim(db, row);
  return 'awaiting_provider';
}

/** The confirmed claims left on an address (any owner's), as the database has them now. */
async function confirmedClaims(db: SupabaseClient, email: string): Promise<string[]> {
  const { data, error, status } = await db
    .from('sender_emails')
    .select('id')
    .eq('email', email)
    .not('confirmed_at', 'is', null);
  if (error) throw dbError(error, status);
  return (data as { id: string }[]).map((row) => row.id);
}

/**
 * The provider's identity of an address whose confirmed claim went, decided after the rows
 * changed and with nothing held across the SES calls: deleted when no confirmed claim of the
 * address is left (any owner's: the deleting transactions committed before the job could run, so
 * two owners deleting at once both find none), kept otherwise. A claim confirmed while it was
 * deleted may have been settled against the identity about to go: the claims are read again after
 * the delete, and one found then (or on a retry after a delete SES carried out but did not answer)
 * gets the identity back (SES mails its verification link again) and is not verified until it is
 * verified again (check-mail-verified). A claim confirmed after that read settles against the
 * identity already gone and creates it itself (settleWithProvider). A claim never confirmed never
 * enqueues (private.sender_emails_after_delete), so an owner cannot take the platform's or another
 * owner's identity away by adding and deleting an address they do not control, and the
 * platform's own sender is never removed.
 */
export async function releaseIdentity(
  db: SupabaseClient,
  mailer: Mailer,
  email: string,
): Promise<'kept' | 'released' | 'restored'> {
  if (email === platformSender().address.toLowerCase()) return 'kept';
  let claims = await confirmedClaims(db, email);
  if (!claims.length) {
    await mailer.deleteIdentity(email);
    claims = await confirmedClaims(db, email);
    if (!claims.length) return 'released';
  }
  if (await canSendAs(mailer, email)) return 'kept';
  const had = await mailer.getIdentity(email);
  if (!had) await mailer.createIdentity(email);
  const { error, status } = await db
    .from('sender_emails')
    .update({ status: 'not_verified' })
    .in('id', claims)
    .eq('status', 'verified');
  if (error) throw dbError(error, status);
  return had ? 'kept' : 'restored';
}

/**
 * sender.release: the provider's identity of a confirmed claim that went (delete-mail-verified,
 * or its owner's account: private.sender_emails_after_delete enqueues one job per claim in the
 * deleting transaction), released as releaseIdentity decides it. Deleting an identity twice is
 * harmless (SES's NotFound is success: the identity went already), so the call is made here. What
 * may pass (a throttle, a 5xx, the network, a timeout, our own database) is the queue's retry
 * with its backoff, for the 100 attempts the trigger gives it (about 90 hours of SES outage);
 * SES's refusal for good (another 4xx: access denied, a validation error) fails the job at once,
 * with SES's answer kept as its error: the identity is then deleted by hand.
 */
export const senderReleaseHandler: JobHandler = {
  prepare: (jobs, { db, mailer }) =>
    mapLimit(jobs, 4, async (job): Promise<Outcome> => {
      const { email } = job.payload as { email: string };
      try {
        return { status: 'done', result: { identity: await releaseIdentity(db, mailer, email) } };
      } catch (err) {
        console.error(`[jobs] sender.release #${job.id}:`, err);
        const error = failureText(err).slice(0, 500);
        if (err instanceof MailError && err.outcome === 'rejected')
          return { status: 'failed', error };
        return { status: 'retry', error };
      }
    }),
};
