// Reading the stored `answers` object of a response and putting it in question order.
import { z } from 'zod';
import type { ResponseRow, ResultsQuestion, StoredAnswer } from '../types';

const ZStoredAnswer = z.object({
  index: z.number().catch(Number.MAX_SAFE_INTEGER),
  title: z.string().catch(''),
  type: z.string().catch(''),
  value: z.union([z.string(), z.number().transform(String), z.array(z.coerce.string())]),
});

/**
 * The answers of a response keyed by question id. Entries that do not have the stored shape
 * (hand-edited data, a future format) are skipped rather than breaking the whole list.
 */
export function readAnswers(answers: ResponseRow['answers']): Map<string, StoredAnswer> {
  const result = new Map<string, StoredAnswer>();
  if (!answers || typeof answers !== 'object' || Array.isArray(answers)) return result;
  for (const [questionId, raw] of Object.entries(answers)) {
    const parsed = ZStoredAnswer.safeParse(raw);
    if (parsed.success) result.set(questionId, { questionId, ...parsed.data });
  }
  return result;
}

/** The current (not deleted) questions in their order. */
export function currentQuestions(questions: readonly ResultsQuestion[]): ResultsQuestion[] {
  return questions.filter((q) => !q.deleted).sort((a, b) => a.index - b.index);
}

export interface DisplayAnswer {
  questionId: string;
  title: string;
  value: string | string[];
  /** The question was deleted (or is unknown) since this response was given. */
  orphan: boolean;
}

/**
 * Answers for display: the current questions first, in their order and with their current
 * title; then answers to questions deleted since, in their stored order with the stored title.
 */
export function displayAnswers(
  row: Pick<ResponseRow, 'answers'>,
  questions: readonly ResultsQuestion[],
): DisplayAnswer[] {
  const stored = readAnswers(row.answers);
  const list: DisplayAnswer[] = [];
  for (const question of currentQuestions(questions)) {
    const answer = stored.get(question.id);
    if (!answer) continue;
    stored.delete(question.id);
    list.push({
      questionId: question.id,
      title: question.title || answer.title,
      value: answer.value,
      orphan: false,
    });
  }
  const rest = [...stored.values()].sort((a, b) => a.index - b.index);
  for (const answer of rest) {
    list.push({
      questionId: answer.questionId,
      title: answer.title,
      value: answer.value,
      orphan: true,
    });
  }
  return list;
}

/** Several chosen options in one cell or line (the same separator as the CSV). */
export const MULTI_VALUE_SEPARATOR = ', ';

export function answerText(value: string | string[]): string {
  return Array.isArray(value) ? value.join(MULTI_VALUE_SEPARATOR) : value;
}
