// The `state` of an OAuth authorisation: who started it and until when, signed (HMAC-SHA256), so
// the code that comes back to /oauth/notion is accepted only for the user who asked, within ten
// minutes. Without it, someone could make a signed-in owner connect the attacker's workspace
// (login CSRF) and collect the owner's responses there.
const encoder = new TextEncoder();
const STATE_TTL_MS = 10 * 60_000;

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

async function key(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
}

export async function signState(secret: string, userId: string, now = Date.now()): Promise<string> {
  const nonce = b64url(crypto.getRandomValues(new Uint8Array(12)));
  const body = b64url(
    encoder.encode(JSON.stringify({ u: userId, e: now + STATE_TTL_MS, n: nonce })),
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', await key(secret), encoder.encode(body)),
  );
  return `${body}.${b64url(mac)}`;
}

/** True when `state` was signed with `secret` for `userId` and has not expired. */
export async function verifyState(
  secret: string,
  state: string,
  userId: string,
  now = Date.now(),
): Promise<boolean> {
  const [body, mac] = state.split('.');
  if (!body || !mac || !/^[\w-]+$/.test(body) || !/^[\w-]+$/.test(mac)) return false;
  const raw = Uint8Array.from(atob(mac.replace(/-/g, '+').replace(/_/g, '/')), (c) =>
    c.charCodeAt(0),
  );
  const ok = await crypto.subtle.verify('HMAC', await key(secret), raw, encoder.encode(body));
  if (!ok) return false;
  try {
    const claims = JSON.parse(
      new TextDecoder().decode(
        Uint8Array.from(atob(body.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)),
      ),
    ) as { u?: string; e?: number };
    return claims.u === userId && typeof claims.e === 'number' && claims.e > now;
  } catch {
    return false;
  }
}
