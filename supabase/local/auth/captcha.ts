// GoTrue's captcha protection (GOTRUE_SECURITY_CAPTCHA_*, config.toml `[auth.captcha]`), here for
// anonymous sign-ins past their address's limit only: GoTrue checks the captcha on every sign-up
// when it is on, and its per-address limit refuses the 31st anonymous sign-in of an hour whatever
// the captcha said. Locally the limit is where the captcha begins instead, so that visitors behind
// one shared address (an office, a school, a mobile carrier's NAT) are never shut out by one
// abuser there: past the limit a sign-in needs a solved Turnstile (docs/security.md says what a
// hosted project does). The token comes as GoTrue reads it, `gotrue_meta_security.captcha_token`
// (supabase-js: `options.captchaToken`); it is checked with Turnstile's siteverify, with the
// client's address, and answered as GoTrue answers: 400 `captcha_failed`.
import { badRequest } from './errors.ts';
import { isObject, type JsonObject } from '../http.ts';

export interface CaptchaOptions {
  /** Turnstile's secret key (GOTRUE_SECURITY_CAPTCHA_SECRET). */
  secret: string;
  /** siteverify's URL: Cloudflare's, or the providers server's stand-in. */
  verifyUrl: string;
}

/** GoTrue's refusal: `captcha protection: request disallowed (<why>)`. */
const disallowed = (why: string) =>
  badRequest('captcha_failed', `captcha protection: request disallowed (${why})`);

/** The token a request carries, as GoTrue reads it. */
export function captchaToken(body: JsonObject): string {
  const security = body.gotrue_meta_security;
  const token = isObject(security) ? security.captcha_token : undefined;
  return typeof token === 'string' ? token.trim() : '';
}

/** Passes when siteverify accepts the token; throws GoTrue's 400 `captcha_failed` otherwise. */
export async function requireCaptcha(
  opts: CaptchaOptions,
  token: string,
  remoteip: string,
): Promise<void> {
  if (!token) throw disallowed('no captcha_token found');
  let result: { success?: boolean; 'error-codes'?: string[] };
  try {
    const res = await fetch(opts.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: opts.secret, response: token, remoteip }),
      signal: AbortSignal.timeout(10_000),
    });
    result = (await res.json()) as typeof result;
  } catch {
    throw disallowed('captcha verification process failed');
  }
  if (result.success !== true) throw disallowed((result['error-codes'] ?? []).join(', '));
}
