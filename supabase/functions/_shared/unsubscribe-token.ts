// Signed unsubscribe links. A link names what to stop (scope), for which address and block; the
// HMAC-SHA256 signature with UNSUBSCRIBE_SECRET (a server secret) means nobody can unsubscribe
// an address they did not receive a mail at. The token is base64url(JSON) + "." + base64url(MAC).
import { apiUrl, env, siteUrl } from './env.ts';
import { hmacKey, readClaims, signClaims } from './signed-token.ts';

export type UnsubscribeScope = 'owner' | 'reply' | 'letter';

export interface UnsubscribeClaim {
  /** owner: block notifications (mailTo); reply: replies to a commenter; letter: an owner's letters. */
  s: UnsubscribeScope;
  /** the address */
  e: string;
  /** the block the mail was about */
  b: string;
  /** the owner (letters: the sender whose list the address leaves; notifications: the block's owner) */
  u?: string;
}

let keyPromise: Promise<CryptoKey> | undefined;
const key = () => (keyPromise ??= hmacKey(env('UNSUBSCRIBE_SECRET')));

export async function signUnsubscribe(claim: UnsubscribeClaim): Promise<string> {
  return signClaims(await key(), { ...claim, e: claim.e.toLowerCase() });
}

/** The claim of a well-formed token with a valid signature, else null. */
export async function verifyUnsubscribe(token: string): Promise<UnsubscribeClaim | null> {
  const claim = (await readClaims(await key(), token)) as UnsubscribeClaim | null;
  if (
    !claim ||
    !['owner', 'reply', 'letter'].includes(claim.s) ||
    typeof claim.e !== 'string' ||
    typeof claim.b !== 'string'
  ) {
    return null;
  }
  return claim;
}

/** The page a person opens from the mail's link, and the one-click POST target (RFC 8058). */
export async function unsubscribeLinks(
  claim: UnsubscribeClaim,
): Promise<{ page: string; oneClick: string }> {
  const token = encodeURIComponent(await signUnsubscribe(claim));
  return {
    page: `${siteUrl()}/unsubscribe?token=${token}`,
    oneClick: `${apiUrl()}/functions/v1/unsubscribe?token=${token}`,
  };
}

/** The headers that give mail clients their unsubscribe button (RFC 2369, RFC 8058). */
export function listUnsubscribeHeaders(oneClick: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${oneClick}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}
