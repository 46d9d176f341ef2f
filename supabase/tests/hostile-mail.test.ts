// Found from a clean clone in the sixth hostile review (breaker, 2026-11-26): a visitor can make
// the platform mail text of their own to any address that never asked for it, and put any
// address on an owner's mailing list.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newGuest, sql } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import { postMessage } from './support/hostile.ts';
import { eventually, inbox, mailbox } from './support/providers.ts';
import { callWorker } from './support/worker.ts';
import {
  answerLink,
  commentBlock,
  confirmationMail,
  emailForm,
  runReplyJobs,
  tokenOf,
} from './support/consent.ts';

const SPAM = (n: number) => `CHEAP PILLS at https://spam.example/buy now ${n}`;

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
  it('a reply notification goes only to an address that confirmed it wants them', async () => {
    const { blockId } = await commentBlock();
    const victim = inbox('victim3');
    const top = await postMessage(await newGuest(), blockId, 'Mail me <b>here</b>', {
      p_creator_email: victim,
    });
    expect(top.error).toBeNull();
    // the writer is told a confirmation mail is on its way (the comment element says so)
    expect(top.data).toMatchObject({ email_confirmation: 'pending' });
    const parentId = (top.data as { id: string }).id;
    const spammer = await newGuest();
    for (let n = 1; n <= 3; n++) {
      const reply = await postMessage(spammer, blockId, SPAM(n), { p_parent_id: parentId });
      expect(reply.error).toBeNull();
    }
    const mail = await confirmationMail(victim);
    const jobs = await runReplyJobs(parentId);
    expect(jobs.filter((j) => j.status === 'done').map((j) => j.result?.skipped)).toContain(
      'the address has not confirmed reply notifications',
    );
    // one mail, the confirmation: none of the visitors' words, nor the owner's block name
    expect(await mailbox(victim)).toHaveLength(1);
    expect(mail.subject).toBe('Confirm reply notifications for a comment');
    expect(`${mail.subject} ${mail.html}`).not.toContain('Demo comments');
    for (const visitorText of ['CHEAP', 'spam.example', 'Mail me', 'Visitor'])
      expect(`${mail.subject} ${mail.html}`).not.toContain(visitorText);

    // the page's read, then refusals of tokens that are not this one
    const token = tokenOf(mail);
    expect(await answerLink(token)).toMatchObject({
      status: 200,
      json: {
        data: { scope: 'reply', email: 'v***@example.com', sender: 'notify@reaction-blocks.local' },
      },
    });
    const foreign = randomBytes(32).toString('base64url');
    for (const bad of [foreign, token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'), 'short'])
      expect(await answerLink(bad, 'confirm')).toMatchObject({
        status: 400,
        json: { error: { message: 'Invalid link' } },
      });
    expect(await answerLink(token, 'confirm')).toMatchObject({
      status: 200,
      json: { data: { outcome: 'confirmed', scope: 'reply' } },
    });
    // single use: the same link again, read or answered, is refused
    expect((await answerLink(token, 'confirm')).status).toBe(400);
    expect((await answerLink(token, 'not-me')).status).toBe(400);
    expect((await answerLink(token)).status).toBe(400);

    // confirmed: the next reply is mailed (the earlier ones are not, then or later)
    expect(
      (await postMessage(spammer, blockId, 'A real answer', { p_parent_id: parentId })).error,
    ).toBeNull();
    await runReplyJobs(parentId);
    const notice = await eventually(async () => {
      await callWorker();
      return (await mailbox(victim)).find((m) => m.subject.startsWith('New reply'));
    });
    expect(notice.html).toContain('A real answer');
    expect(notice.html).not.toContain('CHEAP');
    expect(await mailbox(victim)).toHaveLength(2);
  });

  it('an expired link is refused, and "not me" stops every mail to the address', async () => {
    const { blockId } = await commentBlock('Expiring');
    const late = inbox('late');
    expect(
      (await postMessage(await newGuest(), blockId, 'hi', { p_creator_email: late })).error,
    ).toBeNull();
    const expired = tokenOf(await confirmationMail(late));
    await sql(
      `update private.mail_consents set token_expires_at = now() - interval '1 second' where email = $1`,
      [late],
    );
    expect(await answerLink(expired, 'confirm')).toMatchObject({ status: 400 });
    expect(
      await sql(
        'select 1 from private.mail_consents where email = $1 and confirmed_at is not null',
        [late],
      ),
    ).toEqual([]);

    const stranger = inbox('stranger');
    const first = await postMessage(await newGuest(), blockId, 'hi', { p_creator_email: stranger });
    expect(first.data).toMatchObject({ email_confirmation: 'pending' });
    const token = tokenOf(await confirmationMail(stranger));
    expect(await answerLink(token, 'not-me')).toMatchObject({
      status: 200,
      json: { data: { outcome: 'declined' } },
    });
    expect(
      await sql('select reason from private.mail_suppressions where email = $1', [stranger]),
    ).toEqual([{ reason: 'not_me' }]);
    // named again the next day: nothing is asked, nothing is sent
    await sql(
      `update private.mail_consents set mailed_at = mailed_at - interval '25 hours' where email = $1`,
      [stranger],
    );
    const again = await postMessage(await newGuest(), blockId, 'hi again', {
      p_creator_email: stranger,
    });
    expect(again.error).toBeNull();
    // told as any address that is not the writer's own confirmed one (hostile-consent.test)
    expect(again.data).toMatchObject({ email_confirmation: 'pending' });
    for (let i = 0; i < 2; i++) await callWorker();
    expect(await mailbox(stranger)).toHaveLength(1);
  });

  it('20 writes naming one address on blocks of three owners mail it one confirmation a day', async () => {
    const target = inbox('target');
    const a = await commentBlock('Block A');
    const b = await commentBlock('Block B');
    const form = await emailForm();
    const guests = await Promise.all(Array.from({ length: 10 }, () => newGuest()));
    const answers = await Promise.all(
      guests.flatMap((guest, i) =>
        [a, b].map(async (block) =>
          postMessage(guest, block.blockId, `note ${i}`, { p_creator_email: target }),
        ),
      ),
    );
    expect(answers.map((r) => r.error)).toEqual(Array(20).fill(null));
    await form.submit(target);
    await confirmationMail(target);
    // one job per address, owner and commenter a day: 20 asking for replies (10 accounts on two
    // owners' blocks), one for the form's owner's letters. One went out; a reply one after it is
    // dropped (many accounts may name one address), the letters one waits a day.
    const jobs = await eventually(async () => {
      await callWorker();
      const rows = await sql<{
        letters: boolean;
        status: string;
        later: boolean;
        skipped: string | null;
      }>(
        `select payload ->> 'commenter_id' is null as letters, status,
                run_at > now() + interval '23 hours' as later, result ->> 'skipped' as skipped
         from private.jobs where kind = 'confirm.mail' and payload ->> 'email' = $1 order by id`,
        [target],
      );
      return rows.some((j) => j.status !== 'done' && !j.later) ? undefined : rows;
    });
    expect(await mailbox(target)).toHaveLength(1);
    expect(jobs.filter((j) => !j.letters)).toHaveLength(20);
    expect(jobs.filter((j) => j.letters)).toHaveLength(1);
    expect(jobs.filter((j) => j.status === 'done' && !j.skipped)).toHaveLength(1);
    const letters = jobs.find((j) => j.letters)!;
    if (letters.status !== 'done' || letters.skipped)
      expect(`${letters.status} ${letters.later}`).toBe('queued true');
    for (const j of jobs.filter((r) => !r.letters && r.skipped))
      expect(j.skipped).toBe('a confirmation went to the address less than a day ago');
  });
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
  it('an address a visitor typed gets no letter until it confirmed it wants them', async () => {
    const form = await emailForm();
    const letterId = await createBlock(form.owner, 'notion_letter');
    await sql(
      `update public.block_private set mail_title = 'News', mail_html = '<p>Our news</p>' where block_id = $1`,
      [letterId],
    );
    const sendToAll = async () =>
      (
        await sql<{ r: { reserved: number } }>(
          `select public.reserve_letter($1, $2, null, 'activated', false, '{"from": "news@example.com"}'::jsonb) as r`,
          [form.owner.id, letterId],
        )
      )[0]!.r;
    const victim = inbox('victim4');
    await form.submit(victim);
    const [member] = await sql<{ id: string; awaiting_confirmation: boolean }>(
      'select id, awaiting_confirmation from public.audience_members where user_id = $1 and email = $2',
      [form.owner.id, victim],
    );
    expect(member?.awaiting_confirmation).toBe(true);
    // the send dialog's count leaves it out and says so; the send skips it
    expect((await form.owner.client.rpc('letter_send_groups')).data).toEqual([
      { name: 'activated', email_count: 0, skip_count: 0, awaiting_count: 1 },
    ]);
    expect(await sendToAll()).toMatchObject({ reserved: 0 });
    // the owner cannot mark it confirmed (no column grant), nor add a second member for it
    const marked = await form.owner.client
      .from('audience_members')
      .update({ awaiting_confirmation: false })
      .eq('id', member!.id);
    expect(marked.error?.message).toMatch(/permission denied/);

    const mail = await confirmationMail(victim);
    expect(mail.subject).toBe('Confirm that you want to receive letters');
    expect(mail.html).toContain('given in a form on a site that uses Reaction Blocks');
    expect(mail.html).not.toMatch(/Join the list|Bakery/);
    expect(await answerLink(tokenOf(mail), 'confirm')).toMatchObject({
      status: 200,
      json: { data: { outcome: 'confirmed', scope: 'letters' } },
    });
    expect(
      await sql('select awaiting_confirmation from public.audience_members where id = $1', [
        member!.id,
      ]),
    ).toEqual([{ awaiting_confirmation: false }]);
    expect(await sendToAll()).toMatchObject({ reserved: 1 });
    // an address the owner adds by hand is theirs to answer for: active at once
    const added = await form.owner.client
      .from('audience_members')
      .insert({ creator_name: 'By hand', email: inbox('hand') })
      .select('awaiting_confirmation')
      .single();
    expect(added.data).toEqual({ awaiting_confirmation: false });
  });
});
