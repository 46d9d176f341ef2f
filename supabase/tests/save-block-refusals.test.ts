// What the workspace's save path refuses, each refusal read back from the database to prove it
// changed nothing: bad payloads (the save-block edge function and the public.save_block SQL
// function behind it), paid-only features for a free owner, and writes around the function.
// Through the official supabase-js client, as the dashboard calls it. What the owner saves:
// save-block.test.ts.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as drafts from './support/drafts.ts';
import { expectRefused, owner, paidForm, snapshot } from './support/drafts.ts';
import { serviceClient, sql, type TestUser } from './support/clients.ts';

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

/** The SQL function itself, called past the edge function's schema (service role), refuses
 * `payload` with `message`, and nothing stored changed. */
async function expectSqlRefused(
  ownerId: string,
  blockId: string,
  payload: Record<string, unknown>,
  message: string,
  code = 'P0001',
) {
  const before = await snapshot(blockId);
  const direct = await serviceClient().rpc('save_block', {
    p_owner_id: ownerId,
    p_block_id: blockId,
    p_payload: payload,
  });
  expect(direct.error?.message).toBe(message);
  expect(direct.error?.code).toBe(code);
  expect(await snapshot(blockId)).toEqual(before);
}

// ---------------------------------------------------------------------------------------------
// refused saves change nothing
// ---------------------------------------------------------------------------------------------

describe('save-block: bad payloads fail with the right message and change nothing', () => {
  it('nothing to update', async () => {
    const user = await owner();
    const blockId = await drafts.createBlock(user, 'like');
    await expectRefused(user, blockId, {}, 400, 'nothing to update');
    await expectRefused(user, blockId, { settings: {} }, 400, 'nothing to update');
  });

  // One refused save each, on a new block of a free owner.
  for (const { refusal, type, body, message } of [
    {
      refusal: 'a question type outside the list: "Not valid type"',
      type: 'form',
      body: () => ({
        settings: { name: 'Changed' },
        questions: [{ ...drafts.question(), type: 'video' }],
      }),
      message: /^Not valid type/,
    },
    {
      refusal: 'a too long question title: "Too long message"',
      type: 'form',
      body: () => ({ questions: [drafts.question({ title: 'x'.repeat(501) })] }),
      message: /^Too long message/,
    },
    {
      refusal: 'questions for a block type without questions',
      type: 'comment',
      body: () => ({ questions: [drafts.question()] }),
      message: 'Not supported block',
    },
  ]) {
    it(refusal, async () => {
      const user = await owner();
      const blockId = await drafts.createBlock(user, type);
      await expectRefused(user, blockId, body(), 400, message);
    });
  }

  // The order of the answers (pinned after 6f26866 moved the type check ahead of the lists): the
  // questions are read (their ids checked) before the block's type is, then the endings likewise,
  // so a bad list on a block without questions answers with its own fault, and valid questions
  // answer "Not supported block" before the endings are read. Past the edge function's schema.
  const question = drafts.question();
  const ending = drafts.ending();
  for (const { fault, payload, message, code } of [
    {
      fault: 'two questions with one id',
      payload: { questions: [question, question] },
      message: 'Duplicate question id',
    },
    {
      fault: 'questions that are not a list',
      payload: { questions: { a: 1 } },
      message: 'Invalid question list',
    },
    {
      fault: 'a question without an id',
      payload: { questions: [{ ...question, id: undefined }] },
      message: 'Invalid id',
    },
    {
      fault: 'a question id that is not a uuid',
      payload: { questions: [{ ...question, id: 'xyz' }] },
      message: 'invalid input syntax for type uuid: "xyz"',
      code: '22P02',
    },
    {
      fault: 'two endings with one id',
      payload: { endings: [ending, ending] },
      message: 'Duplicate ending id',
    },
    {
      fault: 'endings that are not a list',
      payload: { endings: 5 },
      message: 'Invalid ending list',
    },
    {
      fault: 'valid questions, endings that are not a list',
      payload: { questions: [question], endings: 5 },
      message: 'Not supported block',
    },
  ]) {
    it(`a comment block given ${fault}: "${message}"`, async () => {
      const user = await owner();
      const blockId = await drafts.createBlock(user, 'comment');
      await expectSqlRefused(user.id, blockId, payload, message, code);
    });
  }

  it('settings that are not settings, and bad values', async () => {
    const user = await owner();
    const blockId = await drafts.createBlock(user, 'like');
    await expectRefused(user, blockId, { settings: { response_count: 99 } }, 400, /.+/);
    await expectRefused(user, blockId, { settings: { owner_id: randomUUID() } }, 400, /.+/);
    await expectRefused(user, blockId, { settings: { theme: 'neon' } }, 400, /.+/);
    await expectRefused(
      user,
      blockId,
      { privateSettings: { mail_to: 'not an address' } },
      400,
      /^Invalid email address\./,
    );
  });

  it('a condition naming a question of another block: "Not valid question"', async () => {
    const user = await owner(true);
    const blockId = await drafts.createBlock(user, 'form');
    const otherBlock = await drafts.createBlock(user, 'form');
    const foreign = drafts.question();
    expect(
      (await drafts.save(user.client, { blockId: otherBlock, questions: [foreign] })).status,
    ).toBe(200);
    const fallback = await drafts.defaultEnding(user, blockId);
    await expectRefused(
      user,
      blockId,
      {
        questions: [drafts.question()],
        endings: [fallback, drafts.ending({ conditions: [drafts.condition(foreign.id)] })],
      },
      400,
      'Not valid question',
    );
    // nor may a question id of another block be taken over
    await expectRefused(user, blockId, { questions: [{ ...foreign }] }, 400, 'Not valid question');
  });

  it('deleting the default ending, or making another ending the default', async () => {
    const { user, blockId, fallback } = await paidForm();
    await expectRefused(
      user,
      blockId,
      { endings: [drafts.ending()] },
      400,
      'The default ending cannot be deleted',
    );
    await expectRefused(
      user,
      blockId,
      { endings: [{ ...fallback, is_default: false }, drafts.ending({ is_default: true })] },
      400,
      'The default ending cannot be changed',
    );
  });

  it('an ab question with three options', async () => {
    const user = await owner();
    const blockId = await drafts.createBlock(user, 'ab');
    const ab = await drafts.abQuestion(user, blockId);
    const three = { ...ab, options: [...ab.options, drafts.option('Maybe', 2)] };
    await expectRefused(
      user,
      blockId,
      { questions: [three] },
      400,
      /^An A\/B question has exactly two options/,
    );
    // the SQL function says the same when called past the schema (service role)
    await expectSqlRefused(
      user.id,
      blockId,
      { questions: [three] },
      'An A/B question has exactly two options',
    );
  });

  it('a poll with no live option (spec: an empty poll gets one option)', async () => {
    const user = await owner();
    const blockId = await drafts.createBlock(user, 'form');
    const gone = drafts.option('Gone', 0);
    for (const options of [[], [{ ...gone, deleted: true }]]) {
      const poll = drafts.question({ type: 'poll', options });
      await expectRefused(
        user,
        blockId,
        { questions: [poll] },
        400,
        /^A poll question has at least one option/,
      );
      // the SQL function says the same when called past the schema (service role)
      await expectSqlRefused(
        user.id,
        blockId,
        { questions: [poll] },
        'A poll question has at least one option',
      );
    }
    // a deleted poll keeps what it had, and one option is enough
    const kept = drafts.question({ type: 'poll', options: [drafts.option('Only', 0)] });
    const dropped = drafts.question({ type: 'poll', index: 1, deleted: true, options: [] });
    expect((await drafts.save(user.client, { blockId, questions: [kept, dropped] })).status).toBe(
      200,
    );
  });

  for (const { who, paid, max, message } of [
    { who: 'a free owner', paid: false, max: 5, message: 'Too many questions (at most 5)' },
    // the schema's check, which names the field
    { who: 'a paid owner', paid: true, max: 20, message: /^Too many questions \(at most 20\)/ },
  ]) {
    it(`more than ${max} questions for ${who}, and the settings of that save are not kept`, async () => {
      const user = await owner(paid);
      const blockId = await drafts.createBlock(user, 'form');
      const tooMany = Array.from({ length: max + 1 }, (_, index) => drafts.question({ index }));
      await expectRefused(
        user,
        blockId,
        { settings: { name: 'Too many questions' }, questions: tooMany },
        400,
        message,
      );
      // and the database trigger when the schema is bypassed
      await expectSqlRefused(
        user.id,
        blockId,
        { questions: tooMany },
        `Too many questions (at most ${max})`,
      );
      expect(
        (await drafts.save(user.client, { blockId, questions: tooMany.slice(0, max) })).status,
      ).toBe(200);
    });
  }

  it("a letter trigger that is not one of the owner's letter blocks", async () => {
    const user = await owner(true);
    const stranger = await owner(true);
    const blockId = await drafts.createBlock(user, 'form');
    const theirLetter = await drafts.createBlock(stranger, 'notion_letter');
    // and the owner's own letter, from a question that is not the respondent's address
    const ownLetter = await drafts.createBlock(user, 'notion_letter');
    for (const [type, letter] of [
      ['mail', theirLetter],
      ['short_text', ownLetter],
    ] as const) {
      await expectRefused(
        user,
        blockId,
        { questions: [drafts.question({ type, trigger_letter_block: letter })] },
        400,
        'Not valid letter block',
      );
    }
  });
});

// ---------------------------------------------------------------------------------------------
// paid-only features
// ---------------------------------------------------------------------------------------------

describe('save-block: paid-only features', () => {
  it('are refused for a free owner with "Paid plan required (...)" and nothing changes', async () => {
    const user = await owner(false);
    const comment = await drafts.createBlock(user, 'comment');
    const form = await drafts.createBlock(user, 'form');
    const letter = await drafts.createBlock(user, 'notion_letter');
    const cases: [string, Record<string, unknown>][] = [
      [comment, { settings: { theme: 'custom' } }],
      [comment, { settings: { custom_color: { '--PRIMARY': '#ff0000' } } }],
      [comment, { settings: { open_graph: { title: 'Mine' } } }],
      [comment, { settings: { block_anonymous: true } }],
      [comment, { settings: { allow_reply: false } }],
      [comment, { settings: { show_count: true } }],
      [comment, { settings: { allow_creator_email: true } }],
      [comment, { privateSettings: { notion_database: 'db-1' } }],
      [form, { questions: [drafts.question({ as_visitor_info: 'email', type: 'mail' })] }],
      [form, { questions: [drafts.question({ type: 'mail', trigger_letter_block: letter })] }],
    ];
    for (const [blockId, body] of cases) {
      const before = await snapshot(blockId);
      const res = await drafts.save(user.client, { blockId, ...body });
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.message, JSON.stringify(body)).toMatch(/^Paid plan required \(\w+\)$/);
      expect(await snapshot(blockId)).toEqual(before);
    }
    const fallback = await drafts.defaultEnding(user, form);
    const res = await drafts.save(user.client, {
      blockId: form,
      endings: [fallback, drafts.ending()],
    });
    expect(res).toMatchObject({ status: 403, message: 'Paid plan required (endings)' });
    // free settings still save, and so does switching a paid feature back off
    expect(
      (await drafts.save(user.client, { blockId: comment, settings: { theme: 'dark' } })).status,
    ).toBe(200);
  });

  it('are saved for a paid owner, and kept (not refused) after the plan ends', async () => {
    const user = await owner(true);
    const blockId = await drafts.createBlock(user, 'comment');
    const settings = {
      theme: 'custom',
      custom_color: { '--PRIMARY': '#112233', '--BACKGROUND': '#ffffff' },
      open_graph: { title: 'OG', description: 'Desc', image_url: 'https://example.com/og.png' },
      allow_reply: false,
    };
    expect((await drafts.save(user.client, { blockId, settings })).status).toBe(200);
    await sql('update public.profiles set paid = false where id = $1', [user.id]);
    // resending the stored values with a free change is fine
    const res = await drafts.save(user.client, {
      blockId,
      settings: { ...settings, name: 'Renamed' },
    });
    expect(res.status).toBe(200);
    expect(res.data?.block).toMatchObject({ name: 'Renamed', theme: 'custom', allow_reply: false });
  });
});

// ---------------------------------------------------------------------------------------------
// no way around the save path
// ---------------------------------------------------------------------------------------------

describe('save-block is the only write path for block settings and content', () => {
  /** A free owner's form with a poll question, an option and a condition on the default ending. */
  async function savedForm(user: TestUser) {
    const blockId = await drafts.createBlock(user, 'form');
    const poll = drafts.question({
      type: 'poll',
      options: [drafts.option('Red', 0), drafts.option('Blue', 1)],
    });
    const fallback = await drafts.defaultEnding(user, blockId);
    const res = await drafts.save(user.client, {
      blockId,
      questions: [poll],
      endings: [{ ...fallback, conditions: [drafts.condition(poll.id)] }],
    });
    expect(res.status).toBe(200);
    const saved = res.data!;
    return {
      blockId,
      question: poll.id,
      option: poll.options[0]!.id,
      ending: fallback.id,
      condition: saved.endings[0]!.conditions[0]!.id,
    };
  }

  /** Refused by the missing table rights (42501), and nothing stored changed. */
  async function expectDenied(
    blockId: string,
    what: string,
    write: () => PromiseLike<{ error: { code?: string } | null }>,
  ) {
    const before = await snapshot(blockId);
    const { error } = await write();
    expect(error?.code, what).toBe('42501');
    expect(await snapshot(blockId), what).toEqual(before);
  }

  it("a free owner's direct update of paid-only (or any) block settings is refused", async () => {
    const user = await owner(false);
    const comment = await drafts.createBlock(user, 'comment');
    const blocks = () => user.client.from('blocks');
    const patches: Record<string, unknown>[] = [
      { theme: 'custom' },
      { custom_color: { '--PRIMARY': '#ff0000' } },
      { open_graph: { title: 'Mine' } },
      { allow_creator_email: true },
      { block_anonymous: true },
      { allow_reply: false },
      { show_count: true },
      // free settings too: the schema's checks (lengths, URLs) live in save-block
      { name: 'Renamed' },
      { owner_photo_url: 'javascript:alert(1)' },
      { mode: 'ending' },
    ];
    for (const patch of patches) {
      await expectDenied(comment, JSON.stringify(patch), () =>
        blocks().update(patch).eq('id', comment),
      );
    }
    // the same change through the save path is refused for the plan, not for the route
    const res = await drafts.save(user.client, { blockId: comment, settings: { theme: 'custom' } });
    expect(res).toMatchObject({ status: 403, message: 'Paid plan required (theme)' });
  });

  it('direct inserts, updates, upserts and deletes of questions, options, endings, conditions and private settings are refused', async () => {
    const user = await owner(false);
    const ids = await savedForm(user);
    const { blockId } = ids;
    const table = (name: string) => user.client.from(name);
    const rows: [string, string, Record<string, unknown>][] = [
      [
        'questions',
        ids.question,
        { block_id: blockId, type: 'mail', title: 'Email', as_visitor_info: 'email' },
      ],
      ['options', ids.option, { question_id: ids.question, block_id: blockId, value: 'Green' }],
      [
        'endings',
        ids.ending,
        { block_id: blockId, index: 1, open_url: 'https://example.com', open_link_type: 'submit' },
      ],
      [
        'ending_conditions',
        ids.condition,
        { ending_id: ids.ending, block_id: blockId, question_id: ids.question, type: 'empty' },
      ],
    ];
    for (const [name, id, row] of rows) {
      await expectDenied(blockId, `insert ${name}`, () => table(name).insert(row));
      await expectDenied(blockId, `upsert ${name}`, () => table(name).upsert({ id, ...row }));
      await expectDenied(blockId, `update ${name}`, () =>
        table(name).update({ index: 9 }).eq('id', id),
      );
      await expectDenied(blockId, `delete ${name}`, () => table(name).delete().eq('id', id));
    }
    await expectDenied(blockId, 'update block_private', () =>
      table('block_private').update({ notion_database: 'db-1' }).eq('block_id', blockId),
    );
    await expectDenied(blockId, 'upsert block_private', () =>
      table('block_private').upsert({
        block_id: blockId,
        owner_id: user.id,
        mail_to: 'not-an-address',
      }),
    );
    await expectDenied(blockId, 'delete block_private', () =>
      table('block_private').delete().eq('block_id', blockId),
    );
    // and the owner still reads all of it
    const { data } = await table('questions').select('id, options(id)').eq('block_id', blockId);
    expect(data).toEqual([{ id: ids.question, options: expect.any(Array) }]);
  });

  it('blocks are created through create_block only, which still adds the private row and the defaults', async () => {
    const user = await owner(false);
    const direct = await user.client.from('blocks').insert({ type: 'comment', theme: 'custom' });
    expect(direct.error?.code).toBe('42501');
    expect(await sql('select 1 from public.blocks where owner_id = $1', [user.id])).toEqual([]);

    const ab = await drafts.createBlock(user, 'ab');
    const [row] = await sql<{ private: number; endings: unknown; options: unknown }>(
      `select (select count(*)::int from public.block_private where block_id = $1) as private,
              (select jsonb_agg(jsonb_build_object('is_default', is_default, 'closing_text', closing_text))
                 from public.endings where block_id = $1) as endings,
              (select jsonb_agg(o.value order by o.index) from public.options o
                 join public.questions q on q.id = o.question_id
                 where q.block_id = $1 and q.type = 'ab') as options`,
      [ab],
    );
    expect(row).toEqual({
      private: 1,
      endings: [{ is_default: true, closing_text: 'Thank you' }],
      options: ['Good', 'Bad'],
    });
    expect(await sql('select block_count from public.profiles where id = $1', [user.id])).toEqual([
      { block_count: 1 },
    ]);
  });

  it('the direct writes the block list needs still work: tags, the new-response reset, delete', async () => {
    const user = await owner(false);
    const { blockId } = await savedForm(user);
    const blocks = () => user.client.from('blocks');

    expect(
      (
        await blocks()
          .update({ tags: ['news', 'spring'] })
          .eq('id', blockId)
      ).error,
    ).toBeNull();
    // held to the dashboard's tag rule (ZUpdateBlockTagsInput): 1..50 characters, trimmed
    for (const tags of [[''], [' padded'], ['x'.repeat(51)]]) {
      const bad = await blocks().update({ tags }).eq('id', blockId);
      expect(bad.error, JSON.stringify(tags)).not.toBeNull();
    }
    expect(await sql('select tags from public.blocks where id = $1', [blockId])).toEqual([
      { tags: ['news', 'spring'] },
    ]);

    await sql('update public.blocks set new_response_count = 3 where id = $1', [blockId]);
    expect((await blocks().update({ new_response_count: 0 }).eq('id', blockId)).error).toBeNull();
    expect(
      await sql('select new_response_count from public.blocks where id = $1', [blockId]),
    ).toEqual([{ new_response_count: 0 }]);

    // deleting the block takes its content along, though owners may not delete those rows
    const del = await blocks().delete({ count: 'exact' }).eq('id', blockId);
    expect(del.error).toBeNull();
    expect(del.count).toBe(1);
    expect(await snapshot(blockId)).toEqual({
      block: null,
      private: null,
      questions: [],
      options: [],
      endings: [],
      conditions: [],
    });
    expect(await sql('select block_count from public.profiles where id = $1', [user.id])).toEqual([
      { block_count: 0 },
    ]);
  });
});
