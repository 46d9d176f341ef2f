/**
 * Texts that English does not carry: there the server's own message says it (a 429 says what it
 * refuses and for how long, per action: "You're posting too fast. You can post again in 8
 * seconds."); other languages say the same with the wait in their words (`in`: "8초 후").
 * Only the types and the locales' test read this list, so no bundle carries it.
 */
export const SERVER_SAID = [
  'tooFastIn',
  'busyIn',
  'quotaIn',
  'wait_message',
  'wait_edit',
  'wait_report',
  'wait_like',
  'wait_click',
  'wait_vote',
  'wait_submit',
] as const;
