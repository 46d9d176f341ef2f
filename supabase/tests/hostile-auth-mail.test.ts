// rev-mail3 D3: the auth server's own mails are no way for a visitor to mail an address. An
// anonymous visitor's `updateUser({ email })` mailed "Confirm your email address" to any address
// it typed, a "Not me" mailbox included, outside every per-mailbox cap (four spellings of one
// mailbox, four mails). Now every email change is refused, an owner's too, by the Send Email Hook
// config.toml names (public.send_email_hook, the same on a hosted project: docs/security.md), and
// the other auth mail senders
// auth-js offers (recover, resend, a sign-in code or link) send nothing either: the local auth
// server has none of them, and hosted GoTrue refuses resend and the email OTP with the email
// provider off.
import { describe, expect, it } from 'vitest';
import { newGuest, newUser, sql } from './support/clients.ts';
import { inbox, mailbox } from './support/providers.ts';

/** What the Send Email Hook answers: its status and message, no error code (as GoTrue). */
const HOOK_REFUSAL = {
  status: 403,
  code: undefined,
  message: 'Email addresses cannot be changed: owners sign in with Google or Apple',
};

const plus = (email: string, tag: string) => email.replace('@', `+${tag}@`);

/** Mail that reached the mailbox of `email`, whatever the spelling it was sent to. */
async function mailsOf(email: string): Promise<string[]> {
  const [local, domain] = email.toLowerCase().split('@');
  return (await mailbox())
    .filter((m) =>
      m.to.some((to) => {
        const [l, d] = to.toLowerCase().split('@');
        return d === domain && l!.split('+')[0] === local;
      }),
    )
    .map((m) => m.subject);
}

describe('auth mails a visitor could send', () => {
  it('20 fresh anonymous visitors cannot make the auth server mail a "Not me" mailbox or an owner', async () => {
    const victim = inbox('not-me');
    await sql(`insert into private.mail_suppressions (email, reason) values ($1, 'not_me')`, [
      victim,
    ]);
    // an owner's address exists in auth.users: what recover and resend would mail
    const owner = await newUser('auth-mail-owner');
    const spellings = [victim, plus(victim, 'a'), victim.toUpperCase(), owner.email];
    for (let i = 0; i < 20; i++) {
      // each from an address of its own, as a script would spread them (GoTrue's limits are per address)
      const guest = await newGuest({ 'x-forwarded-for': `203.0.113.${i + 10}` });
      const email = spellings[i % spellings.length]!;
      const change = await guest.client.auth.updateUser({ email });
      if (email === owner.email) {
        // as GoTrue: a taken address is answered before the Send Email Hook is asked
        expect(change.error?.code).toBe('email_exists');
      } else {
        expect(change.error).toMatchObject(HOOK_REFUSAL);
      }
      const recover = await guest.client.auth.resetPasswordForEmail(email);
      const resendChange = await guest.client.auth.resend({ type: 'email_change', email });
      const resendSignup = await guest.client.auth.resend({ type: 'signup', email });
      const otp = await guest.client.auth.signInWithOtp({
        email,
        options: { shouldCreateUser: false },
      });
      for (const r of [recover, resendChange, resendSignup, otp]) expect(r.error).not.toBeNull();
      // still anonymous, nothing pending
      const [user] = await sql<{ is_anonymous: boolean; email_change: string | null }>(
        'select is_anonymous, email_change from auth.users where id = $1',
        [guest.id],
      );
      expect(user).toEqual({ is_anonymous: true, email_change: null });
    }
    // the auth server sends its mails before it answers: every call above has answered, so any
    // mail it sent is in the mailbox now
    expect(await mailsOf(victim)).toEqual([]);
    expect(await mailsOf(owner.email)).toEqual([]);
  });

  it("a permanent user's email change is refused too: nothing pending, nothing mailed (rev-fixes D6)", async () => {
    // it mailed "Confirm your email address" to any address an owner typed, once a minute, a
    // "Not me" mailbox included, outside every per-mailbox cap; the product never uses it
    const owner = await newUser('auth-mail-change');
    const to = inbox('new-address');
    await sql(`insert into private.mail_suppressions (email, reason) values ($1, 'not_me')`, [to]);
    const { error } = await owner.client.auth.updateUser({ email: to });
    expect(error).toMatchObject(HOOK_REFUSAL);
    const [user] = await sql<{ email: string; email_change: string | null }>(
      'select email, email_change from auth.users where id = $1',
      [owner.id],
    );
    expect(user).toEqual({ email: owner.email, email_change: null });
    expect(await mailsOf(to)).toEqual([]);
    expect(await mailsOf(owner.email)).toEqual([]);
  });
});
