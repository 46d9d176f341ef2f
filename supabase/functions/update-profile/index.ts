// Updates the caller's profile fields (name, image URL, homepage URL, language) with the spec's
// limits. Runs as the caller: RLS and column grants keep everything else out of reach.
import { dbError, HttpError, ownerHandler } from '../_shared/http.ts';
import { ZUpdateProfile } from '@reaction-blocks/contracts/schemas';

Deno.serve(
  ownerHandler(ZUpdateProfile, async ({ body, user, db }) => {
    const patch: Record<string, string> = {};
    if (body.name !== undefined) patch.name = body.name;
    if (body.photoUrl !== undefined) patch.photo_url = body.photoUrl;
    if (body.homeUrl !== undefined) patch.home_url = body.homeUrl;
    if (body.language !== undefined) patch.language = body.language;
    const { data, error, status } = await db
      .from('profiles')
      .update(patch)
      .eq('id', user.id)
      .select()
      .maybeSingle();
    if (error) throw dbError(error, status, new HttpError(400, 'update_failed', error.message));
    if (!data) throw new HttpError(404, 'not_found', 'Profile not found');
    return { status: true, profile: data };
  }),
);
