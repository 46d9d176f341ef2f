// The auth server's mails: through the mailer, within the hourly budget (RATE_LIMIT_EMAIL_SENT);
// or, as GoTrue does, through its Send Email Hook as a Postgres function (config.toml's
// `[auth.hook.send_email]`, `pg-functions://postgres/<schema>/<function>`). With a hook set the
// server sends no auth mail itself: it calls the function in the transaction of the change that
// would mail, as supabase_auth_admin and within two seconds, with the user and the mail's tokens;
// an answer `{ "error": { "http_code", "message" } }` is what the caller gets (the change rolled
// back), anything else means the hook has sent the mail. docs/security.md says which hook this
// project sets and why.
import type { AuthDeps } from './context.ts';
import { AuthError, tooManyRequests } from './errors.ts';
import type { Mail } from './mailer.ts';
import type { Queryable, UserJson } from './users.ts';

/** What GoTrue puts in `email_data` (the fields this server has). */
export interface EmailData {
  token: string;
  token_hash: string;
  token_new: string;
  token_hash_new: string;
  redirect_to: string;
  email_action_type: 'signup' | 'email_change';
  site_url: string;
}

interface HookAnswer {
  error?: { http_code?: number; message?: string };
}

/** Sends mails through the server's mailer, within the hourly mail budget (RATE_LIMIT_EMAIL_SENT). */
async function sendMails(deps: AuthDeps, mails: Mail[]): Promise<void> {
  if (!deps.limits.emailSent.take('mail')) {
    throw tooManyRequests(
      'over_email_send_rate_limit',
      'email rate limit exceeded',
      deps.limits.emailSent.retryAfter('mail'),
    );
  }
  if (!deps.mailer)
    throw new AuthError(500, 'unexpected_failure', 'Error sending email: no mailer');
  try {
    for (const mail of mails) await deps.mailer.send(mail);
  } catch (err) {
    deps.log('auth', `mail failed: ${(err as Error).message}`);
    throw new AuthError(500, 'unexpected_failure', 'Error sending confirmation email');
  }
}

async function runHook(
  deps: AuthDeps,
  fn: string,
  db: Queryable,
  user: UserJson,
  data: EmailData,
): Promise<void> {
  // as GoTrue: its own role, a statement timeout of two seconds, both undone after the call
  await db.query("set local role supabase_auth_admin; set local statement_timeout = '2s'");
  let answer: HookAnswer | null;
  try {
    const { rows } = await db.query(`select ${fn}($1::jsonb) as answer`, [
      JSON.stringify({ user, email_data: data }),
    ]);
    answer = rows[0].answer as HookAnswer | null;
  } catch (err) {
    deps.log('auth', `send email hook ${fn} failed: ${(err as Error).message}`);
    throw new AuthError(500, 'unexpected_failure', `Error running hook URI: ${fn}`);
  }
  await db.query('reset role; set local statement_timeout to default');
  if (answer?.error) {
    const status = answer.error.http_code || 500;
    throw new AuthError(status, '', answer.error.message ?? '');
  }
}

/**
 * An auth mail: told to the hook when one is set (it sends, or refuses with its status and
 * message), else sent through the server's mailer.
 */
export async function deliverAuthMail(
  deps: AuthDeps,
  db: Queryable,
  user: UserJson,
  data: EmailData,
  mails: Mail[],
): Promise<void> {
  if (deps.settings.sendEmailHook) await runHook(deps, deps.settings.sendEmailHook, db, user, data);
  else await sendMails(deps, mails);
}
