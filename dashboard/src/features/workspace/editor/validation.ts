// Validation of the draft with the shared schemas (the same ones save-block parses), so the
// editor shows the server's messages before the owner presses Save.
import {
  BLOCK_MESSAGES,
  ZEndingDraft,
  ZQuestionDraft,
  type TEndingDraft,
  type TQuestionDraft,
} from '@reaction-blocks/contracts/schemas';
import { isConditionComplete, liveQuestions, type FormDraft } from './model';

export type QuestionField = 'title' | 'placeholder' | 'content' | 'image_src';
export type EndingField = 'title' | 'closing_text' | 'open_url' | 'open_url_text' | 'resubmit_text';

/** First schema message per field of a question (English server wording). */
export function questionErrors(question: TQuestionDraft): Partial<Record<QuestionField, string>> {
  const errors: Partial<Record<QuestionField, string>> = {};
  const parsed = ZQuestionDraft.safeParse(question);
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (
      field === 'title' ||
      field === 'placeholder' ||
      field === 'content' ||
      field === 'image_src'
    )
      errors[field] ??= issue.message;
  }
  return errors;
}

export interface EndingErrors {
  fields: Partial<Record<EndingField, string>>;
  /** Per condition id: the condition is incomplete or invalid. */
  conditions: Record<string, string>;
}

/** Field messages of an ending and its conditions (incomplete ones named by the spec's text). */
export function endingErrors(
  ending: TEndingDraft,
  questions: readonly TQuestionDraft[],
): EndingErrors {
  const result: EndingErrors = { fields: {}, conditions: {} };
  for (const condition of ending.conditions) {
    if (!isConditionComplete(condition, questions)) {
      result.conditions[condition.id] = BLOCK_MESSAGES.incompleteCondition;
    }
  }
  const parsed = ZEndingDraft.safeParse(ending);
  if (parsed.success) return result;
  for (const issue of parsed.error.issues) {
    const [field, position] = issue.path;
    if (field === 'conditions' && typeof position === 'number') {
      const id = ending.conditions[position]?.id;
      if (id) result.conditions[id] ??= BLOCK_MESSAGES.incompleteCondition;
    } else if (
      field === 'title' ||
      field === 'closing_text' ||
      field === 'open_url' ||
      field === 'open_url_text' ||
      field === 'resubmit_text'
    ) {
      result.fields[field] ??= issue.message;
    }
  }
  return result;
}

export interface DraftIssue {
  kind: 'question' | 'ending';
  /** The question's or ending's id. */
  id: string;
  message: string;
}

/**
 * Everything that would make save-block refuse the draft, as the schema's messages. Deleted
 * questions are not checked (they are not shown, and were valid when loaded). An empty list
 * means the draft can be saved.
 */
export function formDraftIssues(draft: FormDraft): DraftIssue[] {
  const issues: DraftIssue[] = [];
  for (const question of liveQuestions(draft.questions)) {
    for (const message of Object.values(questionErrors(question))) {
      issues.push({ kind: 'question', id: question.id, message });
    }
  }
  for (const ending of draft.endings) {
    const errors = endingErrors(ending, draft.questions);
    for (const message of [...Object.values(errors.fields), ...Object.values(errors.conditions)]) {
      issues.push({ kind: 'ending', id: ending.id, message });
    }
  }
  return issues;
}
