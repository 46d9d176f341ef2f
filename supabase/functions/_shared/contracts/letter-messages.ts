// The letters' and the send dialog's messages in the spec's words: the contracts of letters
// (letters.ts, which re-exports them) and of the audience (audience.ts) say them.

/** The spec's wording (section 5 and 8). */
export const LETTER_MESSAGES = {
  invalidAddress: 'Invalid address.',
  notionError: "It's not address of the public Notion page",
  typedreamError: "It's not address of a public Typedream page",
  writerArticle: (writer: string) => `Please enter link of ${writer}'s article.`,
  notYourArticle: "It's not your article",
  verifyBrunchFirst: 'Verify your brunch profile first',
  notSupportedMode: 'Not supported mode',
  failedToLoad: 'Failed to load',
  brunchLinkError: 'Invalid brunch profile page',
  brunchFailed: 'Failed to verify writer',
  emailInvalid: 'Email address is invalid',
  tooManyAddresses: 'You can send 100 emails at once by manual sending',
  /** More entries than are read at all (LETTER_LIMITS.recipientEntries), repeats counted. */
  tooManyEntries: 'Paste at most 1,000 entries at once (100 different addresses)',
  notEnoughEmails: 'Not enough sending email counts',
  verifySenderFirst: 'Verify the sender email first',
  /** A subject is a mail header: a line break in it would make SES refuse the whole send. */
  subjectLineBreak: 'The subject cannot contain line breaks',
  noSample: 'No sample page is set up',
  tooLong: 'Too long message',
  invalidUrl: 'Invalid URL',
  invalidEmail: 'Invalid email address.',
  /** reserve_letter's refusals (supabase/schemas/letters.sql), as it raises them */
  noSuchGroup: 'No such group',
  saveLetterFirst: 'Load a page and save the letter first',
  /**
   * send-letter and publish-letter: the stored letter no longer meets the rules save-letter
   * checks (one tightened after it was saved): its stored mail is not sent (breaker BRK-5).
   */
  saveLetterAgain:
    'The saved letter no longer meets the letter rules: open it and save the letter again',
  /** The mail rendered from the letter is over LETTER_LIMITS.mailHtml or mailText. */
  letterTooLong: 'The letter is too long for one email',
  paidPlanRequired: 'Paid plan required',
} as const;
