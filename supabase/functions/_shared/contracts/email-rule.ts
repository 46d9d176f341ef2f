// The address rule of every part (the database's private.is_valid_email, docs/data-model.md "The
// address rule"), in a module of its own: the elements import it from their write paths (the
// comment's writer chunk, the form's checks), so a comment or Q&A reader does not load it
// (qna.js is at its budget before its first data). limits.ts re-exports it.

/**
 * private.is_valid_email, the same rule: what SES takes. ASCII; a local part of 1 to 64
 * letters, digits and `. _ % + ' -`, no dot first, last or twice in a row; a domain of at most
 * 253 characters in labels of 1 to 63 letters, digits and hyphens, none starting or ending with a
 * hyphen, the last letters only (2 to 63). Before 2026-11-29 any dots and hyphens passed
 * (`a..b@x.com`, `.a@x.com`, `a@-x.com`), and SES refused the mail after the send was counted.
 */
// written short (the elements carry it): without the u flag \w is [A-Za-z0-9_] and \d is [0-9], as
// the database's [A-Z0-9_] under ~*; no lookbehind (Safari before 16.4 refuses to parse it);
// contracts.test.ts holds the two to one verdict
export const EMAIL_RE =
  /^(?=.{1,64}@.{1,253}$)[\w%+'-]+(\.[\w%+'-]+)*@([a-z\d]([a-z\d-]{0,61}[a-z\d])?\.)+[a-z]{2,63}$/i;
/** The database's address rule (private.is_valid_email). */
export const isEmail = (value: string): boolean => EMAIL_RE.test(value);
