// GET and POST /verify: a mailed link or code (an email change, a sign-up confirmation, a
// sign-in link made by the admin API) turned into a session, as GoTrue does it. GET is the link
// a person opens (the outcome goes back to the app in the redirect's fragment); POST is what
// auth-js `verifyOtp` sends ({type, token_hash} or {type, email, token}).
import type { Hono } from 'hono';
import { limitCaller, tx, type AuthCtx, type AuthDeps, type AuthEnv } from '../context.ts';
import { AuthError, badRequest, forbidden } from '../errors.ts';
import { confirmEmailChange } from '../email-change.ts';
import { tokenHash, type LinkType } from '../mailer.ts';
import { readJsonBody, requireEmail, str } from '../params.ts';
import { validRedirect, withFragment } from '../redirects.ts';
import { issueSession, type SessionResponse } from '../sessions.ts';
import {
  findUserById,
  findUserByLinkToken,
  isBanned,
  type Queryable,
  type UserRow,
} from '../users.ts';
import { on } from './route.ts';

const TOKENS: Record<LinkType, { columns: string[]; sentAt: keyof UserRow }> = {
  signup: { columns: ['confirmation_token'], sentAt: 'confirmation_sent_at' },
  magiclink: { columns: ['recovery_token'], sentAt: 'recovery_sent_at' },
  recovery: { columns: ['recovery_token'], sentAt: 'recovery_sent_at' },
  email_change: {
    columns: ['email_change_token_new', 'email_change_token_current'],
    sentAt: 'email_change_sent_at',
  },
};

const SINGLE_CONFIRMATION =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

type Outcome = { session: SessionResponse } | { pending: true };

/** Applies a mailed token: the session it signs in, or `pending` for the first of two. */
async function applyToken(
  deps: AuthDeps,
  db: Queryable,
  type: string,
  hash: string,
  invalid: () => AuthError,
): Promise<Outcome> {
  const kind = TOKENS[type as LinkType];
  if (!kind) throw badRequest('validation_failed', 'Unsupported verification type');
  const user = await findUserByLinkToken(db, kind.columns, hash);
  if (!user) throw invalid();
  if (isBanned(user)) throw forbidden('user_banned', 'User is banned');
  const sentAt = user[kind.sentAt] as Date | null;
  if (!sentAt || sentAt.getTime() + deps.settings.otpExpiryMs < Date.now()) throw invalid();
  if (type === 'email_change') {
    if (!(await confirmEmailChange(deps, db, user, hash))) return { pending: true };
  } else {
    // the link proves the address: it is confirmed, and the link is good once
    await db.query(
      `update auth.users set ${kind.columns[0]} = null,
         email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
       where id = $1`,
      [user.id],
    );
    await db.query(
      `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb
       where user_id = $1 and provider = 'email'`,
      [user.id],
    );
  }
  const fresh = (await findUserById(db, user.id))!;
  return { session: await issueSession(deps, db, fresh, 'otp') };
}

function limit(deps: AuthDeps, c: AuthCtx): void {
  limitCaller(deps, c, 'verify');
}

async function verifyPost(deps: AuthDeps, c: AuthCtx) {
  limit(deps, c);
  const body = await readJsonBody(c);
  const type = str(body.type) ?? '';
  const token = str(body.token) ?? '';
  const given = str(body.token_hash) ?? '';
  if ((token === '') === (given === '')) {
    throw badRequest('validation_failed', 'Verify requires either a token or a token hash');
  }
  let hash = given;
  let invalid = () => forbidden('otp_expired', 'Email link is invalid or has expired');
  if (token) {
    if (str(body.phone)) throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
    hash = tokenHash(requireEmail(body.email), token);
    invalid = () => forbidden('otp_expired', 'Token has expired or is invalid');
  } else if (
    body.email !== undefined ||
    body.phone !== undefined ||
    body.redirect_to !== undefined
  ) {
    throw badRequest('validation_failed', 'Only the token_hash and type should be provided');
  }
  const outcome = await tx(deps.pool, (db) => applyToken(deps, db, type, hash, invalid));
  if ('pending' in outcome) return c.json({ msg: SINGLE_CONFIRMATION, code: 200 });
  return c.json(outcome.session);
}

async function verifyGet(deps: AuthDeps, c: AuthCtx) {
  limit(deps, c);
  const type = c.req.query('type') ?? '';
  const referrer = validRedirect(deps.settings, c.req.query('redirect_to'));
  let outcome: Outcome;
  try {
    outcome = await tx(deps.pool, (db) =>
      applyToken(deps, db, type, c.req.query('token') ?? '', () =>
        forbidden('otp_expired', 'Email link is invalid or has expired'),
      ),
    );
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    return c.redirect(
      withFragment(referrer, {
        error: 'access_denied',
        error_code: err.errorCode,
        error_description: err.message,
      }),
      303,
    );
  }
  if ('pending' in outcome) {
    return c.redirect(withFragment(referrer, { message: SINGLE_CONFIRMATION }), 303);
  }
  const s = outcome.session;
  return c.redirect(
    withFragment(referrer, {
      access_token: s.access_token,
      expires_at: String(s.expires_at),
      expires_in: String(s.expires_in),
      refresh_token: s.refresh_token,
      token_type: s.token_type,
      type,
    }),
    303,
  );
}

export function verifyRoutes(app: Hono<AuthEnv>, deps: AuthDeps): void {
  on(app, '/verify', { GET: (c) => verifyGet(deps, c), POST: (c) => verifyPost(deps, c) });
}
