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
 * reads try again after 1 s and 2 s (lib/query-client.ts).
 */
export const UNAVAILABLE_WAIT = 2;

/**
 * Whether a call failed on the way to the database rather than in it. PostgREST names every
 * error it answers with a code, so an error without one never reached it: the fetch failed
 * (supabase-js: code '', status 0) or the gateway answered 502-504 in its place. PGRST000-003
 * are PostgREST's own "the database did not answer" (503/504), class 08 a connection lost
 * under the query. Auth's errors carry their own codes; the retryable one is auth's transport
 * failure (the fetch failed, or 502-504).
 */
export function inTransit(error: unknown): boolean {
  if (isAuthError(error)) return isAuthRetryableFetchError(error);
  const code = (error as DbFailure | null)?.code;
  return !code || /^PGRST00[0-3]$/.test(code) || code.startsWith('08');
}

/**
 * The 503 of a call that failed in transit: the request may succeed in a moment, Retry-After
 * says when to try; the cause is logged under `label`.
 */
export function unavailable(cause: unknown, label = 'unavailable'): HttpError {
  console.error(`[${label}]`, cause);
  return new HttpError(503, 'unavailable', 'The service is briefly unavailable', UNAVAILABLE_WAIT);
}

/**
 * A failed database call as what to throw: a 503 when it failed in transit, otherwise
 * `otherwise` (by default an Error with the database's message, which `handler` answers 500).
 */
export function dbError(error: DbFailure, otherwise: Error = new Error(error.message)): Error {
  return inTransit(error) ? unavailable(error) : otherwise;
}

/**
 * A database error as the HTTP error the caller gets. PostgREST answers a raised SQLSTATE as
 * `code` (docs/data-model.md, RPCs): PT404 and PT403 keep their status, a raised exception
 * (P0001), a constraint violation (class 23) and a bad value (class 22) are the caller's input;
 * a failure in transit is a 503 (inTransit); anything else is logged under `label` and answered
 * with `failure`.
 */
export function rpcError(
  error: DbFailure,
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
  if (inTransit(error)) return unavailable(error, label);
  console.error(`[${label}]`, error);
  return new HttpError(500, failure.code, failure.message);
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
