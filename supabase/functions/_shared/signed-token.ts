// Signed tokens: base64url(JSON claims) + "." + base64url(HMAC-SHA256 of the first part). One
// spelling per token (canonical base64url, no padding), so a variant of a token is not the same
// token. Used by OAuth `state` values and unsubscribe links; the claims' meaning is their callers'.
const encoder = new TextEncoder();

/** Bytes as base64url without padding (RFC 4648 §5). */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The bytes of a canonical base64url text, else null: only the alphabet, and the unused low bits
 * of the last character zero (the spelling `base64url` gives those bytes).
 */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return base64url(bytes) === text ? bytes : null;
  } catch {
    return null;
  }
}

/**
 * An HMAC-SHA256 key: from a server secret's text, or from a secret's bytes (an outgoing
 * webhook's whsec_ secret).
 */
export function hmacKey(secret: string | Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    typeof secret === 'string' ? encoder.encode(secret) : secret,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
}

/** A token carrying `claims`, signed with `key`. */
export async function signClaims(key: CryptoKey, claims: object): Promise<string> {
  const body = base64url(encoder.encode(JSON.stringify(claims)));
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(body)));
  return `${body}.${base64url(mac)}`;
}

/**
 * The claims of a well-formed token whose signature `key` verifies, else null. The claims are
 * whatever JSON was signed: the caller checks their shape.
 */
export async function readClaims(key: CryptoKey, token: string): Promise<unknown> {
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined) return null;
  const macBytes = fromBase64url(mac);
  const bodyBytes = fromBase64url(body);
  if (!macBytes || !bodyBytes) return null;
  // crypto.subtle.verify compares in constant time
  if (!(await crypto.subtle.verify('HMAC', key, macBytes, encoder.encode(body)))) return null;
  try {
    return JSON.parse(new TextDecoder().decode(bodyBytes)) as unknown;
  } catch {
    return null;
  }
}
