// The sender-address confirmation mail as rev-notify used it (2026-11-27): request-mail-verify
// mailed any address an owner typed, suppressed or not, as often as twenty fresh accounts asked
// (five an hour each), with no way for the mailbox to say "Not me"; victim+1@ and victim+2@ got
// past every cap and every "Not me" of the consent mails too. Now: one sender confirmation a day
// per mailbox, whoever asks, none to a suppressed one; the mail's "Not me" is the consent mails'
// (answer_mail_consent, private.not_me); caps and suppressions count the mailbox
// (private.mailbox_key); and a block's notification status tells its owner nothing of another
// mailbox's refusal. docs/security.md "Sender addresses", "One mailbox, many spellings".
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SENDER_MESSAGES } from '@reaction-blocks/contracts/schemas';
import { callFunction, newGuest, newUser, sql, type TestUser } from './support/clients.ts';
import { createBlock, save } from './support/drafts.ts';
import { postMessage } from './support/hostile.ts';
import { eventually, inbox, mailbox, sesControl, type Mail } from './support/providers.ts';
import { callWorker } from './support/worker.ts';
import {
  answerLink,
  commentBlock,
  confirmationMail,
  emailForm,
  tokenOf,
} from './support/consent.ts';

/** `victim-1234@example.com` spelt `victim-1234+tag@example.com`. */
const plus = (email: string, tag: string) => email.replace('@', `+${tag}@`);

const isSenderMail = (m: Mail) => Boolean(m.html?.includes('/profile/email?confirm='));

const request = (owner: TestUser, email: string) =>
  callFunction('request-mail-verify', { emailToVerify: email }, owner.accessToken);

/** The sender confirmation mails every spelling in `emails` received. */
async function senderMails(emails: string[]): Promise<Mail[]> {
  const all = await Promise.all(emails.map((e) => mailbox(e)));
  return all.flat().filter(isSenderMail);
}

/** What ask_mail_consent answers for `email` (letters of `ownerId`): suppressed asks nothing. */
const consentAsk = async (email: string, ownerId: string) =>
  (
    await sql<{ answer: string }>(
      `select private.ask_mail_consent($1, $2, null, null, 'en') as answer`,
      [email, ownerId],
    )
  )[0]!.answer;

describe('the mailbox key', () => {
  it('cuts the local part at its first +, folds case, gmail dots and one provider’s domains, and leaves the rest alone', async () => {
    const cases: Array<[string, string]> = [
      [' Victim+1@Example.COM ', 'victim@example.com'],
      ['victim+a+b@example.com', 'victim@example.com'],
      ['v.ic.tim+news@googlemail.com', 'victim@gmail.com'],
      ['V.ictim@gmail.com', 'victim@gmail.com'],
      ['first.last@example.com', 'first.last@example.com'],
      ['+only@example.com', '+only@example.com'],
      ['not-an-address', 'not-an-address'],
      // one Apple or Proton account's domains (docs/security.md "One mailbox, many spellings");
      // other domains and the dots are left alone
      ['Victim+x@me.com', 'victim@icloud.com'],
      ['victim@mac.com', 'victim@icloud.com'],
      ['victim@iCloud.com', 'victim@icloud.com'],
      ['victim@protonmail.com', 'victim@proton.me'],
      ['victim@protonmail.ch', 'victim@proton.me'],
      ['victim+a@pm.me', 'victim@proton.me'],
      ['victim@proton.me', 'victim@proton.me'],
      ['vic.tim@icloud.com', 'vic.tim@icloud.com'],
      ['victim@me.org', 'victim@me.org'],
    ];
    const rows = await sql<{ key: string }>(
      'select private.mailbox_key(e) as key from unnest($1::text[]) with ordinality u(e, n) order by n',
      [cases.map(([email]) => email)],
    );
    expect(rows.map((r) => r.key)).toEqual(cases.map(([, key]) => key));
  });
});

describe('the sender confirmation mail', () => {
  it('is refused to a suppressed mailbox, any spelling of it, before anything is mailed', async () => {
    const owner = await newUser('sender-suppressed');
    const victim = inbox('said-no');
    await sql(`insert into private.mail_suppressions (email, reason) values ($1, 'not_me')`, [
      plus(victim, 'old'),
    ]);
    for (const email of [victim, plus(victim, 'new'), victim.toUpperCase()]) {
      const res = await request(owner, email);
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual({
        code: 'suppressed',
        message: SENDER_MESSAGES.suppressed,
      });
    }
    expect(await senderMails([victim, plus(victim, 'new')])).toEqual([]);
    expect((await owner.client.from('sender_emails').select('*')).data).toEqual([]);

    // a bounce is the address's that bounced only: anyone can make victim+x@ bounce on a domain
    // without + addresses, and victim@ must still get its mail
    const bounced = inbox('bounced');
    await sql(`insert into private.mail_suppressions (email, reason) values ($1, 'bounce')`, [
      plus(bounced, 'x'),
    ]);
    expect((await request(owner, plus(bounced, 'x'))).json.error?.code).toBe('suppressed');
    expect((await request(owner, bounced)).status).toBe(200);
  });

  it('goes once a day per mailbox: twenty fresh accounts asking at once make one mail', async () => {
    const victim = inbox('target');
    const owners = await Promise.all(
      Array.from({ length: 20 }, (_, i) => newUser(`sender-flood-${i}`)),
    );
    const spellings = owners.map((_, i) => (i % 2 ? plus(victim, String(i)) : victim));
    const answers = await Promise.all(owners.map((o, i) => request(o, spellings[i]!)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(19);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.json.error).toMatchObject({
        code: 'sent_today',
        message: SENDER_MESSAGES.sentToday,
      });
      // tomorrow, to the minute or so
      expect(Number(r.retryAfter)).toBeGreaterThan(23 * 3600);
      expect(Number(r.retryAfter)).toBeLessThanOrEqual(24 * 3600);
    }
    await eventually(async () => (await senderMails([...new Set(spellings)])).length === 1);
    expect(await senderMails([...new Set(spellings)])).toHaveLength(1);
    // the one that went is the only claim written
    expect(
      await sql(
        `select 1 from public.sender_emails where private.mailbox_key(email) = private.mailbox_key($1)`,
        [victim],
      ),
    ).toHaveLength(1);
  });

  it('asked again by its owner the same day, is refused with the wait; a day later it goes', async () => {
    const owner = await newUser('sender-again');
    const email = inbox('again');
    expect((await request(owner, email)).status).toBe(200);
    const again = await request(owner, email);
    expect(again).toMatchObject({ status: 429, json: { error: { code: 'sent_today' } } });
    expect(Number(again.retryAfter)).toBeGreaterThan(23 * 3600);
    expect(await senderMails([email])).toHaveLength(1);
    await sql(
      `update private.sender_confirmation_mails set mailed_at = mailed_at - interval '25 hours'
       where mailbox = private.mailbox_key($1)`,
      [email],
    );
    expect((await request(owner, email)).status).toBe(200);
    await eventually(async () => (await senderMails([email])).length === 2);
  });
});

describe('one visitor-triggered ask a day per mailbox; a sender confirmation waits only for its own kind', () => {
  // rev-mail3 D4: each counted only its own log, so one mailbox got "Confirm your sender
  // address" and "Confirm that you want to receive letters" the same day
  const consentJob = (email: string) =>
    eventually(async () => {
      await callWorker();
      const [job] = await sql<{ status: string; deferred: boolean }>(
        `select status, run_at > now() + interval '23 hours' as deferred from private.jobs
         where kind = 'confirm.mail' and payload ->> 'email' = $1`,
        [email],
      );
      return job && job.status !== 'running' && (job.status !== 'queued' || job.deferred) && job;
    });

  it("a consent ask after a sender confirmation waits for the mailbox's next day", async () => {
    const owner = await newUser('sender-then-consent');
    const victim = inbox('sender-first');
    expect((await request(owner, victim)).status).toBe(200);
    await eventually(async () => (await senderMails([victim])).length === 1);
    const form = await emailForm();
    await form.submit(plus(victim, 'news'));
    expect(await consentJob(plus(victim, 'news'))).toEqual({ status: 'queued', deferred: true });
    const mails = [...(await mailbox(victim)), ...(await mailbox(plus(victim, 'news')))];
    expect(mails.map((m) => m.subject)).toHaveLength(1);
    expect(mails.filter(isSenderMail)).toHaveLength(1);
  });

  it('a sender confirmation after a consent ask goes: a visitor cannot hold an owner back from proving an address', async () => {
    // rev-fixes D4 (the lead's decision): anyone can make a consent ask reach an owner's address
    // (any form takes it), so a consent ask's day no longer refuses the owner's sender
    // confirmation (before: 429 sent_today for 24 hours, repeatable daily); the mailbox still
    // gets at most one visitor-triggered ask a day (the case above)
    const victim = inbox('consent-first');
    const form = await emailForm();
    await form.submit(victim);
    await confirmationMail(victim);
    const owner = await newUser('consent-then-sender');
    expect((await request(owner, plus(victim, 'shop'))).status).toBe(200);
    await eventually(async () => (await senderMails([plus(victim, 'shop')])).length === 1);
    expect(await senderMails([victim, plus(victim, 'shop')])).toHaveLength(1);
  });

  it("a consent mail the provider refused gives the mailbox's day back", async () => {
    // rev-fixes D5: its job failed and nothing was mailed, yet the mailbox's day (and the
    // owner's) stayed spent, as request-mail-verify gives a refused sender confirmation's back
    const { owner, blockId } = await emailForm();
    const victim = inbox('refused');
    const consentJob = async () => {
      const [{ id }] = (await sql<{ id: number }>(
        `insert into private.jobs (kind, payload, status, attempts, locked_until)
         values ('confirm.mail', jsonb_build_object('email', $1::text, 'owner_id', $2::uuid,
                 'block_id', $3::uuid, 'locale', 'en'), 'running', 1, now() + interval '1 minute')
         returning id`,
        [victim, owner.id, blockId],
      )) as [{ id: number }];
      const [{ a }] = (await sql<{ a: Record<string, unknown> }>(
        'select public.start_mail_consent($1, $2) as a',
        [id, randomBytes(32).toString('hex')],
      )) as [{ a: Record<string, unknown> }];
      return { id, started: a };
    };
    const first = await consentJob();
    expect(first.started).toMatchObject({ to: victim, scope: 'letters' });
    // SES refused it (MessageRejected: mailDelivery's 'rejected' -> failed): nothing went
    await sql(
      `select public.finish_jobs(jsonb_build_array(jsonb_build_object('id', $1::bigint, 'status', 'failed', 'error', 'MessageRejected')))`,
      [first.id],
    );
    expect(
      await sql('select job_id from private.confirmation_mails where job_id = $1', [first.id]),
    ).toEqual([]);
    expect(
      await sql<{ mailed_at: string | null }>(
        'select mailed_at from private.mail_consents where email = $1 and owner_id = $2',
        [victim, owner.id],
      ),
    ).toEqual([{ mailed_at: null }]);
    // the next ask of the mailbox goes at once (before: defer_until a day later)
    const second = await consentJob();
    expect(second.started).toMatchObject({ to: victim, scope: 'letters' });
  });
});

describe('"Not me" to a consent ask and the owner\'s own address', () => {
  it("stops strangers' mail and other owners' claims, not the owner's own sender confirmation", async () => {
    // rev-fixes D4 (the lead's decision): a visitor typed the owner's sign-in address into a
    // form and the owner said "Not me" to the consent mail. That mailbox gets no strangers'
    // mail; the owner, signed in, may still prove it theirs (before: refused as suppressed)
    const owner = await newUser('own-address');
    const own = inbox('own-address');
    await sql('update auth.users set email = $2 where id = $1', [owner.id, own]);
    const form = await emailForm();
    await form.submit(own.toUpperCase());
    const mail = await confirmationMail(own);
    expect((await answerLink(tokenOf(mail), 'not-me')).json.data).toMatchObject({
      outcome: 'declined',
    });
    expect(await consentAsk(own, form.owner.id)).toBe('suppressed');
    const other = await newUser('not-the-owner');
    expect((await request(other, own)).json.error?.code).toBe('suppressed');
    expect((await request(owner, plus(own, 'x'))).json.error?.code).toBe('suppressed');
    expect((await request(owner, own.toUpperCase())).status).toBe(200);
    const sent = await eventually(async () => (await senderMails([own]))[0]);
    // its own "Not me" is a sender mail's: it stops the owner's sender confirmations too
    expect((await answerLink(tokenOf(sent), 'not-me')).json.data).toMatchObject({
      outcome: 'declined',
      scope: 'sender',
    });
    expect(
      await sql('select reason, from_consent from private.mail_suppressions where mailbox = $1', [
        own,
      ]),
    ).toEqual([{ reason: 'not_me', from_consent: false }]);
  });
});

describe('a sender confirmation whose answer is lost', () => {
  it('keeps the day spent and the claim written: the mail may have gone, and its link works', async () => {
    const owner = await newUser('sender-lost');
    const email = inbox('lost-answer');
    // SES takes the mail and the connection drops before its answer, as a timeout after sending
    await sesControl('', { outageOf: { [email]: 'lost' } });
    let answer;
    try {
      answer = await request(owner, email);
    } finally {
      await sesControl('', { outageOf: { [email]: false } });
    }
    expect(answer.json).toEqual({ data: { status: true, email, state: 'pending' } });
    const mail = await eventually(async () => (await senderMails([email]))[0]);
    // nobody, the owner included, makes a second mail the same day
    const again = await request(await newUser('sender-lost-again'), email);
    expect(again).toMatchObject({ status: 429, json: { error: { code: 'sent_today' } } });
    expect((await request(owner, email)).status).toBe(429);
    expect(await senderMails([email])).toHaveLength(1);
    // the link in the mail that went confirms the claim
    const token = /profile\/email\?confirm=([\w-]{43})/.exec(mail.html!)![1]!;
    const confirmed = await callFunction('confirm-mail-verify', { token }, owner.accessToken);
    expect(confirmed.json.data).toMatchObject({ email });
  });
});

describe('"Not me" in the sender confirmation mail', () => {
  it('suppresses the mailbox and drops the claim without signing in, once; it confirms nothing', async () => {
    const owner = await newUser('sender-notme');
    const victim = inbox('not-mine');
    const typed = plus(victim, 'work');
    expect((await request(owner, typed)).status).toBe(200);
    const mail = await eventually(async () => (await senderMails([typed]))[0]);
    expect(mail.html).toContain('Not me: send nothing more to this address');
    const token = tokenOf(mail);
    expect(mail.html).toContain(`/confirm-email?token=${token}&amp;locale=en&amp;answer=not-me`);

    // the page: what it is about, named by the asking account's sign-in address
    const info = await answerLink(token);
    expect(info.json.data).toEqual({
      scope: 'sender',
      email: `${typed.slice(0, 1)}***@example.com`,
      sender: null,
      ownerEmail: owner.email,
    });
    // its token cannot confirm the address, nor is it the owner's confirmation token
    expect((await answerLink(token, 'confirm')).status).toBe(400);
    const confirmToken = /profile\/email\?confirm=([\w-]{43})/.exec(mail.html!)![1]!;
    expect((await answerLink(confirmToken, 'not-me')).status).toBe(400);
    expect((await owner.client.from('sender_emails').select('email, confirmed_at')).data).toEqual([
      { email: typed, confirmed_at: null },
    ]);

    const declined = await answerLink(token, 'not-me');
    expect(declined.json.data).toMatchObject({ outcome: 'declined', scope: 'sender' });
    // single use
    expect((await answerLink(token, 'not-me')).status).toBe(400);
    expect(
      await sql('select email, reason from private.mail_suppressions where email = $1', [typed]),
    ).toEqual([{ email: typed, reason: 'not_me' }]);
    // the pending claim is gone, and its confirmation link with it
    expect((await owner.client.from('sender_emails').select('*')).data).toEqual([]);
    const spent = await callFunction(
      'confirm-mail-verify',
      { token: confirmToken },
      owner.accessToken,
    );
    expect(spent.json.error?.code).toBe('invalid_link');

    // every spelling of the mailbox: no sender mail a day later, and the consent mails skip it
    await sql(
      `update private.sender_confirmation_mails set mailed_at = mailed_at - interval '25 hours'
       where mailbox = private.mailbox_key($1)`,
      [victim],
    );
    expect((await request(await newUser('sender-next'), victim)).json.error?.code).toBe(
      'suppressed',
    );
    for (const email of [victim, typed, plus(victim, 'other')]) {
      expect(await consentAsk(email, owner.id)).toBe('suppressed');
    }
  });
});

describe('the consent mails count the mailbox', () => {
  it("victim+1 and victim+2 share victim's day, and a Not me from victim+1 stops victim and victim+2", async () => {
    const victim = inbox('plus-consent');
    const [first, second] = [await commentBlock('First'), await commentBlock('Second')];
    const ask = async (blockId: string, email: string) =>
      expect(
        (await postMessage(await newGuest(), blockId, 'Tell me', { p_creator_email: email })).data,
      ).toMatchObject({ email_confirmation: 'pending' });
    await ask(first.blockId, plus(victim, '1'));
    const mail = await confirmationMail(plus(victim, '1'));
    await ask(second.blockId, plus(victim, '2'));
    const skipped = await eventually(async () => {
      await callWorker();
      const [job] = await sql<{ status: string; skipped: string | null }>(
        `select status, result ->> 'skipped' as skipped from private.jobs
         where kind = 'confirm.mail' and payload ->> 'email' = $1`,
        [plus(victim, '2')],
      );
      return job?.status === 'done' ? job : undefined;
    });
    expect(skipped.skipped).toBe('a confirmation went to the address less than a day ago');
    expect(await mailbox(plus(victim, '2'))).toEqual([]);

    expect((await answerLink(tokenOf(mail), 'not-me')).json.data).toMatchObject({
      outcome: 'declined',
    });
    for (const email of [victim, plus(victim, '2'), plus(victim, '1')]) {
      expect(await consentAsk(email, first.owner.id)).toBe('suppressed');
    }
    expect((await request(second.owner, victim)).json.error?.code).toBe('suppressed');
  });
});

describe("a block's notification status", () => {
  it('reads a suppressed address as waiting, as any other, and its resend says only "not sent"', async () => {
    const owner = await newUser('status-owner');
    const statusOf = async (mailTo: string) => {
      const blockId = await createBlock(owner, 'comment');
      const res = await save(owner.client, { blockId, privateSettings: { mail_to: mailTo } });
      expect(res.status, res.message).toBe(200);
      return blockId;
    };
    const refused = inbox('refused');
    await sql(`insert into private.mail_suppressions (email, reason) values ($1, 'complaint')`, [
      refused,
    ]);
    const [suppressedBlock, freshBlock] = [await statusOf(refused), await statusOf(inbox('fresh'))];
    const read = async (blockId: string) =>
      (await owner.client.rpc('notification_address_status', { p_block_id: blockId })).data as {
        email: string;
        state: string;
      };
    const [suppressed, fresh] = [await read(suppressedBlock), await read(freshBlock)];
    expect(suppressed).toMatchObject({ email: refused, state: 'waiting' });
    expect(Object.keys(suppressed).sort()).toEqual(Object.keys(fresh).sort());
    expect(fresh.state).toBe('waiting');
    expect(
      (await owner.client.rpc('resend_notification_confirmation', { p_block_id: suppressedBlock }))
        .data,
    ).toEqual({ sent: false });
    expect(await mailbox(refused)).toEqual([]);
  });
});
