// checkMailVerified: whether the caller's sender email is verified now, and the row set to the
// answer: the owner confirmed it with the link mailed to the address AND the provider can send as
// it (its SES identity verified; the identity's state is re-read every time, so an identity that
// went away shows as not verified). data.result is the boolean the spec's screen reads;
// data.confirmed says which of the two is missing.
import { serviceClient } from '../_shared/clients.ts';
import { handler } from '../_shared/http.ts';
import { sesMailer } from '../_shared/mail.ts';
import { ZMailVerify } from '@reaction-blocks/contracts/schemas';
import { ownSenderEmail, providerError } from '../_shared/sender-emails.ts';

Deno.serve(
  handler(
    ZMailVerify,
    async ({ body, user }) => {
      const db = serviceClient();
      const row = await ownSenderEmail(db, user.id, body.emailToVerify);
      const confirmed = row.confirmed_at !== null;
      let verified = false;
      if (confirmed) {
        try {
          verified = (await sesMailer().getIdentity(row.email))?.verified === true;
        } catch (err) {
          throw providerError(err, 'check-mail-verified');
        }
      }
      const status = verified ? 'verified' : 'not_verified';
      if (status !== row.status) {
        const { error } = await db.from('sender_emails').update({ status }).eq('id', row.id);
        if (error) throw new Error(error.message);
      }
      return { status: true, result: verified, confirmed };
    },
    { ownersOnly: true },
  ),
);
