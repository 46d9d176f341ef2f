// webToTemplate: a public page of the letter's mode becomes the letter's block model and its
// rendered mail (spec: data.html, data.message). notion: the page-chunk API; typedream and
// brunch: the server-rendered page through the SSRF guard; brunch pages must be articles of the
// block's verified writer. A page longer than one email keeps its first parts that fit; the
// images of the mode's hosts in those parts are copied to storage. Nothing is saved: the
// workspace shows the result and Save (save-letter) stores it.
import { serviceClient } from '../_shared/clients.ts';
import { optionalEnv } from '../_shared/env.ts';
import { ownerHandler, HttpError } from '../_shared/http.ts';
import { limitOwnerCalls } from '../_shared/owner-limits.ts';
import {
  checkPageUrl,
  LETTER_MESSAGES,
  MODE_OF_TYPE,
  ZWebToTemplate,
} from '@reaction-blocks/contracts/letters';
import { ownLetterBlock } from '../_shared/letter/calls.ts';
import { loadLetter, LoadError } from '../_shared/letter/load.ts';
import { imageOrigins, loadDeps } from '../_shared/letter/runtime.ts';

/** LETTER_SAMPLE_URLS: `notion=https://...,typedream=https://...` (the load-sample button). */
function sampleUrl(mode: string): string | null {
  for (const entry of optionalEnv('LETTER_SAMPLE_URLS', '').split(',')) {
    const at = entry.indexOf('=');
    if (at > 0 && entry.slice(0, at).trim() === mode) return entry.slice(at + 1).trim();
  }
  return null;
}

Deno.serve(
  ownerHandler(ZWebToTemplate, async ({ body, user }) => {
    const block = await ownLetterBlock(serviceClient(), user.id, body.blockId);
    if (MODE_OF_TYPE[block.type] !== body.mode) {
      throw new HttpError(400, 'invalid_input', LETTER_MESSAGES.notSupportedMode);
    }
    const raw = body.sample ? sampleUrl(body.mode) : body.pageUrl!;
    if (!raw) throw new HttpError(400, 'no_sample', LETTER_MESSAGES.noSample);
    const checked = checkPageUrl(body.mode, raw, block.private.brunch_profile_page);
    if ('error' in checked) throw new HttpError(400, 'invalid_address', checked.error);
    // the fetch and the image copies are what a loop would make us do: counted from here
    await limitOwnerCalls(user.id, 'web-to-template');
    let loaded;
    try {
      // a page whose mail would be longer than one email keeps its first parts that fit, and
      // says so (leftOut.cutAt), as a page longer than 400 parts does: else no Save of it could
      // pass. Only the kept parts' images are copied.
      loaded = await loadLetter(body.mode, checked.url, loadDeps(user.id), {
        imageOrigins: imageOrigins(),
      });
    } catch (err) {
      if (err instanceof LoadError) {
        console.warn('[web-to-template]', err.code, err.message);
        throw new HttpError(422, err.code, LETTER_MESSAGES.failedToLoad);
      }
      throw err;
    }
    return {
      status: true,
      message: '',
      pageUrl: checked.url.href,
      title: loaded.title,
      letter: loaded.model,
      html: loaded.rendered.html,
      text: loaded.rendered.text,
      warnings: loaded.warnings,
      // what the page had that the letter does not carry, for the workspace to say
      leftOut: loaded.leftOut,
    };
  }),
);
