// What a function answers when it refuses or fails: `{ error: { code, message, retryAfter? } }`
// with CORS, and which failures of a database call are the caller's, the database's or the way
// there (a 503 the caller may try again). No Deno here, so the tests import it as it is.
import { isAuthError, isAuthRetryableFetchError } from '@supabase/supabase-js';

export const corsHeaders: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, x-client-info, apikey, content-type',
  'access-control-allow-methods': 'POST, OPTIONS',
  // a page on another origin reads a 429's wait from it
  'access-control-expose-headers': 'retry-after',
};

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds until the same request may succeed: a 429's Retry-After, and `retryAfter` in the body. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'content-type': 'application/json', ...headers },
  });
}

/** A failed call's error as supabase-js returns it (PostgREST's, or auth's). */
export interface DbFailure {
  code?: string;
  message: string;
}

/**
 * Seconds a 503 asks the caller to wait before the same request (Retry-After): a dropped
 * connection answers at once when tried again, a restarting PostgREST in seconds; the dashboard's
 * reads wait at least this long before they try again (lib/query-client.ts).
 */
export const UNAVAILABLE_WAIT = 2;

/** The statuses of a call that never got an answer from the service behind the gateway. */
function transitStatus(status: number | undefined): boolean {
  // 0: supabase-js's own status when the fetch failed (no response at all)
  return status === 0 || status === 502 || status === 503 || status === 504;
}

/**
 * Whether a call failed on the way to the database rather than in it: the fetch failed
 * (supabase-js: status 0, a TypeError "fetch failed"), or the gateway answered 502-504 in
 * PostgREST's place; PostgREST's own PGRST000-003 ("the database did not answer") and SQLSTATE
 * class 08 (a connection lost under the query). supabase-js's PostgREST error has no status:
 * pass the result's `status`. An error without a code at another status is the gateway's own
 * refusal (413 too large, 401 Invalid API key, 404 no route, 429), not a 503. Auth's errors
 * carry their status: only its fetch failures and 502-504 count (auth-js also calls 500 and 501
 * "retryable", which are auth's own SQL failures).
 */
export function inTransit(error: unknown, status?: number): boolean {
  if (isAuthError(error)) return isAuthRetryableFetchError(error) && transitStatus(error.status);
  const code = (error as DbFailure | null)?.code;
  if (code) return /^PGRST00[0-3]$/.test(code) || code.startsWith('08');
  return transitStatus(status);
}

/** Where the code that called `dbError` is: the line of its caller's stack, for the log. */
function callSite(): string {
  // [0] "Error", [1] callSite, [2] dbError, [3] its caller
  return new Error().stack?.split('\n')[3]?.trim() ?? 'unavailable';
}

/** The message of every 503 (the dashboard shows its own text for the code `unavailable`). */
export const UNAVAILABLE_MESSAGE = 'The service is briefly unavailable';

/**
 * The 503 of a call that failed in transit: the request may succeed in a moment, Retry-After
 * says when to try; the cause is logged under `label` and kept as `cause` (failureText).
 */
export function unavailable(cause: unknown, label = 'unavailable'): HttpError {
  console.error(`[${label}]`, cause);
  const err = new HttpError(503, 'unavailable', UNAVAILABLE_MESSAGE, UNAVAILABLE_WAIT);
  err.cause = cause;
  return err;
}

/** Whether `err` is the 503 of a call that failed in transit (`unavailable`). */
export const isUnavailable = (err: unknown): err is HttpError =>
  err instanceof HttpError && err.code === 'unavailable';

/**
 * What a job records of a failure: the message of what failed on the way for a 503 in transit
 * (its cause, not "briefly unavailable"), else the error's own.
 */
export function failureText(err: unknown): string {
  const shown = isUnavailable(err) ? (err.cause ?? err) : err;
  const message = (shown as { message?: unknown } | null)?.message;
  return message === undefined ? String(shown) : String(message);
}

/**
 * A failed database call as what to throw: a 503 when it failed in transit (inTransit; `status`
 * is the result's), logged with the line that made the call; otherwise `otherwise` (by default
 * an Error with the database's message, which `handler` answers 500).
 */
export function dbError(
  error: DbFailure,
  status: number | undefined,
  otherwise: Error = new Error(error.message),
): Error {
  return inTransit(error, status) ? unavailable(error, callSite()) : otherwise;
}

/**
 * A database error as the HTTP error the caller gets. PostgREST answers a raised SQLSTATE as
 * `code` (docs/data-model.md, RPCs): PT404 and PT403 keep their status, a raised exception
 * (P0001), a constraint violation (class 23) and a bad value (class 22) are the caller's input,
 * and so is a call the gateway refused as too large (413: the caller's content made it so); a
 * failure in transit is a 503 (inTransit, `status` is the result's); anything else is logged
 * under `label` and answered with `failure`.
 */
export function rpcError(
  error: DbFailure,
  status: number | undefined,
  label: string,
  failure: { code: string; message: string } = {
    code: 'internal_error',
    message: 'Something went wrong',
  },
): HttpError {
  switch (error.code) {
    case 'PT404':
      return new HttpError(404, 'not_found', error.message);
    case 'PT403':
      return new HttpError(403, 'paid_plan_required', error.message);
    case 'P0001':
      return new HttpError(400, 'invalid_input', error.message);
  }
  if (error.code?.startsWith('23') || error.code?.startsWith('22')) {
    return new HttpError(400, 'invalid_input', error.message);
  }
  if (!error.code && status === 413) {
    console.error(`[${label}]`, error);
    return new HttpError(400, 'invalid_input', TOO_LARGE_MESSAGE);
  }
  if (inTransit(error, status)) return unavailable(error, label);
  console.error(`[${label}]`, error);
  return new HttpError(500, failure.code, failure.message);
}

/** rpcError's answer when the gateway refused the call's body as too large. */
export const TOO_LARGE_MESSAGE = 'This is too large to save; make it shorter';

/**
 * The answer to a caller that sends again by itself (a provider's webhook, the jobs schedule) when
 * the work failed: an `unavailable` (a database call that failed in transit) is its 503 with
 * Retry-After; anything else is logged under `label` and answered 500 with `failure`, so a real
 * bug still reads as one (providers retry any 5xx either way).
 */
export function retriedFailure(
  err: unknown,
  label: string,
  failure: { code: string; message: string },
): Response {
  if (isUnavailable(err)) return errorResponse(err);
  console.error(`[${label}]`, err);
  return json(500, { error: failure });
}

/** The answer of a refusal: `{ error: { code, message, retryAfter? } }`, with Retry-After when it has a wait. */
export function errorResponse(err: HttpError): Response {
  const wait = err.retryAfter === undefined ? undefined : Math.max(1, Math.ceil(err.retryAfter));
  return json(
    err.status,
    { error: { code: err.code, message: err.message, ...(wait ? { retryAfter: wait } : {}) } },
    wait ? { 'retry-after': String(wait) } : {},
  );
}
