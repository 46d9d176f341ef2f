// An email change as GoTrue's secure email change makes it: the new address holds only once the
// link mailed to it is opened, and, for a user who has an address, once the link mailed to the
// current address is opened too (either order); until then `new_email` shows what is pending.
// Its mail goes only to a Send Email Hook (auth-mail.ts): this project's refuses it
// (public.send_email_hook, docs/security.md), and without a hook the change is refused here.
import type { AuthDeps } from './context.ts';
import { deliverAuthMail } from './auth-mail.ts';
import { forbidden } from './errors.ts';
import { newOtp, tokenHash } from './mailer.ts';
import {
  assertEmailFree,
  loadUserJson,
  setConfirmedEmail,
  type Queryable,
  type UserRow,
} from './users.ts';

/**
 * An email change with no Send Email Hook to tell: this server has no mail for it (the product
 * never changes an address: visitors stay anonymous, an owner signs in with Google or Apple).
 */
export const emailChangeRefused = () =>
  forbidden(
    'email_change_not_allowed',
    'Email addresses cannot be changed: owners sign in with Google or Apple',
  );

/**
 * PUT /user with a new email, in the update's transaction: as GoTrue, the address must be free,
 * then the change's tokens go to the Send Email Hook and the change is pending; the hook's refusal
 * rolls it back and is the answer.
 */
export async function requestEmailChange(
  deps: AuthDeps,
  db: Queryable,
  user: UserRow,
  email: string,
  redirectTo: string,
): Promise<void> {
  if (!deps.settings.sendEmailHook) throw emailChangeRefused();
  await assertEmailFree(db, email, user.id);
  const otpNew = newOtp();
  const hashNew = tokenHash(email, otpNew);
  const current = deps.settings.secureEmailChange && user.email ? user.email : null;
  const otpCurrent = current ? newOtp() : '';
  const hashCurrent = current ? tokenHash(current, otpCurrent) : null;
  // GoTrue's names, kept for compatibility: token and token_hash_new are the current address's
  const data = {
    token: otpCurrent,
    token_hash: hashNew,
    token_new: otpNew,
    token_hash_new: hashCurrent ?? '',
    redirect_to: redirectTo,
    email_action_type: 'email_change' as const,
    site_url: deps.settings.siteUrl,
  };
  const userJson = { ...(await loadUserJson(db, user)), new_email: email };
  await deliverAuthMail(deps, db, userJson, data, []);
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
