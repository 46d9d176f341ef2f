// The eighth hostile review of the double opt-in (breaker, 2026-11-26; hostile-mail.test has the
// first): a yes to reply notifications was the address's for the whole platform, so anyone who
// named an address someone had confirmed got their replies mailed to it; post_message's answer
// told a visitor whether an address was new, confirmed, suppressed or capped; an owner's forms
// and blocks could have the confirmation mail (which carries the owner's words) sent to any number
// of addresses. And: the mail's link in the asker's language, unconfirmed rows purged, an owner's
// hand add or import of an awaiting address makes it active. docs/security.md "Addresses a
// visitor typed".
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { callFunction, newGuest, newUser, sql, type TestUser } from './support/clients.ts';
import { postMessage } from './support/hostile.ts';
import { eventually, inbox, mailbox, type Mail } from './support/providers.ts';
import { callWorker } from './support/worker.ts';
import {
  answerLink,
  commentBlock,
  confirmationMail,
  emailForm,
  preconfirm,
  runReplyJobs,
  tokenOf,
} from './support/consent.ts';

const SPAM = 'CHEAP PILLS at https://spam.example/buy';
const isConfirmation = (m: Mail) => Boolean(m.html?.includes('/confirm-email?token='));
const idOf = (answer: { data: unknown }) => (answer.data as { id: string }).id;

/** The confirm.mail jobs to `email`, once none is due any more (the worker ran them). */
const settledAsks = (email: string) =>
  eventually(async () => {
    await callWorker();
    const rows = await sql<{ status: string; skipped: string | null; commenter: string | null }>(
      `select status, result ->> 'skipped' as skipped, payload ->> 'commenter_id' as commenter
       from private.jobs where kind = 'confirm.mail' and payload ->> 'email' = $1 order by id`,
      [email],
    );
    return rows.length > 0 && rows.every((j) => j.status === 'done') ? rows : undefined;
  });

/** As if a day passed for `email`: its last confirmation mail and the day's asks are yesterday's. */
async function aDayLater(email: string) {
  await sql(
    `update private.mail_consents set mailed_at = mailed_at - interval '25 hours' where email = $1`,
    [email],
  );
  await sql(
    `update private.confirmation_mails set mailed_at = mailed_at - interval '25 hours'
     where email = $1`,
    [email],
  );
  await sql(
    `update private.jobs set dedupe_key = dedupe_key || ':yesterday'
     where kind = 'confirm.mail' and payload ->> 'email' = $1`,
    [email],
  );
}

/** `n` of the owner's confirmation mails went an hour ago (addresses of their blocks and forms). */
async function spendOwnersDay(ownerId: string, n: number | 'all') {
  const count = n === 'all' ? 'private.owner_confirmation_cap($1)' : String(n);
  const tag = randomUUID().slice(0, 8);
  await sql(
    `insert into private.mail_consents (email, owner_id, mailed_at)
     select 'filler-' || g || '-' || $2 || '@example.com', $1, now() - interval '1 hour'
     from generate_series(1, ${count}) g`,
    [ownerId, tag],
  );
  // the caps count the sent mails' log (the consent rows go with the account that asked)
  await sql(
    `insert into private.confirmation_mails (job_id, email, owner_id, mailed_at)
     select least(0, (select min(job_id) from private.confirmation_mails)) - g,
            'filler-' || g || '-' || $2 || '@example.com', $1, now() - interval '1 hour'
     from generate_series(1, ${count}) g`,
    [ownerId, tag],
  );
}

/** A visitor whose browser asks for `language` (Accept-Language), as the SDK's requests carry it. */
const guestSpeaking = (language: string): Promise<TestUser> =>
  newGuest({ 'Accept-Language': language });

describe('a yes to reply notifications', () => {
  it("is the commenter's, on that owner's blocks: anyone else naming the address is asked afresh", async () => {
    const victim = inbox('victim-x');
    const site = await commentBlock('Victim site');
    const other = await commentBlock('Attacker block');
    const me = await newGuest();
    const mine = await postMessage(me, site.blockId, 'Tell me about replies', {
      p_creator_email: victim,
    });
    expect(mine.data).toMatchObject({ email_confirmation: 'pending' });
    const asked = await confirmationMail(victim);
    expect((await answerLink(tokenOf(asked), 'confirm')).status).toBe(200);
    // the writer's own consent: their next comment here is not asked again
    const again = await postMessage(me, site.blockId, 'And this one', { p_creator_email: victim });
    expect(again.error).toBeNull();
    expect(again.data).not.toHaveProperty('email_confirmation');

    // the breaker's repro: another account names the address, on that site and on its own block,
    // and a spammer replies; the writer too on the other owner's block
    const attacker = await newGuest();
    const spammer = await newGuest();
    const parents: string[] = [];
    for (const [writer, block, content] of [
      [attacker, site, 'not the victim'],
      [attacker, other, 'not the victim'],
      [me, other, 'Me, elsewhere'],
    ] as const) {
      const top = await postMessage(writer, block.blockId, content, { p_creator_email: victim });
      expect(top.data).toMatchObject({ email_confirmation: 'pending' });
      parents.push(idOf(top));
      expect(
        (await postMessage(spammer, block.blockId, SPAM, { p_parent_id: idOf(top) })).error,
      ).toBeNull();
    }
    for (const parent of parents) {
      const jobs = await runReplyJobs(parent);
      expect(jobs.filter((j) => j.status === 'done').map((j) => j.result?.skipped)).toEqual([
        'the address has not confirmed reply notifications',
      ]);
    }
    // the writer's own thread still reaches them
    expect(
      (await postMessage(spammer, site.blockId, 'A real answer', { p_parent_id: idOf(mine) }))
        .error,
    ).toBeNull();
    await runReplyJobs(idOf(mine));
    const notice = await eventually(async () => {
      await callWorker();
      return (await mailbox(victim)).find((m) => m.subject.startsWith('New reply'));
    });
    expect(notice.html).toContain('A real answer');
    // nothing of the spam; the day's asks past the first confirmation were dropped, not queued
    const asks = await settledAsks(victim);
    expect(asks.filter((j) => j.commenter === attacker.id).map((j) => j.skipped)).toEqual([
      'a confirmation went to the address less than a day ago',
      'a confirmation went to the address less than a day ago',
    ]);
    const mails = await mailbox(victim);
    expect(mails.map((m) => m.html).join(' ')).not.toContain('spam.example');
    expect(mails.filter(isConfirmation)).toHaveLength(1);

    // a day later the attacker's naming asks the address again: a token of its own, bound to the
    // attacker's account and the owner of the block it named
    await aDayLater(victim);
    await postMessage(attacker, other.blockId, 'not the victim, again', {
      p_creator_email: victim,
    });
    const second = await eventually(async () => {
      await callWorker();
      return (await mailbox(victim)).find(
        (m) => isConfirmation(m) && tokenOf(m) !== tokenOf(asked),
      );
    });
    expect((await mailbox(victim)).filter(isConfirmation)).toHaveLength(2);
    expect(second.subject).toBe('Confirm reply notifications for a comment');
    expect(
      await sql(
        'select owner_id, commenter_id from private.mail_consents where email = $1 and token_hash is not null',
        [victim],
      ),
    ).toEqual([{ owner_id: other.owner.id, commenter_id: attacker.id }]);
  });
});

describe("post_message's answer about the address", () => {
  it('is the same for every state but the writer’s own confirmed consent', async () => {
    const { owner, blockId } = await commentBlock('States');
    // a writer of their own for each (a visitor's burst is 8 comments)
    const answer = async (email: string, who?: TestUser) => {
      who ??= await newGuest();
      const r = await postMessage(who, blockId, `about ${randomUUID()}`, {
        p_creator_email: email,
      });
      expect(r.error).toBeNull();
      return r.data as Record<string, unknown>;
    };
    const shape = (data: Record<string, unknown>) =>
      `${Object.keys(data).sort().join(',')} ${String(data.email_confirmation)}`;

    const fresh = inbox('fresh');
    const askedToday = inbox('asked');
    await answer(askedToday, await newGuest());
    const suppressed = inbox('suppressed');
    await sql(`insert into private.mail_suppressions (email, reason) values ($1, 'complaint')`, [
      suppressed,
    ]);
    const someoneElses = inbox('elses');
    await preconfirm(someoneElses, owner.id, (await newGuest()).id);
    const lettersOnly = inbox('letters');
    await preconfirm(lettersOnly, owner.id);
    const otherOwner = inbox('other-owner');
    const writer = await newGuest();
    await preconfirm(otherOwner, (await newUser('consent-other')).id, writer.id);

    const states = [fresh, askedToday, suppressed, someoneElses, lettersOnly];
    const answers = [shape(await answer(otherOwner, writer))];
    for (const email of states) answers.push(shape(await answer(email)));
    // the owner's day spent: the next address is asked, and its mail kept back, all the same
    const capped = inbox('capped');
    await spendOwnersDay(owner.id, 'all');
    answers.push(shape(await answer(capped)));
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/ pending$/);

    // the writer's own yes for this owner: nothing to say
    const own = inbox('own');
    await preconfirm(own, owner.id, writer.id);
    expect(await answer(own, writer)).not.toHaveProperty('email_confirmation');
  });
});

describe("an owner's confirmation mails a day", () => {
  it('stop at the plan’s cap; the ones kept back are counted for the owner and asked again later', async () => {
    const { owner, blockId } = await commentBlock('Capped');
    const usage = async () =>
      (await owner.client.rpc('confirmation_mail_usage')).data as {
        limit: number;
        sent: number;
        capped: number;
      };
    // paid: 300 a day; free: 30 (docs/security.md)
    expect(await usage()).toEqual({ limit: 300, sent: 0, capped: 0 });
    const free = await newUser('consent-free');
    expect((await free.client.rpc('confirmation_mail_usage')).data).toMatchObject({ limit: 30 });

    // the day's mails but one already went (addresses asked by this owner's blocks and forms)
    await spendOwnersDay(owner.id, 299);
    const last = inbox('last');
    const over = inbox('over');
    const writers = new Map<string, TestUser>();
    for (const email of [last, over]) {
      writers.set(email, await newGuest());
      const r = await postMessage(writers.get(email)!, blockId, 'hello', {
        p_creator_email: email,
      });
      expect(r.data).toMatchObject({ email_confirmation: 'pending' });
    }
    const [lastAsk] = await settledAsks(last);
    const [overAsk] = await settledAsks(over);
    expect([lastAsk?.skipped ?? null, overAsk?.skipped ?? null].sort()).toEqual([
      null,
      "the owner's confirmation mails of the day are spent",
    ]);
    const [sentTo, keptBack] = lastAsk?.skipped ? [over, last] : [last, over];
    expect((await mailbox(sentTo)).filter(isConfirmation)).toHaveLength(1);
    expect(await mailbox(keptBack)).toEqual([]);
    expect(await usage()).toEqual({ limit: 300, sent: 300, capped: 1 });
    // another visitor's form or block cannot read it (an owner's own count)
    expect((await (await newGuest()).client.rpc('confirmation_mail_usage')).data).toMatchObject({
      sent: 0,
      capped: 0,
    });

    // the next day the kept-back address, named again by its writer, is asked
    await sql(
      `update private.mail_consents
       set mailed_at = mailed_at - interval '25 hours', capped_at = capped_at - interval '25 hours'
       where owner_id = $1`,
      [owner.id],
    );
    await sql(
      `update private.confirmation_mails set mailed_at = mailed_at - interval '25 hours'
       where owner_id = $1`,
      [owner.id],
    );
    await aDayLater(keptBack);
    await postMessage(writers.get(keptBack)!, blockId, 'hello again', {
      p_creator_email: keptBack,
    });
    await confirmationMail(keptBack);
    expect(await usage()).toMatchObject({ sent: 1, capped: 0 });
  });
});

describe('the confirmation mail and its page', () => {
  it('speak the language of the visitor who asked (Accept-Language), the block’s otherwise', async () => {
    const { blockId } = await commentBlock('Language');
    const ko = inbox('ko');
    const en = inbox('en');
    await postMessage(await guestSpeaking('ko-KR,ko;q=0.9,en;q=0.8'), blockId, 'hi', {
      p_creator_email: ko,
    });
    await postMessage(await guestSpeaking('fr-FR,fr;q=0.9'), blockId, 'hi', {
      p_creator_email: en,
    });
    const koMail = await confirmationMail(ko);
    expect(koMail.subject).toBe('댓글 답글 알림을 확인해 주세요');
    expect(koMail.html).toMatch(/\/confirm-email\?token=[A-Za-z0-9_-]+&amp;locale=ko"/);
    const enMail = await confirmationMail(en);
    expect(enMail.subject).toBe('Confirm reply notifications for a comment');
    expect(enMail.html).toMatch(/\/confirm-email\?token=[A-Za-z0-9_-]+&amp;locale=en"/);

    // a form's typed address: the letters confirmation in the respondent's language
    const form = await emailForm();
    const typed = inbox('typed-ko');
    await form.submit(typed, await guestSpeaking('ko'));
    const letters = await confirmationMail(typed);
    expect(letters.subject).toBe('레터를 받을지 확인해 주세요');
    expect(letters.html).toContain('locale=ko');
  });
});

describe('the confirmation mail and an owner posing as their own visitor', () => {
  // rev-notify (2026-11-27): an owner who types a stranger's address into their own comment block
  // or form got their block's name, its url's host and their profile name into the subject and
  // body of the platform's mail to that stranger. rev-mail2 (2026-11-28): the mail's link's page
  // still named the block and the owner's account name. Now the mail and the page say what asked
  // in the platform's words and name only the address the mails would come from: the owner's
  // verified sender address for letters, ours for replies (docs/security.md).
  const MARKER = 'WIN-A-FREE-IPHONE';
  const ownersWords = new RegExp(`${MARKER}|win-a-free-iphone|spam\\.example`, 'i');

  async function markedByOwner(owner: TestUser, blockId: string) {
    await sql(
      `update public.blocks set name = $2, embeded_url = 'https://win-a-free-iphone.spam.example/WIN-A-FREE-IPHONE'
       where id = $1`,
      [blockId, `${MARKER} at spam.example`],
    );
    await sql('update public.profiles set name = $2 where id = $1', [owner.id, `${MARKER} shop`]);
  }

  it('carries none of their words (block name, site, profile name), en and ko, nor does its page; only the address mails come from', async () => {
    const comments = await commentBlock();
    await markedByOwner(comments.owner, comments.blockId);
    const form = await emailForm();
    await markedByOwner(form.owner, form.blockId);
    const sender = inbox('news');
    await sql(
      `insert into public.sender_emails (user_id, email, status, confirmed_at) values ($1, $2, 'verified', now())`,
      [form.owner.id, sender],
    );

    const mails: Record<string, Mail> = {};
    for (const [lang, accept] of [
      ['en', 'en-US,en;q=0.9'],
      ['ko', 'ko-KR,ko;q=0.9'],
    ] as const) {
      const replyTo = inbox(`reply-${lang}`);
      const mine = await postMessage(await guestSpeaking(accept), comments.blockId, 'hi', {
        p_creator_email: replyTo,
      });
      expect(mine.error).toBeNull();
      const lettersTo = inbox(`letters-${lang}`);
      await form.submit(lettersTo, await guestSpeaking(accept));
      mails[`reply-${lang}`] = await confirmationMail(replyTo);
      mails[`letters-${lang}`] = await confirmationMail(lettersTo);
    }
    for (const [name, mail] of Object.entries(mails)) {
      expect(mail.subject, name).not.toMatch(ownersWords);
      expect(mail.html, name).not.toMatch(ownersWords);
      expect(mail.text ?? '', name).not.toMatch(ownersWords);
    }
    expect(mails['reply-en']!.subject).toBe('Confirm reply notifications for a comment');
    expect(mails['reply-ko']!.subject).toBe('댓글 답글 알림을 확인해 주세요');
    expect(mails['letters-en']!.subject).toBe('Confirm that you want to receive letters');
    expect(mails['letters-ko']!.subject).toBe('레터를 받을지 확인해 주세요');
    // a real visitor still knows what asked: a site on the platform, and the owner's proved address
    expect(mails['reply-en']!.html).toContain('a comment on a site that uses Reaction Blocks');
    expect(mails['letters-en']!.html).toContain(
      'given in a form on a site that uses Reaction Blocks',
    );
    expect(mails['letters-ko']!.html).toContain('Reaction Blocks를 쓰는 사이트의 양식');
    for (const name of ['letters-en', 'letters-ko']) expect(mails[name]!.html).toContain(sender);
    // the page each link opens says no more than its mail: the scope, the address (masked) and
    // where the mails would come from; the block's and the owner's names nowhere in the answer
    for (const [name, mail] of Object.entries(mails)) {
      const page = await answerLink(tokenOf(mail));
      expect(page.status, name).toBe(200);
      expect(JSON.stringify(page.json), name).not.toMatch(ownersWords);
      expect(page.json.data, name).toEqual({
        scope: name.startsWith('reply') ? 'reply' : 'letters',
        email: `${name.slice(0, 1)}***@example.com`,
        sender: name.startsWith('reply') ? 'notify@reaction-blocks.local' : sender,
        ownerEmail: null,
      });
    }
    // replies come from the platform's address, and the mail says so (not the owner's sender)
    for (const name of ['reply-en', 'reply-ko']) {
      expect(mails[name]!.html).toContain('notify@reaction-blocks.local');
      expect(mails[name]!.html).not.toContain(sender);
    }
    expect(mails['reply-en']!.html).not.toContain('proved is theirs');
  });
});

describe('consents that never confirmed', () => {
  it('are purged once their link expired (daily schedule); confirmed and live ones stay', async () => {
    const { owner } = await commentBlock('Purge');
    const tag = randomUUID().slice(0, 8);
    const row = (name: string) => `${name}-${tag}@example.com`;
    await sql(
      `insert into private.mail_consents (email, owner_id, confirmed_at, token_hash, token_expires_at, mailed_at, created_at) values
         ($2, $1, now() - interval '20 days', null, null, now() - interval '21 days', now() - interval '21 days'),
         ($3, $1, null, encode(sha256(convert_to($3, 'UTF8')), 'hex'), now() - interval '1 second', now() - interval '7 days', now() - interval '7 days'),
         ($4, $1, null, encode(sha256(convert_to($4, 'UTF8')), 'hex'), now() + interval '6 days', now() - interval '1 day', now() - interval '1 day'),
         ($5, $1, null, null, null, null, now() - interval '8 days'),
         ($6, $1, null, null, null, null, now() - interval '2 days')`,
      [owner.id, row('confirmed'), row('expired'), row('live'), row('never-mailed'), row('recent')],
    );
    await sql('select private.purge_mail_consents()');
    const left = await sql<{ email: string }>(
      'select email from private.mail_consents where owner_id = $1 order by email',
      [owner.id],
    );
    expect(left.map((r) => r.email)).toEqual([row('confirmed'), row('live'), row('recent')]);
    expect(
      await sql(`select schedule, command from cron.job where jobname = 'mail-consents-purge'`),
    ).toEqual([
      {
        schedule: '23 3 * * *',
        command: expect.stringContaining('select private.purge_mail_consents();'),
      },
    ]);
  });
});

describe('an owner who adds an awaiting address themselves', () => {
  it('by hand or by CSV import makes that member active (their responsibility)', async () => {
    const form = await emailForm();
    const [byHand, byImport] = [inbox('by-hand'), inbox('by-import')];
    await form.submit(byHand);
    await form.submit(byImport);
    const members = () =>
      sql<{ email: string; awaiting_confirmation: boolean; creator_name: string }>(
        `select email, awaiting_confirmation, creator_name from public.audience_members
         where user_id = $1 and email is not null order by email`,
        [form.owner.id],
      );
    expect((await members()).map((m) => m.awaiting_confirmation)).toEqual([true, true]);
    expect((await form.owner.client.rpc('letter_send_groups')).data).toEqual([
      { name: 'activated', email_count: 0, skip_count: 0, awaiting_count: 2 },
    ]);

    // the add dialog's insert and the import's upsert (dashboard/src/features/audience/api)
    const added = await form.owner.client.from('audience_members').insert({
      user_id: form.owner.id,
      creator_name: 'Friend',
      email: byHand,
      group_name: null,
      deactivated: false,
    });
    expect(added.error).toBeNull();
    const fresh = inbox('fresh-import');
    const imported = await form.owner.client
      .from('audience_members')
      .upsert(
        [byImport, fresh].map((email) => ({
          user_id: form.owner.id,
          creator_name: 'Imported',
          email,
          group_name: null,
          deactivated: false,
        })),
        { onConflict: 'user_id,email', ignoreDuplicates: true },
      )
      .select('id');
    expect(imported.error).toBeNull();
    // one member per address, none waiting; the send reaches all three
    expect(await members()).toEqual(
      [byHand, byImport, fresh]
        .sort()
        .map((email) => expect.objectContaining({ email, awaiting_confirmation: false })),
    );
    expect((await form.owner.client.rpc('letter_send_groups')).data).toEqual([
      { name: 'activated', email_count: 3, skip_count: 0, awaiting_count: 0 },
    ]);
    // a visitor's own write does not: another form answer naming an address stays awaiting
    const later = inbox('later');
    await form.submit(later);
    expect((await members()).find((m) => m.email === later)?.awaiting_confirmation).toBe(true);
  });
});

// The eighth hostile review's second round: the caps counted the consent rows, which go with the
// account that asked (commenter_id on delete cascade), so a visitor who deleted their account gave
// the address and the owner their day back: one address got three confirmation mails in a day.
describe('a visitor who asks and then deletes their account', () => {
  it('gives neither the address nor the owner their day back', async () => {
    const { owner, blockId } = await commentBlock('Left behind');
    const victim = inbox('left-victim');
    for (let i = 0; i < 3; i++) {
      const guest = await newGuest();
      const posted = await postMessage(guest, blockId, `ask ${i}`, { p_creator_email: victim });
      expect(posted.error).toBeNull();
      await settledAsks(victim);
      expect((await callFunction('delete-user', {}, guest.accessToken)).status).toBe(200);
    }
    expect((await mailbox(victim)).filter(isConfirmation)).toHaveLength(1);

    // the owner's day: one mail left, four visitors who each name a new address and leave
    await spendOwnersDay(owner.id, 298);
    let went = 0;
    for (let i = 0; i < 4; i++) {
      const to = inbox(`left-${i}`);
      const guest = await newGuest();
      expect(
        (await postMessage(guest, blockId, `ask ${i}`, { p_creator_email: to })).error,
      ).toBeNull();
      await settledAsks(to);
      went += (await mailbox(to)).filter(isConfirmation).length;
      expect((await callFunction('delete-user', {}, guest.accessToken)).status).toBe(200);
    }
    expect(went).toBe(1);
    expect((await owner.client.rpc('confirmation_mail_usage')).data).toMatchObject({ sent: 300 });
  });
});
