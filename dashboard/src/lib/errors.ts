// The reason of a failure, for the error lines that show it ("Could not save: {reason}").
import i18next from 'i18next';
import { waitUnit } from '@reaction-blocks/contracts/limits';

/**
 * A readable message from anything thrown (Error, PostgREST error object, string); a function's
 * 503 `unavailable` (a call that failed on the way, supabase/functions/_shared/errors.ts) in the
 * reader's language.
 */
export function messageOf(cause: unknown): string {
  if ((cause as { code?: unknown } | null)?.code === 'unavailable')
    return i18next.t('common.unavailable');
  if (cause instanceof Error) return cause.message;
  if (cause && typeof cause === 'object' && 'message' in cause) return String(cause.message);
  return String(cause);
}

/** The browsers' and Vite's messages for a module chunk that could not be loaded. */
const CHUNK_FAILED =
  /dynamically imported module|importing a module script failed|unable to preload css/i;

/** Whether the browser says it is online (true where it cannot say). */
const browserOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/** What a failed call's answer was, by its code (PostgREST, SQLSTATE or a function's). */
const FAILURE_REASONS: ReadonlyArray<
  readonly [(code: string, message: string, name: string, status: unknown) => boolean, string]
> = [
  // a function's 503 (`unavailable`, or any code at that status), PostgREST's own connection
  // failures, SQLSTATE class 08
  [
    (code, _message, _name, status) =>
      code === 'unavailable' || status === 503 || /^PGRST00\d$/.test(code) || /^08/.test(code),
    'unavailable',
  ],
  // a function's 429 whatever its code: too many calls in a short time (its wait follows)
  [(_code, _message, _name, status) => status === 429, 'tooMany'],
  // a code chunk that did not load (e.g. a block write's `await import('./schemas')`):
  // Chromium's "Failed to fetch dynamically imported module", Firefox's "error loading
  // dynamically imported module", Safari's "Importing a module script failed", Vite's "Unable to
  // preload CSS". Online, the usual cause is a new deploy that removed the tab's old chunks:
  // reloading loads the new ones. Offline it is the connection (the next rule would say so for
  // Chromium's wording only).
  [(code, message) => code === '' && CHUNK_FAILED.test(message) && browserOnline(), 'updated'],
  [(code, message) => code === '' && CHUNK_FAILED.test(message), 'offline'],
  // no answer at all: postgrest-js names the fetch's error ("TypeError: Failed to fetch"),
  // invokeFunction keeps functions-js's name (FunctionsFetchError: the request was not sent)
  [
    (code, message, name) =>
      code === '' &&
      (name === 'FunctionsFetchError' ||
        /^(TypeError|FetchError|AbortError)\b|failed to fetch|network/i.test(message)),
    'offline',
  ],
  // the session's token refused (PGRST301-303: expired or invalid; a function's 401)
  [(code) => /^PGRST30\d$/.test(code) || code === 'unauthorized', 'signedOut'],
  // what was to be removed is not there any more (a function's PT404: removed meanwhile)
  [(code) => code === 'PT404', 'gone'],
  // row-level security, a grant or a function's own check (PT403: e.g. not the block's owner; a
  // function's 403 forbidden: not an owner's account)
  [(code) => code === '42501' || code === 'PT403' || code === 'forbidden', 'notAllowed'],
  // a statement that ran out of time
  [(code) => code === '57014', 'timeout'],
];

/**
 * The reason of a failed call (a removal, a moderation action, a save) in the reader's language:
 * the known answers by their code, `known` for a caller's own codes (e.g.
 * `{ not_found: 'results.notFound' }`), and a translated generic sentence for anything else,
 * never the server's English words; then the wait when the answer says one (withWait).
 */
export function failureReason(
  cause: unknown,
  known: Readonly<Record<string, string>> = {},
): string {
  const t = i18next.t.bind(i18next) as (key: string, options?: Record<string, unknown>) => string;
  return withWait(t, cause, reasonAlone(cause, known));
}

/** failureReason without the wait: for a text that says when to try again its own way. */
export function reasonAlone(cause: unknown, known: Readonly<Record<string, string>> = {}): string {
  const code = String((cause as { code?: unknown } | null)?.code ?? '');
  const message = String((cause as { message?: unknown } | null)?.message ?? cause ?? '');
  const name = cause instanceof Error ? cause.name : '';
  const status = (cause as { status?: unknown } | null)?.status;
  const t = i18next.t.bind(i18next) as (key: string, options?: Record<string, unknown>) => string;
  if (Object.hasOwn(known, code)) return t(known[code]!);
  const reason =
    FAILURE_REASONS.find(([matches]) => matches(code, message, name, status))?.[1] ?? 'other';
  return reason === 'unavailable' ? t('common.unavailable') : t(`common.reasons.${reason}`);
}

/**
 * A function that says a failure in the reader's language when its message is one of a set of
 * shared server messages (`{ key: 'English text' }`, e.g. PLAN_MESSAGES), through the texts
 * under `prefix` with the same keys; anything else (a network failure, a provider's own text)
 * reads as failureReason says, never in the server's or provider's English.
 */
export function sharedMessageReason(messages: Readonly<Record<string, string>>, prefix: string) {
  const keys = new Map(Object.entries(messages).map(([key, text]) => [text, key]));
  return (t: (key: string) => string, cause: unknown): string => {
    const key = keys.get(messageOf(cause));
    return key ? withWait(t, cause, t(`${prefix}.${key}`)) : failureReason(cause);
  };
}

/** PostgREST and Postgres codes that say "try again" rather than "this request is wrong". */
const TRANSIENT_CODE = /^(PGRST00\d|08...|40001|40P01|53...|57...)$/;

/**
 * Whether a failed call is worth another try (the queries' retries, lib/query-client.ts; a kept
 * PayPal approval's next check, features/plans/api/paypal-approved.ts): a lost connection or a
 * server error is; a refused, invalid or missing request (4xx, a Postgres error about the
 * request, a zod error) is not, and would only be refused again.
 */
export function isTransient(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { status, code, name, retryAfter } = error as {
    status?: unknown;
    code?: unknown;
    name?: unknown;
    retryAfter?: unknown;
  };
  // a 429 is worth another try only when it asks for a short wait (or says none)
  if (status === 429) return !(typeof retryAfter === 'number' && retryAfter > 3);
  if (typeof status === 'number' && status > 0) return status >= 500;
  if (typeof code === 'string' && code) return TRANSIENT_CODE.test(code);
  // fetch's network failure, and supabase-js's names for it
  return (
    error instanceof TypeError ||
    name === 'FunctionsFetchError' ||
    name === 'FunctionsRelayError' ||
    name === 'AuthRetryableFetchError'
  );
}

/**
 * The seconds a refusal says to wait before the same request may succeed (a 429's Retry-After,
 * which invokeFunction puts on the error it throws), or undefined.
 */
export function retryAfterOf(cause: unknown): number | undefined {
  const wait = (cause as { retryAfter?: unknown } | null)?.retryAfter;
  return typeof wait === 'number' && wait > 0 ? wait : undefined;
}

/** A wait in the reader's language: "in 42 minutes", "42분 후" (units as the server says them). */
export function formatWait(seconds: number, language = i18next.language || 'en'): string {
  const { value, unit } = waitUnit(seconds);
  return new Intl.RelativeTimeFormat(language, { numeric: 'always' }).format(value, unit);
}

/** `text`, then "Try again in 42 minutes." when the refusal says how long to wait. */
export function withWait(
  t: (key: string, options?: Record<string, unknown>) => string,
  cause: unknown,
  text: string,
): string {
  const wait = retryAfterOf(cause);
  return wait === undefined ? text : `${text} ${t('common.retryIn', { in: formatWait(wait) })}`;
}
