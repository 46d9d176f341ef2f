import { SignJWT } from 'jose';
import { stack } from './clients.ts';

/** A token shaped like a user's, signed with `secret` and expiring at `exp` (seconds). */
export function userToken(
  sub: string,
  opts: { secret?: string; exp?: number } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    sub,
    role: 'authenticated',
    aud: 'authenticated',
    email: 'x@test.local',
    is_anonymous: false,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now - 7200)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(new TextEncoder().encode(opts.secret ?? stack().jwtSecret));
}

export const forgedToken = (sub: string) =>
  userToken(sub, { secret: 'not-the-project-secret-but-long-enough-to-sign' });
export const expiredToken = (sub: string) =>
  userToken(sub, { exp: Math.floor(Date.now() / 1000) - 60 });
