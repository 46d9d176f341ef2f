// The auth server's settings `npm start` reads from the environment (docs/getting-started.md):
// AUTH_RATE_LIMIT_ANONYMOUS_USERS, _OTP, _VERIFY, _TOKEN_REFRESH, _EMAIL_SENT (numbers, 0 for
// none), AUTH_TRUSTED_PROXIES (comma-separated addresses) and AUTH_EMAIL_ENABLED (true/false).
import type { AuthOptions } from './context.ts';

function count(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`${name} must be a number of 0 or more, got "${raw}"`);
  }
  return value;
}

export function authSettingsFromEnv(env: NodeJS.ProcessEnv) {
  return {
    rateLimitAnonymousUsers: count(env, 'AUTH_RATE_LIMIT_ANONYMOUS_USERS'),
    rateLimitOtp: count(env, 'AUTH_RATE_LIMIT_OTP'),
    rateLimitVerify: count(env, 'AUTH_RATE_LIMIT_VERIFY'),
    rateLimitTokenRefresh: count(env, 'AUTH_RATE_LIMIT_TOKEN_REFRESH'),
    rateLimitEmailSent: count(env, 'AUTH_RATE_LIMIT_EMAIL_SENT'),
    trustedProxies: env.AUTH_TRUSTED_PROXIES?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    emailEnabled: env.AUTH_EMAIL_ENABLED === 'true',
  } satisfies Partial<AuthOptions>;
}
