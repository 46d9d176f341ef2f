// Found from a clean clone in the fifth hostile review (breaker, 2026-11-26): the whole stack
// killed with SIGKILL halfway through a letter send, then `npm start` again.
import { describe, it } from 'vitest';

describe('a letter send when the whole stack is killed halfway', () => {
  // Repro on npm start (2026-11-26, main at db82f09): the demo owner, an audience group of 600
  // members, letters.unknown_grace_seconds 20 (as bench:letters sets it; the default 600 only
  // delays the same end), publish-letter for the Notion demo letter; at about 250 mails in the
  // mailbox, SIGKILL of npm start's process group; npm start again (it recovers in under a minute).
  // After the grace: every one of the 600 members has the letter (nothing lost), 600 jobs done,
  // but 64 members have it twice (664 mails). The 200 jobs the worker held came back 'unknown'
  // and, with no Send event, were queued again; 64 of those mails had gone to the SES fake before
  // the kill. Their Send events were in the SNS fake's delivery queue, which lives in memory
  // (providers/ses/sns.ts Dispatcher; the SES state that persists is identities and
  // verifications), so they died with the stack. Real SES publishes a Send event for every mail
  // it accepted whatever happens to our stack, and SNS retries a delivery (its default HTTP policy:
  // 3 retries) while ses-events is down, so the local stack sends twice where hosted would not,
  // unless ses-events stays down past SNS's retries. Fix in the fake: keep pending SNS deliveries
  // in the providers' data directory and resume their DeliveryPolicy after a restart; a test
  // then kills the stack (as start.test does) during a send and expects each member once.
  it.todo('every member gets the letter once after a SIGKILL of the whole stack mid-send');
});
