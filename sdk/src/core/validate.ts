import type { Question } from './types.js';

/** Spec section 9 limits. */
export const LIMITS = { short_text: 300, long_text: 1000, mail: 50, phone: 20 } as const;

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_RE = /^[\d\s-]*$/;
const INT_RE = /^[-+]?\d+$/;

/** The i18n key (and vars) of a field error, or null. Mirrors the server's checks. */
export function checkAnswer(
  q: Question,
  value: string | string[] | undefined,
): [string, Record<string, number>?] | null {
  const v = Array.isArray(value) ? value : (value ?? '').trim();
  if (!v.length) return q.required ? ['required'] : null;
  if (Array.isArray(v)) return null;
  const max = LIMITS[q.type as keyof typeof LIMITS];
  if (q.type === 'phone') return PHONE_RE.test(v) && v.length <= max ? null : ['phoneError'];
  if (max && v.length > max) return ['lengthError', { max }];
  if (q.type === 'mail' && !EMAIL_RE.test(v)) return ['emailError'];
  if (q.type === 'number' && !INT_RE.test(v)) return ['numberError'];
  return null;
}
