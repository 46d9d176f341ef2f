// checkMailVerified: asks the provider whether the address's identity is verified (its link was
// followed) and records the answer. data.result is the boolean the spec's screen reads.
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
      let verified: boolean;
      try {
        verified = (await sesMailer().getIdentity(row.email))?.verified === true;
      } catch (err) {
        throw providerError(err, 'check-mail-verified');
      }
      const status = verified ? 'verified' : 'not_verified';
      if (status !== row.status) {
        const { error } = await db.from('sender_emails').update({ status }).eq('id', row.id);
        if (error) throw new Error(error.message);
      }
      return { status: true, result: verified };
    },
    { ownersOnly: true },
  ),
);
