// The workspace's save path: the save-block edge function (validated with ZSaveBlock) and the
// public.save_block SQL function behind it (service role only, one transaction). Through the
// official supabase-js client, as the dashboard calls it; the database is read back directly to
// prove that refused saves change nothing. Here what the owner saves, who may save and
// concurrent saves; what is refused (bad payloads, paid-only features, writes around the
// function) in save-block-refusals.test.ts; the owners and the before/after check both use in
// support/drafts.ts.
import { describe, expect, it } from 'vitest';
import * as drafts from './support/drafts.ts';
import { expectRefused, owner, paidForm, snapshot } from './support/drafts.ts';
import { XSS_PAYLOADS } from './support/xss-payloads.ts';
import { anonClient, newGuest, readRow, sql } from './support/clients.ts';

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

const BLOCK_LIMITS_FOR_TEST = { questions: 20, endings: 30 } as const;

/** The list cut into batches of at most `size` (one save per batch). */
function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

// ---------------------------------------------------------------------------------------------
// the owner saves and reads back
// ---------------------------------------------------------------------------------------------

describe('save-block: the owner', () => {
  it('saves settings and private settings of a comment block and reads them back', async () => {
    const user = await owner();
    const blockId = await drafts.createBlock(user, 'comment');
    const settings = {
      name: 'Guest book',
      welcome_message: 'Say hi ($responseCount$ so far)',
      placeholder: 'Your words',
      language: 'ko',
      admin_only_reply: true,
      custom_label_name: { admin: 'Host', me: 'You' },
    };
    const res = await drafts.save(user.client, {
      blockId,
      settings,
      privateSettings: { mail_to: 'notify@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.data?.block).toMatchObject({ name: 'Guest book', language: 'ko' });
    expect(res.data?.private).toMatchObject({ mail_to: 'notify@example.com' });

    expect(
      await readRow(user.client, 'blocks', { id: blockId }, Object.keys(settings).join(', ')),
    ).toEqual(settings);
    expect(await readRow(user.client, 'block_private', { block_id: blockId }, 'mail_to')).toEqual({
      mail_to: 'notify@example.com',
    });

    // an empty notification address clears it
    const cleared = await drafts.save(user.client, { blockId, privateSettings: { mail_to: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.data?.private).toMatchObject({ mail_to: null });
  });

  it('saves a form: questions with options, a custom ending with a condition, in one call', async () => {
    const { user, blockId, fallback } = await paidForm();
    const poll = drafts.question({
      type: 'poll',
      title: 'Pick one',
      index: 0,
      options: [drafts.option('Red', 0), drafts.option('Blue', 1)],
    });
    const name = drafts.question({ title: 'Your name', index: 1, as_visitor_info: 'name' });
    const custom = drafts.ending({
      index: 1,
      title: 'Blue fans',
      closing_text: '<b>Blue!</b>',
      conditions: [drafts.condition(poll.id, { type: 'equal', value: 'Blue' })],
    });
    const res = await drafts.save(user.client, {
      blockId,
      settings: { submit_button_text: 'Send it' },
      questions: [poll, name],
      endings: [{ ...fallback, closing_text: 'Thanks a lot' }, custom],
    });
    expect(res.status).toBe(200);
    expect(res.data?.questions.map((q) => q.id)).toEqual([poll.id, name.id]);
    expect(res.data?.questions[0]?.options.map((o) => o.id)).toEqual(poll.options.map((o) => o.id));
    expect(res.data?.endings.map((e) => e.id)).toEqual([fallback.id, custom.id]);

    // what a visitor's element reads
    const view = await anonClient().rpc('get_block_view', { p_block_id: blockId });
    expect(view.error).toBeNull();
    const v = view.data as {
      block: { submit_button_text: string };
      questions: { title: string; options: { value: string }[] }[];
      endings: { closing_text: string; conditions: { question_id: string; value: string }[] }[];
    };
    expect(v.block.submit_button_text).toBe('Send it');
    expect(v.questions.map((q) => q.title)).toEqual(['Pick one', 'Your name']);
    expect(v.questions[0]?.options.map((o) => o.value)).toEqual(['Red', 'Blue']);
    expect(v.endings.map((e) => e.closing_text)).toEqual(['Thanks a lot', '<b>Blue!</b>']);
    expect(v.endings[1]?.conditions).toMatchObject([{ question_id: poll.id, value: 'Blue' }]);
  });

  it('soft deletes questions and options, removes options of text questions, deletes absent custom endings', async () => {
    const { user, blockId, fallback } = await paidForm();
    const poll = drafts.question({
      type: 'poll',
      index: 0,
      options: [drafts.option('A', 0), drafts.option('B', 1)],
    });
    const text = drafts.question({ index: 1, title: 'Tell us' });
    const extra = drafts.question({ index: 2, title: 'Gone soon' });
    const custom = drafts.ending({ conditions: [drafts.condition(text.id)] });
    expect(
      (
        await drafts.save(user.client, {
          blockId,
          questions: [poll, text, extra],
          endings: [fallback, custom],
        })
      ).status,
    ).toBe(200);
    // a visitor answered the poll: its count must survive the save
    await sql('update public.options set response_count = 3 where id = $1', [poll.options[0]!.id]);

    const res = await drafts.save(user.client, {
      blockId,
      questions: [
        // poll becomes a text question: its options go
        { ...poll, type: 'short_text', index: 1 },
        { ...text, index: 0, options: [] },
        { ...extra, deleted: true, index: 9999 },
      ],
      endings: [fallback],
    });
    expect(res.status).toBe(200);
    expect(res.data?.questions.map((q) => q.id)).toEqual([text.id, poll.id]);
    const rows = await sql<{ id: string; deleted: boolean; type: string }>(
      'select id, deleted, type from public.questions where block_id = $1 order by index',
      [blockId],
    );
    expect(rows).toEqual([
      { id: text.id, deleted: false, type: 'short_text' },
      { id: poll.id, deleted: false, type: 'short_text' },
      { id: extra.id, deleted: true, type: 'short_text' },
    ]);
    expect(await sql('select id from public.options where block_id = $1', [blockId])).toEqual([]);
    expect(
      await sql<{ id: string }>('select id from public.endings where block_id = $1', [blockId]),
    ).toEqual([{ id: fallback.id }]);
    expect(
      await sql('select id from public.ending_conditions where block_id = $1', [blockId]),
    ).toEqual([]);

    // a soft delete is final: sending the question again as not deleted keeps it deleted
    const again = await drafts.save(user.client, {
      blockId,
      questions: [
        { ...text, index: 0 },
        { ...poll, type: 'short_text', index: 1 },
        { ...extra, index: 2 },
      ],
    });
    expect(again.status).toBe(200);
    const [kept] = await sql<{ deleted: boolean }>(
      'select deleted from public.questions where id = $1',
      [extra.id],
    );
    expect(kept?.deleted).toBe(true);
  });

  it('keeps option counts, and soft deletes an option missing from the list', async () => {
    const user = await owner();
    const blockId = await drafts.createBlock(user, 'form');
    const poll = drafts.question({
      type: 'poll',
      options: [drafts.option('A', 0), drafts.option('B', 1), drafts.option('C', 2)],
    });
    expect((await drafts.save(user.client, { blockId, questions: [poll] })).status).toBe(200);
    const [a, b, c] = poll.options;
    await sql('update public.options set response_count = 4 where id = $1', [a!.id]);
    const res = await drafts.save(user.client, {
      blockId,
      questions: [
        {
          ...poll,
          options: [
            { ...a!, value: 'Apple' },
            { ...c!, index: 1 },
          ],
        },
      ],
    });
    expect(res.status).toBe(200);
    const rows = await sql<{ id: string; value: string; response_count: number; deleted: boolean }>(
      'select id, value, response_count, deleted from public.options where question_id = $1 order by value',
      [poll.id],
    );
    expect(rows).toEqual([
      { id: a!.id, value: 'Apple', response_count: 4, deleted: false },
      { id: b!.id, value: 'B', response_count: 0, deleted: true },
      { id: c!.id, value: 'C', response_count: 0, deleted: false },
    ]);
  });

  it('saves the ab block question with its two options', async () => {
    const user = await owner();
    const blockId = await drafts.createBlock(user, 'ab');
    const ab = await drafts.abQuestion(user, blockId);
    const res = await drafts.save(user.client, {
      blockId,
      questions: [
        {
          ...ab,
          title: 'Cats or dogs?',
          options: ab.options.map((o, i) => ({ ...o, value: i === 0 ? 'Cats' : 'Dogs' })),
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.data?.questions[0]).toMatchObject({ title: 'Cats or dogs?' });
  });
});

// ---------------------------------------------------------------------------------------------
// who may save
// ---------------------------------------------------------------------------------------------

describe('save-block: owner-written HTML is sanitised before it is stored', () => {
  // The XSS table of sanitize-html.test.ts, through the function as the dashboard calls it:
  // what the database holds and what a visitor's element reads are the sanitised HTML.
  it.each(chunks(XSS_PAYLOADS, BLOCK_LIMITS_FOR_TEST.questions))(
    'payloads %#',
    async (...batch) => {
      const user = await owner(true);
      const blockId = await drafts.createBlock(user, 'form');
      const questions = batch.map(([name, input], i) =>
        drafts.question({
          type: 'description',
          title: name,
          index: i,
          required: false,
          content: input,
        }),
      );
      const res = await drafts.save(user.client, { blockId, questions });
      expect(res.status).toBe(200);
      const expected = batch.map(([, , out]) => out);
      expect(res.data?.questions.map((q) => q.content)).toEqual(expected);
      const stored = await sql<{ content: string }>(
        'select content from public.questions where block_id = $1 order by index',
        [blockId],
      );
      expect(stored.map((r) => r.content)).toEqual(expected);
      const view = await anonClient().rpc('get_block_view', { p_block_id: blockId });
      expect(
        (view.data as { questions: { content: string }[] }).questions.map((q) => q.content),
      ).toEqual(expected);
    },
  );

  // An ending's closing text is HTML too (the form shows it as its description): the same table.
  it.each(
    chunks(
      XSS_PAYLOADS.filter(([, input, out]) => input.length <= 1000 && out.length <= 1000),
      BLOCK_LIMITS_FOR_TEST.endings,
    ),
  )('closing texts, payloads %#', async (...batch) => {
    const { user, blockId, fallback } = await paidForm();
    const [[, first], ...rest] = batch as [(typeof batch)[number], ...typeof batch];
    const endings = [
      { ...fallback, closing_text: first },
      ...rest.map(([name, input], i) =>
        drafts.ending({ index: i + 1, title: name, closing_text: input }),
      ),
    ];
    const res = await drafts.save(user.client, { blockId, endings });
    expect(res.status).toBe(200);
    const expected = batch.map(([, , out]) => out);
    const stored = await sql<{ closing_text: string }>(
      'select closing_text from public.endings where block_id = $1 order by index',
      [blockId],
    );
    expect(stored.map((r) => r.closing_text)).toEqual(expected);
  });

  it('refuses HTML that is too long once its links get target and rel, and stores nothing', async () => {
    const user = await owner(true);
    const blockId = await drafts.createBlock(user, 'form');
    const link = '<a href="https://a.test/">x</a>';
    const content = link.repeat(Math.floor(10000 / link.length));
    expect(content.length).toBeLessThanOrEqual(10000);
    await expectRefused(
      user,
      blockId,
      { questions: [drafts.question({ type: 'description', required: false, content })] },
      400,
      'Too long message (questions.0.content)',
    );
  });
});

describe('save-block: only the owner', () => {
  it('another user cannot save the block ("block doesn\'t exists") and nothing changes', async () => {
    const user = await owner(true);
    const stranger = await owner(true);
    const blockId = await drafts.createBlock(user, 'form');
    await expectRefused(
      stranger,
      blockId,
      { settings: { name: 'Hijacked' }, questions: [drafts.question()] },
      404,
      "block doesn't exists",
    );
  });

  it('an anonymous visitor cannot save it', async () => {
    const user = await owner();
    const blockId = await drafts.createBlock(user, 'like');
    const guest = await newGuest();
    await expectRefused(guest, blockId, { settings: { name: 'Guest was here' } }, 403);
  });

  it('the anon key alone cannot save it', async () => {
    const user = await owner();
    const blockId = await drafts.createBlock(user, 'like');
    await expectRefused({ client: anonClient() }, blockId, { settings: { name: 'Nobody' } }, 401);
  });

  it('client roles cannot call the SQL function directly, not even for their own block', async () => {
    const user = await owner();
    const blockId = await drafts.createBlock(user, 'like');
    const before = await snapshot(blockId);
    const args = {
      p_owner_id: user.id,
      p_block_id: blockId,
      p_payload: { settings: { name: 'Direct' } },
    };
    const direct = await user.client.rpc('save_block', args);
    expect(direct.error).not.toBeNull();
    const anon = await anonClient().rpc('save_block', args);
    expect(anon.error).not.toBeNull();
    expect(await snapshot(blockId)).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------
// concurrency
// ---------------------------------------------------------------------------------------------

describe('save-block: concurrent saves', () => {
  it('run one after the other: the result is exactly one of the saves, never a mix', async () => {
    const { user, blockId, fallback } = await paidForm();
    const lists = Array.from({ length: 6 }, (_, n) =>
      Array.from({ length: 4 }, (_, index) =>
        drafts.question({
          index,
          title: `save ${n}`,
          type: 'poll',
          options: [drafts.option(`a${n}`, 0), drafts.option(`b${n}`, 1)],
        }),
      ),
    );
    const results = await Promise.all(
      lists.map((questions, n) =>
        drafts.save(user.client, {
          blockId,
          settings: { name: `save ${n}` },
          questions,
          endings: [
            fallback,
            drafts.ending({ title: `save ${n}`, conditions: [drafts.condition(questions[0]!.id)] }),
          ],
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(lists.map(() => 200));

    const [{ name } = { name: '' }] = await sql<{ name: string }>(
      'select name from public.blocks where id = $1',
      [blockId],
    );
    const live = await sql<{ title: string }>(
      'select title from public.questions where block_id = $1 and not deleted',
      [blockId],
    );
    const endings = await sql<{ title: string; is_default: boolean }>(
      'select title, is_default from public.endings where block_id = $1 order by is_default desc',
      [blockId],
    );
    const options = await sql<{ value: string }>(
      `select o.value from public.options o join public.questions q on q.id = o.question_id
       where o.block_id = $1 and not o.deleted and not q.deleted`,
      [blockId],
    );
    expect(live).toHaveLength(4);
    expect(new Set(live.map((q) => q.title))).toEqual(new Set([name]));
    expect(endings).toHaveLength(2);
    expect(endings[1]?.title).toBe(name);
    const n = name.replace('save ', '');
    expect(new Set(options.map((o) => o.value))).toEqual(new Set([`a${n}`, `b${n}`]));
    expect(options).toHaveLength(8);
    // every other save's questions are soft deleted, none lost
    const [{ count } = { count: '0' }] = await sql<{ count: string }>(
      'select count(*) from public.questions where block_id = $1',
      [blockId],
    );
    expect(Number(count)).toBe(24);
  });

  it('question lists alone (no settings to update first) do not mix either', async () => {
    const user = await owner(true);
    const blockId = await drafts.createBlock(user, 'form');
    const lists = Array.from({ length: 6 }, (_, n) =>
      Array.from({ length: 3 }, (_, index) => drafts.question({ index, title: `list ${n}` })),
    );
    const results = await Promise.all(
      lists.map((questions) => drafts.save(user.client, { blockId, questions })),
    );
    expect(results.map((r) => r.status)).toEqual(lists.map(() => 200));
    const live = await sql<{ title: string }>(
      'select title from public.questions where block_id = $1 and not deleted',
      [blockId],
    );
    expect(live).toHaveLength(3);
    expect(new Set(live.map((q) => q.title)).size).toBe(1);
  });
});
