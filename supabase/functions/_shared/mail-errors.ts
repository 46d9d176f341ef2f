// What a failed provider call means to the jobs queue: sent later, refused for good, or maybe
// taken. Apart from mail.ts (which reads Deno's environment), so the Node tests import it.

/**
 * Why a call failed, which decides what the queue does:
 * - `retry`: the provider certainly did not take it (refused connection, 5xx, throttled): send later;
 * - `rejected`: the provider refused it for good (unverified sender, bad address): do not retry;
 * - `unknown`: it may have been taken (timeout after the request went out): never re-send blindly.
 */
export class MailError extends Error {
  constructor(
    message: string,
    readonly outcome: 'retry' | 'rejected' | 'unknown',
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export interface AwsError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  $retryable?: unknown;
  $response?: { headers?: Record<string, string> };
}

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
// SES v2's own throttles are 429s; the errors common to all AWS APIs include ThrottlingException
// as a 400 (SES's API reference, Common Errors; the sending quotas answer it too), which must not
// read as a refusal for good
const THROTTLED = new Set(['TooManyRequestsException', 'ThrottlingException']);
// 4xx answers that refuse nothing for good: the request timed out or was cut off before SES
// took it (common errors RequestTimeoutException 408, RequestAbortedException 400), or our own
// temporary credentials expired (ExpiredTokenException 403): the same call can succeed later
const NOT_TAKEN = new Set([
  'RequestTimeoutException',
  'RequestAbortedException',
  'ExpiredTokenException',
]);
// LimitExceededException: "too many instances of the specified resource type" (400), the
// account's identity quota: no retry makes room
const REJECTED = new Set([
  'MessageRejected',
  'MailFromDomainNotVerifiedException',
  'BadRequestException',
  'NotFoundException',
  'AccountSuspendedException',
  'LimitExceededException',
]);

/** Maps an SDK failure to what the queue should do with the mail. */
export function classify(err: unknown): MailError {
  const e = err as AwsError;
  const status = e.$metadata?.httpStatusCode;
  const name = e.name ?? 'Error';
  const message = `${name}: ${e.message ?? String(err)}`.slice(0, 500);
  if (status === 429 || THROTTLED.has(name)) {
    const retryAfter = Number(e.$response?.headers?.['retry-after']);
    return new MailError(message, 'retry', Number.isFinite(retryAfter) ? retryAfter : undefined);
  }
  if (name === 'SendingPausedException') return new MailError(message, 'retry', 600);
  if ((status !== undefined && status >= 500) || NOT_TAKEN.has(name)) {
    return new MailError(message, 'retry');
  }
  if (REJECTED.has(name) || (status !== undefined && status >= 400)) {
    return new MailError(message, 'rejected');
  }
  if (e.code && NOT_SENT_CODES.has(e.code)) return new MailError(message, 'retry');
  // a timeout or a connection dropped after the request was written: the provider may have it
  return new MailError(message, 'unknown');
}
