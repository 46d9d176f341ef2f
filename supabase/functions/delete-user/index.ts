// Deletes the caller's account. Every row of theirs references auth.users with ON DELETE CASCADE,
// so removing the auth user removes all their data in one transaction. Their sender addresses'
// provider identities go first where no other owner's confirmed claim keeps them (as
// delete-mail-verified does); a provider that is down does not keep an account from going.
import { dbError, handler, HttpError } from '../_shared/http.ts';
import { serviceClient } from '../_shared/clients.ts';
import { sesMailer } from '../_shared/mail.ts';
import { ZEmpty } from '@reaction-blocks/contracts/schemas';
import { releaseIdentity, type SenderEmailRow } from '../_shared/sender-emails.ts';

Deno.serve(
  handler(ZEmpty, async ({ user }) => {
    const db = serviceClient();
    const {
      data: senders,
      error: sendersError,
      status,
    } = await db
      .from('sender_emails')
      .select('user_id, email, confirmed_at')
      .eq('user_id', user.id)
      .not('confirmed_at', 'is', null);
    // not read, the identities would stay behind the deleted account: nothing is deleted yet
    if (sendersError) throw dbError(sendersError, status);
    const mailer = sesMailer();
    for (const row of (senders ?? []) as SenderEmailRow[]) {
      await releaseIdentity(db, mailer, row).catch((err) =>
        console.error('[delete-user] sender identity', row.email, err),
      );
    }
    const { error } = await db.auth.admin.deleteUser(user.id);
    if (error)
      throw dbError(
        error,
        error.status,
        new HttpError(500, 'delete_failed', `Could not delete the account: ${error.message}`),
      );
    return { status: true };
  }),
);
