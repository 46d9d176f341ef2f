// GoTrue's errors: a status, an `error_code` and a message, answered as `{code, error_code, msg}`.
import { HttpError, type JsonObject } from '../http.ts';

/** An error with the status and `error_code` GoTrue would answer with. */
export class AuthError extends HttpError {
  constructor(
    status: number,
    readonly errorCode: string,
    message: string,
    readonly extra: JsonObject = {},
    /** Seconds until a retry can pass: answered as Retry-After (every 429 has it). */
    readonly retryAfter?: number,
  ) {
    super(status, message, errorCode);
  }
}

export const badRequest = (code: string, msg: string) => new AuthError(400, code, msg);
export const unauthorized = (code: string, msg: string) => new AuthError(401, code, msg);
export const forbidden = (code: string, msg: string) => new AuthError(403, code, msg);
export const notFound = (code: string, msg: string) => new AuthError(404, code, msg);
export const unprocessable = (code: string, msg: string) => new AuthError(422, code, msg);
/** A 429 says how long until a retry can pass: Retry-After, whole seconds, at least 1. */
export const tooManyRequests = (code: string, msg: string, retryAfterSeconds: number) =>
  new AuthError(429, code, msg, {}, Math.max(1, Math.ceil(retryAfterSeconds)));

/** What a per-address limit answers, as GoTrue's limiters do (with the limiter's wait). */
export const overRequestRateLimit = (retryAfterSeconds: number) =>
  tooManyRequests('over_request_rate_limit', 'Request rate limit reached', retryAfterSeconds);

export const UNEXPECTED = new AuthError(
  500,
  'unexpected_failure',
  'Unexpected failure, please check server logs for more information',
);

/**
 * GoTrue's error body: `{code, error_code, msg}`. The token endpoint also gets the OAuth2
 * fields `error` and `error_description`, as older clients read those.
 */
export function errorBody(err: HttpError, oauth = false): JsonObject {
  const errorCode = err instanceof AuthError ? err.errorCode : (err.code ?? 'unexpected_failure');
  const body: JsonObject = {
    code: err.status,
    // left out when empty (GoTrue's omitempty): a Send Email Hook's refusal has none
    ...(errorCode ? { error_code: errorCode } : {}),
    msg: err.message,
    ...(err instanceof AuthError ? err.extra : {}),
  };
  if (oauth) {
    body.error =
      err.status === 401
        ? 'invalid_client'
        : errorCode === 'unsupported_grant_type'
          ? 'unsupported_grant_type'
          : 'invalid_grant';
    body.error_description = err.message;
  }
  return body;
}
