// The confirm-email function (lib/link-function.ts: plain fetch, no session). Double opt-in of
// an address a visitor typed (supabase/schemas/mail-consent.sql).
import { ZMailConsent } from '@reaction-blocks/contracts/schemas';
import { callLinkFunction, INVALID_LINK } from '../../../lib/link-function';

export interface MailConsentInfo {
  /**
   * reply: reply notifications of comments; letters: an owner's letters; notify: an owner's
   * block notifications (a block's notification address); sender: the "Not me" link of a sender
   * address confirmation mail (it can only decline).
   */
  scope: 'reply' | 'letters' | 'notify' | 'sender';
  /** masked: a***@example.com */
  email: string;
  /**
   * The address the mails would come from (the owner's verified sender for letters, else the
   * platform's); null for a link that can only decline. The page names no block or account:
   * those are the owner's words, and the address is whoever's a visitor typed.
   */
  sender?: string | null;
  /** notify, sender: the sign-in address of the owner who asked. */
  ownerEmail?: string | null;
}

export type ConsentAnswer = 'confirm' | 'not-me';

export { INVALID_LINK };

async function call<T>(token: string, answer?: ConsentAnswer, signal?: AbortSignal): Promise<T> {
  const parsed = ZMailConsent.safeParse({ token, answer: answer ?? 'confirm' });
  // the same words as the server's refusal: a token that cannot be one is as invalid as a spent one
  if (!parsed.success) throw new Error(INVALID_LINK);
  return callLinkFunction<T>(
    'confirm-email',
    parsed.data.token,
    answer ? parsed.data : undefined,
    signal,
  );
}

export const readMailConsent = (token: string, signal: AbortSignal) =>
  call<MailConsentInfo>(token, undefined, signal);
export const answerMailConsent = (token: string, answer: ConsentAnswer) =>
  call<{ outcome: 'confirmed' | 'declined' }>(token, answer);
