import { EMAIL_RE } from '@reaction-blocks/contracts/email-rule';
import { ANSWER_LIMITS, INTEGER_RE, lengthOf, PHONE_RE } from '@reaction-blocks/contracts/limits';
import type { Question } from './types.js';

/**
 * The form's answer rules (spec sections 5 and 9), the one definition the element uses, with the
 * limits and patterns of the contracts. The database's submit_response checks the same:
 * supabase/tests/answer-rules.test.ts runs both on one table of cases and fails when they disagree.
 */

/** The i18n key (and vars) of a field error, or null. */
export function checkAnswer(
  q: Question,
  value: string | string[] | undefined,
): [string, Record<string, number>?] | null {
  // Trimmed as the database trims (private.trim_whitespace strips what trim() strips).
  const v = Array.isArray(value) ? value : (value ?? '').trim();
  if (!v.length) return q.required ? ['required'] : null;
  if (Array.isArray(v)) return null;
  if (q.type === 'phone') return PHONE_RE.test(v) ? null : ['phoneError'];
  const max = ANSWER_LIMITS[q.type as keyof typeof ANSWER_LIMITS];
  if (max && lengthOf(v) > max) return ['lengthError', { max }];
  if (q.type === 'mail' && !EMAIL_RE.test(v)) return ['emailError'];
  if (q.type === 'number' && !INTEGER_RE.test(v)) return ['numberError'];
  return null;
}
