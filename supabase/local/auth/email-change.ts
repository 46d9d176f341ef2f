// An email change as GoTrue's secure email change does it: the new address holds only once the
// link mailed to it is opened, and, for a user who has an address, once the link mailed to the
// current address is opened too (either order). Until then `new_email` shows what is pending.
import type { AuthDeps } from './context.ts';
import { AuthError, forbidden, tooManyRequests } from './errors.ts';
import { actionLink, emailChangeMail, newOtp, tokenHash, type Mail } from './mailer.ts';
import { assertEmailFree, setConfirmedEmail, type Queryable, type UserRow } from './users.ts';

/** GoTrue's answer to a second mail within GOTRUE_SMTP_MAX_FREQUENCY. */
export function checkMailFrequency(deps: AuthDeps, sentAt: Date | null): void {
  if (!sentAt) return;
  const left = sentAt.getTime() + deps.settings.mailMaxFrequencyMs - Date.now();
  if (left > 0) {
    throw tooManyRequests(
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${Math.ceil(left / 1000)} seconds.`,
      left / 1000,
    );
  }
}

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
 * What an anonymous user's email change answers (rev-mail3 D3): nothing. Visitors stay anonymous
 * (an owner signs in with Google or Apple, docs/security.md "Who is an owner"), and the mail this
 * would send went to any address a visitor typed, a "Not me" mailbox included, outside every
 * per-mailbox cap. Refused before the address is looked at, so it tells nothing of who exists.
 * Hosted GoTrue has no such switch: docs/security.md says what does it there.
 */
export const anonymousEmailRefused = () =>
  forbidden(
    'email_change_not_allowed',
    'An anonymous user cannot add an email address: owners sign in with Google or Apple',
  );

/**
 * PUT /user with a new email: refused for an anonymous user (anonymousEmailRefused); everyone
 * else gets mail.
 */
export async function requestEmailChange(
  deps: AuthDeps,
  db: Queryable,
  user: UserRow,
  email: string,
  redirectTo: string,
): Promise<void> {
  if (user.is_anonymous) throw anonymousEmailRefused();
  await assertEmailFree(db, email, user.id);
  checkMailFrequency(deps, user.email_change_sent_at);
  const { externalUrl, secureEmailChange } = deps.settings;
  const otpNew = newOtp();
  const hashNew = tokenHash(email, otpNew);
  const current = secureEmailChange && user.email ? user.email : null;
  const otpCurrent = current ? newOtp() : '';
  const hashCurrent = current ? tokenHash(current, otpCurrent) : null;
  const change = { from: user.email, to: email };
  const mails = [
    emailChangeMail(
      email,
      change,
      actionLink(externalUrl, hashNew, 'email_change', redirectTo),
      otpNew,
    ),
  ];
  if (current && hashCurrent) {
    mails.push(
      emailChangeMail(
        current,
        change,
        actionLink(externalUrl, hashCurrent, 'email_change', redirectTo),
        otpCurrent,
      ),
    );
  }
  await sendMails(deps, mails);
  await db.query(
    `update auth.users set email_change = $2, email_change_token_new = $3,
       email_change_token_current = $4, email_change_confirm_status = 0,
       email_change_sent_at = now(), updated_at = now()
     where id = $1`,
    [user.id, email, hashNew, hashCurrent],
  );
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
