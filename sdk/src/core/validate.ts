import type { Question } from './types.js';

/**
 * The form's answer rules (spec sections 5 and 9), the one definition the element uses. The
 * database's submit_response checks the same: supabase/tests/answer-rules.test.ts runs both on
 * one table of cases and fails when they disagree.
 */

/** Longest answer, in characters as Postgres counts them (code points; see lengthOf). */
export const LIMITS = { short_text: 300, long_text: 1000, mail: 50 } as const;

/** private.is_valid_email: local@domain.tld, ASCII, a letters-only TLD of 2 or more. */
export const EMAIL_RE = /^[A-Z0-9._%+'-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;

/**
 * Digits, spaces and hyphens only (no tab, no other space), 1 to 20 of them. The spec also names
 * backspace: the key that edits the field, not a character an answer may hold.
 */
export const PHONE_RE = /^[0-9 -]{1,20}$/;

/**
 * An integer, optionally signed, of at most 18 digits: |n| < 10^18, always inside int64 (a
 * 19-digit number may overflow it, so the whole 19-digit range is refused). Kept as text.
 */
export const INTEGER_RE = /^[-+]?[0-9]{1,18}$/;

/** Length in characters as Postgres's char_length counts them (an emoji is one, not two). */
export const lengthOf = (s: string): number => [...s].length;

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
  const max = LIMITS[q.type as keyof typeof LIMITS];
  if (max && lengthOf(v) > max) return ['lengthError', { max }];
  if (q.type === 'mail' && !EMAIL_RE.test(v)) return ['emailError'];
  if (q.type === 'number' && !INTEGER_RE.test(v)) return ['numberError'];
  return null;
}
