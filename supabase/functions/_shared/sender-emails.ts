// Sender emails (/profile/email): shared by the four functions of the spec's calls.
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError } from './http.ts';
import { MailError } from './mail.ts';
import { SENDER_MESSAGES } from '@reaction-blocks/contracts/schemas';

export interface SenderEmailRow {
  id: string;
  user_id: string;
  email: string;
  status: 'pending' | 'not_verified' | 'verified';
  spf_verified: boolean;
  dkim_verified: boolean;
  dmarc_policy: 'none' | 'quarantine' | 'reject' | null;
}

/** The caller's row for this address, or 404. */
export async function ownSenderEmail(
  db: SupabaseClient,
  userId: string,
  email: string,
): Promise<SenderEmailRow> {
  const { data, error } = await db
    .from('sender_emails')
    .select('id, user_id, email, status, spf_verified, dkim_verified, dmarc_policy')
    .eq('user_id', userId)
    .eq('email', email)
    .maybeSingle();
  if (error) throw new Error(error.message);
  if (!data) throw new HttpError(404, 'not_found', 'No such sender email');
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
