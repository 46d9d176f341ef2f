// The JWT check of a join, an access_token message or an HTTP broadcast, with the reasons hosted
// Realtime gives when it refuses one.
import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { ALLOWED_ROLES, type Viewer } from './policies.ts';

export type Verified =
  | { ok: true; claims: JWTPayload & Record<string, unknown>; role: string; exp: number }
  | { ok: false; reason: string };

export const viewerOf = (v: Extract<Verified, { ok: true }>): Viewer => ({
  role: v.role,
  claims: v.claims,
});

export async function verifyToken(
  secret: Uint8Array,
  token: string | undefined,
): Promise<Verified> {
  if (!token)
    return { ok: false, reason: 'InvalidJWTToken: The token provided is not a valid JWT' };
  let claims: JWTPayload;
  try {
    claims = (await jwtVerify(token, secret, { algorithms: ['HS256'] })).payload;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) {
      const now = Math.floor(Date.now() / 1000);
      const exp = typeof err.payload.exp === 'number' ? err.payload.exp : now;
      return { ok: false, reason: `InvalidJWTToken: Token has expired ${now - exp} seconds ago` };
    }
    if (err instanceof joseErrors.JWSSignatureVerificationFailed) {
      return { ok: false, reason: 'JwtSignatureError: Failed to validate JWT signature' };
    }
    return { ok: false, reason: 'MalformedJWT: The token provided is not a valid JWT' };
  }
  const role = claims.role;
  if (typeof role !== 'string' || typeof claims.exp !== 'number') {
    return { ok: false, reason: 'InvalidJWTToken: Fields `role` and `exp` are required in JWT' };
  }
  if (!ALLOWED_ROLES.has(role)) {
    return {
      ok: false,
      reason: `Unauthorized: the local Realtime accepts the roles anon, authenticated and service_role, not "${role}"`,
    };
  }
  return {
    ok: true,
    claims: claims as JWTPayload & Record<string, unknown>,
    role,
    exp: claims.exp,
  };
}
