// Why a sender-email call failed, in the reader's language: the sender functions' codes
// (supabase/functions/*-mail-verify, _shared/sender-emails.ts) by their own texts, anything else
// as failureReason says; never the server's or Amazon SES's English.
import { failureReason } from '../../../lib/errors';

/** The codes request-, check-, delete-mail-verified and check-spf-dkim answer with. */
const ADDRESS_FAILURES = {
  too_many: 'senderEmails.tooMany',
  too_many_requests: 'senderEmails.tooManyRequests',
  provider_unavailable: 'senderEmails.unavailable',
  provider_rejected: 'senderEmails.providerRejected',
  not_found: 'senderEmails.notFound',
  // request-mail-verify: the address said "Not me", complained or bounced; or a confirmation went
  // to it in the last 24 hours, for any account (failureReason adds the wait)
  suppressed: 'senderEmails.suppressed',
  sent_today: 'senderEmails.sentToday',
  // the shared schema refused the address (the page checks it first with the same schema)
  invalid_input: 'senderEmails.invalidEmail',
} as const;

/** confirm-mail-verify's: a token it refused, spent or made for another account. */
const CONFIRM_FAILURES = {
  ...ADDRESS_FAILURES,
  invalid_link: 'senderEmails.invalidLink',
  invalid_input: 'senderEmails.invalidLink',
  other_account: 'senderEmails.otherAccount',
} as const;

/** A failed call about an address (add, send again, check, SPF and DKIM, delete). */
export const addressFailure = (cause: unknown): string => failureReason(cause, ADDRESS_FAILURES);

/** A confirmation link that could not be spent. */
export const confirmFailure = (cause: unknown): string => failureReason(cause, CONFIRM_FAILURES);
