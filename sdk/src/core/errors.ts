/** A PostgREST error ({code, message, details, hint}), an auth refusal or a network failure. */
export class ApiError extends Error {
  constructor(
    message: string,
    public code = '',
    /** PostgREST's `details`: what a refusal is about (rate_limit, captcha, honeypot, blocked). */
    public details = '',
  ) {
    super(message);
  }
}
