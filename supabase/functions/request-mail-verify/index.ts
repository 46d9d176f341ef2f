// requestMailVerify: adds a sender email (pending) for the caller and mails the address a link
// to confirm it is theirs: a single-use token bound to this owner and this address, kept only as
// its hash, good for 24 hours. Every owner confirms for themselves, even when the address is
// verified with the provider for another owner already (the provider's state is account-wide).
// Asking again mails a new link (the old one stops working); an owner who confirmed but whose
// provider verification is missing gets the provider's link again instead. At most 60 characters
// and a valid address ("Invalid email address."); a few requests an hour per owner, since each
// one mails an address the owner may not control.
import { serviceClient } from '../_shared/clients.ts';
import { siteUrl } from '../_shared/env.ts';
import { dbError, HttpError, ownerHandler } from '../_shared/http.ts';
import { sesMailer } from '../_shared/mail.ts';
import { platformSender } from '../_shared/mail-delivery.ts';
import { limitOwnerCalls } from '../_shared/owner-limits.ts';
import {
  SENDER_EMAIL_LIMITS,
  SENDER_MESSAGES,
  ZMailVerify,
} from '@reaction-blocks/contracts/schemas';
import { renderSenderConfirmMail } from '../_shared/sender-confirm-mail.ts';
import {
  newConfirmationToken,
  providerError,
  settleWithProvider,
  type SenderEmailRow,
} from '../_shared/sender-emails.ts';

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
    if (!existing && rows.length >= SENDER_EMAIL_LIMITS.addresses) {
      throw new HttpError(400, 'too_many', SENDER_MESSAGES.tooMany);
    }
    await limitOwnerCalls(user.id, 'request-mail-verify', SENDER_MESSAGES.tooManyRequests);

    const mailer = sesMailer();
    if (existing?.confirmed_at) {
      try {
        const state = await settleWithProvider(db, mailer, existing, true);
        return { status: true, email, state };
      } catch (err) {
        throw providerError(err, 'request-mail-verify');
      }
    }

    const { token, hash } = await newConfirmationToken();
    const mail = renderSenderConfirmMail({
      language: (profile as { language?: string } | null)?.language ?? 'en',
      address: email,
      ownerEmail: user.email ?? '',
      link: `${siteUrl()}/profile/email?confirm=${token}`,
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
      throw providerError(err, 'request-mail-verify');
    }
    // written once the mail is out: a provider that refused it leaves nothing behind
    const { error: writeError, status: writeStatus } = await db.rpc('request_sender_email', {
      p_user_id: user.id,
      p_email: email,
      p_token_hash: hash,
    });
    if (writeError) throw dbError(writeError, writeStatus);
    return { status: true, email, state: 'pending' };
  }),
);
