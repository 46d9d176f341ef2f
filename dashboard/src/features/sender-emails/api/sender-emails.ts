// Sender emails: the list (RLS: the owner's rows) and the spec's four calls, as edge functions.
import { ZMailDelete, ZMailVerify } from '@reaction-blocks/contracts/schemas';
import { supabase, invokeFunction } from '../../../lib/supabase';

export {
  BLOCK_MESSAGES,
  MESSAGES,
  SENDER_EMAIL_LIMITS,
  SENDER_EMAIL_MAX,
  SENDER_MESSAGES,
  ZMailVerify,
} from '@reaction-blocks/contracts/schemas';

export interface SenderEmail {
  id: string;
  email: string;
  status: 'pending' | 'not_verified' | 'verified';
  spf_verified: boolean;
  dkim_verified: boolean;
  dmarc_policy: 'none' | 'quarantine' | 'reject' | null;
  checked_at: string | null;
  created_at: string;
}

export interface SpfDkimResult {
  spfVerified: boolean;
  dkimVerified: boolean;
  dmarcPolicy: 'none' | 'quarantine' | 'reject' | null;
  /** 'platform' when letters go from the platform's address with Reply-To this one. */
  sendsAs: 'own' | 'platform';
}

export async function listSenderEmails(): Promise<SenderEmail[]> {
  const { data, error } = await supabase
    .from('sender_emails')
    .select('id, email, status, spf_verified, dkim_verified, dmarc_policy, checked_at, created_at')
    .order('created_at', { ascending: true });
  if (error) throw error;
  return data as SenderEmail[];
}

export function requestMailVerify(email: string) {
  return invokeFunction<{ status: boolean; email: string; state: 'pending' | 'verified' }>(
    'request-mail-verify',
    ZMailVerify.parse({ emailToVerify: email }),
  );
}

export async function checkMailVerified(email: string): Promise<boolean> {
  const data = await invokeFunction<{ result: boolean }>(
    'check-mail-verified',
    ZMailVerify.parse({ emailToVerify: email }),
  );
  return data.result;
}

export async function checkSpfDkim(email: string): Promise<SpfDkimResult> {
  const data = await invokeFunction<{ result: SpfDkimResult }>(
    'check-spf-dkim',
    ZMailVerify.parse({ emailToVerify: email }),
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
