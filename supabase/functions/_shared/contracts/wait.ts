// How a 429's wait is said, one rule for the database, the elements and the dashboard.

/**
 * How a 429's wait is said (the body's `retry_after` or `retryAfter`, whole seconds): seconds up
 * to 90, minutes up to 90, hours up to 36, then days, each rounded up so that the wait said is
 * never shorter than the real one. The database says its waits the same way
 * (`private.wait_text`; contracts.test.ts runs both on the same cases); the elements and the
 * dashboard put it into words with `Intl.RelativeTimeFormat`.
 */
export function waitUnit(seconds: number): {
  value: number;
  unit: 'second' | 'minute' | 'hour' | 'day';
} {
  const s = Math.max(1, Math.ceil(seconds) || 1);
  if (s <= 90) return { value: s, unit: 'second' };
  if (s <= 90 * 60) return { value: Math.ceil(s / 60), unit: 'minute' };
  if (s <= 36 * 3600) return { value: Math.ceil(s / 3600), unit: 'hour' };
  return { value: Math.ceil(s / 86400), unit: 'day' };
}
