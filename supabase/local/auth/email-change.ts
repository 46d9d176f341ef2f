// Email changes: refused for every user (emailChangeRefused), so the auth server mails no
// "Confirm your email address". What remains is GoTrue's second half of a secure email change (the
// new address holds once the links mailed to it, and to the current address, are opened), for a
// change pending from before; and the mail sender the sign-up shares.
import type { AuthDeps } from './context.ts';
import { AuthError, forbidden, tooManyRequests } from './errors.ts';
import type { Mail } from './mailer.ts';
import { setConfirmedEmail, type Queryable, type UserRow } from './users.ts';

/** Sends mails through the server's mailer, within the hourly mail budget (RATE_LIMIT_EMAIL_SENT). */
export async function sendMails(deps: AuthDeps, mails: Mail[]): Promise<void> {
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

/**
 * What an email change answers, for every user (rev-mail3 D3 for anonymous users, rev-fixes D6
 * for everyone): nothing. The product never changes an address (visitors stay anonymous, an owner
 * signs in with Google or Apple, docs/security.md "Who is an owner"), and the mail this would send
 * went to any address typed, a "Not me" mailbox included, outside every per-mailbox cap: an
 * anonymous visitor as often as it liked, an owner once a minute. Refused before the address is
 * looked at, so it tells nothing of who exists. Hosted GoTrue has no such switch:
 * docs/security.md says what does it there (the Send Email Hook).
 */
export const emailChangeRefused = () =>
  forbidden(
    'email_change_not_allowed',
    'Email addresses cannot be changed: owners sign in with Google or Apple',
  );

/** PUT /user with a new email: refused (emailChangeRefused), nothing pending, nothing mailed. */
export function requestEmailChange(): never {
  throw emailChangeRefused();
}

/**
 * A mailed email-change link opened: the first of two (secure change) is noted and the change
 * waits for the other; the last one makes the new address the user's. Returns whether the
 * change is complete.
 */
export async function confirmEmailChange(
  deps: AuthDeps,
  db: Queryable,
  user: UserRow,
  hash: string,
): Promise<boolean> {
  const needsBoth =
    !deps.settings.mailerAutoconfirm &&
    deps.settings.secureEmailChange &&
    user.email_change_confirm_status === 0 &&
    !!user.email &&
    !!user.email_change_token_current;
  if (needsBoth) {
    const column =
      hash === user.email_change_token_current
        ? 'email_change_token_current'
        : 'email_change_token_new';
    await db.query(
      `update auth.users set ${column} = null, email_change_confirm_status = 1 where id = $1`,
      [user.id],
    );
    return false;
  }
  await setConfirmedEmail(db, user, user.email_change!);
  return true;
}
