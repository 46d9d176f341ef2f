// confirmMailVerify: the owner opened the confirmation link mailed to a sender address (the
// dashboard's /profile/email?confirm=<token> sends the token here, with the owner signed in).
// The token is spent only by the account it was made for; then the claim is verified at once when
// the provider can already send as the address, or the provider's identity is created and SES
// mails its own verification link (state awaiting_provider; check-mail-verified settles it).
import { serviceClient } from '../_shared/clients.ts';
import { dbError, HttpError, ownerHandler } from '../_shared/http.ts';
import { sesMailer } from '../_shared/mail.ts';
import { SENDER_MESSAGES, ZMailConfirm } from '@reaction-blocks/contracts/schemas';
import { providerError, settleWithProvider, tokenHash } from '../_shared/sender-emails.ts';

interface Confirmation {
  outcome: 'confirmed' | 'invalid' | 'other_account';
  id?: string;
  email?: string;
}

Deno.serve(
  ownerHandler(ZMailConfirm, async ({ body, user }) => {
    const db = serviceClient();
    const { data, error, status } = await db.rpc('confirm_sender_email', {
      p_user_id: user.id,
      p_token_hash: await tokenHash(body.token),
    });
    if (error) throw dbError(error, status);
    const confirmation = data as Confirmation;
    if (confirmation.outcome === 'other_account') {
      throw new HttpError(403, 'other_account', SENDER_MESSAGES.otherAccount);
    }
    if (confirmation.outcome !== 'confirmed' || !confirmation.id || !confirmation.email) {
      throw new HttpError(400, 'invalid_link', SENDER_MESSAGES.invalidLink);
    }
    const row = { id: confirmation.id, email: confirmation.email };
    try {
      const state = await settleWithProvider(db, sesMailer(), row);
      return { status: true, email: row.email, state };
    } catch (err) {
      // the claim went while it was settled (404)
      if (err instanceof HttpError) throw err;
      // the confirmation holds; asking again (request-mail-verify) redoes the provider's part
      throw providerError(err, 'confirm-mail-verify');
    }
  }),
);
