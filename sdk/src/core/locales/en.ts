/**
 * English texts, the fallback for every language, in groups: each element names the groups it
 * speaks (`static texts`), so a bundle carries only its own (a like block does not ship the comment
 * box's forty texts). Keys are unique across groups and follow i18next's `_one`/`_other` plurals.
 */

/** What every element may say: loading, failure and the visitor-trust refusals. */
export const core = {
  loading: 'Loading…',
  failed: 'Failed to load',
  unavailable: 'This block is not available.',
  notValidType: 'Not valid type',
  cancel: 'Cancel',
  captcha: 'Please confirm you are a person to go on.',
  captchaFailed: 'The check failed. Please try again.',
  tooFast: "You're going too fast, try again in a few seconds.",
  automated: 'This was not sent: it looked automated.',
  blockedWriter: 'The owner of this block has blocked you from writing here.',
  quotaReached: 'No more responses are taken this month.',
};

/** Answer checks (core/validate.ts), shared by the form and the comment box. */
export const fields = {
  required: 'Required',
  lengthError: 'Please enter up to {{max}} characters',
  emailError: 'Please enter a valid email address',
  phoneError: 'Use digits, spaces and hyphens only (up to 20 characters)',
  numberError: 'Please enter a whole number (up to 18 digits)',
};

/** The like count. */
export const like = {
  like_one: '{{count}} Like',
  like_other: '{{count}} Likes',
};

/** The button's default label. */
export const button = {
  button: 'Button',
};

/** The A/B vote count. */
export const ab = {
  votes_one: '{{count}} vote',
  votes_other: '{{count}} votes',
};

/** The form's own texts (its answer checks are `fields`). */
export const form = {
  checkResponse: 'Please check response',
  submit: 'Submit',
  thankYou: 'Thank you',
  openLink: 'Open Link',
  submitAgain: 'Submit again',
};

/** Comments and Q&A (the like count is `like`, the email check is in `fields`). */
export const comment = {
  messages_one: '{{count}} message',
  messages_other: '{{count}} messages',
  placeholder: 'Leave a message',
  qnaPlaceholder: 'Ask a question',
  writerName: 'Your name',
  message: 'Message',
  notifyEmail: 'Email for reply notifications (optional)',
  homeUrl: 'Your website (optional)',
  homeUrlError: 'Please enter a web address (http or https)',
  send: 'Send',
  reply: 'Reply',
  replyTo: 'Reply to {{name}}',
  edit: 'Edit',
  delete: 'Delete',
  save: 'Save',
  discard: 'Discard',
  close: 'Close',
  confirmDelete: 'Delete this message?',
  edited: 'edited',
  resolved: 'Resolved',
  resolve: 'Mark resolved',
  unresolve: 'Mark unresolved',
  admin: 'Admin',
  me: 'Me',
  signInPrompt: 'Please sign in to leave a message.',
  wait: 'Please wait a moment before sending another message.',
  emptyMessage: 'The message cannot be empty.',
  google: 'Sign in with Google',
  apple: 'Sign in with Apple',
  logout: 'Log out',
  toBlock: 'To Block setting',
  menu: 'Menu',
  loadMore: 'Load more',
  messageList: 'Messages',
  sending: 'Sending…',
  options: 'Options',
  report: 'Report',
  reportConfirm: 'Report this message to the owner?',
  reported: 'Reported',
  held: 'Awaiting approval',
  heldNotice: 'Others will see your message once the owner approves it.',
  hidden: 'Hidden',
  pinned: 'Pinned',
  notOwner: 'Not the owner',
};

/** A block's count on a page that lists many (<reaction-count>). */
export const count = {
  comments_one: '{{count}} comment',
  comments_other: '{{count}} comments',
  likes_one: '{{count}} like',
  likes_other: '{{count}} likes',
  responses_one: '{{count}} response',
  responses_other: '{{count}} responses',
};

/** Every English text: the shape of a full translation (locales/ko.ts). */
export type Texts = typeof core &
  typeof fields &
  typeof like &
  typeof button &
  typeof ab &
  typeof form &
  typeof comment &
  typeof count;
