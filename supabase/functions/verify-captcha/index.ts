// A visitor solved the captcha a block shows once the rate limits trip (issue 9): verify the
// token with Cloudflare Turnstile's siteverify API and give the visitor a pass for the block
// (grant_captcha_pass: a few writes past the limits). The caller is the visitor's session
// (anonymous users too). Turnstile spends a token on its first check, so the block is checked
// first (captcha_wanted, the rule grant_captcha_pass applies too): a block that asks for no
// captcha (or does not exist, or is deactivated) is refused
// before the token is spent, and the visitor can still use it where it was meant for. A token
// seen before is refused here as well, whatever the provider answers.
//
// Settings: TURNSTILE_SECRET_KEY (the widget's secret), TURNSTILE_VERIFY_URL (default
// Cloudflare's; locally the providers server's fake). docs/self-hosting.md.
import { serviceClient } from '../_shared/clients.ts';
import { env, optionalEnv } from '../_shared/env.ts';
import { dbError, handler, HttpError, inTransit, unavailable } from '../_shared/http.ts';
import { providerFetch } from '../_shared/provider-fetch.ts';
import { ZVerifyCaptcha } from '@reaction-blocks/contracts/schemas';

const DEFAULT_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

interface SiteverifyAnswer {
  success?: boolean;
  'error-codes'?: string[];
}

/** Turnstile's verdict on a token; throws a 503 when the provider cannot be asked. */
async function siteverify(token: string, idempotencyKey: string): Promise<SiteverifyAnswer> {
  const form = new URLSearchParams({
    secret: env('TURNSTILE_SECRET_KEY'),
    response: token,
    idempotency_key: idempotencyKey,
  });
  let res: Response;
  try {
    // siteverify spends the token: on a fresh connection, never re-sent by the runtime
    res = await providerFetch(optionalEnv('TURNSTILE_VERIFY_URL', DEFAULT_VERIFY_URL), {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    console.error('[verify-captcha] siteverify unreachable:', (err as Error).message);
    throw new HttpError(
      503,
      'captcha_unavailable',
      'The check is unavailable. Please try again later.',
    );
  }
  if (res.status >= 500) {
    await res.body?.cancel();
    throw new HttpError(
      503,
      'captcha_unavailable',
      'The check is unavailable. Please try again later.',
    );
  }
  try {
    return (await res.json()) as SiteverifyAnswer;
  } catch {
    throw new HttpError(
      503,
      'captcha_unavailable',
      'The check is unavailable. Please try again later.',
    );
  }
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** grant_captcha_pass's refusal of such a block, said before the token is spent. */
const NOT_ASKED = 'This block does not ask for a captcha';

Deno.serve(
  handler(ZVerifyCaptcha, async ({ body, user }) => {
    const db = serviceClient();
    // the rule grant_captcha_pass applies after the token is spent, asked before (issue 17)
    const {
      data: wanted,
      error: wantedError,
      status: wantedStatus,
    } = await db.rpc('captcha_wanted', {
      p_block_id: body.blockId,
    });
    if (wantedError) throw dbError(wantedError, wantedStatus);
    if (wanted !== true) throw new HttpError(400, 'invalid_input', NOT_ASKED);
    const hash = await sha256Hex(body.token);
    const verdict = await siteverify(body.token, crypto.randomUUID());
    if (verdict.success !== true) {
      const codes = verdict['error-codes'] ?? [];
      if (codes.includes('invalid-input-secret') || codes.includes('missing-input-secret')) {
        console.error('[verify-captcha] the Turnstile secret is wrong:', codes.join(', '));
        throw new HttpError(
          503,
          'captcha_unavailable',
          'The check is unavailable. Please try again later.',
        );
      }
      throw new HttpError(
        403,
        codes.includes('timeout-or-duplicate') ? 'captcha_spent' : 'captcha_failed',
        'The check failed. Please try again.',
      );
    }
    const { data, error, status } = await db.rpc('grant_captcha_pass', {
      p_user_id: user.id,
      p_block_id: body.blockId,
      p_token_hash: hash,
    });
    if (error) {
      if (error.message === 'This captcha was already used')
        throw new HttpError(403, 'captcha_spent', 'The check failed. Please try again.');
      if (error.code === 'P0001') throw new HttpError(400, 'invalid_input', error.message);
      // the token is spent at the provider: the SDK offers the widget again on any failure, so
      // the 503 (and its wait) stays the same as everywhere
      if (inTransit(error, status)) throw unavailable(error, 'verify-captcha');
      console.error('[verify-captcha]', error);
      throw new HttpError(500, 'captcha_failed', 'The check failed. Please try again.');
    }
    return { passed: true, ...(data as Record<string, unknown>) };
  }),
);
