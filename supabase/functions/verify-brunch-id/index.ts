// verifyBrunchId: proves a brunch profile is the owner's. The writer puts one of their verified
// sender emails in the profile's introduction; we fetch the public profile page (SSRF guard,
// brunch.co.kr only), read its text with a real HTML parser and look for the whole address. Then
// brunch letters of this block accept only that writer's articles. Messages: "Invalid brunch
// profile page" (not a profile link), "Failed to verify writer" (the address is not there).
import { serviceClient } from '../_shared/clients.ts';
import { dbError, HttpError, ownerHandler } from '../_shared/http.ts';
import {
  LETTER_MESSAGES,
  normalizeBrunchProfile,
  ZVerifyBrunchId,
} from '@reaction-blocks/contracts/letters';
import { FetchRefused, guardedFetch } from '../_shared/letter/fetch-guard.ts';
import { brunchProfileText, mentionsAddress } from '../_shared/letter/html-source.ts';
import { ownLetterBlock } from '../_shared/letter/calls.ts';
import { PAGE_POLICY } from '../_shared/letter/load.ts';
import { guardDeps } from '../_shared/letter/runtime.ts';
import { limitOwnerCalls } from '../_shared/owner-limits.ts';

Deno.serve(
  ownerHandler(ZVerifyBrunchId, async ({ body, user }) => {
    const db = serviceClient();
    const block = await ownLetterBlock(db, user.id, body.blockId);
    if (block.type !== 'brunch_letter') {
      throw new HttpError(400, 'invalid_input', LETTER_MESSAGES.notSupportedMode);
    }
    const profile = normalizeBrunchProfile(body.brunchProfilePage);
    if ('error' in profile) throw new HttpError(400, 'invalid_profile', profile.error);
    const {
      data: sender,
      error: senderError,
      status: senderStatus,
    } = await db
      .from('sender_emails')
      .select('email')
      .eq('user_id', user.id)
      .eq('email', body.email)
      .eq('status', 'verified')
      .maybeSingle();
    if (senderError) throw dbError(senderError, senderStatus);
    if (!sender) throw new HttpError(400, 'no_sender', LETTER_MESSAGES.verifySenderFirst);
    // the fetch is what a loop would make us do: counted only for calls that get this far
    await limitOwnerCalls(user.id, 'verify-brunch-id');
    let text: string;
    try {
      const page = await guardedFetch(profile.url, PAGE_POLICY('brunch'), guardDeps(), {
        accept: 'text/html',
      });
      text = brunchProfileText(new TextDecoder().decode(page.body));
    } catch (err) {
      if (err instanceof FetchRefused) {
        console.warn('[verify-brunch-id]', err.reason, err.message);
        throw new HttpError(422, `fetch_${err.reason}`, LETTER_MESSAGES.brunchFailed);
      }
      throw err;
    }
    if (!mentionsAddress(text, body.email)) {
      throw new HttpError(400, 'not_verified', LETTER_MESSAGES.brunchFailed);
    }
    const { error, status } = await db
      .from('block_private')
      .update({ brunch_profile_page: profile.url })
      .eq('block_id', block.id)
      .eq('owner_id', user.id);
    if (error) throw dbError(error, status);
    return { status: true, message: '', brunchProfilePage: profile.url };
  }),
);
