// Sender emails: the list (RLS: the owner's rows) and the spec's four calls, as edge functions,
// with the fifth a claim needs: the owner confirming the link mailed to the address.
import { ZMailConfirm, ZMailDelete, ZMailVerify } from '@reaction-blocks/contracts/schemas';
import type { Database } from '../../../lib/db-types';
import { supabase, invokeFunction } from '../../../lib/supabase';

export {
  BLOCK_MESSAGES,
  MESSAGES,
  SENDER_EMAIL_LIMITS,
  SENDER_EMAIL_MAX,
  SENDER_MESSAGES,
  ZMailConfirm,
  ZMailVerify,
} from '@reaction-blocks/contracts/schemas';

/** The address's DMARC policy as check-spf-dkim read it (the column is text). */
export type DmarcPolicy = 'none' | 'quarantine' | 'reject';

/**
 * A row of the list, the columns listSenderEmails reads (confirmed_at: when the owner opened the
 * link mailed to the address; null until then).
 */
export type SenderEmail = Omit<
  Database['public']['Tables']['sender_emails']['Row'],
  'user_id' | 'updated_at' | 'dmarc_policy'
> & { dmarc_policy: DmarcPolicy | null };

export interface SpfDkimResult {
  spfVerified: boolean;
  dkimVerified: boolean;
  dmarcPolicy: DmarcPolicy | null;
  /** 'platform' when letters go from the platform's address with Reply-To this one. */
  sendsAs: 'own' | 'platform';
}

export async function listSenderEmails(signal: AbortSignal): Promise<SenderEmail[]> {
  const { data, error } = await supabase
    .from('sender_emails')
    .select(
      'id, email, status, spf_verified, dkim_verified, dmarc_policy, checked_at, confirmed_at, created_at',
    )
    .order('created_at', { ascending: true })
    .abortSignal(signal);
  if (error) throw error;
  return data as SenderEmail[];
}

/** pending: the confirmation link was mailed; awaiting_provider: SES mailed its own link. */
export type VerifyState = 'pending' | 'awaiting_provider' | 'verified';

export function requestMailVerify(email: string) {
  return invokeFunction<{ status: boolean; email: string; state: VerifyState }>(
    'request-mail-verify',
    ZMailVerify.parse({ emailToVerify: email }),
  );
}

/** Spends the token of the link mailed to an address, for the signed-in owner. */
export function confirmMailVerify(token: string) {
  return invokeFunction<{ status: boolean; email: string; state: Exclude<VerifyState, 'pending'> }>(
    'confirm-mail-verify',
    ZMailConfirm.parse({ token }),
  );
}

/**
 * Verified now (confirmed by the owner and sendable with the provider), and confirmed at all;
 * `signal`: the list's read, when it checks as it loads.
 */
export async function checkMailVerified(
  email: string,
  signal?: AbortSignal,
): Promise<{ verified: boolean; confirmed: boolean }> {
  const data = await invokeFunction<{ result: boolean; confirmed: boolean }>(
    'check-mail-verified',
    ZMailVerify.parse({ emailToVerify: email }),
    signal,
  );
  return { verified: data.result, confirmed: data.confirmed };
}

export async function checkSpfDkim(email: string, signal?: AbortSignal): Promise<SpfDkimResult> {
  const data = await invokeFunction<{ result: SpfDkimResult }>(
    'check-spf-dkim',
    ZMailVerify.parse({ emailToVerify: email }),
    signal,
  );
  return data.result;
}

export function deleteMailVerified(email: string) {
  return invokeFunction<{ status: boolean }>(
    'delete-mail-verified',
    ZMailDelete.parse({ emailToDelete: email }),
  );
}

/** The list's row for an address, after a check changed it. */
export function withResult(row: SenderEmail, result: SpfDkimResult): SenderEmail {
  return {
    ...row,
    spf_verified: result.spfVerified,
    dkim_verified: result.dkimVerified,
    dmarc_policy: result.dmarcPolicy,
    checked_at: new Date().toISOString(),
  };
}
