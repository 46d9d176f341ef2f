// Saves a block from the workspace: settings, private settings and, for form and ab blocks, the
// complete question and ending lists, in one transaction (public.save_block). The body is
// validated here with ZSaveBlock, the schema the dashboard checks before sending; the SQL
// function is executable by the service role only, so this validation cannot be skipped, and it
// checks that the block belongs to the caller before writing anything. Description HTML is
// reduced to the allow-list of _shared/sanitize-html.ts here, after validation and before it is
// stored: whatever the client sent, only that HTML reaches the database.
import { serviceClient } from '../_shared/clients.ts';
import { handler, HttpError } from '../_shared/http.ts';
import { sanitizeHtml } from '../_shared/sanitize-html.ts';
import {
  BLOCK_LIMITS,
  MESSAGES,
  ZSaveBlock,
  type TQuestionDraft,
} from '@reaction-blocks/contracts/schemas';

/** PostgREST answers a raised SQLSTATE as `code`; the RPC convention of docs/data-model.md. */
function toHttpError(error: { code?: string; message: string }): HttpError {
  switch (error.code) {
    case 'PT404':
      return new HttpError(404, 'not_found', error.message);
    case 'PT403':
      return new HttpError(403, 'paid_plan_required', error.message);
    case 'P0001':
      return new HttpError(400, 'invalid_input', error.message);
  }
  // constraint violations (class 23) and bad values (class 22) are the caller's input
  if (error.code?.startsWith('23') || error.code?.startsWith('22')) {
    return new HttpError(400, 'invalid_input', error.message);
  }
  console.error('[save-block]', error);
  return new HttpError(500, 'save_failed', 'Could not save the block');
}

/** The questions with their description HTML sanitised (links gain target and rel). */
function sanitizeQuestions(questions: TQuestionDraft[]): TQuestionDraft[] {
  return questions.map((question, i) => {
    if (question.content === null) return question;
    const content = sanitizeHtml(question.content);
    if (content.length > BLOCK_LIMITS.descriptionContent) {
      throw new HttpError(400, 'invalid_input', `${MESSAGES.tooLong} (questions.${i}.content)`);
    }
    return { ...question, content };
  });
}

Deno.serve(
  handler(
    ZSaveBlock,
    async ({ body, user }) => {
      const { blockId, ...rest } = body;
      const payload = rest.questions
        ? { ...rest, questions: sanitizeQuestions(rest.questions) }
        : rest;
      const { data, error } = await serviceClient().rpc('save_block', {
        p_owner_id: user.id,
        p_block_id: blockId,
        p_payload: payload,
      });
      if (error) throw toHttpError(error);
      return { status: true, ...(data as Record<string, unknown>) };
    },
    { ownersOnly: true },
  ),
);
