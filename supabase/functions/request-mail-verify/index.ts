// requestMailVerify: adds a sender email (pending) and has the provider mail it a verification
// link. At most 60 characters and a valid address ("Invalid email address."). The row is written
// only when the provider took the request; an address already added is asked again (the link is
// mailed anew) unless it is verified. A few requests an hour per user: each one mails a stranger.
import { serviceClient } from '../_shared/clients.ts';
import { handler, HttpError } from '../_shared/http.ts';
import { sesMailer } from '../_shared/mail.ts';
import {
  SENDER_EMAIL_LIMITS,
  SENDER_MESSAGES,
  ZMailVerify,
} from '@reaction-blocks/contracts/schemas';
import { providerError, type SenderEmailRow } from '../_shared/sender-emails.ts';

Deno.serve(
  handler(
    ZMailVerify,
    async ({ body, user }) => {
      const email = body.emailToVerify;
      const db = serviceClient();
      const { data: rows, error } = await db
        .from('sender_emails')
        .select('id, email, status, updated_at')
        .eq('user_id', user.id);
      if (error) throw new Error(error.message);
      const existing = (rows as Array<SenderEmailRow & { updated_at: string }>).find(
        (r) => r.email === email,
      );
      if (existing?.status === 'verified') return { status: true, email, state: 'verified' };
      if (!existing && rows.length >= SENDER_EMAIL_LIMITS.addresses) {
        throw new HttpError(400, 'too_many', SENDER_MESSAGES.tooMany);
      }
      const hourAgo = Date.now() - 3_600_000;
      const recent = (rows as Array<{ updated_at: string }>).filter(
        (r) => Date.parse(r.updated_at) > hourAgo,
      );
      if (recent.length >= SENDER_EMAIL_LIMITS.requestsPerHour) {
        throw new HttpError(429, 'too_many_requests', SENDER_MESSAGES.tooManyRequests);
      }

      const mailer = sesMailer();
      try {
        // an identity that exists but never got verified: start over, so a new link is mailed
        const identity = await mailer.getIdentity(email);
        if (identity && !identity.verified) await mailer.deleteIdentity(email);
        if (!identity?.verified) await mailer.createIdentity(email);
      } catch (err) {
        throw providerError(err, 'request-mail-verify');
      }

      const { error: writeError } = await db
        .from('sender_emails')
        .upsert(
          { user_id: user.id, email, status: 'pending', updated_at: new Date().toISOString() },
          { onConflict: 'user_id,email' },
        );
      if (writeError) throw new Error(writeError.message);
      return { status: true, email, state: 'pending' };
    },
    { ownersOnly: true },
  ),
);
