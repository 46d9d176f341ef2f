// Saves a letter block (the letter fields of block_private, which have no other write path):
// the body is validated with ZSaveLetter, the schema the dashboard checks before sending; the
// mail HTML and text are rendered here, on the server, from the block model (the client never
// sends HTML), with the allow-list sanitiser as the last gate; public.save_letter (service role
// only) checks the block is the caller's letter and the sender one of their verified emails.
import { serviceClient } from '../_shared/clients.ts';
import { HttpError, ownerHandler, rpcError } from '../_shared/http.ts';
import { LETTER_LIMITS, LETTER_MESSAGES, ZSaveLetter } from '@reaction-blocks/contracts/letters';
import { renderLetter } from '../_shared/letter/render.ts';
import { imageOrigins } from '../_shared/letter/runtime.ts';

Deno.serve(
  ownerHandler(ZSaveLetter, async ({ body, user }) => {
    const { letter } = body;
    const empty =
      letter.model.blocks.length === 0 && !letter.model.cta && !letter.model.imageButton;
    const rendered = empty
      ? { html: '', text: '' }
      : renderLetter(letter.title, letter.model, { imageOrigins: imageOrigins() });
    // a model within its limit can render to more mail than block_private keeps: said, not the
    // column check's name (breaker BRK-3)
    if (
      rendered.html.length > LETTER_LIMITS.mailHtml ||
      rendered.text.length > LETTER_LIMITS.mailText
    )
      throw new HttpError(400, 'invalid_input', LETTER_MESSAGES.letterTooLong);
    const { data, error, status } = await serviceClient().rpc('save_letter', {
      p_owner_id: user.id,
      p_block_id: body.blockId,
      p_payload: {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.language !== undefined ? { language: body.language } : {}),
        mail_title: letter.title,
        mail_from: letter.mailFrom,
        mail_name: letter.mailName,
        page_url: letter.pageUrl,
        letter: letter.model,
        mail_html: rendered.html,
        mail_text: rendered.text,
      },
    });
    if (error) throw rpcError(error, status, 'save-letter');
    return { status: true, ...(data as Record<string, unknown>) };
  }),
);
