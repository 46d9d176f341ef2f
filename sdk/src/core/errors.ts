/** A PostgREST error ({code, message, details, hint}), an auth refusal or a network failure. */
export class ApiError extends Error {
  /** A 429's wait in seconds (the hint's `retry_after`). */
  declare retry_after?: number;
  /** What a 429 refuses: the write (message, like, submit, ...) and whose limit (visitor, block, address, owner). */
  declare action?: string;
  declare scope?: string;
  /** The HTTP status of a refused call (401: the server did not take the visitor's token). */
  declare status?: number;

  constructor(
    message: string,
    public code = '',
    /** PostgREST's `details`: what a refusal is about (rate_limit, captcha, quota, honeypot, blocked). */
    public details = '',
  ) {
    super(message);
  }
}
