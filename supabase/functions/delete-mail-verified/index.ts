// deleteMailVerified: removes the caller's claim on a sender email, and the provider's identity
// with the last confirmed claim (releaseIdentity). Other owners' claims are untouched. Letters
// that named it as sender lose it (the workspace asks for another), and letters already queued
// from it stop (prepare_letter_jobs checks the sender again).
import { serviceClient } from '../_shared/clients.ts';
import { dbError, ownerHandler } from '../_shared/http.ts';
import { sesMailer } from '../_shared/mail.ts';
import { ZMailDelete } from '@reaction-blocks/contracts/schemas';
import { ownSenderEmail, providerError, releaseIdentity } from '../_shared/sender-emails.ts';

Deno.serve(
  ownerHandler(ZMailDelete, async ({ body, user }) => {
    const db = serviceClient();
    const row = await ownSenderEmail(db, user.id, body.emailToDelete);
    try {
      await releaseIdentity(db, sesMailer(), row);
    } catch (err) {
      throw providerError(err, 'delete-mail-verified');
    }
    const { error, status } = await db.from('sender_emails').delete().eq('id', row.id);
    if (error) throw dbError(error, status);
    await db
      .from('block_private')
      .update({ mail_from: null })
      .eq('owner_id', user.id)
      .eq('mail_from', row.email);
    return { status: true };
  }),
);
