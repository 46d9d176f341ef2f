// POST /signup: an anonymous sign-in (no email, no phone), or an email and password sign-up when
// the email provider is on (it is off by default: owners sign in with Google or Apple). Each is
// limited per client address before anything else, as GoTrue's router does; past its limit an
// anonymous sign-in may pass with a solved captcha when the server has one (../captcha.ts).
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import {
  addressKeyOf,
  clientAddressOf,
  limitCaller,
  tx,
  type AuthCtx,
  type AuthDeps,
  type AuthEnv,
} from '../context.ts';
import { captchaToken, requireCaptcha } from '../captcha.ts';
import { badRequest, overRequestRateLimit, unprocessable } from '../errors.ts';
import { hashPassword } from '../password.ts';
import { checkPassword, metadataParam, readJsonBody, requireEmail, str } from '../params.ts';
import { issueSession } from '../sessions.ts';
import { deliverAuthMail } from '../auth-mail.ts';
import { actionLink, newOtp, signupMail, tokenHash } from '../mailer.ts';
import { validRedirect } from '../redirects.ts';
import {
  findUserByEmail,
  findUserById,
  insertEmailUser,
  insertUser,
  loadUserJson,
} from '../users.ts';
import { on } from './route.ts';

const userExists = () => unprocessable('user_already_exists', 'User already registered');

async function signUpAnonymously(
  deps: AuthDeps,
  c: AuthCtx,
  body: Record<string, unknown>,
  data: Record<string, unknown>,
) {
  const address = clientAddressOf(deps, c);
  const key = addressKeyOf(address);
  if (!deps.limits.anonymousUsers.take(key)) {
    // past the address's limit: a solved captcha (captcha.ts), or GoTrue's 429 without one
    if (!deps.captcha) throw overRequestRateLimit(deps.limits.anonymousUsers.retryAfter(key));
    await requireCaptcha(deps.captcha, captchaToken(body), address);
  }
  const session = await tx(deps.pool, async (db) => {
    const user = await insertUser(db, {
      id: randomUUID(),
      email: null,
      encryptedPassword: null,
      userMetaData: data,
      provider: 'anonymous',
      confirmed: false,
    });
    return issueSession(deps, db, user, 'anonymous');
  });
  return c.json(session);
}

async function signUpWithEmail(
  deps: AuthDeps,
  c: AuthCtx,
  body: Record<string, unknown>,
  data: Record<string, unknown>,
) {
  limitCaller(deps, c, 'signups');
  if (str(body.phone)?.trim())
    throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
  if (!deps.settings.emailEnabled) {
    throw badRequest('email_provider_disabled', 'Email signups are disabled');
  }
  const email = requireEmail(str(body.email)?.trim() ?? '');
  const password = str(body.password) ?? '';
  if (!password) throw badRequest('validation_failed', 'Signup requires a valid password');
  checkPassword(deps.settings, password);
  if (await findUserByEmail(deps.pool, email)) throw userExists();
  const hash = await hashPassword(password);
  const confirmed = deps.settings.mailerAutoconfirm;
  const outcome = await tx(deps.pool, async (db) => {
    const user = await insertEmailUser(
      db,
      {
        id: randomUUID(),
        email,
        encryptedPassword: hash,
        userMetaData: data,
        confirmed,
      },
      userExists,
    );
    if (confirmed) return issueSession(deps, db, user, 'password');
    // the address holds once the mailed link is opened (GoTrue answers the user, no session)
    const otp = newOtp();
    const linkHash = tokenHash(email, otp);
    const redirectTo = validRedirect(deps.settings, c.req.query('redirect_to'));
    const emailData = {
      token: otp,
      token_hash: linkHash,
      token_new: '',
      token_hash_new: '',
      redirect_to: redirectTo,
      email_action_type: 'signup' as const,
      site_url: deps.settings.siteUrl,
    };
    const link = actionLink(deps.settings.externalUrl, linkHash, 'signup', redirectTo);
    await deliverAuthMail(deps, db, await loadUserJson(db, user), emailData, [
      signupMail(email, link, otp),
    ]);
    await db.query(
      'update auth.users set confirmation_token = $2, confirmation_sent_at = now() where id = $1',
      [user.id, linkHash],
    );
    return loadUserJson(db, (await findUserById(db, user.id))!);
  });
  return c.json(outcome);
}

export function signupRoutes(app: Hono<AuthEnv>, deps: AuthDeps): void {
  on(app, '/signup', {
    POST: async (c) => {
      const body = await readJsonBody(c);
      const data = metadataParam(body.data, 'data') ?? {};
      const email = str(body.email)?.trim() ?? '';
      const phone = str(body.phone)?.trim() ?? '';
      if (!email && !phone) return signUpAnonymously(deps, c, body, data);
      return signUpWithEmail(deps, c, body, data);
    },
  });
}
