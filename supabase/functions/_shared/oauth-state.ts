// The `state` of an OAuth authorisation: who started it and until when, signed (HMAC-SHA256), so
// the code that comes back to /oauth/notion is accepted only for the user who asked, within ten
// minutes. Without it, someone could make a signed-in owner connect the attacker's workspace
// (login CSRF) and collect the owner's responses there.
import { base64url, hmacKey, readClaims, signClaims } from './signed-token.ts';

const STATE_TTL_MS = 10 * 60_000;

export async function signState(secret: string, userId: string, now = Date.now()): Promise<string> {
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(12)));
  return signClaims(await hmacKey(secret), { u: userId, e: now + STATE_TTL_MS, n: nonce });
}

/** True when `state` was signed with `secret` for `userId` and has not expired. */
export async function verifyState(
  secret: string,
  state: string,
  userId: string,
  now = Date.now(),
): Promise<boolean> {
  const claims = (await readClaims(await hmacKey(secret), state)) as {
    u?: unknown;
    e?: unknown;
  } | null;
  return claims?.u === userId && typeof claims.e === 'number' && claims.e > now;
}
