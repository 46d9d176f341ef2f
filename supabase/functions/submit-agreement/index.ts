// Records the caller's consent to the terms. `agree` is not writable by client roles, so the
// service client sets it, for the caller's own row only.
import { dbError, HttpError, ownerHandler } from '../_shared/http.ts';
import { serviceClient } from '../_shared/clients.ts';
import { ZEmpty } from '@reaction-blocks/contracts/schemas';

Deno.serve(
  ownerHandler(ZEmpty, async ({ user }) => {
    const { data, error, status } = await serviceClient()
      .from('profiles')
      .update({ agree: true })
      .eq('id', user.id)
      .select('id, agree')
      .maybeSingle();
    if (error) throw dbError(error, status, new HttpError(500, 'update_failed', error.message));
    if (!data) throw new HttpError(404, 'not_found', 'Profile not found');
    return { status: true, agree: true };
  }),
);
