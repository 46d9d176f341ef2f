// deleteMailVerified: removes the caller's claim on a sender email. Other owners' claims are
// untouched. The provider's identity goes with the last confirmed claim, decided after the rows
// changed by the jobs worker (`sender.release`, enqueued by the delete's trigger,
// private.sender_emails_after_delete; releaseIdentity), so the answer never waits for SES and
// two owners deleting at once cannot each leave it to the other. Letters that named the address
// as sender lose it (the workspace asks for another), and letters already queued from it stop
// (prepare_letter_jobs checks the sender again).
import { serviceClient } from '../_shared/clients.ts';
import { kickWorker } from '../_shared/background.ts';
import { dbError, ownerHandler } from '../_shared/http.ts';
import { ZMailDelete } from '@reaction-blocks/contracts/schemas';
import { ownSenderEmail } from '../_shared/sender-emails.ts';

Deno.serve(
  ownerHandler(ZMailDelete, async ({ body, user }) => {
    const db = serviceClient();
    const row = await ownSenderEmail(db, user.id, body.emailToDelete);
    const { error, status } = await db.from('sender_emails').delete().eq('id', row.id);
    if (error) throw dbError(error, status);
    if (row.confirmed_at) kickWorker();
    await db
      .from('block_private')
      .update({ mail_from: null })
      .eq('owner_id', user.id)
      .eq('mail_from', row.email);
    return { status: true };
  }),
);
