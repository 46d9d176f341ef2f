// A letter a form sends by itself (issue 18; schemas/letter-triggers.sql): a mail question names
// one of the owner's letters, and each response's address gets it through the jobs queue, from
// the owner's verified sender, with the unsubscribe footer and headers, counted in the letter's
// automatic send. Hostile cases: someone else's letter, a response sent again, an unpaid owner,
// an unsubscribed address, the provider down.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOTION_PAGE_URL } from '../local/providers/pages/fixtures.ts';
import { DELIVERY_SKIP_REASONS, LETTER_MESSAGES } from '@reaction-blocks/contracts/letters';
import { callFunction, newGuest, newUser, sql, type TestUser } from './support/clients.ts';
import { callWorker } from './support/worker.ts';
import { eventually, inbox, mailbox, sesControl } from './support/providers.ts';
import { createBlock } from './support/drafts.ts';
import { answerLink, confirmationMail, emailForm, preconfirm, tokenOf } from './support/consent.ts';
import {
  recordingClient,
  SEND_CHECK_CALLS,
  useFunctionEnv,
  type RestCall,
} from './support/function-calls.ts';
import type { ClaimedJob } from '../functions/_shared/claimed-job.ts';
import { letterTriggerHandler } from '../functions/_shared/letter/trigger-jobs.ts';
import { sesMailer } from '../functions/_shared/mail.ts';

const runWorker = () => callWorker();

interface Setup {
  owner: TestUser;
  sender: string;
  letterId: string;
  formId: string;
  questionId: string;
}

/**
 * A paid owner with a verified sender, a saved letter (a Notion page) and a form whose mail
 * question sends it (and, unless `asVisitorInfo` is null, is the form's visitor email).
 */
async function formWithLetter(asVisitorInfo: 'email' | null = 'email'): Promise<Setup> {
  const owner = await newUser('trigger');
  await sql(
    'update public.profiles set paid = true, response_monthly_limit = 1000, block_limit = 20 where id = $1',
    [owner.id],
  );
  const sender = `writer-${randomUUID().slice(0, 8)}@ses-ready.example`;
  await sesControl('/identities', { identity: sender, verified: true, status: 'SUCCESS' });
  await sql(
    `insert into public.sender_emails (user_id, email, status, spf_verified, dkim_verified, confirmed_at)
     values ($1, $2, 'verified', true, true, now())`,
    [owner.id, sender],
  );
  const letterId = await createBlock(owner, 'notion_letter');
  const loaded = await callFunction(
    'web-to-template',
    { blockId: letterId, mode: 'notion', pageUrl: NOTION_PAGE_URL },
    owner.accessToken,
  );
  const l = loaded.json.data as { title: string; pageUrl: string; letter: unknown };
  const saved = await callFunction(
    'save-letter',
    {
      blockId: letterId,
      letter: {
        title: 'Welcome aboard',
        mailFrom: sender,
        mailName: 'Letter Writer',
        pageUrl: l.pageUrl,
        model: l.letter,
      },
    },
    owner.accessToken,
  );
  expect(saved.json.error, JSON.stringify(saved.json.error)).toBeUndefined();
  const formId = await createBlock(owner, 'form');
  const questionId = randomUUID();
  const res = await callFunction(
    'save-block',
    {
      blockId: formId,
      questions: [
        {
          id: questionId,
          type: 'mail',
          title: 'Your email',
          required: true,
          index: 0,
          placeholder: null,
          allow_multi_select: false,
          as_visitor_info: asVisitorInfo,
          trigger_letter_block: letterId,
          content: null,
          image_src: null,
          deleted: false,
          options: [],
        },
      ],
    },
    owner.accessToken,
  );
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return { owner, sender, letterId, formId, questionId };
}

/** A response with `email`, an address that confirmed the owner's letters unless `confirmed` is false. */
async function submit(s: Setup, email: string, visitor?: TestUser, confirmed = true) {
  if (confirmed) await preconfirm(email, s.owner.id);
  const guest = visitor ?? (await newGuest());
  const { data, error } = await guest.client.rpc('submit_response', {
    p_block_id: s.formId,
    p_answers: { [s.questionId]: email },
  });
  expect(error).toBeNull();
  return { guest, responseId: (data as { id: string }).id };
}

const triggerJobs = (responseId: string) =>
  sql<{ id: number; status: string; result: Record<string, unknown> | null }>(
    `select id, status, result from private.jobs
     where kind = 'letter.trigger' and payload ->> 'response_id' = $1 order by id`,
    [responseId],
  );

/** Runs the worker until the response's trigger job is done; answers its result. */
function triggered(responseId: string) {
  return eventually(async () => {
    await runWorker();
    const [job] = await triggerJobs(responseId);
    return job?.status === 'done' && (job.result ?? {});
  });
}

/** The confirmation mails asked for an address (its `confirm.mail` jobs). */
const consentAsks = (email: string) =>
  sql(`select id from private.jobs where kind = 'confirm.mail' and payload ->> 'email' = $1`, [
    email,
  ]);

/** Fills the owner's month (a limit of 1000) but one unit: the next response takes the last. */
const oneUnitLeft = (s: Setup) =>
  sql(
    `insert into private.response_counts (user_id, month, shard, count)
       select $1, date_trunc('month', now())::date, g, private.quota_share(1000, g) - (g = 0)::integer
       from generate_series(0, 31) g
     on conflict (user_id, month, shard) do update set count = excluded.count`,
    [s.owner.id],
  );

const automaticSend = async (s: Setup) =>
  (
    await s.owner.client
      .from('publishes')
      // as the letter history reads it, with the form's name
      .select('*, trigger_block:blocks!publishes_trigger_block_id_fkey(name)')
      .eq('block_id', s.letterId)
      .eq('trigger_block_id', s.formId)
      .maybeSingle()
  ).data as Record<string, unknown> | null;

describe('a letter a form sends by itself', () => {
  it('goes to the respondent from the owner’s sender, with the footer and one-click unsubscribe, counted in the automatic send', async () => {
    const s = await formWithLetter();
    const to = inbox('respondent');
    const { responseId } = await submit(s, to.toUpperCase());
    // queued in the submit's own transaction (the schedule's worker may have it by now)
    expect((await triggerJobs(responseId)).map((j) => j.status)).toEqual([
      expect.stringMatching(/^(queued|running|done)$/),
    ]);
    const mail = await eventually(async () => {
      await runWorker();
      return (await mailbox(to))[0];
    });
    expect(mail.subject).toBe('Welcome aboard');
    expect(mail.from).toContain(s.sender);
    expect(mail.html).toContain('Delivered by Letter Writer with Reaction Blocks.');
    expect(mail.html).toMatch(/\/unsubscribe\?token=/);
    expect(mail.headers['List-Unsubscribe']).toMatch(
      /^<http.*\/functions\/v1\/unsubscribe\?token=.+>$/,
    );
    expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    await eventually(
      async () => {
        const send = await automaticSend(s);
        return send?.reserved_count === 1 && send.sent_count === 1 && send.delivered_count === 1;
      },
      undefined,
      () => automaticSend(s),
    );
    expect(await automaticSend(s)).toMatchObject({
      trigger_block_id: s.formId,
      trigger_block: { name: expect.any(String) },
      group_name: null,
    });
    // the owner's choices say which letters a question may send
    const { data: choices } = await s.owner.client.rpc('trigger_letter_choices');
    expect(choices).toEqual([
      {
        id: s.letterId,
        name: expect.any(String),
        type: 'notion_letter',
        has_html: true,
        sender_verified: true,
      },
    ]);
    const stranger = await newUser('stranger');
    expect((await stranger.client.rpc('trigger_letter_choices')).data).toEqual([]);
  });

  it('never twice: the same response queued again, or the address answering again, sends nothing more', async () => {
    const s = await formWithLetter();
    const to = inbox('twice');
    const first = await submit(s, to);
    await triggered(first.responseId);
    await eventually(async () => {
      await runWorker();
      return (await mailbox(to)).length === 1;
    });
    // the same response's jobs once more: the dedupe key keeps one
    await sql(
      `select private.enqueue_trigger_letters(b, $2::uuid, jsonb_build_object($3::text, '{}'::jsonb))
       from public.blocks b where b.id = $1`,
      [s.formId, first.responseId, s.questionId],
    );
    expect(await triggerJobs(first.responseId)).toHaveLength(1);
    // another response with the same address (a resubmit), from the same visitor
    const again = await submit(s, to, first.guest);
    expect(await triggered(again.responseId)).toMatchObject({
      skipped: 'the letter already went to this address',
    });
    for (let i = 0; i < 2; i++) await runWorker();
    expect(await mailbox(to)).toHaveLength(1);
    expect(await automaticSend(s)).toMatchObject({ reserved_count: 1 });
  });

  it('waits until an address a visitor typed confirms: the confirmation names the owner’s sender, then the letter goes once', async () => {
    const s = await formWithLetter();
    const to = inbox('unconfirmed');
    const { responseId } = await submit(s, to, undefined, false);
    expect(await triggered(responseId)).toMatchObject({
      skipped: 'the address has not confirmed yet',
      awaiting: to,
    });
    const mail = await confirmationMail(to);
    expect(mail.html).toContain(s.sender);
    expect(await mailbox(to)).toHaveLength(1);
    expect(await answerLink(tokenOf(mail), 'confirm')).toMatchObject({ status: 200 });
    const letter = await eventually(async () => {
      await runWorker();
      return (await mailbox(to)).find((m) => m.subject === 'Welcome aboard');
    });
    expect(letter.from).toContain(s.sender);
    for (let i = 0; i < 2; i++) await runWorker();
    expect(await mailbox(to)).toHaveLength(2);
  });

  it('skips an unsubscribed address and says why in the history', async () => {
    const s = await formWithLetter();
    const to = inbox('gone');
    await sql('insert into public.unsubscribes (user_id, email) values ($1, $2)', [s.owner.id, to]);
    const { responseId } = await submit(s, to);
    expect(await triggered(responseId)).toMatchObject({
      skipped: DELIVERY_SKIP_REASONS.unsubscribed,
    });
    expect(await automaticSend(s)).toMatchObject({ reserved_count: 0, skipped_count: 1 });
    const { data } = await s.owner.client.from('deliveries').select('email, status, reason');
    expect(data).toEqual([
      { email: to, status: 'skipped', reason: DELIVERY_SKIP_REASONS.unsubscribed },
    ]);
    expect(await mailbox(to)).toEqual([]);
  });

  // No double opt-in for a letter a form sends by itself (docs/architecture.md): its way out is
  // the footer and the one-click header of that one letter, and it must close every letter of
  // the owner to the address.
  it('the respondent’s way out: one-click unsubscribe in the triggered letter stops the owner’s later letters', async () => {
    const s = await formWithLetter();
    const to = inbox('optout');
    await submit(s, to);
    const mail = await eventually(async () => {
      await runWorker();
      return (await mailbox(to))[0];
    });
    // as a mail client does it (RFC 8058), from the header of the triggered letter
    const link = /<([^>]+)>/.exec(mail.headers['List-Unsubscribe']!)![1]!;
    const info = await fetch(link);
    expect(await info.json()).toMatchObject({ data: { scope: 'letter' } });
    const click = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(click.status).toBe(200);
    await click.body?.cancel();
    expect(
      await sql('select 1 from public.unsubscribes where user_id = $1 and email = $2', [
        s.owner.id,
        to,
      ]),
    ).toHaveLength(1);
    // the owner's manual send to the address skips it, and says why
    const sent = await callFunction(
      'send-letter',
      { blockId: s.letterId, emailList: [to, inbox('still-in')] },
      s.owner.accessToken,
    );
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    const { data: skipped } = await s.owner.client
      .from('deliveries')
      .select('email, status, reason')
      .eq('email', to)
      .eq('status', 'skipped');
    expect(skipped).toEqual([
      { email: to, status: 'skipped', reason: DELIVERY_SKIP_REASONS.unsubscribed },
    ]);
    for (let i = 0; i < 2; i++) await runWorker();
    expect(await mailbox(to)).toHaveLength(1);
  });

  // rev-mission D1: a stranger typing the address of someone who unsubscribed from the owner (or
  // whom the platform suppresses) must not make the owner mail them, not even a confirmation
  // that could lead to no letter. Decision: a yes never opts an unsubscribed address back in.
  it('asks nothing of an address that unsubscribed from the owner or is suppressed, and sends nothing', async () => {
    const s = await formWithLetter();
    const gone = inbox('gone-unconfirmed');
    await sql('insert into public.unsubscribes (user_id, email) values ($1, $2)', [
      s.owner.id,
      gone,
    ]);
    const first = await submit(s, gone, undefined, false);
    const result = await triggered(first.responseId);
    expect(result).toMatchObject({ skipped: DELIVERY_SKIP_REASONS.unsubscribed });
    expect(result).not.toHaveProperty('awaiting');
    const suppressed = inbox('suppressed-unconfirmed');
    await sql(`insert into private.mail_suppressions (email, reason) values ($1, 'complaint')`, [
      suppressed,
    ]);
    const second = await submit(s, suppressed, undefined, false);
    expect(await triggered(second.responseId)).toEqual({ skipped: 'the address is suppressed' });
    for (let i = 0; i < 2; i++) await runWorker();
    expect(await consentAsks(gone)).toEqual([]);
    expect(await consentAsks(suppressed)).toEqual([]);
    expect(await mailbox(gone)).toEqual([]);
    expect(await mailbox(suppressed)).toEqual([]);
    const { data } = await s.owner.client.from('deliveries').select('email, status, reason');
    expect(data).toEqual([
      { email: gone, status: 'skipped', reason: DELIVERY_SKIP_REASONS.unsubscribed },
    ]);
  });

  // rev-mission D2, D4: every check that skips the send comes before the consent ask, so no
  // confirmation goes out (and none of the owner's daily cap is spent) for a letter that cannot
  // go; and the editor's choices call an empty letter what the send calls it
  it('asks no confirmation for a letter that cannot go: unpaid owner, deactivated or empty letter', async () => {
    const s = await formWithLetter(null);
    const cases: [string, string, string][] = [
      [
        'update public.profiles set paid = false where id = $1',
        s.owner.id,
        'a paid plan is required',
      ],
      [
        'update public.blocks set deactivated = true where id = $1',
        s.letterId,
        'the letter is deactivated',
      ],
      [
        "update public.block_private set mail_html = '' where block_id = $1",
        s.letterId,
        'the letter has no content yet',
      ],
      // a stored letter the rules now refuse (saved before 3031f41d), as send-letter refuses it
      // (named before the empty mail, which the database checks after it)
      [
        `update public.block_private set letter = jsonb_set(letter, '{blocks,0}',
           '{"id": "old", "type": "image", "src": "https://user:pw@cdn.example.com/a.png"}')
         where block_id = $1`,
        s.letterId,
        LETTER_MESSAGES.saveLetterAgain,
      ],
      // a letter with a mail but no stored model (a copy made before 20261129120906): its mail,
      // rendered under older rules, is not sent until the letter is saved (break5 F1)
      [
        `update public.block_private set letter = null,
           mail_html = '<p>An old copy</p><img src="https://user:pw@cdn.example.com/a.png">'
         where block_id = $1`,
        s.letterId,
        LETTER_MESSAGES.saveLetterFirst,
      ],
    ];
    for (const [i, [change, id, reason]] of cases.entries()) {
      await sql('update public.profiles set paid = true where id = $1', [s.owner.id]);
      await sql('update public.blocks set deactivated = false where id = $1', [s.letterId]);
      await sql(change, [id]);
      const to = inbox(`cannot-go-${i}`);
      const { responseId } = await submit(s, to, undefined, false);
      expect(await triggered(responseId)).toEqual({ skipped: reason });
      for (let j = 0; j < 2; j++) await runWorker();
      expect(await consentAsks(to)).toEqual([]);
      expect(await mailbox(to)).toEqual([]);
    }
    expect(await automaticSend(s)).toBeNull();
    // the editor's choices call an empty letter what the send calls it
    await sql("update public.block_private set mail_html = '' where block_id = $1", [s.letterId]);
    const { data: choices } = await s.owner.client.rpc('trigger_letter_choices');
    expect(choices).toMatchObject([{ id: s.letterId, has_html: false }]);
  });

  // Decision (docs/data-model.md, "A typed address is asked when letters can follow"): the form's
  // visitor email of an owner who cannot send letters to their audience (not paid) is kept,
  // awaiting, and asked nothing; given again once the owner is paid, it is asked
  it('the form’s visitor email asks nothing for an unpaid owner; given again once they are paid, it is asked', async () => {
    const form = await emailForm();
    await sql('update public.profiles set paid = false where id = $1', [form.owner.id]);
    const to = inbox('unpaid-visitor');
    const guest = await newGuest();
    await form.submit(to, guest);
    expect(await consentAsks(to)).toEqual([]);
    const { data: members } = await form.owner.client
      .from('audience_members')
      .select('email, awaiting_confirmation');
    expect(members).toEqual([{ email: to, awaiting_confirmation: true }]);
    await sql('update public.profiles set paid = true where id = $1', [form.owner.id]);
    await form.submit(to, guest);
    expect(await consentAsks(to)).toHaveLength(1);
    await confirmationMail(to);
  });

  // an address that unsubscribed from the owner after it was asked, then confirms: its yes opts
  // nothing back in, so the letter it waited for is not queued again (it would only be skipped)
  it('an address that unsubscribed after its ask and then confirms queues no letter', async () => {
    const s = await formWithLetter();
    const to = inbox('unsubscribed-after-ask');
    const { responseId } = await submit(s, to, undefined, false);
    expect(await triggered(responseId)).toMatchObject({ awaiting: to });
    const mail = await confirmationMail(to);
    await sql('insert into public.unsubscribes (user_id, email) values ($1, $2)', [s.owner.id, to]);
    expect(await answerLink(tokenOf(mail), 'confirm')).toMatchObject({ status: 200 });
    expect(await triggerJobs(responseId)).toHaveLength(1);
    for (let i = 0; i < 2; i++) await runWorker();
    expect(await automaticSend(s)).toBeNull();
    expect(await mailbox(to)).toHaveLength(1);
  });

  it('sends nothing for an owner whose plan ended, or past the month’s quota', async () => {
    const s = await formWithLetter();
    await sql('update public.profiles set paid = false where id = $1', [s.owner.id]);
    const unpaid = inbox('unpaid');
    const { responseId } = await submit(s, unpaid);
    expect(await triggered(responseId)).toEqual({ skipped: 'a paid plan is required' });
    expect(await automaticSend(s)).toBeNull();

    // paid again, with room for one more unit this month: the response takes it, the letter
    // finds none (responses and emails share the monthly quota, as the spec has it)
    await sql('update public.profiles set paid = true where id = $1', [s.owner.id]);
    await oneUnitLeft(s);
    const over = inbox('over');
    const next = await submit(s, over);
    expect(await triggered(next.responseId)).toMatchObject({
      skipped: DELIVERY_SKIP_REASONS.quota,
    });
    expect(await automaticSend(s)).toMatchObject({ reserved_count: 0, skipped_count: 1 });
    for (let i = 0; i < 2; i++) await runWorker();
    expect(await mailbox(unpaid)).toEqual([]);
    expect(await mailbox(over)).toEqual([]);
  });

  // rev-fixes2 D7: the month's quota is a skip check too, so an address that has not confirmed is
  // asked nothing when the response took the month's last unit (the ask went, and its yes only
  // queued a letter skipped for the quota)
  it('past the month’s quota, an address that has not confirmed is asked nothing', async () => {
    const s = await formWithLetter(null);
    await oneUnitLeft(s);
    const to = inbox('over-unconfirmed');
    const { responseId } = await submit(s, to, undefined, false);
    const result = await triggered(responseId);
    expect(result).toMatchObject({ skipped: DELIVERY_SKIP_REASONS.quota });
    expect(result).not.toHaveProperty('awaiting');
    for (let i = 0; i < 2; i++) await runWorker();
    expect(await consentAsks(to)).toEqual([]);
    expect(await mailbox(to)).toEqual([]);
    expect(await automaticSend(s)).toMatchObject({ reserved_count: 0, skipped_count: 1 });
  });

  it('a letter that is not the form owner’s is never sent, whatever a job or an answer names', async () => {
    const s = await formWithLetter();
    const victim = await formWithLetter();
    // a visitor's answer naming another letter is just an answer
    const to = inbox('hostile');
    await preconfirm(to, s.owner.id);
    const guest = await newGuest();
    const { data, error } = await guest.client.rpc('submit_response', {
      p_block_id: s.formId,
      p_answers: { [s.questionId]: { value: to, trigger_letter_block: victim.letterId } },
    });
    expect(error).toBeNull();
    await triggered((data as { id: string }).id);
    await eventually(async () => {
      await runWorker();
      return (await mailbox(to)).length === 1;
    });
    expect((await mailbox(to))[0]!.from).toContain(s.sender);
    // a job forged to name the victim's letter for the attacker's form and response
    const forged = inbox('forged');
    const { responseId } = await submit(s, forged);
    await sql(
      `insert into private.jobs (kind, payload, dedupe_key) values ('letter.trigger',
         jsonb_build_object('response_id', $1::text, 'question_id', $2::text, 'form_block_id', $3::text,
                            'letter_block_id', $4::text, 'owner_id', $5::text), 'forged:' || $1)`,
      [responseId, s.questionId, s.formId, victim.letterId, victim.owner.id],
    );
    await eventually(async () => {
      await runWorker();
      const jobs = await triggerJobs(responseId);
      return jobs.length === 2 && jobs.every((j) => j.status === 'done') && jobs;
    });
    for (let i = 0; i < 2; i++) await runWorker();
    const mails = await mailbox(forged);
    expect(mails.map((m) => m.subject)).toEqual(['Welcome aboard']);
    expect(mails[0]!.from).toContain(s.sender);
    expect(await automaticSend(victim)).toBeNull();
  });

  it('the provider down: the letter is retried and leaves once when it is back', async () => {
    const s = await formWithLetter();
    const to = inbox('outage');
    await sesControl('', { outageOf: { [to]: true } });
    try {
      const { responseId } = await submit(s, to);
      await triggered(responseId);
      await eventually(async () => {
        await runWorker();
        const [job] = await sql<{ attempts: number; status: string }>(
          `select j.attempts, j.status from private.jobs j
           join public.deliveries d on d.id = (j.payload ->> 'delivery_id')::uuid
           where j.kind = 'letter' and d.email = $1`,
          [to],
        );
        return job && job.attempts >= 1 && job.status === 'queued';
      });
      expect(await mailbox(to)).toEqual([]);
    } finally {
      await sesControl('', { outageOf: { [to]: false } });
    }
    await sql(
      `update private.jobs set run_at = now() where kind = 'letter' and status = 'queued'
         and payload ->> 'delivery_id' in (select id::text from public.deliveries where email = $1)`,
      [to],
    );
    await eventually(async () => {
      await runWorker();
      return (await mailbox(to)).length === 1;
    });
    for (let i = 0; i < 2; i++) await runWorker();
    expect(await mailbox(to)).toHaveLength(1);
    await eventually(async () => (await automaticSend(s))?.sent_count === 1);
  });

  it('a letter without a verified sender is not sent, and the choices say so', async () => {
    const s = await formWithLetter();
    await sql('delete from public.sender_emails where user_id = $1', [s.owner.id]);
    const { data: choices } = await s.owner.client.rpc('trigger_letter_choices');
    expect(choices).toMatchObject([{ id: s.letterId, has_html: true, sender_verified: false }]);
    const to = inbox('nosender');
    const { responseId } = await submit(s, to);
    expect(await triggered(responseId)).toMatchObject({
      skipped: expect.stringMatching(/sender/i),
    });
    for (let i = 0; i < 2; i++) await runWorker();
    expect(await mailbox(to)).toEqual([]);
  });
});

describe('the calls a response’s letter makes (the worker’s code run here)', () => {
  beforeAll(useFunctionEnv);
  afterAll(() => {
    vi.unstubAllGlobals();
    vi.unstubAllEnvs();
  });

  /** A letter.trigger job of the response, held as the worker's claim holds it (running). */
  async function claimed(s: Setup, responseId: string, n: number): Promise<ClaimedJob> {
    const [job] = await sql<ClaimedJob>(
      `insert into private.jobs (kind, payload, dedupe_key, status, attempts, locked_until)
       values ('letter.trigger',
               jsonb_build_object('response_id', $1::text, 'question_id', $2::text,
                                  'form_block_id', $3::text, 'letter_block_id', $4::text,
                                  'owner_id', $5::text),
               'calls:' || $1 || ':' || $6, 'running', 1, now() + interval '1 hour')
       returning id, kind, payload, attempts, max_attempts, group_key, created_at`,
      [responseId, s.questionId, s.formId, s.letterId, s.owner.id, n],
    );
    return job!;
  }

  /** One batch of the handler with a client that records its calls: the outcome and the calls. */
  async function prepared(job: ClaimedJob) {
    const { db, calls } = recordingClient();
    const [outcome] = await letterTriggerHandler.prepare([job], { db, mailer: sesMailer() });
    await sql(`update private.jobs set status = 'done', finished_at = now() where id = $1`, [
      job.id,
    ]);
    return { outcome, calls: calls.map((c) => c.call).sort(), reads: calls };
  }

  /** Reserved by this batch, or by the stack's worker first (the response's own job): not skipped. */
  const RESERVED = {
    status: 'done',
    result: expect.toSatisfy(
      (r: Record<string, unknown>) =>
        typeof r.delivery_id === 'string' ||
        r.skipped === 'the letter already went to this address',
    ),
  };

  /** For each read of the letter block: whether it took the stored letter too. */
  const letterRead = (reads: RestCall[]) =>
    reads.filter((r) => r.call === 'GET blocks').map((r) => /\bletter\b/.test(r.select ?? ''));

  it('reads the letter block with its private row once; the stored model only when the letter changed', async () => {
    const s = await formWithLetter();
    const calls = [...SEND_CHECK_CALLS, 'POST rpc/reserve_trigger_letter'];
    // before: a second read of block_private for the check (6 calls), the model in every batch
    const first = await prepared(
      await claimed(s, (await submit(s, inbox('calls-1'))).responseId, 1),
    );
    expect(first.outcome).toEqual(RESERVED);
    expect(first.calls).toEqual(calls);
    expect(letterRead(first.reads)).toEqual([true]);
    // the next response, in a batch of its own: the verdict of the letter as it was saved is known
    const second = await prepared(
      await claimed(s, (await submit(s, inbox('calls-2'))).responseId, 2),
    );
    expect(second.outcome).toEqual(RESERVED);
    expect(second.calls).toEqual(calls);
    expect(letterRead(second.reads)).toEqual([false]);
    // changed since (a rule's refusal in it, as BRK-5's): read and checked again, and skipped
    await sql(
      `update public.block_private
          set letter = jsonb_set(letter, '{blocks}', (letter -> 'blocks') || $2::jsonb)
        where block_id = $1`,
      [
        s.letterId,
        JSON.stringify([{ id: 'old', type: 'image', src: 'https://u:p@x.example/a.png' }]),
      ],
    );
    const third = await prepared(
      await claimed(s, (await submit(s, inbox('calls-3'))).responseId, 3),
    );
    expect(third.outcome).toEqual({
      status: 'done',
      result: { skipped: LETTER_MESSAGES.saveLetterAgain },
    });
    expect(letterRead(third.reads)).toEqual([false, true]);
  });
});
