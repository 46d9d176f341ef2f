// The unsubscribe function (lib/link-function.ts: plain fetch, no session).
import { ZUnsubscribe } from '@reaction-blocks/contracts/schemas';
import { callLinkFunction, INVALID_LINK } from '../../../lib/link-function';

export interface UnsubscribeInfo {
  scope: 'owner' | 'reply' | 'letter';
  /** masked: a***@example.com */
  email: string;
  blockName: string | null;
  /** letters: the sender's name the mail showed (absent from an older server) */
  sender?: string | null;
  /** letters: the subject, when the address got one letter of the block */
  title?: string | null;
  /** The address already left these mails (absent from an older server: not known). */
  unsubscribed?: boolean;
  /**
   * Notifications of a deleted block with nothing left to stop (no owner the mail log shows
   * mailing the address): the page says so and offers no button.
   */
  gone?: boolean;
}

export { INVALID_LINK };

/** The token as the function takes it: one that cannot be one is as invalid as a forged one. */
function validToken(token: string): string {
  const parsed = ZUnsubscribe.safeParse({ token });
  if (!parsed.success) throw new Error(INVALID_LINK);
  return parsed.data.token;
}

export const readUnsubscribe = async (token: string, signal: AbortSignal) =>
  callLinkFunction<UnsubscribeInfo>('unsubscribe', validToken(token), undefined, signal);
export const confirmUnsubscribe = async (token: string) => {
  const valid = validToken(token);
  return callLinkFunction<{ status: boolean; gone?: boolean }>('unsubscribe', valid, {
    token: valid,
  });
};
