// Deletes the caller's account. Every row of theirs references auth.users with ON DELETE CASCADE,
// so removing the auth user removes all their data in one transaction.
import { handler, HttpError } from '../_shared/http.ts';
import { serviceClient } from '../_shared/clients.ts';
import { ZEmpty } from '@reaction-blocks/contracts/schemas';

Deno.serve(
  handler(ZEmpty, async ({ user }) => {
    const { error } = await serviceClient().auth.admin.deleteUser(user.id);
    if (error)
      throw new HttpError(500, 'delete_failed', `Could not delete the account: ${error.message}`);
    return { status: true };
  }),
);
