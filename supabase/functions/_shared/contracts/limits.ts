// The limits every part checks: lengths, counts and answer patterns (the specification's
// section 9 and ours). Plain data, no zod, so the SDK's elements import them as well as the
// schemas, the dashboard's fields and the functions. The database checks the same numbers in its
// constraints and functions; supabase/tests/contracts.test.ts and answer-rules.test.ts run both
// on the same cases.

/** Lengths are in characters as Postgres's char_length counts them (an emoji is one, not two). */
export const lengthOf = (s: string): number => [...s].length;

/** Account fields (spec: name 100, homepage URL 500, profile image URL 500). */
export const LIMITS = {
  profileName: 100,
  homeUrl: 500,
  photoUrl: 500,
} as const;

/** Limits of block content (spec section 9; the database checks the same numbers). */
export const BLOCK_LIMITS = {
  blockName: 200,
  labelName: 100,
  welcomeMessage: 1000,
  placeholder: 500,
  submitButtonText: 100,
  ownerName: 100,
  qnaSubject: 500,
  buttonText: 100,
  url: 2000,
  photoUrl: 500,
  openGraphTitle: 99,
  openGraphDescription: 499,
  openGraphImageUrl: 499,
  mailTo: 100,
  /** The Notion database or page a block writes to (its id). */
  notionTarget: 100,
  questionTitle: 500,
  optionValue: 500,
  descriptionContent: 10000,
  endingTitle: 200,
  closingText: 1000,
  openUrlText: 99,
  resubmitText: 100,
  conditionValue: 1000,
  questionCountFree: 5,
  questionCountMax: 20,
  optionsPerQuestion: 50,
  conditionsPerEnding: 20,
  endingsMax: 30,
} as const;

/** A visitor's comment or question, and the name they write it under. */
export const COMMENT_LIMITS = {
  message: 500,
  name: 100,
  /** The notification address a commenter may leave (message_private.creator_email). */
  email: 50,
} as const;

/** The form's answers: longest text, in characters. */
export const ANSWER_LIMITS = { short_text: 300, long_text: 1000, mail: 50 } as const;

// the address rule, in a module of its own (email-rule.ts): the elements load it with their write
// paths, not before their first data
export { EMAIL_RE, isEmail } from './email-rule.ts';

/**
 * A phone answer: digits, spaces and hyphens only (no tab, no other space), 1 to 20 of them. The
 * spec also names backspace: the key that edits the field, not a character an answer may hold.
 */
export const PHONE_RE = /^[0-9 -]{1,20}$/;

/**
 * A number answer: an integer, optionally signed, of at most 18 digits: |n| < 10^18, always
 * inside int64 (a 19-digit number may overflow it, so the whole 19-digit range is refused).
 */
export const INTEGER_RE = /^[-+]?[0-9]{1,18}$/;

/** A coupon code: "under 100 characters and at least 1". */
export const COUPON_CODE_MAX = 99;

/** Sender emails (/profile/email): the spec's 60 characters. */
export const SENDER_EMAIL_MAX = 60;

/** How many sender emails an owner keeps, and how many verification mails they ask for an hour. */
export const SENDER_EMAIL_LIMITS = { addresses: 10, requestsPerHour: 5 } as const;

/** Letters and audience: the spec's limits (section 9) and ours. */
export const LETTER_LIMITS = {
  title: 200,
  senderName: 100,
  url: 2000,
  blocks: 400,
  spansPerBlock: 300,
  spanText: 5000,
  listItems: 300,
  /** How deep a list nests below its own items (a Notion bullet under a bullet is level 1). */
  listDepth: 6,
  /** A table's rows and cells per row (a Notion table, a page's <table>): more are cut. */
  tableRows: 100,
  tableCells: 12,
  code: 20000,
  /** CTA text "under 100 characters". */
  ctaText: 99,
  /** Manual send: at most 100 addresses at once. */
  manualMax: 100,
  email: 100,
  /**
   * The manual send's list before duplicates are merged: more entries are refused whole (a
   * 10,000-address paste), and an entry longer than `recipientEntry` ("Name <address>") is bad.
   */
  recipientEntries: 1000,
  recipientEntry: 320,
  group: 100,
  /** Add audience: name up to 30, email up to 40. */
  audienceName: 30,
  audienceEmail: 40,
  /** Edit a member's row: name and email up to 100. */
  audienceRowName: 100,
  audienceRowEmail: 100,
  /** Rows an unpaid owner sees on the audience page (see docs/dashboard.md, "Audience"). */
  freeAudienceRows: 100,
  /** The whole block model as JSON (the database allows 2 MB). */
  modelChars: 1_000_000,
  /**
   * The mail save-letter renders from the model, HTML and plain text (block_private's mail_html
   * and mail_text checks say the same numbers): a model within modelChars can render to more.
   */
  mailHtml: 1_000_000,
  mailText: 300_000,
  /** Page sizes: sent letters and audience rows. */
  pageSize: 10,
} as const;

// a module of its own so the elements' lazily loaded texts take it without the limits' tables
export { waitUnit } from './wait.ts';
