// Deletes the caller's account. Every row of theirs references auth.users with ON DELETE CASCADE,
// so removing the auth user removes all their data in one transaction. Their sender addresses'
// provider identities go after it, through the jobs queue: the same transaction enqueues a
// `sender.release` job for each confirmed claim (private.sender_emails_after_delete), which
// releases the identity where no other owner's confirmed claim keeps it (as delete-mail-verified
// does) and is retried while the provider is down (100 attempts, about 90 hours), so the account
// goes either way. Its plan stops the same way: the deleting transaction keeps the provider ids
// owed a stop (private.account_stops, a trigger on the profile) and enqueues `plan.account-stop`,
// which revokes the card's PortOne schedule and deletes its billing key, cancels the PayPal
// subscription, and gives back what they took after the deletion (docs/plans.md, "Deleting an
// account").
import { dbError, handler, HttpError } from '../_shared/http.ts';
import { serviceClient } from '../_shared/clients.ts';
import { kickWorker } from '../_shared/background.ts';
import { ZEmpty } from '@reaction-blocks/contracts/schemas';

Deno.serve(
  handler(ZEmpty, async ({ user }) => {
    const db = serviceClient();
    const { error } = await db.auth.admin.deleteUser(user.id);
    if (error)
      throw dbError(
        error,
        error.status,
        new HttpError(500, 'delete_failed', `Could not delete the account: ${error.message}`),
      );
    kickWorker();
    return { status: true };
  }),
);
