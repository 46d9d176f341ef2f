// Saves a block from the workspace: settings, private settings and, for form and ab blocks, the
// complete question and ending lists, in one transaction (public.save_block). The body is
// validated here with ZSaveBlock, the schema the dashboard checks before sending; the SQL
// function is executable by the service role only, so this validation cannot be skipped, and it
// checks that the block belongs to the caller before writing anything. Owner-written HTML (a
// question's description, an ending's closing text) is reduced to the allow-list of
// _shared/sanitize-html.ts here, after validation and before it is stored: whatever the client
// sent, only that HTML reaches the database.
import { serviceClient } from '../_shared/clients.ts';
import { ownerHandler, HttpError, rpcError } from '../_shared/http.ts';
import { sanitizeHtml } from '../_shared/sanitize-html.ts';
import { lengthOf } from '@reaction-blocks/contracts/limits';
import {
  BLOCK_LIMITS,
  MESSAGES,
  ZSaveBlock,
  type TEndingDraft,
  type TQuestionDraft,
} from '@reaction-blocks/contracts/schemas';

/** Owner-written HTML sanitised; escaping can lengthen it, so its limit is checked again. */
function sanitized(html: string, max: number, path: string): string {
  const clean = sanitizeHtml(html);
  if (lengthOf(clean) > max)
    throw new HttpError(400, 'invalid_input', `${MESSAGES.tooLong} (${path})`);
  return clean;
}

/** The questions with their description HTML sanitised (links gain target and rel). */
const sanitizeQuestions = (questions: TQuestionDraft[]): TQuestionDraft[] =>
  questions.map((question, i) =>
    question.content === null
      ? question
      : {
          ...question,
          content: sanitized(
            question.content,
            BLOCK_LIMITS.descriptionContent,
            `questions.${i}.content`,
          ),
        },
  );

/** The endings with their closing text (HTML, as the form shows it) sanitised. */
const sanitizeEndings = (endings: TEndingDraft[]): TEndingDraft[] =>
  endings.map((ending, i) => ({
    ...ending,
    closing_text: sanitized(
      ending.closing_text,
      BLOCK_LIMITS.closingText,
      `endings.${i}.closing_text`,
    ),
  }));

Deno.serve(
  ownerHandler(ZSaveBlock, async ({ body, user }) => {
    const { blockId, ...rest } = body;
    const payload = {
      ...rest,
      ...(rest.questions && { questions: sanitizeQuestions(rest.questions) }),
      ...(rest.endings && { endings: sanitizeEndings(rest.endings) }),
    };
    const { data, error, status } = await serviceClient().rpc('save_block', {
      p_owner_id: user.id,
      p_block_id: blockId,
      p_payload: payload,
    });
    if (error)
      throw rpcError(error, status, 'save-block', {
        code: 'save_failed',
        message: 'Could not save the block',
      });
    return { status: true, ...(data as Record<string, unknown>) };
  }),
);
