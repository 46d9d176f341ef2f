// requestMailVerify: adds a sender email (pending) for the caller and mails the address a link
// to confirm it is theirs: a single-use token bound to this owner and this address, kept only as
// its hash, good for 24 hours. Every owner confirms for themselves, even when the address is
// verified with the provider for another owner already (the provider's state is account-wide).
// The mail has a second link, "Not me" (the /confirm-email page, answer_mail_consent): whoever
// reads the mailbox stops every mail of the platform to it and drops the claim, without signing
// in; that token confirms nothing. Asking again mails a new link (the old confirm link stops
// working; "Not me" links keep theirs for 7 days); an owner who confirmed but whose provider
// verification is missing gets the provider's link again instead. At most 60 characters and a
// valid address ("Invalid email address."); a few requests an hour per owner; at most
// SENDER_EMAIL_LIMITS.addresses claims per owner, counted and the new claim written under a lock
// of the owner's before the mail goes, so requests at once cannot pass it together; and the
// address, whoever asks, gets at most one of these mails a day, SES's own link counted, and none
// once it is suppressed (reserve_sender_confirmation; docs/security.md "Sender addresses").
import { serviceClient } from '../_shared/clients.ts';
import { siteUrl } from '../_shared/env.ts';
import { dbError, HttpError, ownerHandler } from '../_shared/http.ts';
import { sesMailer } from '../_shared/mail.ts';
import { MailError } from '../_shared/mail-errors.ts';
import { platformSender } from '../_shared/mail-delivery.ts';
import { limitOwnerCalls } from '../_shared/owner-limits.ts';
import {
  SENDER_EMAIL_LIMITS,
  SENDER_MESSAGES,
  ZMailVerify,
} from '@reaction-blocks/contracts/schemas';
import { langOf } from '../_shared/notification-mail.ts';
import { renderSenderConfirmMail } from '../_shared/sender-confirm-mail.ts';
import {
  claimGone,
  newConfirmationToken,
  providerError,
  settleWithProvider,
  stillConfirmed,
  type SenderEmailRow,
} from '../_shared/sender-emails.ts';

/**
 * Notes the mail about to go to `email` (its id, released if the provider refuses it) and, for a
 * new address, writes the owner's pending claim (`claim`, removed with the release), or refuses
 * it: the owner holds their most claims already (400 too_many, counted under the owner's lock),
 * the address is suppressed (it said "Not me", complained or bounced; a "Not me" only to consent
 * asks does not hold back the owner's own sign-in address), or a sender confirmation went to its
 * mailbox in the last 24 hours, for any owner (429, with the wait); a consent ask's day does not
 * count (docs/security.md "Sender addresses").
 */
async function reserveMail(
  db: ReturnType<typeof serviceClient>,
  userId: string,
  email: string,
): Promise<{ id: number; claim: string | null }> {
  const { data, error, status } = await db.rpc('reserve_sender_confirmation', {
    p_user_id: userId,
    p_email: email,
    p_max_claims: SENDER_EMAIL_LIMITS.addresses,
  });
  if (error) throw dbError(error, status);
  const answer = data as { outcome: string; id?: number; claim?: string; retry_at?: string };
  if (answer.outcome === 'too_many') {
    throw new HttpError(400, 'too_many', SENDER_MESSAGES.tooMany);
  }
  if (answer.outcome === 'suppressed') {
    throw new HttpError(400, 'suppressed', SENDER_MESSAGES.suppressed);
  }
  if (answer.outcome === 'sent_today') {
    const wait = (Date.parse(answer.retry_at!) - Date.now()) / 1000;
    throw new HttpError(429, 'sent_today', SENDER_MESSAGES.sentToday, Math.max(1, wait));
  }
  return { id: answer.id!, claim: answer.claim ?? null };
}

Deno.serve(
  ownerHandler(ZMailVerify, async ({ body, user }) => {
    const email = body.emailToVerify;
    const db = serviceClient();
    const [rowsRead, profileRead] = await Promise.all([
      db.from('sender_emails').select('id, email, status, confirmed_at').eq('user_id', user.id),
      db.from('profiles').select('language').eq('id', user.id).maybeSingle(),
    ]);
    for (const read of [rowsRead, profileRead])
      if (read.error) throw dbError(read.error, read.status);
    const [rows, profile] = [rowsRead.data!, profileRead.data];
    const existing = (rows as SenderEmailRow[]).find((r) => r.email === email);
    if (existing?.status === 'verified') return { status: true, email, state: 'verified' };
    // an owner full already is told so without spending a call of the hour; the rule itself is
    // reserve_sender_confirmation's, under the owner's lock (requests at once all read 9 here)
    if (!existing && rows.length >= SENDER_EMAIL_LIMITS.addresses) {
      throw new HttpError(400, 'too_many', SENDER_MESSAGES.tooMany);
    }
    await limitOwnerCalls(user.id, 'request-mail-verify', SENDER_MESSAGES.tooManyRequests);

    const mailer = sesMailer();
    if (existing?.confirmed_at) {
      // SES mails its own link again: that mail counts in the mailbox's day, and none goes to a
      // suppressed mailbox, as for the platform's confirmation mail below
      try {
        const state = await settleWithProvider(db, mailer, existing, true, async () => {
          // the claim read above may have gone since (the owner deleted it): the reservation
          // then wrote a new pending claim, which nothing would release with an identity made
          // for it. Both are taken back and nothing is created (404, the list's "reload").
          const reservation = await reserveMail(db, user.id, email);
          if (await stillConfirmed(db, existing.id)) return reservation.id;
          await db.rpc('release_sender_confirmation', {
            p_id: reservation.id,
            p_claim: reservation.claim,
          });
          throw claimGone();
        });
        return { status: true, email, state };
      } catch (err) {
        if (err instanceof HttpError) throw err;
        throw providerError(err, 'request-mail-verify');
      }
    }

    const reservation = await reserveMail(db, user.id, email);
    const [confirm, notMe] = await Promise.all([newConfirmationToken(), newConfirmationToken()]);
    const language = (profile as { language?: string } | null)?.language ?? 'en';
    const mail = renderSenderConfirmMail({
      language,
      address: email,
      ownerEmail: user.email ?? '',
      link: `${siteUrl()}/profile/email?confirm=${confirm.token}`,
      // the page in the mail's language, as the consent mails' links (confirm-mail.ts)
      notMeLink: `${siteUrl()}/confirm-email?token=${notMe.token}&locale=${langOf(language)}&answer=not-me`,
    });
    const sender = platformSender();
    try {
      await mailer.send({
        from: sender.address,
        fromName: sender.name,
        to: [email],
        subject: mail.subject,
        html: mail.html,
        tags: { kind: 'sender_confirm' },
      });
    } catch (err) {
      // refused or certainly not taken: the address's day is not spent. An answer lost after
      // the request went out (a timeout) may hide a mail that went: the day stays spent and the
      // claim is written below, so its link works if it arrives; the owner is told to look.
      if (!(err instanceof MailError && err.outcome === 'unknown')) {
        await db.rpc('release_sender_confirmation', {
          p_id: reservation.id,
          p_claim: reservation.claim,
        });
        throw providerError(err, 'request-mail-verify');
      }
      console.error('[request-mail-verify] the provider may have taken the mail', err);
    }
    // the tokens are written once the mail is (or may be) out; a provider that refused it leaves
    // nothing behind (the release above takes the new claim reserveMail wrote)
    const { error: writeError, status: writeStatus } = await db.rpc('request_sender_email', {
      p_user_id: user.id,
      p_email: email,
      p_token_hash: confirm.hash,
      p_not_me_hash: notMe.hash,
    });
    if (writeError) throw dbError(writeError, writeStatus);
    return { status: true, email, state: 'pending' };
  }),
);
