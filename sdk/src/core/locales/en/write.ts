/**
 * What a write may meet: the visitor-trust refusals and the captcha panel. Loaded with the
 * writer's code (core/writer.ts), never before the first data shows.
 */
export const write = {
  captcha: 'Please confirm you are a person to go on.',
  captchaFailed: 'The check failed. Please try again.',
  tooFast: "You're going too fast, try again in a few seconds.",
  automated: 'This was not sent: it looked automated.',
  blockedWriter: 'The owner of this block has blocked you from writing here.',
  quotaReached: 'No more responses are taken this month.',
  // a comment or Q&A, which offers to sign in again
  signedOut: 'You were signed out, so this was not sent. Sign in again to send it.',
  // the other elements, which send it when tried again, as whoever the visitor is now
  signedOutRetry: 'You were signed out, so this was not sent. Try again to send it.',
};
