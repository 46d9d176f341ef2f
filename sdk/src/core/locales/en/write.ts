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
  // a name or link the server does not take (details invalid_input): one with a bidi control, or
  // too long; the elements' own checks keep out the rest
  invalidInput:
    'This was not sent: your name or website was not accepted. Change it and try again.',
  // Postgres text cannot hold a NUL character (PostgREST's 22P05)
  badCharacter:
    'This was not sent: it contains a character that cannot be saved. Remove it and try again.',
  // a value that is not its type (PostgREST's 22P02): a block id that is not one, half an emoji
  badRequest: 'This was not sent: the server could not read it. Reload the page and try again.',
  // a comment or Q&A, which offers to sign in again
  signedOut: 'You were signed out, so this was not sent. Sign in again to send it.',
  // the other elements, which send it when tried again, as whoever the visitor is now
  signedOutRetry: 'You were signed out, so this was not sent. Try again to send it.',
};
