/** What every element may say: loading, failure and the visitor-trust refusals. */
export const core = {
  loading: 'Loading…',
  failed: 'Failed to load',
  retry: 'Try again',
  unavailable: 'This block is not available.',
  notValidType: 'Not valid type',
  cancel: 'Cancel',
  captcha: 'Please confirm you are a person to go on.',
  captchaFailed: 'The check failed. Please try again.',
  tooFast: "You're going too fast, try again in a few seconds.",
  automated: 'This was not sent: it looked automated.',
  blockedWriter: 'The owner of this block has blocked you from writing here.',
  quotaReached: 'No more responses are taken this month.',
  unreachable: "Couldn't reach the server. Please try again.",
};
