// Signed unsubscribe links. A link names what to stop (scope), for which address and block; the
// HMAC-SHA256 signature with UNSUBSCRIBE_SECRET (a server secret) means nobody can unsubscribe
// an address they did not receive a mail at. The token is base64url(JSON) + "." + base64url(MAC).
import { apiUrl, env, siteUrl } from './env.ts';

export type UnsubscribeScope = 'owner' | 'reply' | 'letter';

export interface UnsubscribeClaim {
  /** owner: block notifications (mailTo); reply: replies to a commenter; letter: an owner's letters. */
  s: UnsubscribeScope;
  /** the address */
  e: string;
  /** the block the mail was about */
  b: string;
  /** the owner (letters: the sender whose list the address leaves) */
  u?: string;
}

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of a canonical base64url text, else null: the unused low bits of the last character
 * must be zero, so one token has one spelling (a variant of it is not the same token). */
function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return base64url(bytes) === text ? bytes : null;
  } catch {
    return null;
  }
}

let keyPromise: Promise<CryptoKey> | undefined;
function key(): Promise<CryptoKey> {
  keyPromise ??= crypto.subtle.importKey(
    'raw',
    encoder.encode(env('UNSUBSCRIBE_SECRET')),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return keyPromise;
}

export async function signUnsubscribe(claim: UnsubscribeClaim): Promise<string> {
  const body = base64url(encoder.encode(JSON.stringify({ ...claim, e: claim.e.toLowerCase() })));
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await key(), encoder.encode(body)));
  return `${body}.${base64url(mac)}`;
}

/** The claim of a well-formed token with a valid signature, else null. */
export async function verifyUnsubscribe(token: string): Promise<UnsubscribeClaim | null> {
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined) return null;
  const macBytes = fromBase64url(mac);
  if (!macBytes) return null;
  // crypto.subtle.verify compares in constant time
  const ok = await crypto.subtle.verify('HMAC', await key(), macBytes, encoder.encode(body));
  if (!ok) return null;
  const bytes = fromBase64url(body);
  if (!bytes) return null;
  try {
    const claim = JSON.parse(new TextDecoder().decode(bytes)) as UnsubscribeClaim;
    if (
      !['owner', 'reply', 'letter'].includes(claim.s) ||
      typeof claim.e !== 'string' ||
      typeof claim.b !== 'string'
    ) {
      return null;
    }
    return claim;
  } catch {
    return null;
  }
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
