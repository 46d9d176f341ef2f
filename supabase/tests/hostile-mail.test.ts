// Found from a clean clone in the sixth hostile review (breaker, 2026-11-26): a visitor can make
// the platform mail text of their own to any address that never asked for it, and put any
// address on an owner's mailing list.
import { describe, it } from 'vitest';

describe("a commenter's reply notifications", () => {
  // Repro on npm start (2026-11-26, main at d6f076a): the demo comment block (allow_creator_email
  // on). Anonymous visitor 1 calls post_message with p_creator_email 'victim3@example.com' (an
  // address they do not own; nothing asks that address first); anonymous visitor 2 replies three
  // times, 'CHEAP PILLS at https://spam.example/buy now 1..3'. A minute later the mailbox has one
  // mail to victim3@example.com from notify@reaction-blocks.local, '3 new replies to your comment
  // on “Demo comments”', whose body quotes the three replies, URL and all.
  // So two anonymous sign-ups make the platform's sending domain carry an attacker's words to
  // addresses of their choice: each comment may name another address (one mail per parent
  // message and merge window), on every block that asks for emails, bounded only by the two
  // visitors' own buckets (8 messages at once here) and the blocks' shared ones. The suppression
  // list stops an address only after it complains or bounces, which is what hurts the domain's
  // reputation with SES.
  // Ways out (not small, a product decision): the first reply mail to an address asks it to
  // confirm (double opt-in, as the sender addresses do), or reply notifications say only that
  // there are new replies and link to the page, without quoting what a visitor wrote.
  it.todo('a reply notification goes only to an address that confirmed it wants them');
});

describe("an owner's audience", () => {
  // Repro on npm start (2026-11-26, main at 52477ad): an anonymous visitor submits the demo form
  // with 'victim4@example.com' in its email question (as_visitor_info 'email'); the response is
  // counted ({ held: false }) and audience_members gets victim4@example.com, active, in no group,
  // so the owner's next letter to 'activated' (every active member) goes to an address that never
  // asked for it, from the owner's sender address. One response per address typed, bounded by the
  // visitor's bucket and the owner's monthly quota; the letter's unsubscribe link and the
  // suppression list act only after the mail went out. A trigger letter (letters on a response)
  // goes to the typed address at once. Ways out (a product decision): an address a visitor typed
  // joins the audience unconfirmed, and letters skip it until it confirms (double opt-in), or the
  // owner sees such members marked and chooses.
  it.todo('an address a visitor typed gets no letter until it confirmed it wants them');
});
