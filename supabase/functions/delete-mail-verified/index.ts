// deleteMailVerified: removes the caller's sender email, and the provider's identity when no
// other user has the same address. Letters that named it as sender lose it (the workspace asks
// for another).
import { serviceClient } from '../_shared/clients.ts';
import { handler } from '../_shared/http.ts';
import { sesMailer } from '../_shared/mail.ts';
import { ZMailDelete } from '@reaction-blocks/contracts/schemas';
import { ownSenderEmail, providerError } from '../_shared/sender-emails.ts';

Deno.serve(
  handler(
    ZMailDelete,
    async ({ body, user }) => {
      const db = serviceClient();
      const row = await ownSenderEmail(db, user.id, body.emailToDelete);
      const { count, error: countError } = await db
        .from('sender_emails')
        .select('id', { count: 'exact', head: true })
        .eq('email', row.email)
        .neq('user_id', user.id);
      if (countError) throw new Error(countError.message);
      if (!count) {
        try {
          await sesMailer().deleteIdentity(row.email);
        } catch (err) {
          throw providerError(err, 'delete-mail-verified');
        }
      }
      const { error } = await db.from('sender_emails').delete().eq('id', row.id);
      if (error) throw new Error(error.message);
      await db
        .from('block_private')
        .update({ mail_from: null })
        .eq('owner_id', user.id)
        .eq('mail_from', row.email);
      return { status: true };
    },
    { ownersOnly: true },
  ),
);
