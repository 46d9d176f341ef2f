// checkMailVerified: whether the caller's sender email is verified now, and the row set to the
// answer: the owner confirmed it with the link mailed to the address AND the provider can send as
// it (its SES identity, or its domain's, verified; re-read every time, so an identity that went
// away at SES shows as not verified). data.result is the boolean the spec's screen reads;
// data.confirmed says which of the two is missing.
import { serviceClient } from '../_shared/clients.ts';
import { dbError, HttpError, ownerHandler } from '../_shared/http.ts';
import { sesMailer } from '../_shared/mail.ts';
import { ZMailVerify } from '@reaction-blocks/contracts/schemas';
import {
  canSendAs,
  ownSenderEmail,
  providerError,
  writeVerified,
} from '../_shared/sender-emails.ts';

Deno.serve(
  ownerHandler(ZMailVerify, async ({ body, user }) => {
    const db = serviceClient();
    const row = await ownSenderEmail(db, user.id, body.emailToVerify);
    const confirmed = row.confirmed_at !== null;
    let verified = false;
    try {
      const mailer = sesMailer();
      verified = confirmed && (await canSendAs(mailer, row.email));
      // a verified write is read against SES again (a release may have restored the identity
      // between the read and the write, writeVerified)
      if (verified && row.status !== 'verified') verified = await writeVerified(db, mailer, row);
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw providerError(err, 'check-mail-verified');
    }
    if (!verified && row.status !== 'not_verified') {
      const result = await db
        .from('sender_emails')
        .update({ status: 'not_verified' })
        .eq('id', row.id);
      if (result.error) throw dbError(result.error, result.status);
    }
    return { status: true, result: verified, confirmed };
  }),
);
