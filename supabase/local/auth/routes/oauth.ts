// Sign-in with Google or Apple: GET /authorize (and linkIdentity's GET /user/identities/authorize)
// start the flow; where GoTrue sends the browser to the provider, the local server shows its
// stand-in consent page at GET /callback; POST /callback is the provider's answer, which signs
// in (implicit flow: tokens in the fragment) or hands out a code (PKCE).
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { pageHeaders } from '../../http.ts';
import { PROVIDER_LABELS, renderConsentPage } from '../consent-page.ts';
import { tx, type AuthCtx, type AuthDeps, type AuthEnv } from '../context.ts';
import { AuthError, badRequest, forbidden, unprocessable } from '../errors.ts';
import { readFormBody } from '../params.ts';
import { userFromProvider } from '../provider-users.ts';
import { validRedirect, withFragment, withQuery } from '../redirects.ts';
import { issueSession, requireUser, type SessionResponse } from '../sessions.ts';
import { isBanned, normaliseEmail } from '../users.ts';
import { on } from './route.ts';

const PROVIDERS = ['google', 'apple'];
const DEFAULT_CONSENT_EMAIL = 'demo@reaction-blocks.local';
const DEFAULT_CONSENT_NAME = 'Demo Owner';
/**
 * The consent page has no script at all; form-action is left open on purpose: Chromium applies
 * it to the redirect that follows the form post, which goes to the app's origin.
 */
const CONSENT_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

const html = (c: AuthCtx, status: 200 | 400 | 422, body: string) =>
  c.html(body, status, pageHeaders(CONSENT_CSP));

const expiredStatePage = () =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in expired</title></head>` +
  `<body><main><h1>Sign-in link expired or invalid</h1><p>Start the sign-in again from the app.</p></main></body></html>`;

/**
 * The first half of an OAuth flow (sign-in or linkIdentity): validates the provider and the
 * PKCE parameters, stores the flow state, signs the `state`, and returns the provider's URL,
 * which here is the stand-in consent page at GET /callback?state=...
 */
async function providerFlowUrl(deps: AuthDeps, c: AuthCtx, linkingTargetId = ''): Promise<string> {
  const provider = c.req.query('provider') ?? '';
  if (!PROVIDERS.includes(provider)) {
    throw badRequest(
      'validation_failed',
      `Unsupported provider: Provider ${provider} could not be found`,
    );
  }
  const codeChallenge = c.req.query('code_challenge') ?? '';
  const method = (c.req.query('code_challenge_method') ?? '').toLowerCase();
  if ((codeChallenge === '') !== (method === '')) {
    throw badRequest(
      'validation_failed',
      'PKCE flow requires code_challenge_method and code_challenge',
    );
  }
  const referrer = validRedirect(deps.settings, c.req.query('redirect_to'));
  let flowStateId = '';
  if (codeChallenge) {
    if (method !== 's256' && method !== 'plain') {
      throw badRequest('validation_failed', `code challenge method ${method} is not supported`);
    }
    if (codeChallenge.length < 43 || codeChallenge.length > 128) {
      throw badRequest(
        'validation_failed',
        'code challenge has to be between 43 and 128 characters',
      );
    }
    flowStateId = randomUUID();
    await deps.pool.query(
      `insert into auth.flow_state (id, auth_code, code_challenge_method, code_challenge, provider_type,
         authentication_method, redirect_to)
       values ($1, $2, $3, $4, $5, 'oauth', $6)`,
      [flowStateId, randomUUID(), method, codeChallenge, provider, referrer],
    );
  }
  const state = await deps.jwt.signState({
    provider,
    referrer,
    flow_state_id: flowStateId,
    linking_target_id: linkingTargetId,
  });
  const url = new URL(`${deps.settings.externalUrl}/callback`);
  url.searchParams.set('state', state);
  // Google's login_hint prefills the account, here the email field
  const hint = c.req.query('login_hint');
  if (hint) url.searchParams.set('login_hint', hint);
  return url.toString();
}

/** GET /callback?state=...: the local stand-in for the provider's consent screen. */
async function consentPage(deps: AuthDeps, c: AuthCtx) {
  const stateToken = c.req.query('state') ?? '';
  const state = await deps.jwt.verifyState(stateToken);
  if (!state) return html(c, 400, expiredStatePage());
  return html(
    c,
    200,
    renderConsentPage({
      provider: state.provider,
      state: stateToken,
      callbackUrl: `${deps.settings.externalUrl}/callback`,
      email: c.req.query('login_hint') ?? DEFAULT_CONSENT_EMAIL,
      name: DEFAULT_CONSENT_NAME,
      redirectTo: state.referrer,
    }),
  );
}

type CallbackResult = { code: string } | { session: SessionResponse } | { error: AuthError };

/** POST /callback: what "the provider" answered on the consent page. */
async function callback(deps: AuthDeps, c: AuthCtx) {
  const form = await readFormBody(c);
  const state = await deps.jwt.verifyState(form.get('state') ?? '');
  if (!state) return html(c, 400, expiredStatePage());
  const pkce = state.flow_state_id !== '';
  const back = (params: Record<string, string>) =>
    c.redirect(
      pkce ? withQuery(state.referrer, params) : withFragment(state.referrer, params),
      303,
    );
  const fail = (code: string, description: string) =>
    back({ error: 'access_denied', error_code: code, error_description: description });

  if (form.get('decision') === 'deny') {
    if (pkce)
      await deps.pool.query('delete from auth.flow_state where id = $1', [state.flow_state_id]);
    return fail(
      'access_denied',
      `${PROVIDER_LABELS[state.provider] ?? state.provider} sign-in was cancelled`,
    );
  }
  const rawEmail = (form.get('email') ?? '').trim();
  const name = (form.get('name') ?? '').trim().slice(0, 100);
  const picture = (form.get('picture') ?? '').trim();
  const email = normaliseEmail(rawEmail);
  const problem = !email
    ? 'Enter a valid email address.'
    : picture && !/^https?:\/\/\S+$/i.test(picture)
      ? 'The picture must be an http(s) URL.'
      : '';
  if (problem) {
    return html(
      c,
      422,
      renderConsentPage({
        provider: state.provider,
        state: form.get('state') ?? '',
        callbackUrl: `${deps.settings.externalUrl}/callback`,
        email: rawEmail,
        name,
        redirectTo: state.referrer,
        error: problem,
      }),
    );
  }
  let result: CallbackResult;
  try {
    result = await tx(deps.pool, async (db): Promise<CallbackResult> => {
      const profile = { provider: state.provider, email: email!, name, picture };
      const user = await userFromProvider(db, profile, state.linking_target_id);
      if (isBanned(user)) throw forbidden('user_banned', 'User is banned');
      if (!pkce) return { session: await issueSession(deps, db, user, 'oauth') };
      const { rows } = await db.query<{ auth_code: string }>(
        `update auth.flow_state set user_id = $2, auth_code_issued_at = now()
         where id = $1 and user_id is null returning auth_code`,
        [state.flow_state_id, user.id],
      );
      if (!rows[0]) throw unprocessable('flow_state_not_found', 'Flow state not found');
      return { code: rows[0].auth_code };
    });
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    result = { error: err };
  }
  if ('error' in result) return fail(result.error.errorCode, result.error.message);
  if ('code' in result) return back({ code: result.code });
  const s = result.session;
  return back({
    access_token: s.access_token,
    expires_at: String(s.expires_at),
    expires_in: String(s.expires_in),
    refresh_token: s.refresh_token,
    token_type: s.token_type,
  });
}

export function oauthRoutes(app: Hono<AuthEnv>, deps: AuthDeps): void {
  // where GoTrue redirects to Google or Apple, we redirect to the stand-in
  on(app, '/authorize', { GET: async (c) => c.redirect(await providerFlowUrl(deps, c), 302) });
  on(app, '/callback', { GET: (c) => consentPage(deps, c), POST: (c) => callback(deps, c) });
  // linkIdentity: the provider URL as JSON, as GoTrue answers
  on(app, '/user/identities/authorize', {
    GET: async (c) => {
      const { user } = await requireUser(deps, c);
      return c.json({ url: await providerFlowUrl(deps, c, user.id) });
    },
  });
}
