// What a hostile visitor would try, one attack per test, each through the official supabase-js
// client as a real visitor would call the API: anonymous Supabase users
// (auth.signInAnonymously()), signed-in users, or the anon key alone. Every attack asserts that
// the server refuses it AND that nothing changed (rows and counters read back with SQL).
//
// The catalogue of grants and the RLS table matrix are in rls.test.ts and rls-rpc.test.ts; some
// cases appear there too, here they are written as attacks on the visitor write paths.
//
// HTML and script are stored and returned verbatim: the API is not an HTML sanitizer, the
// elements render every visitor string as text. That half is proven in the SDK's browser tests:
// sdk/src/components/comment/comment.test.ts ("renders messages ... safe links": `<b>bold</b>`
// in a message shows as text, `javascript:` is never a link) and
// sdk/src/components/form/form.test.ts (the owner's description HTML loses script, handlers and
// javascript: links).
import type { SupabaseClient } from '@supabase/supabase-js';
import { createClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  anonClient,
  newGuest,
  newUser,
  serviceClient,
  sql,
  stack,
  type TestUser,
} from './support/clients.ts';
import { forgedToken, userToken } from './support/jwt.ts';
import { eventually, waitForMail } from './support/providers.ts';

// ---------------------------------------------------------------------------------------------
// set-up helpers
// ---------------------------------------------------------------------------------------------

type BlockType = 'comment' | 'qna' | 'like' | 'button' | 'ab' | 'form';

/** An owner (with room for many blocks) and one block per requested type. */
async function ownerWith<T extends BlockType>(
  ...types: T[]
): Promise<{ owner: TestUser; blocks: Record<T, string> }> {
  const owner = await newUser('owner');
  // a paid owner: room for many blocks and for more than five questions per form
  await sql('update public.profiles set block_limit = 20, paid = true where id = $1', [owner.id]);
  const blocks = {} as Record<T, string>;
  for (const type of types) {
    const { data, error } = await owner.client.rpc('create_block', { p_block_type: type });
    expect(error).toBeNull();
    blocks[type] = (data as { id: string }).id;
  }
  return { owner, blocks };
}

/** Changes block settings as the owner does: through the save-block edge function. */
async function saveSettings(owner: TestUser, blockId: string, settings: Record<string, unknown>) {
  const { error } = await owner.client.functions.invoke('save-block', {
    body: { blockId, settings },
  });
  expect(error).toBeNull();
}

/**
 * Adds a question (and its options) to a block. Set-up with the service role: owners write
 * content through save-block only, which takes the complete list; these tests are about what
 * visitors can do with the content, not about saving it.
 */
async function addQuestion(
  blockId: string,
  question: Record<string, unknown>,
  options: string[] = [],
): Promise<{ id: string; options: string[] }> {
  const service = serviceClient();
  const { data, error } = await service
    .from('questions')
    .insert({ block_id: blockId, title: 'Question', ...question })
    .select('id')
    .single();
  expect(error).toBeNull();
  const id = (data as { id: string }).id;
  const optionIds: string[] = [];
  for (const [index, value] of options.entries()) {
    const res = await service
      .from('options')
      .insert({ question_id: id, block_id: blockId, value, index })
      .select('id')
      .single();
    expect(res.error).toBeNull();
    optionIds.push((res.data as { id: string }).id);
  }
  return { id, options: optionIds };
}

/** The ab block's question and its two options (Good, Bad), created with the block. */
async function abQuestion(blockId: string): Promise<{ id: string; options: string[] }> {
  const rows = await sql<{ question_id: string; option_id: string }>(
    `select q.id as question_id, o.id as option_id from public.questions q
     join public.options o on o.question_id = q.id where q.block_id = $1 order by o.index`,
    [blockId],
  );
  return { id: rows[0]!.question_id, options: rows.map((r) => r.option_id) };
}

/** A form with one question of each validated kind; only the short text is required. */
async function formWithQuestions(blockId: string) {
  const add = (q: Record<string, unknown>, options?: string[]) => addQuestion(blockId, q, options);
  return {
    short: await add({ type: 'short_text', index: 0, required: true }),
    long: await add({ type: 'long_text', index: 1, required: false }),
    mail: await add({ type: 'mail', index: 2, required: false }),
    phone: await add({ type: 'phone', index: 3, required: false }),
    number: await add({ type: 'number', index: 4, required: false }),
    poll: await add({ type: 'poll', index: 5, required: false }, ['Red', 'Blue']),
  };
}

async function post(
  visitor: TestUser,
  blockId: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const { data, error } = await visitor.client.rpc('post_message', {
    p_block_id: blockId,
    p_content: `hello ${randomUUID()}`,
    p_creator_name: 'Quiet Otter',
    ...fields,
  });
  expect(error).toBeNull();
  return (data as { id: string }).id;
}

/** Everything a visitor write could change on a block: its rows and every counter. */
async function stateOf(blockId: string): Promise<Record<string, unknown>> {
  const [row] = await sql(
    `select (private.with_live_counts(b)).response_count, (private.with_live_counts(b)).new_response_count,
       (private.with_live_counts(b)).like_count, b.deactivated,
       -- the owner's monthly count: the sum of the count shards (computed field), and the shards
       p.response_monthly_count,
       (select coalesce(jsonb_agg(to_jsonb(c) order by c.month, c.shard), '[]')
         from private.response_counts c where c.user_id = p.id) as response_counts,
       (select coalesce(jsonb_agg(to_jsonb(r) order by r.id), '[]') from public.responses r
         where r.block_id = b.id) as responses,
       (select coalesce(jsonb_agg(to_jsonb(m) order by m.id), '[]') from public.messages m
         where m.block_id = b.id) as messages,
       (select coalesce(jsonb_agg(to_jsonb(l) order by l.message_id, l.user_id), '[]')
         from public.message_likes l join public.messages m on m.id = l.message_id
         where m.block_id = b.id) as message_likes,
       (select coalesce(jsonb_agg(to_jsonb(x) order by x.message_id), '[]')
         from public.message_private x where x.block_id = b.id) as message_private,
       (select coalesce(jsonb_agg(jsonb_build_object('id', o.id, 'count', o.response_count)
                                  order by o.id), '[]')
         from public.options o where o.block_id = b.id) as options,
       (select coalesce(jsonb_agg(to_jsonb(x) order by x.message_id, x.user_id), '[]')
         from public.message_reports x where x.block_id = b.id) as reports,
       (select coalesce(jsonb_agg(to_jsonb(w) order by w.user_id), '[]')
         from public.blocked_writers w where w.block_id = b.id) as blocked_writers,
       -- a refused write spends no token: the buckets roll back with it
       (select coalesce(jsonb_agg(to_jsonb(t) order by t.subject, t.action), '[]')
         from private.rate_limits t where t.block_id = b.id) as rate_limits,
       (select coalesce(jsonb_agg(to_jsonb(c) order by c.user_id), '[]')
         from private.captcha_passes c where c.block_id = b.id) as captcha_passes
     from public.blocks b join public.profiles p on p.id = b.owner_id where b.id = $1`,
    [blockId],
  );
  return row!;
}

interface RpcResult {
  error: { message: string; code?: string; details?: string } | null;
  status: number;
}

/** Runs `attack` and asserts the blocks' rows and counters are exactly as before it. */
async function unchanged<R>(blockIds: string | string[], attack: () => PromiseLike<R>): Promise<R> {
  const ids = Array.isArray(blockIds) ? blockIds : [blockIds];
  const before = await Promise.all(ids.map(stateOf));
  const res = await attack();
  expect(await Promise.all(ids.map(stateOf))).toEqual(before);
  return res;
}

/**
 * Runs an attack and asserts the server refused it with `message` (and `status` when given)
 * and that nothing changed.
 */
async function refused(
  blockIds: string | string[],
  attack: () => PromiseLike<RpcResult>,
  message: string | RegExp,
  status?: number,
): Promise<RpcResult> {
  const res = await unchanged(blockIds, attack);
  expect(res.error, 'the server must refuse').not.toBeNull();
  if (typeof message === 'string') expect(res.error?.message).toBe(message);
  else expect(res.error?.message).toMatch(message);
  if (status !== undefined) expect(res.status).toBe(status);
  return res;
}

const count = async (query: string, params: unknown[]): Promise<number> =>
  (await sql<{ n: number }>(`select count(*)::int as n from (${query}) q`, params))[0]!.n;

/** A supabase-js client that sends `token` as the user JWT, like a page with a stolen session. */
function clientWithToken(token: string, apikey = stack().anonKey): SupabaseClient {
  return createClient(stack().apiUrl, apikey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

// ---------------------------------------------------------------------------------------------
// likes
// ---------------------------------------------------------------------------------------------

describe('likes', () => {
  it('liking a block twice counts one like, and like_count is exact', async () => {
    const { blocks } = await ownerWith('like');
    const visitor = await newGuest();
    for (let i = 0; i < 2; i++) {
      const { data, error } = await visitor.client.rpc('toggle_block_like', {
        p_block_id: blocks.like,
        p_liked: true,
      });
      expect(error).toBeNull();
      expect(data).toEqual({ liked: true, like_count: 1 });
    }
    const state = await stateOf(blocks.like);
    expect(state).toMatchObject({ like_count: 1, response_count: 1, new_response_count: 1 });
    expect(state.responses).toHaveLength(1);
    // toggling (no p_liked) from the liked state unlikes: back to zero, never negative
    await visitor.client.rpc('toggle_block_like', { p_block_id: blocks.like });
    const { data } = await visitor.client.rpc('toggle_block_like', {
      p_block_id: blocks.like,
      p_liked: false,
    });
    expect(data).toEqual({ liked: false, like_count: 0 });
    expect(await stateOf(blocks.like)).toMatchObject({ like_count: 0, responses: [] });
  });

  it('20 concurrent likes from the same visitor still count one', async () => {
    const { blocks } = await ownerWith('like');
    const visitor = await newGuest();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        visitor.client.rpc('toggle_block_like', { p_block_id: blocks.like, p_liked: true }),
      ),
    );
    expect(results.map((r) => r.error)).toEqual(Array(20).fill(null));
    const state = await stateOf(blocks.like);
    expect(state).toMatchObject({ like_count: 1, response_count: 1 });
    expect(state.responses).toHaveLength(1);
  });

  it('concurrent toggles never let like_count drift from the like rows', async () => {
    const { blocks } = await ownerWith('like');
    const [a, b] = await Promise.all([newGuest(), newGuest()]);
    await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        (i % 2 ? a : b).client.rpc('toggle_block_like', { p_block_id: blocks.like }),
      ),
    );
    const rows = await count(
      "select 1 from public.responses where block_id = $1 and kind = 'like'",
      [blocks.like],
    );
    expect(rows).toBeLessThanOrEqual(2);
    expect(await stateOf(blocks.like)).toMatchObject({ like_count: rows, response_count: rows });
  });

  it("unliking someone else's like changes nothing", async () => {
    const { blocks } = await ownerWith('like');
    const [liker, attacker] = await Promise.all([newGuest(), newGuest()]);
    await liker.client.rpc('toggle_block_like', { p_block_id: blocks.like, p_liked: true });
    const before = await stateOf(blocks.like);
    // p_liked false acts on the caller's own like only: the attacker has none
    const { data } = await attacker.client.rpc('toggle_block_like', {
      p_block_id: blocks.like,
      p_liked: false,
    });
    expect(data).toEqual({ liked: false, like_count: 1 });
    // deleting the like row directly finds nothing the attacker may delete
    const del = await attacker.client
      .from('responses')
      .delete({ count: 'exact' })
      .eq('block_id', blocks.like);
    expect(del.count ?? 0).toBe(0);
    expect(await stateOf(blocks.like)).toEqual(before);
  });

  it("liking a message twice (also concurrently) counts one; unliking another's like does nothing", async () => {
    const { blocks } = await ownerWith('comment');
    const [author, liker, attacker] = await Promise.all([newGuest(), newGuest(), newGuest()]);
    const message = await post(author, blocks.comment);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        liker.client.rpc('toggle_message_like', { p_message_id: message, p_liked: true }),
      ),
    );
    expect(results.map((r) => r.error)).toEqual(Array(10).fill(null));
    expect(await sql('select like_count from public.messages where id = $1', [message])).toEqual([
      { like_count: 1 },
    ]);
    const before = await stateOf(blocks.comment);
    await attacker.client.rpc('toggle_message_like', { p_message_id: message, p_liked: false });
    const del = await attacker.client
      .from('message_likes')
      .delete({ count: 'exact' })
      .eq('message_id', message);
    expect(del.count ?? 0).toBe(0);
    expect(await stateOf(blocks.comment)).toEqual(before);
  });

  it('liking a message when the owner turned reactions off is refused', async () => {
    const { owner, blocks } = await ownerWith('comment');
    const visitor = await newGuest();
    const message = await post(visitor, blocks.comment);
    await saveSettings(owner, blocks.comment, { allow_reaction: false });
    await refused(
      blocks.comment,
      () => visitor.client.rpc('toggle_message_like', { p_message_id: message, p_liked: true }),
      'Reactions are turned off',
      403,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// votes (ab) and form answers
// ---------------------------------------------------------------------------------------------

describe('ab votes', () => {
  it('voting for both options at once is refused', async () => {
    const { blocks } = await ownerWith('ab');
    const question = await abQuestion(blocks.ab);
    const visitor = await newGuest();
    await refused(
      blocks.ab,
      () =>
        visitor.client.rpc('submit_response', {
          p_block_id: blocks.ab,
          p_answers: { [question.id]: question.options },
        }),
      'Choose one option',
      400,
    );
  });

  it('a second vote (for the other option) is refused', async () => {
    const { blocks } = await ownerWith('ab');
    const question = await abQuestion(blocks.ab);
    const visitor = await newGuest();
    const first = await visitor.client.rpc('submit_response', {
      p_block_id: blocks.ab,
      p_answers: { [question.id]: question.options[0] },
    });
    expect(first.error).toBeNull();
    for (const option of question.options) {
      await refused(
        blocks.ab,
        () =>
          visitor.client.rpc('submit_response', {
            p_block_id: blocks.ab,
            p_answers: { [question.id]: option },
          }),
        'Already voted',
      );
    }
    expect(await stateOf(blocks.ab)).toMatchObject({
      response_count: 1,
      options: expect.arrayContaining([{ id: question.options[0], count: 1 }]),
    });
  });

  it('20 concurrent votes from one visitor count exactly one', async () => {
    const { owner, blocks } = await ownerWith('ab');
    const question = await abQuestion(blocks.ab);
    const visitor = await newGuest();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        visitor.client.rpc('submit_response', {
          p_block_id: blocks.ab,
          p_answers: { [question.id]: question.options[i % 2] },
        }),
      ),
    );
    expect(results.filter((r) => r.error === null)).toHaveLength(1);
    expect(results.filter((r) => r.error?.message === 'Already voted')).toHaveLength(19);
    const state = await stateOf(blocks.ab);
    expect(state.responses).toHaveLength(1);
    expect(state).toMatchObject({ response_count: 1, new_response_count: 1 });
    const counts = (state.options as Array<{ count: number }>).map((o) => o.count);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    // refused votes did not use up the owner's monthly quota
    expect(
      await sql('select p.response_monthly_count from public.profiles p where p.id = $1', [
        owner.id,
      ]),
    ).toEqual([{ response_monthly_count: 1 }]);
  });

  it('voting with an option of another question or another block is refused', async () => {
    const { blocks } = await ownerWith('ab', 'form');
    const other = await ownerWith('ab');
    const question = await abQuestion(blocks.ab);
    const foreign = await abQuestion(other.blocks.ab);
    const poll = await addQuestion(blocks.form, { type: 'poll', required: false }, ['X']);
    const visitor = await newGuest();
    for (const option of [foreign.options[0], poll.options[0], randomUUID()]) {
      await refused(
        [blocks.ab, other.blocks.ab, blocks.form],
        () =>
          visitor.client.rpc('submit_response', {
            p_block_id: blocks.ab,
            p_answers: { [question.id]: option },
          }),
        'Invalid option',
      );
    }
    // a question of another block is not a question of this one
    await refused(
      [blocks.ab, other.blocks.ab],
      () =>
        visitor.client.rpc('submit_response', {
          p_block_id: blocks.ab,
          p_answers: { [foreign.id]: foreign.options[0] },
        }),
      'Not valid question',
    );
  });

  it('a deleted option cannot be chosen', async () => {
    const { blocks } = await ownerWith('ab');
    const question = await abQuestion(blocks.ab);
    // an option soft deleted earlier (save-block keeps an ab question at two live options, so
    // this state is set up with the service role)
    const off = await serviceClient()
      .from('options')
      .update({ deleted: true })
      .eq('id', question.options[1]!);
    expect(off.error).toBeNull();
    const visitor = await newGuest();
    await refused(
      blocks.ab,
      () =>
        visitor.client.rpc('submit_response', {
          p_block_id: blocks.ab,
          p_answers: { [question.id]: question.options[1] },
        }),
      'Invalid option',
    );
  });
});

describe('form answers', () => {
  it('missing required answers are refused, whatever shape "nothing" takes', async () => {
    const { blocks } = await ownerWith('form');
    const q = await formWithQuestions(blocks.form);
    const requiredPoll = await addQuestion(
      blocks.form,
      { type: 'poll', index: 6, required: true },
      ['Yes', 'No'],
    );
    const visitor = await newGuest();
    const valid = { [q.short.id]: 'fine', [requiredPoll.id]: requiredPoll.options[0] };
    const blanks: Array<[string, unknown]> = [
      [q.short.id, undefined],
      [q.short.id, null],
      [q.short.id, ''],
      [q.short.id, '     '],
      [q.short.id, '\n\t \r\n'],
      [q.short.id, '\u00a0\u3000\u2003\ufeff'],
      [q.short.id, { value: null }],
      [requiredPoll.id, []],
      [requiredPoll.id, null],
    ];
    for (const [questionId, blank] of blanks) {
      const answers: Record<string, unknown> = { ...valid };
      if (blank === undefined) delete answers[questionId];
      else answers[questionId] = blank;
      const res = await refused(
        blocks.form,
        () =>
          visitor.client.rpc('submit_response', { p_block_id: blocks.form, p_answers: answers }),
        'Required',
        400,
      );
      // the element shows the message under this question
      expect(res.error?.details, JSON.stringify(blank)).toBe(questionId);
    }
  });

  it('answers over every length limit are refused (and the limits themselves accepted)', async () => {
    const { blocks } = await ownerWith('form');
    const q = await formWithQuestions(blocks.form);
    const visitor = await newGuest();
    const mail = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;
    const over: Array<[string, string]> = [
      [q.short.id, 'x'.repeat(301)],
      [q.long.id, 'x'.repeat(1001)],
      [q.mail.id, mail(51)],
    ];
    for (const [questionId, value] of over) {
      await refused(
        blocks.form,
        () =>
          visitor.client.rpc('submit_response', {
            p_block_id: blocks.form,
            p_answers: { [q.short.id]: 'ok', [questionId]: value },
          }),
        'Too long message',
        400,
      );
    }
    await refused(
      blocks.form,
      () =>
        visitor.client.rpc('submit_response', {
          p_block_id: blocks.form,
          p_answers: { [q.short.id]: 'ok' },
          p_creator_name: 'n'.repeat(101),
        }),
      'Too long name',
    );
    const atLimit = await visitor.client.rpc('submit_response', {
      p_block_id: blocks.form,
      p_answers: {
        [q.short.id]: '가'.repeat(300),
        [q.long.id]: 'x'.repeat(1000),
        [q.mail.id]: mail(50),
      },
      p_creator_name: 'n'.repeat(100),
    });
    expect(atLimit.error).toBeNull();
  });

  it('invalid email, phone and number answers are refused', async () => {
    const { blocks } = await ownerWith('form');
    const q = await formWithQuestions(blocks.form);
    const visitor = await newGuest();
    const bad: Array<[string, unknown, string]> = [
      [q.mail.id, 'not-an-email', 'Invalid email address.'],
      [q.mail.id, 'a@b', 'Invalid email address.'],
      [q.mail.id, '<script>@x.com', 'Invalid email address.'],
      [q.phone.id, '010-1234-abcd', 'Invalid phone number'],
      [q.phone.id, '1'.repeat(21), 'Invalid phone number'],
      [q.phone.id, '<b>1</b>', 'Invalid phone number'],
      [q.number.id, '1.5', 'Not a number'],
      [q.number.id, '1e3', 'Not a number'],
      [q.number.id, 'NaN', 'Not a number'],
      [q.number.id, '9'.repeat(40), 'Not a number'],
      [q.short.id, ['an', 'array'], 'Please check response'],
    ];
    for (const [questionId, value, message] of bad) {
      const res = await refused(
        blocks.form,
        () =>
          visitor.client.rpc('submit_response', {
            p_block_id: blocks.form,
            p_answers: { [q.short.id]: 'ok', [questionId]: value },
          }),
        message,
        400,
      );
      expect(res.error?.details).toBe(questionId);
    }
    for (const answers of [null, [], 'text', 42]) {
      await refused(
        blocks.form,
        () =>
          visitor.client.rpc('submit_response', { p_block_id: blocks.form, p_answers: answers }),
        'Please check response',
      );
    }
    await refused(
      blocks.form,
      () =>
        visitor.client.rpc('submit_response', {
          p_block_id: blocks.form,
          p_answers: { [q.short.id]: 'ok', [randomUUID()]: 'stowaway' },
        }),
      'Not valid question',
    );
  });

  it('a text answer padded with whitespace is stored trimmed, as the SDK trims it', async () => {
    const { blocks } = await ownerWith('form');
    const q = await formWithQuestions(blocks.form);
    const visitor = await newGuest();
    const res = await visitor.client.rpc('submit_response', {
      p_block_id: blocks.form,
      p_answers: { [q.short.id]: '\u3000\n  Ada  \u00a0\t' },
    });
    expect(res.error).toBeNull();
    const [row] = await sql<{ value: string }>(
      "select answers -> $2 ->> 'value' as value from public.responses where block_id = $1",
      [blocks.form, q.short.id],
    );
    expect(row?.value).toBe('Ada');
  });

  it('several options for a single-select poll are refused', async () => {
    const { blocks } = await ownerWith('form');
    const q = await formWithQuestions(blocks.form);
    const visitor = await newGuest();
    await refused(
      blocks.form,
      () =>
        visitor.client.rpc('submit_response', {
          p_block_id: blocks.form,
          p_answers: { [q.short.id]: 'ok', [q.poll.id]: q.poll.options },
        }),
      'Choose one option',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// messages
// ---------------------------------------------------------------------------------------------

describe('messages', () => {
  it("editing and deleting someone else's message is refused", async () => {
    const { blocks } = await ownerWith('comment');
    const [author, attacker] = await Promise.all([newGuest(), newUser('attacker')]);
    const message = await post(author, blocks.comment);
    await refused(
      blocks.comment,
      () => attacker.client.rpc('edit_message', { p_message_id: message, p_content: 'pwned' }),
      'Only the author can edit this message',
      403,
    );
    await refused(
      blocks.comment,
      () => attacker.client.rpc('delete_message', { p_message_id: message }),
      'Only the author or the block owner can delete this message',
      403,
    );
  });

  it('resolving a question as anyone but the block owner is refused', async () => {
    const { blocks } = await ownerWith('qna');
    const [author, stranger] = await Promise.all([newGuest(), newUser('stranger')]);
    const message = await post(author, blocks.qna);
    for (const who of [author, stranger]) {
      await refused(
        blocks.qna,
        () => who.client.rpc('set_message_resolved', { p_message_id: message, p_resolved: true }),
        'Only the block owner can resolve messages',
        403,
      );
    }
  });

  it('replying when replies are off, or owner-only, is refused', async () => {
    const { owner, blocks } = await ownerWith('comment');
    const visitor = await newGuest();
    const parent = await post(visitor, blocks.comment);
    await saveSettings(owner, blocks.comment, { allow_reply: false });
    await refused(
      blocks.comment,
      () =>
        visitor.client.rpc('post_message', {
          p_block_id: blocks.comment,
          p_parent_id: parent,
          p_content: 'a reply',
        }),
      'Replies are turned off',
      403,
    );
    await saveSettings(owner, blocks.comment, { allow_reply: true, admin_only_reply: true });
    await refused(
      blocks.comment,
      () =>
        visitor.client.rpc('post_message', {
          p_block_id: blocks.comment,
          p_parent_id: parent,
          p_content: 'a reply',
        }),
      'Only the owner can reply',
      403,
    );
    // the owner still can
    await post(owner, blocks.comment, { p_parent_id: parent });
  });

  it('replying to a reply (nesting) or to a message of another block is refused', async () => {
    const { blocks } = await ownerWith('comment', 'qna');
    const visitor = await newGuest();
    const parent = await post(visitor, blocks.comment);
    const reply = await post(visitor, blocks.comment, { p_parent_id: parent });
    await refused(
      blocks.comment,
      () =>
        visitor.client.rpc('post_message', {
          p_block_id: blocks.comment,
          p_parent_id: reply,
          p_content: 'deeper',
        }),
      'Replies nest one level only',
      400,
    );
    await refused(
      [blocks.comment, blocks.qna],
      () =>
        visitor.client.rpc('post_message', {
          p_block_id: blocks.qna,
          p_parent_id: parent,
          p_content: 'across blocks',
        }),
      "message doesn't exists",
      404,
    );
  });

  it('empty and whitespace-only messages are refused, also as an edit', async () => {
    const { blocks } = await ownerWith('comment');
    const visitor = await newGuest();
    const message = await post(visitor, blocks.comment);
    for (const blank of [null, '', '   ', '\n\n\t', ' \r\n ', '\u00a0\u2003\u3000\ufeff']) {
      await refused(
        blocks.comment,
        () => visitor.client.rpc('post_message', { p_block_id: blocks.comment, p_content: blank }),
        'Message cannot be empty',
        400,
      );
      await refused(
        blocks.comment,
        () => visitor.client.rpc('edit_message', { p_message_id: message, p_content: blank }),
        'Message cannot be empty',
        400,
      );
    }
  });

  it('every length limit of a message is enforced (and the limit itself accepted)', async () => {
    const { blocks } = await ownerWith('comment');
    const visitor = await newGuest();
    const message = await post(visitor, blocks.comment);
    const longUrl = `https://example.com/${'a'.repeat(481)}`;
    const attempts: Array<[Record<string, unknown>, string]> = [
      [{ p_content: 'x'.repeat(501) }, 'Too long message'],
      [{ p_content: '가'.repeat(501) }, 'Too long message'],
      [{ p_creator_name: 'n'.repeat(101) }, 'Too long name'],
      [{ p_home_url: longUrl }, 'Too long URL'],
      [{ p_creator_photo_url: longUrl }, 'Too long URL'],
      [{ p_color: '#'.repeat(33) }, 'Invalid color'],
      [{ p_timezone: 'T'.repeat(65) }, 'Invalid timezone'],
    ];
    for (const [fields, error] of attempts) {
      await refused(
        blocks.comment,
        () =>
          visitor.client.rpc('post_message', {
            p_block_id: blocks.comment,
            p_content: 'hi',
            ...fields,
          }),
        error,
        400,
      );
    }
    await refused(
      blocks.comment,
      () =>
        visitor.client.rpc('edit_message', { p_message_id: message, p_content: 'x'.repeat(501) }),
      'Too long message',
    );
    // a notification email over 50 characters is dropped silently, never stored
    await sql('update public.blocks set allow_creator_email = true where id = $1', [
      blocks.comment,
    ]);
    const longMail = await post(visitor, blocks.comment, {
      p_creator_email: `${'a'.repeat(39)}@example.com`,
    });
    expect(
      await sql('select 1 from public.message_private where message_id = $1', [longMail]),
    ).toEqual([]);
    // exactly at the limits is fine
    await post(visitor, blocks.comment, {
      p_content: '가'.repeat(500),
      p_creator_name: 'n'.repeat(100),
      p_home_url: longUrl.slice(0, 500),
    });
  });

  it('list_messages cannot be made to return more than 50 threads at once', async () => {
    const { blocks } = await ownerWith('comment');
    const visitor = await newGuest();
    await sql(
      `insert into public.messages (block_id, creator_id, content, created_at)
       select $1, $2, 'm' || i, now() - make_interval(secs => i) from generate_series(1, 60) i`,
      [blocks.comment, visitor.id],
    );
    const { data, error } = await anonClient().rpc('list_messages', {
      p_block_id: blocks.comment,
      p_limit: 100000,
    });
    expect(error).toBeNull();
    expect(data).toHaveLength(50);
  });

  it('writing to a block of the wrong type is refused', async () => {
    const { blocks } = await ownerWith('like', 'button', 'form');
    const visitor = await newGuest();
    for (const blockId of [blocks.like, blocks.button, blocks.form]) {
      await refused(
        blockId,
        () => visitor.client.rpc('post_message', { p_block_id: blockId, p_content: 'hi' }),
        'Not supported block',
      );
    }
    await refused(
      blocks.form,
      () => visitor.client.rpc('toggle_block_like', { p_block_id: blocks.form }),
      'Not supported block',
    );
    await refused(
      blocks.like,
      () => visitor.client.rpc('record_button_click', { p_block_id: blocks.like }),
      'Not supported block',
    );
    await refused(
      blocks.like,
      () => visitor.client.rpc('submit_response', { p_block_id: blocks.like, p_answers: {} }),
      'Not supported block',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// markup is data
// ---------------------------------------------------------------------------------------------

describe('HTML and script from visitors', () => {
  const content = `<script>alert("x")</script><img src=x onerror="alert(1)"> & <b>bold</b> "quoted"`;
  const name = `<img src=x onerror=alert(1)><b onmouseover="steal()">Eve</b>`;

  it('are stored and returned verbatim as text in messages and names', async () => {
    const { blocks } = await ownerWith('comment');
    const visitor = await newGuest();
    const posted = await visitor.client.rpc('post_message', {
      p_block_id: blocks.comment,
      p_content: content,
      p_creator_name: name,
    });
    expect(posted.error).toBeNull();
    const id = (posted.data as { id: string }).id;
    expect(posted.data).toMatchObject({ content, creator_name: name });
    expect(
      await sql('select content, creator_name from public.messages where id = $1', [id]),
    ).toEqual([{ content, creator_name: name }]);
    const anon = anonClient();
    const view = await anon.rpc('get_block_view', { p_block_id: blocks.comment });
    const list = await anon.rpc('list_messages', { p_block_id: blocks.comment });
    const table = await anon.from('messages').select('content, creator_name').eq('id', id);
    expect((view.data as { messages: unknown[] }).messages[0]).toMatchObject({
      content,
      creator_name: name,
    });
    expect((list.data as unknown[])[0]).toMatchObject({ content, creator_name: name });
    expect(table.data).toEqual([{ content, creator_name: name }]);
    // an edit keeps markup verbatim too
    const edited = await visitor.client.rpc('edit_message', {
      p_message_id: id,
      p_content: `${content}!`,
    });
    expect(edited.data).toMatchObject({ content: `${content}!`, is_edited: true });
  });

  it('are stored verbatim in form answers and the responder name', async () => {
    const { owner, blocks } = await ownerWith('form');
    const q = await formWithQuestions(blocks.form);
    const visitor = await newGuest();
    const res = await visitor.client.rpc('submit_response', {
      p_block_id: blocks.form,
      p_answers: { [q.short.id]: content },
      p_creator_name: name,
    });
    expect(res.error).toBeNull();
    const rows = await owner.client
      .from('responses')
      .select('creator_name, answers')
      .eq('block_id', blocks.form);
    expect(rows.data).toEqual([
      {
        creator_name: name,
        answers: { [q.short.id]: expect.objectContaining({ value: content }) },
      },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// around the RPCs
// ---------------------------------------------------------------------------------------------

describe('bypassing the RPCs', () => {
  it('inserting messages, responses, likes or emails directly is refused', async () => {
    const { blocks } = await ownerWith('comment', 'like', 'form');
    const visitor = await newGuest();
    const message = await post(visitor, blocks.comment);
    const ids = [blocks.comment, blocks.like, blocks.form];
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['messages', { block_id: blocks.comment, creator_id: visitor.id, content: 'direct' }],
      ['responses', { block_id: blocks.like, kind: 'like', creator_id: visitor.id, is_like: true }],
      ['responses', { block_id: blocks.form, kind: 'form', creator_id: visitor.id, answers: {} }],
      ['message_likes', { message_id: message, user_id: visitor.id }],
      [
        'message_private',
        { message_id: message, block_id: blocks.comment, creator_email: 'x@example.com' },
      ],
    ];
    for (const [table, row] of attempts) {
      for (const client of [visitor.client, anonClient()]) {
        await refused(ids, () => client.from(table).insert(row), /permission denied|violates/);
      }
    }
  });

  it('updating counters on blocks, options or messages directly is refused or ignored', async () => {
    const { owner, blocks } = await ownerWith('ab', 'comment');
    const question = await abQuestion(blocks.ab);
    const visitor = await newGuest();
    const message = await post(visitor, blocks.comment);
    const ids = [blocks.ab, blocks.comment];
    for (const client of [visitor.client, anonClient()]) {
      for (const counters of [{ like_count: 1000 }, { response_count: 1000 }]) {
        await refused(
          ids,
          () => client.from('blocks').update(counters).eq('id', blocks.ab),
          /permission denied/,
        );
      }
      await refused(
        ids,
        () => client.from('messages').update({ like_count: 99, content: 'x' }).eq('id', message),
        /permission denied/,
      );
      // a visitor's update matches no row they may change (RLS), or is not granted at all
      const options = await unchanged(ids, () =>
        client
          .from('options')
          .update({ response_count: 99 }, { count: 'exact' })
          .eq('block_id', blocks.ab),
      );
      expect(options.count ?? 0).toBe(0);
    }
    // even the owner cannot inflate their own counters
    await refused(
      ids,
      () => owner.client.from('blocks').update({ response_count: 1000 }).eq('id', blocks.ab),
      /permission denied/,
    );
    // owners write options through save-block only, which never takes a count from the payload
    await refused(
      ids,
      () =>
        owner.client
          .from('options')
          .update({ response_count: 1000 })
          .eq('id', question.options[0]!),
      /permission denied/,
    );
  });

  it('deleting messages or responses directly deletes nothing', async () => {
    const { blocks } = await ownerWith('comment', 'like');
    const [author, attacker] = await Promise.all([newGuest(), newGuest()]);
    await post(author, blocks.comment);
    await author.client.rpc('toggle_block_like', { p_block_id: blocks.like, p_liked: true });
    const before = await Promise.all([stateOf(blocks.comment), stateOf(blocks.like)]);
    for (const client of [author.client, attacker.client, anonClient()]) {
      const messages = await client
        .from('messages')
        .delete({ count: 'exact' })
        .eq('block_id', blocks.comment);
      expect(messages.error?.message ?? '').toMatch(/^$|permission denied/);
      expect(messages.count ?? 0).toBe(0);
      const responses = await client
        .from('responses')
        .delete({ count: 'exact' })
        .eq('block_id', blocks.like);
      expect(responses.count ?? 0).toBe(0);
    }
    expect(await Promise.all([stateOf(blocks.comment), stateOf(blocks.like)])).toEqual(before);
  });

  it('forging creator_id is impossible: the author is always the JWT subject', async () => {
    const { owner, blocks } = await ownerWith('comment', 'like');
    const visitor = await newGuest();
    // the RPCs take no creator id: an extra parameter matches no function
    await refused(
      blocks.comment,
      () =>
        visitor.client.rpc('post_message', {
          p_block_id: blocks.comment,
          p_content: 'as the owner',
          p_creator_id: owner.id,
        }),
      /Could not find the function/,
      404,
    );
    await refused(
      blocks.like,
      () =>
        visitor.client.rpc('toggle_block_like', {
          p_block_id: blocks.like,
          creator_id: owner.id,
        }),
      /Could not find the function/,
    );
    // a direct insert under the owner's id is refused like any other
    await refused(
      blocks.comment,
      () =>
        visitor.client
          .from('messages')
          .insert({ block_id: blocks.comment, creator_id: owner.id, content: 'owner says' }),
      /permission denied/,
    );
    // claiming the owner's name does not make the message the owner's
    const id = await post(visitor, blocks.comment, { p_creator_name: 'Admin' });
    expect(await sql('select creator_id from public.messages where id = $1', [id])).toEqual([
      { creator_id: visitor.id },
    ]);
  });
});

describe('closed doors', () => {
  it('writing to a deactivated block is refused on every write path', async () => {
    const { owner, blocks } = await ownerWith('comment', 'qna', 'like', 'button', 'ab', 'form');
    const visitor = await newGuest();
    const message = await post(visitor, blocks.comment);
    const question = await abQuestion(blocks.ab);
    const ids = Object.values(blocks);
    const service = serviceClient();
    const off = await service.from('blocks').update({ deactivated: true }).in('id', ids);
    expect(off.error).toBeNull();
    const attacks: Array<[() => PromiseLike<RpcResult>, string]> = [
      [
        () => visitor.client.rpc('post_message', { p_block_id: blocks.comment, p_content: 'hi' }),
        "block doesn't exists",
      ],
      [
        () =>
          visitor.client.rpc('post_message', {
            p_block_id: blocks.comment,
            p_parent_id: message,
            p_content: 'reply',
          }),
        "block doesn't exists",
      ],
      [
        () => visitor.client.rpc('post_message', { p_block_id: blocks.qna, p_content: 'q?' }),
        "block doesn't exists",
      ],
      [
        () => visitor.client.rpc('edit_message', { p_message_id: message, p_content: 'x' }),
        "message doesn't exists",
      ],
      [
        () => visitor.client.rpc('toggle_message_like', { p_message_id: message }),
        "message doesn't exists",
      ],
      [
        () => owner.client.rpc('set_message_resolved', { p_message_id: message, p_resolved: true }),
        "message doesn't exists",
      ],
      [
        () => visitor.client.rpc('delete_message', { p_message_id: message }),
        "message doesn't exists",
      ],
      [
        () => visitor.client.rpc('toggle_block_like', { p_block_id: blocks.like }),
        "block doesn't exists",
      ],
      [
        () => visitor.client.rpc('record_button_click', { p_block_id: blocks.button }),
        "block doesn't exists",
      ],
      [
        () =>
          visitor.client.rpc('submit_response', {
            p_block_id: blocks.ab,
            p_answers: { [question.id]: question.options[0] },
          }),
        "block doesn't exists",
      ],
      [
        () => visitor.client.rpc('submit_response', { p_block_id: blocks.form, p_answers: {} }),
        "block doesn't exists",
      ],
    ];
    for (const [attack, expected] of attacks) await refused(ids, attack, expected, 404);
  });

  it('blockAnonymous: an anonymous visitor cannot post or reply; a signed-in one can', async () => {
    const { owner, blocks } = await ownerWith('comment');
    const member = await newUser('member');
    const parent = await post(member, blocks.comment);
    await saveSettings(owner, blocks.comment, { block_anonymous: true });
    const guest = await newGuest();
    for (const parentId of [null, parent]) {
      await refused(
        blocks.comment,
        () =>
          guest.client.rpc('post_message', {
            p_block_id: blocks.comment,
            p_parent_id: parentId,
            p_content: 'let me in',
          }),
        'Please sign in to leave a message.',
        403,
      );
    }
    // a forged token claiming not to be anonymous is refused for its signature
    const claims = JSON.parse(
      Buffer.from(guest.accessToken.split('.')[1]!, 'base64url').toString(),
    ) as Record<string, unknown>;
    const [header, , signature] = guest.accessToken.split('.');
    const tampered = `${header}.${b64url({ ...claims, is_anonymous: false })}.${signature}`;
    await refused(
      blocks.comment,
      () =>
        clientWithToken(tampered).rpc('post_message', {
          p_block_id: blocks.comment,
          p_content: 'let me in',
        }),
      /JWS|JWT|signature/i,
      401,
    );
    await post(member, blocks.comment, { p_parent_id: parent });
  });

  it("the owner's monthly quota stops submits, and the count restarts in a new month", async () => {
    const { owner, blocks } = await ownerWith('form', 'ab');
    const service = serviceClient();
    const limit = await service
      .from('profiles')
      .update({ response_monthly_limit: 2 })
      .eq('id', owner.id);
    expect(limit.error).toBeNull();
    const q = await formWithQuestions(blocks.form);
    const ab = await abQuestion(blocks.ab);
    const visitors = await Promise.all(Array.from({ length: 5 }, () => newGuest()));
    const submit = (v: TestUser) =>
      v.client.rpc('submit_response', {
        p_block_id: blocks.form,
        p_answers: { [q.short.id]: 'ok' },
      });
    // five visitors at once against a limit of 2: exactly two get through
    const results = await Promise.all(visitors.map(submit));
    expect(results.filter((r) => r.error === null)).toHaveLength(2);
    for (const r of results.filter((r) => r.error)) {
      expect(r.error?.message).toMatch(QUOTA_REACHED);
      expect(r.status).toBe(429);
    }
    expect(await stateOf(blocks.form)).toMatchObject({
      response_count: 2,
      response_monthly_count: 2,
    });
    // the quota is the owner's, across blocks
    await refused(
      [blocks.form, blocks.ab],
      () =>
        visitors[4]!.client.rpc('submit_response', {
          p_block_id: blocks.ab,
          p_answers: { [ab.id]: ab.options[0] },
        }),
      QUOTA_REACHED,
      429,
    );

    // a new month: last month's count no longer counts (the month's count shards are moved back
    // a month, as if this month had just begun)
    await sql(
      `update private.response_counts set month = (date_trunc('month', now()) - interval '1 month')::date
       where user_id = $1`,
      [owner.id],
    );
    expect((await submit(visitors[4]!)).error).toBeNull();
    const [profile] = await sql<{ response_monthly_count: number; last_month: number }>(
      `select p.response_monthly_count,
              (select sum(count)::int from private.response_counts c
               where c.user_id = p.id and c.month < date_trunc('month', now())::date) as last_month
       from public.profiles p where p.id = $1`,
      [owner.id],
    );
    expect(profile).toEqual({ response_monthly_count: 1, last_month: 2 });
  });

  it('the visitor cannot raise the quota or reset the count themselves', async () => {
    const { owner, blocks } = await ownerWith('form');
    const visitor = await newGuest();
    for (const client of [visitor.client, owner.client]) {
      await refused(
        blocks.form,
        () =>
          client.from('profiles').update({ response_monthly_limit: 1_000_000 }).eq('id', owner.id),
        /permission denied/,
      );
    }
  });
});

describe('tokens', () => {
  it('a JWT of another project, a tampered one, an unsigned one or an expired one is refused', async () => {
    const { owner, blocks } = await ownerWith('comment', 'like');
    const guest = await newGuest();
    const [header, payload, signature] = guest.accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const tokens: Record<string, string> = {
      'another project': await forgedToken(guest.id),
      'posing as the owner': `${header}.${b64url({ ...claims, sub: owner.id })}.${signature}`,
      'claiming service_role': `${header}.${b64url({ ...claims, role: 'service_role' })}.${signature}`,
      unsigned: `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      expired: await userToken(guest.id, { exp: Math.floor(Date.now() / 1000) - 60 }),
    };
    for (const [label, token] of Object.entries(tokens)) {
      const client = clientWithToken(token);
      const res = await refused(
        [blocks.comment, blocks.like],
        () => client.rpc('post_message', { p_block_id: blocks.comment, p_content: label }),
        /JW|expired|signature/i,
        401,
      );
      expect(res.error?.code, label).toMatch(/^PGRST30/);
      await refused(
        [blocks.comment, blocks.like],
        () => client.rpc('toggle_block_like', { p_block_id: blocks.like }),
        /JW|expired|signature/i,
        401,
      );
    }
  });

  it("another project's anon key is refused by the gateway before anything runs", async () => {
    const { blocks } = await ownerWith('like');
    const guest = await newGuest();
    const otherKey = await forgedToken('anon');
    const res = await refused(
      blocks.like,
      () =>
        clientWithToken(guest.accessToken, otherKey).rpc('toggle_block_like', {
          p_block_id: blocks.like,
        }),
      'Invalid API key',
      401,
    );
    expect(res.error).not.toBeNull();
  });

  it('the anon key alone may read but never write', async () => {
    const { blocks } = await ownerWith('like', 'comment');
    const anon = anonClient();
    expect((await anon.rpc('get_block_view', { p_block_id: blocks.like })).error).toBeNull();
    await refused(
      [blocks.like, blocks.comment],
      () => anon.rpc('toggle_block_like', { p_block_id: blocks.like }),
      /permission denied/,
      401,
    );
    await refused(
      [blocks.like, blocks.comment],
      () => anon.rpc('post_message', { p_block_id: blocks.comment, p_content: 'anon' }),
      /permission denied/,
      401,
    );
  });
});

// =============================================================================================
// Visitor trust (issue 9): floods, sign-up storms, quota burns, URLs, leaks, moderation,
// honeypot and captcha. Each attack asserts the refusal, its status and message, and (through
// refused()/unchanged()) that no row, counter or rate-limit token changed.
// =============================================================================================

/**
 * What a 429 says, per action: what is refused and for how long (the wait in whole seconds,
 * minutes, hours or days, never shorter than the real one).
 */
const WAIT = String.raw`in \d+ (second|seconds|minutes|hours|days)\.`;
const TOO_FAST = {
  message: new RegExp(String.raw`^You're posting too fast\. You can post again ${WAIT}$`),
  edit: new RegExp(String.raw`^You're editing too fast\. You can edit again ${WAIT}$`),
  like: new RegExp(String.raw`^You're liking too fast\. You can like again ${WAIT}$`),
  click: new RegExp(String.raw`^You're clicking too fast\. You can click again ${WAIT}$`),
  report: new RegExp(String.raw`^You're reporting too fast\. You can report again ${WAIT}$`),
  submit: new RegExp(
    String.raw`^You've sent this form several times\. You can send it again ${WAIT}$`,
  ),
  block: new RegExp(String.raw`^Too many people are writing here right now\. Try again ${WAIT}$`),
};
const QUOTA_REACHED = new RegExp(
  String.raw`^Monthly response limit reached\. This form takes responses again ${WAIT}$`,
);

/** A comment posted by `visitor`, or the refusal. */
const tryPost = (visitor: TestUser, blockId: string, fields: Record<string, unknown> = {}) =>
  visitor.client.rpc('post_message', {
    p_block_id: blockId,
    p_content: `hello ${randomUUID()}`,
    p_creator_name: 'Quiet Otter',
    ...fields,
  });

/** An operator's per-block override of the visitor limits (blocks.rate_limits). */
const overrideLimits = (blockId: string, limits: Record<string, Record<string, number>>) =>
  sql('update public.blocks set rate_limits = $2 where id = $1', [blockId, limits]);

describe('abuse: rate limits on every write path', () => {
  it('a comment flood from one visitor stops at the burst with 429 and a clear message', async () => {
    const { blocks } = await ownerWith('comment');
    const flooder = await newGuest();
    // the default burst of comments (8) goes through, one after the other
    for (let i = 0; i < 8; i++) expect((await tryPost(flooder, blocks.comment)).error).toBeNull();
    const res = await refused(
      blocks.comment,
      () => tryPost(flooder, blocks.comment),
      TOO_FAST.message,
      429,
    );
    expect(res.error).toMatchObject({ code: 'PT429', details: 'rate_limit' });
    // replies count against the same bucket
    const [parent] = await sql<{ id: string }>(
      'select id from public.messages where block_id = $1 limit 1',
      [blocks.comment],
    );
    await refused(
      blocks.comment,
      () => tryPost(flooder, blocks.comment, { p_parent_id: parent!.id }),
      TOO_FAST.message,
      429,
    );
    // another visitor is not held back by the flooder
    expect((await tryPost(await newGuest(), blocks.comment)).error).toBeNull();
  });

  it('every 429 carries Retry-After and says in its body what it refuses and for how long', async () => {
    const { owner, blocks } = await ownerWith('comment', 'form');
    const q = await formWithQuestions(blocks.form);
    // five responses a month: the visitor's five submits below fill it
    await sql('update public.profiles set response_monthly_limit = 5 where id = $1', [owner.id]);
    const visitor = await newGuest();
    /** The refusal as a browser or a proxy sees it: the status, Retry-After and the body. */
    const raw = async (fn: string, body: Record<string, unknown>, as: TestUser = visitor) => {
      const res = await fetch(`${stack().apiUrl}/rest/v1/rpc/${fn}`, {
        method: 'POST',
        headers: {
          apikey: stack().anonKey,
          Authorization: `Bearer ${as.accessToken}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as {
        code: string;
        message: string;
        details: string;
        hint: string;
      };
      return { status: res.status, retryAfter: res.headers.get('retry-after'), json };
    };
    for (let i = 0; i < 8; i++) expect((await tryPost(visitor, blocks.comment)).error).toBeNull();
    const comment = await raw('post_message', {
      p_block_id: blocks.comment,
      p_content: 'one more',
    });
    expect(comment.status).toBe(429);
    expect(comment.json).toMatchObject({ code: 'PT429', details: 'rate_limit' });
    expect(comment.json.message).toMatch(TOO_FAST.message);
    const hint = JSON.parse(comment.json.hint) as {
      retry_after: number;
      action: string;
      scope: string;
    };
    expect(hint).toMatchObject({ action: 'message', scope: 'visitor' });
    // one token every ten seconds (6 a minute): the wait is at most that, said in whole seconds
    expect(hint.retry_after).toBeGreaterThanOrEqual(1);
    expect(hint.retry_after).toBeLessThanOrEqual(10);
    expect(comment.retryAfter).toBe(String(hint.retry_after));
    expect(comment.json.message).toContain(`in ${hint.retry_after} second`);

    // a form: five submits, then the next one in about twenty minutes, not "a few seconds"
    const submit = () =>
      raw('submit_response', { p_block_id: blocks.form, p_answers: { [q.short.id]: 'again' } });
    for (let i = 0; i < 5; i++) expect((await submit()).status).toBe(200);
    const form = await submit();
    expect(form.status).toBe(429);
    expect(form.json.message).toMatch(TOO_FAST.submit);
    const formHint = JSON.parse(form.json.hint) as { retry_after: number; action: string };
    expect(formHint.action).toBe('submit');
    expect(formHint.retry_after).toBeGreaterThan(19 * 60);
    expect(formHint.retry_after).toBeLessThanOrEqual(20 * 60);
    expect(Number(form.retryAfter)).toBe(formHint.retry_after);
    expect(form.json.message).toContain('in 20 minutes');

    // the monthly quota: until the first of next month (UTC), said in days or hours
    const quota = await raw(
      'submit_response',
      { p_block_id: blocks.form, p_answers: { [q.short.id]: 'x' } },
      await newGuest(),
    );
    expect(quota.status).toBe(429);
    expect(quota.json).toMatchObject({ code: 'PT429', details: 'quota' });
    expect(quota.json.message).toMatch(QUOTA_REACHED);
    const [untilNextMonth] = await sql<{ seconds: number }>(
      `select extract(epoch from date_trunc('month', now() at time zone 'UTC') + interval '1 month'
                                - now() at time zone 'UTC')::float8 as seconds`,
    );
    const quotaHint = JSON.parse(quota.json.hint) as { retry_after: number; scope: string };
    expect(quotaHint.scope).toBe('owner');
    expect(Math.abs(quotaHint.retry_after - untilNextMonth!.seconds)).toBeLessThan(60);
    expect(quota.retryAfter).toBe(String(quotaHint.retry_after));
  });

  it('162 comments a second from one visitor: eight are stored, the rest refused with 429', async () => {
    const { blocks } = await ownerWith('comment');
    const flooder = await newGuest();
    const results = await Promise.all(
      Array.from({ length: 162 }, () => tryPost(flooder, blocks.comment)),
    );
    const stored = results.filter((r) => r.error === null);
    expect(stored).toHaveLength(8);
    for (const r of results.filter((r) => r.error)) {
      expect(r.status).toBe(429);
      expect(r.error?.message).toMatch(TOO_FAST.message);
    }
    expect(await count('select 1 from public.messages where block_id = $1', [blocks.comment])).toBe(
      8,
    );
    expect(await stateOf(blocks.comment)).toMatchObject({ response_count: 8 });
  });

  it('edits, message likes, block likes, button clicks and reports each have their limit', async () => {
    const { blocks } = await ownerWith('comment', 'like', 'button');
    // the default bursts, with (almost) no refill while the test runs: on a busy machine the
    // 30 likes take long enough for a token to come back at the default 60 a minute
    const slow = { visitor_per_minute: 0.001 };
    await overrideLimits(blocks.comment, { edit: slow, like: slow, report: slow });
    await overrideLimits(blocks.like, { like: slow });
    await overrideLimits(blocks.button, { click: slow });
    const visitor = await newGuest();
    const author = await newGuest();
    // edits: 10 at once
    const mine = await post(visitor, blocks.comment);
    for (let i = 0; i < 10; i++) {
      const { error } = await visitor.client.rpc('edit_message', {
        p_message_id: mine,
        p_content: `edit ${i}`,
      });
      expect(error).toBeNull();
    }
    await refused(
      blocks.comment,
      () => visitor.client.rpc('edit_message', { p_message_id: mine, p_content: 'one more' }),
      TOO_FAST.edit,
      429,
    );
    // message likes: 30 toggles at once
    const theirs = await post(author, blocks.comment);
    for (let i = 0; i < 30; i++) {
      const { error } = await visitor.client.rpc('toggle_message_like', { p_message_id: theirs });
      expect(error).toBeNull();
    }
    await refused(
      blocks.comment,
      () => visitor.client.rpc('toggle_message_like', { p_message_id: theirs }),
      TOO_FAST.like,
      429,
    );
    // block likes: 30 toggles
    for (let i = 0; i < 30; i++) {
      const { error } = await visitor.client.rpc('toggle_block_like', { p_block_id: blocks.like });
      expect(error).toBeNull();
    }
    await refused(
      blocks.like,
      () => visitor.client.rpc('toggle_block_like', { p_block_id: blocks.like }),
      TOO_FAST.like,
      429,
    );
    // button clicks: 20
    for (let i = 0; i < 20; i++) {
      const { error } = await visitor.client.rpc('record_button_click', {
        p_block_id: blocks.button,
      });
      expect(error).toBeNull();
    }
    await refused(
      blocks.button,
      () => visitor.client.rpc('record_button_click', { p_block_id: blocks.button }),
      TOO_FAST.click,
      429,
    );
    // reports: ten different messages, then the eleventh is refused
    const reporter = await newGuest();
    const targets: string[] = [];
    for (let i = 0; i < 11; i++) targets.push(await post(await newGuest(), blocks.comment));
    for (const id of targets.slice(0, 10)) {
      expect((await reporter.client.rpc('report_message', { p_message_id: id })).error).toBeNull();
    }
    await refused(
      blocks.comment,
      () => reporter.client.rpc('report_message', { p_message_id: targets[10] }),
      TOO_FAST.report,
      429,
    );
  });

  it("many fresh identities of one address flooding one block get the address's share, held, then the captcha", async () => {
    const { blocks } = await ownerWith('comment', 'ab');
    // a small block bucket (the operator's per-block override): 8, of which one address may
    // take a quarter (every test client is the loopback; storm.test.ts has many addresses)
    await overrideLimits(blocks.comment, { message: { block_burst: 8, block_per_minute: 0.001 } });
    const crowd = await Promise.all(Array.from({ length: 24 }, () => newGuest()));
    const results = [];
    for (const visitor of crowd) results.push(await tryPost(visitor, blocks.comment));
    expect(results.slice(0, 2).map((r) => r.error)).toEqual([null, null]);
    for (const r of results.slice(2)) {
      expect(r.status).toBe(429);
      expect(r.error?.message).toMatch(TOO_FAST.block);
      expect(r.error?.details).toBe('captcha');
      expect(JSON.parse((r.error as { hint?: string }).hint ?? '{}')).toMatchObject({
        action: 'message',
        scope: 'address',
      });
    }
    // the two stored are the burst: held for the owner, shown to nobody else
    expect(
      await count('select 1 from public.messages where block_id = $1 and status = $2', [
        blocks.comment,
        'held',
      ]),
    ).toBe(2);
    // votes: one per visitor anyway, and the block's bucket stops a crowd of fresh voters
    await overrideLimits(blocks.ab, { vote: { block_burst: 4, block_per_minute: 0.001 } });
    const ab = await abQuestion(blocks.ab);
    const votes = [];
    for (const visitor of crowd.slice(0, 12)) {
      votes.push(
        await visitor.client.rpc('submit_response', {
          p_block_id: blocks.ab,
          p_answers: { [ab.id]: ab.options[0] },
        }),
      );
    }
    const counted = votes.filter((r) => r.error === null).length;
    expect(counted).toBeLessThanOrEqual(4);
    expect(votes.filter((r) => r.status === 429)).toHaveLength(12 - counted);
    expect(await stateOf(blocks.ab)).toMatchObject({ response_count: counted });
  });

  it('the bucket refills: a refused visitor may write again a moment later', async () => {
    const { blocks } = await ownerWith('comment');
    await overrideLimits(blocks.comment, {
      message: { visitor_burst: 1, visitor_per_minute: 30 },
    });
    const visitor = await newGuest();
    expect((await tryPost(visitor, blocks.comment)).error).toBeNull();
    await refused(blocks.comment, () => tryPost(visitor, blocks.comment), TOO_FAST.message, 429);
    // one token every two seconds
    await eventually(async () => (await tryPost(visitor, blocks.comment)).error === null, 15_000);
  });

  it('the owner is never limited on their own block', async () => {
    const { owner, blocks } = await ownerWith('comment');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => tryPost(owner, blocks.comment)),
    );
    expect(results.map((r) => r.error)).toEqual(Array(20).fill(null));
  });

  it('the purge of full buckets never waits for a visitor whose write holds one', async () => {
    const { blocks } = await ownerWith('comment');
    const visitor = await newGuest();
    expect((await tryPost(visitor, blocks.comment)).error).toBeNull();
    // make every bucket of the block look full (purgeable), then hold the visitor's in a write
    await sql(
      "update private.rate_limits set full_at = now() - interval '1 hour' where block_id = $1",
      [blocks.comment],
    );
    const pg = await import('pg');
    const holder = new pg.default.Client({ connectionString: stack().dbUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(
        'select 1 from private.rate_limits where block_id = $1 and subject = $2 for update',
        [blocks.comment, visitor.id],
      );
      // with a lock timeout, a purge that waited would fail instead of returning
      await sql("set lock_timeout = '2s'; select private.purge_trust()");
      const left = await sql<{ subject: string }>(
        'select subject from private.rate_limits where block_id = $1',
        [blocks.comment],
      );
      expect(left.map((r) => r.subject)).toEqual([visitor.id]);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    await sql('select private.purge_trust()');
    expect(
      await count('select 1 from private.rate_limits where block_id = $1', [blocks.comment]),
    ).toBe(0);
  });

  it('the limits are in the database: a visitor cannot raise them or read the buckets', async () => {
    const { blocks } = await ownerWith('comment');
    const visitor = await newGuest();
    await refused(
      blocks.comment,
      () =>
        visitor.client
          .from('blocks')
          .update({ rate_limits: { message: { visitor_burst: 1_000_000 } } })
          .eq('id', blocks.comment),
      /permission denied/,
    );
    const { error } = await visitor.client
      .schema('private' as never)
      .from('rate_limits')
      .select('*');
    expect(error).not.toBeNull();
  });
});

describe('abuse: anonymous sign-up storm', () => {
  /**
   * The local auth server with Supabase Auth's default limit (30 anonymous sign-ins per address
   * and hour), behind a small gateway of this test's own: the shared test stack raises the limit
   * for the other tests, this test keeps the default for itself.
   */
  async function authWithDefaultLimit(trustedProxies: string[] = []) {
    const { createAuthServer } = await import('../local/auth/server.ts');
    const { serveAuth } = await import('./support/auth-server.ts');
    const auth = createAuthServer({
      databaseUrl: stack().dbUrl,
      jwtSecret: stack().jwtSecret,
      externalUrl: 'http://127.0.0.1/auth/v1',
      siteUrl: 'http://127.0.0.1',
      anonKey: stack().anonKey,
      serviceRoleKey: stack().serviceRoleKey,
      trustedProxies,
    });
    const served = await serveAuth(auth);
    return { url: served.url, close: served.close };
  }

  /** Anonymous users this test made (each sign-in carries its marker: other files sign in too). */
  const anonymousUsers = async (marker: string) =>
    (
      await sql<{ n: number }>(
        `select count(*)::int as n from auth.users
         where is_anonymous and raw_user_meta_data ->> 'probe' = $1`,
        [marker],
      )
    )[0]!.n;

  it('30 anonymous sign-ins an hour per address; the 31st is refused with 429 and creates no user', async () => {
    const server = await authWithDefaultLimit();
    const marker = randomUUID();
    try {
      const signIn = (headers: Record<string, string> = {}) =>
        createClient(server.url, stack().anonKey, {
          auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
          global: { headers },
        }).auth.signInAnonymously({ options: { data: { probe: marker } } });
      for (let i = 0; i < 30; i++) expect((await signIn()).error).toBeNull();
      expect(await anonymousUsers(marker)).toBe(30);
      // a script that claims other addresses in X-Forwarded-For is not believed: the server's
      // peer is the client itself, no trusted proxy in between
      for (const forwarded of ['203.0.113.9', '198.51.100.1, 203.0.113.10']) {
        const { data, error } = await signIn({ 'x-forwarded-for': forwarded });
        expect(data.session).toBeNull();
        expect(error?.status).toBe(429);
        expect(error?.code).toBe('over_request_rate_limit');
        expect(error?.message).toBe('Request rate limit reached');
      }
      expect(await anonymousUsers(marker)).toBe(30);
    } finally {
      await server.close();
    }
  });

  it('behind a trusted proxy, each client address (its X-Forwarded-For entry) has its own budget', async () => {
    // the test process is the proxy here: it adds the client's address as a proxy would
    const server = await authWithDefaultLimit(['127.0.0.1']);
    try {
      const signInFrom = (forwarded: string) =>
        createClient(server.url, stack().anonKey, {
          auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
          global: { headers: { 'x-forwarded-for': forwarded } },
        }).auth.signInAnonymously();
      for (let i = 0; i < 30; i++) expect((await signInFrom('203.0.113.7')).error).toBeNull();
      expect((await signInFrom('203.0.113.7')).error?.status).toBe(429);
      // what the client wrote before the proxy's entry changes nothing: the last untrusted
      // address is the client's
      expect((await signInFrom('192.0.2.55, 203.0.113.7')).error?.status).toBe(429);
      // another client behind the same proxy is not affected
      expect((await signInFrom('203.0.113.8')).error).toBeNull();
    } finally {
      await server.close();
    }
  });
});

describe('abuse: spoofed X-Forwarded-For through the gateway (issue 17)', () => {
  /**
   * The stack's own path, with Supabase Auth's default limits: the gateway (in this process) in
   * front of a services port with an auth server of this test's own, trusting the gateway and
   * `trustedProxies` as the stack does with AUTH_TRUSTED_PROXIES.
   */
  async function gatewayWithDefaultLimits(trustedProxies: string[] = []) {
    const { createAuthServer } = await import('../local/auth/server.ts');
    const { startServices } = await import('../local/services.ts');
    const { startGateway } = await import('../local/gateway.ts');
    const { freePorts } = await import('../local/config.ts');
    const { closeServer } = await import('../local/http.ts');
    const ports = await freePorts();
    const auth = createAuthServer({
      databaseUrl: stack().dbUrl,
      jwtSecret: stack().jwtSecret,
      externalUrl: `http://127.0.0.1:${ports.api}/auth/v1`,
      siteUrl: 'http://127.0.0.1',
      anonKey: stack().anonKey,
      serviceRoleKey: stack().serviceRoleKey,
      gatewayAddresses: ['127.0.0.1', '::1'],
      trustedProxies,
    });
    const services = await startServices({ port: ports.services, auth });
    const gateway = await startGateway({
      port: ports.api,
      anonKey: stack().anonKey,
      serviceRoleKey: stack().serviceRoleKey,
      jwtSecret: stack().jwtSecret,
      postgrestPort: ports.postgrest,
      functionsPort: ports.functions,
      servicesPort: ports.services,
      realtime: false,
      storage: false,
    });
    return {
      url: `http://127.0.0.1:${ports.api}`,
      close: async () => {
        await closeServer(gateway);
        await closeServer(services);
        await auth.close();
      },
    };
  }

  const signInVia = (url: string, forwarded: string, marker: string) =>
    createClient(url, stack().anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: { headers: { 'x-forwarded-for': forwarded } },
    }).auth.signInAnonymously({ options: { data: { probe: marker } } });

  const madeBy = async (marker: string) =>
    (
      await sql<{ n: number }>(
        `select count(*)::int as n from auth.users where raw_user_meta_data ->> 'probe' = $1`,
        [marker],
      )
    )[0]!.n;

  it('40 sign-ins, each claiming another address: the gateway adds the real one, 30 pass, 10 get 429', async () => {
    const gateway = await gatewayWithDefaultLimits(['10.0.0.5']);
    const marker = randomUUID();
    try {
      const results = [];
      for (let i = 0; i < 40; i++) {
        // a fresh address each time, some posing as the trusted proxy's hop
        const spoof = i % 2 ? `203.0.113.${i}` : `198.51.100.${i}, 10.0.0.5`;
        results.push(await signInVia(gateway.url, spoof, marker));
      }
      expect(results.filter((r) => r.error === null)).toHaveLength(30);
      for (const refused of results.slice(30)) {
        expect(refused.error?.status).toBe(429);
        expect(refused.error?.code).toBe('over_request_rate_limit');
      }
      expect(await madeBy(marker)).toBe(30);
    } finally {
      await gateway.close();
    }
  });

  it('behind a proxy the operator trusts, the address that proxy adds counts, whatever the client wrote', async () => {
    // the test process plays the trusted proxy in front of the gateway (AUTH_TRUSTED_PROXIES)
    const gateway = await gatewayWithDefaultLimits(['127.0.0.1']);
    const marker = randomUUID();
    try {
      for (let i = 0; i < 30; i++) {
        expect((await signInVia(gateway.url, '203.0.113.7', marker)).error).toBeNull();
      }
      // what the client wrote to the left of the proxy's entry is not read
      expect((await signInVia(gateway.url, '192.0.2.1, 203.0.113.7', marker)).error?.status).toBe(
        429,
      );
      expect((await signInVia(gateway.url, '203.0.113.8', marker)).error).toBeNull();
    } finally {
      await gateway.close();
    }
  });
});

describe('abuse: every sign-up path has a per-address limit, as on GoTrue (issue 17)', () => {
  it('email sign-ups (off), user updates and link verifications each stop at 30 per address', async () => {
    const { createAuthServer } = await import('../local/auth/server.ts');
    const { serveAuth } = await import('./support/auth-server.ts');
    const served = await serveAuth(
      createAuthServer({
        databaseUrl: stack().dbUrl,
        jwtSecret: stack().jwtSecret,
        externalUrl: 'http://127.0.0.1/auth/v1',
        siteUrl: 'http://127.0.0.1',
        anonKey: stack().anonKey,
        serviceRoleKey: stack().serviceRoleKey,
      }),
    );
    const post = (path: string, body: unknown, token = stack().anonKey, method = 'POST') =>
      fetch(`${served.url}/auth/v1${path}`, {
        method,
        headers: {
          apikey: stack().anonKey,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    const burst = async (send: () => Promise<Response>) => {
      const statuses: number[] = [];
      for (let i = 0; i < 32; i++) statuses.push((await send()).status);
      return statuses;
    };
    try {
      // email sign-up is off, and each try counts against the sign-up limit all the same
      const signups = await burst(() =>
        post('/signup', { email: `storm-${randomUUID()}@test.local`, password: 'long enough' }),
      );
      expect(signups.slice(0, 30).every((s) => s === 400)).toBe(true);
      expect(signups.slice(30)).toEqual([429, 429]);
      // guessing mailed links
      const verifies = await burst(() =>
        post('/verify', { type: 'email_change', token_hash: randomUUID().replace(/-/g, '') }),
      );
      expect(verifies.slice(0, 30).every((s) => s === 403)).toBe(true);
      expect(verifies.slice(30)).toEqual([429, 429]);
      // an anonymous user (one sign-in) updating itself in a loop
      const guest = (await (await post('/signup', {})).json()) as { access_token: string };
      const updates = await burst(() =>
        post('/user', { data: { n: randomUUID() } }, guest.access_token, 'PUT'),
      );
      expect(updates.slice(0, 30).every((s) => s === 200)).toBe(true);
      expect(updates.slice(30)).toEqual([429, 429]);
    } finally {
      await served.close();
    }
  });

  it('an anonymous visitor who adds an email stays anonymous until the mailed link is opened', async () => {
    const guest = await newGuest();
    const email = `claim-${randomUUID()}@test.local`;
    const { data, error } = await guest.client.auth.updateUser({ email });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ is_anonymous: true, email: '', new_email: email });
    const [user] = await sql<{ is_anonymous: boolean; email: string | null }>(
      'select is_anonymous, email from auth.users where id = $1',
      [guest.id],
    );
    expect(user).toEqual({ is_anonymous: true, email: null });
    expect(await sql('select 1 from public.profiles where id = $1', [guest.id])).toHaveLength(0);
    // the SES fake's mailbox has the link; someone who does not read that mailbox cannot finish
    const mail = await waitForMail(email);
    expect(mail.subject).toBe('Confirm your email address');
    const link = /https?:\/\/\S+\/auth\/v1\/verify\?[^\s"<]+/.exec(mail.text ?? '')![0];
    const forged = new URL(link);
    forged.searchParams.set('token', 'a'.repeat(56));
    const refused = await fetch(forged, { redirect: 'manual' });
    expect(new URL(refused.headers.get('location')!).hash).toContain('error_code=otp_expired');
    const opened = await fetch(link, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(new URL(opened.headers.get('location')!).hash).toContain('access_token=');
    const [after] = await sql<{ is_anonymous: boolean; email: string | null }>(
      'select is_anonymous, email from auth.users where id = $1',
      [guest.id],
    );
    expect(after).toEqual({ is_anonymous: false, email });
  });
});

describe('abuse: burning the monthly response quota', () => {
  it('one visitor cannot burn the quota: five submits to a form, then 429, the count stops at five', async () => {
    const { blocks } = await ownerWith('form');
    const q = await formWithQuestions(blocks.form);
    const burner = await newGuest();
    const submit = () =>
      burner.client.rpc('submit_response', {
        p_block_id: blocks.form,
        p_answers: { [q.short.id]: 'again' },
      });
    // 40 submits in a burst, as in the issue
    const results = await Promise.all(Array.from({ length: 40 }, submit));
    expect(results.filter((r) => r.error === null)).toHaveLength(5);
    for (const r of results.filter((r) => r.error)) {
      expect(r.status).toBe(429);
      expect(r.error?.message).toMatch(TOO_FAST.submit);
    }
    expect(await stateOf(blocks.form)).toMatchObject({
      response_count: 5,
      response_monthly_count: 5,
    });
    await refused(blocks.form, submit, TOO_FAST.submit, 429);
    // people keep their "Submit again": another visitor submits as usual
    const person = await newGuest();
    expect(
      (
        await person.client.rpc('submit_response', {
          p_block_id: blocks.form,
          p_answers: { [q.short.id]: 'hello' },
        })
      ).error,
    ).toBeNull();
  });

  it('the owner is mailed at 80 % and at 100 % of the monthly quota, once each', async () => {
    const { owner, blocks } = await ownerWith('form');
    await sql('update public.profiles set response_monthly_limit = 5 where id = $1', [owner.id]);
    const q = await formWithQuestions(blocks.form);
    const submitAs = async (v: TestUser) =>
      v.client.rpc('submit_response', {
        p_block_id: blocks.form,
        p_answers: { [q.short.id]: 'ok' },
      });
    const visitors = await Promise.all(Array.from({ length: 6 }, () => newGuest()));
    for (const v of visitors.slice(0, 3)) expect((await submitAs(v)).error).toBeNull();
    const notices = () =>
      sql<{ level: number }>(
        'select level from private.quota_notices where user_id = $1 order by level',
        [owner.id],
      );
    expect(await notices()).toEqual([]);
    expect((await submitAs(visitors[3]!)).error).toBeNull(); // 4 of 5: 80 %
    expect(await notices()).toEqual([{ level: 80 }]);
    expect((await submitAs(visitors[4]!)).error).toBeNull(); // 5 of 5: 100 %
    expect(await notices()).toEqual([{ level: 80 }, { level: 100 }]);
    await refused(blocks.form, () => submitAs(visitors[5]!), QUOTA_REACHED, 429);
    expect(await notices()).toEqual([{ level: 80 }, { level: 100 }]);

    const { waitForMail } = await import('./support/providers.ts');
    const full = await waitForMail(owner.email, (m) => /used up/.test(m.subject));
    const warning = await waitForMail(owner.email, (m) => /80%/.test(m.subject));
    expect(warning.subject).toBe('You have used 80% of this month’s responses');
    expect(warning.text).toContain('4 of the 5 responses');
    expect(full.subject).toBe('This month’s responses are used up');
    expect(full.html).toContain('/profile/plan');
    const jobs = await sql<{ n: number }>(
      "select count(*)::int as n from private.jobs where kind = 'quota.notice' and payload ->> 'user_id' = $1",
      [owner.id],
    );
    expect(jobs[0]!.n).toBe(2);
  });
});

describe('abuse: avatar and home URLs', () => {
  it('an anonymous visitor has no avatar: a tracking pixel is refused and nothing is written', async () => {
    const { blocks } = await ownerWith('comment');
    const guest = await newGuest();
    for (const url of [
      'https://tracker.example/pixel.gif?u=1',
      'https://lh3.googleusercontent.com/a/photo',
      'http://127.0.0.1/pixel.gif',
    ]) {
      await refused(
        blocks.comment,
        () => tryPost(guest, blocks.comment, { p_creator_photo_url: url }),
        'Invalid avatar URL',
        400,
      );
    }
    expect((await tryPost(guest, blocks.comment, { p_creator_photo_url: null })).error).toBeNull();
  });

  it("a signed-in visitor's avatar is https from a provider's image host only", async () => {
    const { blocks } = await ownerWith('comment');
    const member = await newUser('member');
    for (const url of [
      'http://lh3.googleusercontent.com/a/photo',
      'https://tracker.example/pixel.gif',
      'https://lh3.googleusercontent.com.tracker.example/a',
      'https://user:pass@lh3.googleusercontent.com/a',
      'javascript:alert(1)',
      'data:image/gif;base64,R0lGOD',
      'https://lh3.googleusercontent.com/a b',
    ]) {
      await refused(
        blocks.comment,
        () => tryPost(member, blocks.comment, { p_creator_photo_url: url }),
        'Invalid avatar URL',
        400,
      );
    }
    const { data, error } = await tryPost(member, blocks.comment, {
      p_creator_photo_url: 'https://lh3.googleusercontent.com/a/ACg8ocK=s96-c',
    });
    expect(error).toBeNull();
    expect((data as { creator_photo_url: string }).creator_photo_url).toBe(
      'https://lh3.googleusercontent.com/a/ACg8ocK=s96-c',
    );
  });

  it('a home URL is http or https only', async () => {
    const { blocks } = await ownerWith('comment');
    const guest = await newGuest();
    for (const url of [
      'javascript:alert(document.cookie)',
      'JAVASCRIPT:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      'ftp://example.com',
      '//example.com',
      'https://example.com/a b',
      'https://user@evil.example',
    ]) {
      await refused(
        blocks.comment,
        () => tryPost(guest, blocks.comment, { p_home_url: url }),
        'Invalid home URL',
        400,
      );
    }
    const { data, error } = await tryPost(guest, blocks.comment, {
      p_home_url: 'https://example.com/me',
    });
    expect(error).toBeNull();
    expect((data as { home_url: string }).home_url).toBe('https://example.com/me');
  });
});

describe('abuse: what readers see of a block', () => {
  it('nobody but the owner lists blocks: no tags or unread counts for anon, visitors or other users', async () => {
    const { owner, blocks } = await ownerWith('comment', 'form');
    await owner.client
      .from('blocks')
      .update({ tags: ['secret-campaign'] })
      .eq('id', blocks.form);
    await post(await newGuest(), blocks.comment);
    for (const client of [
      anonClient(),
      (await newGuest()).client,
      (await newUser('other')).client,
    ]) {
      const all = await client.from('blocks').select('*');
      expect(all.error).toBeNull();
      expect(all.data).toEqual([]);
      const one = await client
        .from('blocks')
        .select('tags, new_response_count')
        .eq('id', blocks.form);
      expect(one.data).toEqual([]);
    }
    const mine = await owner.client.from('blocks').select('id, tags').eq('id', blocks.form);
    expect(mine.data).toEqual([{ id: blocks.form, tags: ['secret-campaign'] }]);
  });

  it('get_block_view gives the public settings only', async () => {
    const { owner, blocks } = await ownerWith('comment');
    await owner.client
      .from('blocks')
      .update({ tags: ['secret-campaign'] })
      .eq('id', blocks.comment);
    await saveSettings(owner, blocks.comment, { hold_messages: 'links', honeypot: true });
    await post(await newGuest(), blocks.comment, { p_honeypot: '' });
    const { data, error } = await anonClient().rpc('get_block_view', {
      p_block_id: blocks.comment,
    });
    expect(error).toBeNull();
    const block = (data as { block: Record<string, unknown> }).block;
    for (const key of [
      'tags',
      'new_response_count',
      'created_at',
      'updated_at',
      'hold_messages',
      'honeypot',
      'rate_limits',
      'embeded_url',
      'mode',
      'ending_mode',
    ]) {
      expect(block, key).not.toHaveProperty(key);
    }
    expect(JSON.stringify(data)).not.toContain('secret-campaign');
    expect(block).toMatchObject({ id: blocks.comment, type: 'comment', response_count: 1 });
  });
});

describe('moderation: held and hidden messages are never served to others', () => {
  /**
   * The block's Realtime topic as the elements join it (`block:<id>`, public: each hint names a
   * change, read with get_block_change as the elements read it), or with `owner` the owner's
   * (`block:<id>:owner`, private, which names the changed message only): the rows received.
   */
  async function watch(client: SupabaseClient, blockId: string, owner = false) {
    const received: Array<{ id: string; content?: string; status?: string }> = [];
    type Row = { id: string; content: string; status: string };
    const read = async (id: unknown) => {
      const { data } = await client.rpc(
        'get_block_change',
        { p_block_id: blockId, p_id: id },
        { get: true },
      );
      const row = (data as { payload?: { row?: Row } } | null)?.payload?.row;
      if (row) received.push(row);
    };
    await new Promise<void>((resolve, reject) => {
      client
        .channel(`block:${blockId}${owner ? ':owner' : ''}`, { config: { private: owner } })
        .on('broadcast', { event: owner ? 'change' : 'hint' }, ({ payload }) => {
          const p = payload as { id?: string; row?: Row };
          if (!owner) void read(p.id);
          else if (p.id) received.push({ id: p.id });
        })
        .subscribe((status, err) => {
          if (status === 'SUBSCRIBED') resolve();
          if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT')
            reject(err ?? new Error(status));
        });
    });
    return received;
  }

  it('hold all: the writer and the owner see a held comment; get_block_view, list_messages, the table and Realtime show others nothing', async () => {
    const { owner, blocks } = await ownerWith('comment');
    await saveSettings(owner, blocks.comment, { hold_messages: 'all' });
    const writer = await newGuest();
    const reader = await newGuest();
    const anon = anonClient();
    const live = await watch(anon, blocks.comment);
    const liveReader = await watch(reader.client, blocks.comment);
    const liveOwner = await watch(owner.client, blocks.comment, true);

    const held = await tryPost(writer, blocks.comment, { p_content: 'wait for me' });
    expect(held.error).toBeNull();
    const heldId = (held.data as { id: string; status: string }).id;
    expect((held.data as { status: string }).status).toBe('held');
    // the owner's own message is published, and arrives live for everyone: by then the held
    // one would have arrived too
    const ownPost = await tryPost(owner, blocks.comment, { p_content: 'from the owner' });
    expect((ownPost.data as { status: string }).status).toBe('published');
    await eventually(() => live.some((m) => m.content === 'from the owner'));
    await eventually(() => liveReader.some((m) => m.content === 'from the owner'));
    await eventually(() => liveOwner.some((m) => m.id === heldId));
    expect(live.map((m) => m.id)).not.toContain(heldId);
    expect(liveReader.map((m) => m.id)).not.toContain(heldId);

    const ids = (payload: unknown) => JSON.stringify(payload);
    for (const client of [anon, reader.client]) {
      const view = await client.rpc('get_block_view', { p_block_id: blocks.comment });
      const list = await client.rpc('list_messages', { p_block_id: blocks.comment });
      const table = await client.from('messages').select('*').eq('block_id', blocks.comment);
      for (const payload of [view.data, list.data, table.data]) {
        expect(ids(payload)).not.toContain(heldId);
        expect(ids(payload)).toContain('from the owner');
      }
    }
    // the writer sees their own held message (the element marks it), the owner sees it too
    for (const client of [writer.client, owner.client]) {
      const view = await client.rpc('get_block_view', { p_block_id: blocks.comment });
      expect(ids(view.data)).toContain(heldId);
    }
    // others cannot reply to it, like it or report it: it does not exist for them
    for (const [fn, args] of [
      ['post_message', { p_block_id: blocks.comment, p_parent_id: heldId, p_content: 'hi' }],
      ['toggle_message_like', { p_message_id: heldId }],
      ['report_message', { p_message_id: heldId }],
    ] as const) {
      await refused(
        blocks.comment,
        () => reader.client.rpc(fn, args),
        "message doesn't exists",
        404,
      );
    }

    // approved: now everyone sees it, and it arrives live as an update
    const approved = await owner.client.rpc('moderate_messages', {
      p_message_ids: [heldId],
      p_action: 'approve',
    });
    expect(approved.error).toBeNull();
    await eventually(() => live.some((m) => m.id === heldId && m.status === 'published'));
    const view = await anon.rpc('get_block_view', { p_block_id: blocks.comment });
    expect(ids(view.data)).toContain(heldId);
  });

  it('hold first_time: a first message waits, after approval the writer is trusted', async () => {
    const { owner, blocks } = await ownerWith('qna');
    await saveSettings(owner, blocks.qna, { hold_messages: 'first_time' });
    const writer = await newGuest();
    const first = await tryPost(writer, blocks.qna);
    expect((first.data as { status: string }).status).toBe('held');
    const second = await tryPost(writer, blocks.qna);
    expect((second.data as { status: string }).status).toBe('held');
    await owner.client.rpc('moderate_messages', {
      p_message_ids: [(first.data as { id: string }).id],
      p_action: 'approve',
    });
    const third = await tryPost(writer, blocks.qna);
    expect((third.data as { status: string }).status).toBe('published');
    // another newcomer still waits
    expect(((await tryPost(await newGuest(), blocks.qna)).data as { status: string }).status).toBe(
      'held',
    );
  });

  it('hold links: a message with a link waits, also when a link is added by an edit', async () => {
    const { owner, blocks } = await ownerWith('comment');
    await saveSettings(owner, blocks.comment, { hold_messages: 'links' });
    const writer = await newGuest();
    for (const text of [
      'buy at https://spam.example',
      'see www.spam.example now',
      'cheap-pills.xyz/buy',
    ]) {
      const res = await tryPost(writer, blocks.comment, { p_content: text });
      expect((res.data as { status: string }).status, text).toBe('held');
    }
    const plain = await tryPost(writer, blocks.comment, { p_content: 'no link here, e.g. none' });
    expect((plain.data as { status: string }).status).toBe('published');
    const edited = await writer.client.rpc('edit_message', {
      p_message_id: (plain.data as { id: string }).id,
      p_content: 'now with https://spam.example',
    });
    expect((edited.data as { status: string }).status).toBe('held');
  });

  it('hidden: a hidden thread and its replies are gone for everyone but the owner', async () => {
    const { owner, blocks } = await ownerWith('comment');
    const writer = await newGuest();
    const replier = await newGuest();
    const thread = await post(writer, blocks.comment);
    await post(replier, blocks.comment, { p_parent_id: thread, p_content: 'a reply' });
    const hidden = await owner.client.rpc('moderate_messages', {
      p_message_ids: [thread],
      p_action: 'hide',
    });
    expect(hidden.error).toBeNull();
    for (const client of [anonClient(), writer.client, replier.client]) {
      const view = await client.rpc('get_block_view', { p_block_id: blocks.comment });
      expect((view.data as { messages: unknown[] }).messages).toEqual([]);
      const table = await client.from('messages').select('id').eq('id', thread);
      expect(table.data).toEqual([]);
    }
    const ownerView = await owner.client.rpc('get_block_view', { p_block_id: blocks.comment });
    expect(JSON.stringify(ownerView.data)).toContain(thread);
    // the writer cannot edit or delete what is hidden from them
    await refused(
      blocks.comment,
      () => writer.client.rpc('edit_message', { p_message_id: thread, p_content: 'sneaky' }),
      "message doesn't exists",
      404,
    );
  });

  it('pinned threads come first in the view; only the owner pins', async () => {
    const { owner, blocks } = await ownerWith('comment');
    const writer = await newGuest();
    const old = await post(writer, blocks.comment, { p_content: 'the old one' });
    for (let i = 0; i < 6; i++) await post(await newGuest(), blocks.comment);
    await refused(
      blocks.comment,
      () => writer.client.rpc('moderate_messages', { p_message_ids: [old], p_action: 'pin' }),
      'Only the block owner can moderate messages',
      403,
    );
    expect(
      (await owner.client.rpc('moderate_messages', { p_message_ids: [old], p_action: 'pin' }))
        .error,
    ).toBeNull();
    const view = await anonClient().rpc('get_block_view', { p_block_id: blocks.comment });
    const messages = (view.data as { messages: Array<{ id: string; pinned_at: string | null }> })
      .messages;
    expect(messages[0]!.id).toBe(old);
    expect(messages[0]!.pinned_at).not.toBeNull();
    expect(messages.filter((m) => m.id === old)).toHaveLength(1);
    // list_messages (older pages) never repeats it
    const list = await anonClient().rpc('list_messages', {
      p_block_id: blocks.comment,
      p_limit: 50,
    });
    expect(JSON.stringify(list.data)).not.toContain(old);
  });
});

describe('moderation: blocked writers, reports and the owner-only RPCs', () => {
  it("a blocked writer's later writes are refused on every path; unblocking lets them back", async () => {
    const { owner, blocks } = await ownerWith('comment', 'like', 'button', 'form');
    const q = await formWithQuestions(blocks.form);
    const writer = await newGuest();
    const mine = await post(writer, blocks.comment);
    const theirs = await post(await newGuest(), blocks.comment);
    for (const block of [blocks.comment, blocks.like, blocks.button, blocks.form]) {
      const { error } = await owner.client.rpc('block_writer', {
        p_block_id: block,
        p_user_id: writer.id,
      });
      expect(error).toBeNull();
    }
    const BLOCKED = 'The owner of this block has blocked you from writing here.';
    const attempts: Array<[string, string, Record<string, unknown>]> = [
      [blocks.comment, 'post_message', { p_block_id: blocks.comment, p_content: 'again' }],
      [
        blocks.comment,
        'post_message',
        { p_block_id: blocks.comment, p_parent_id: theirs, p_content: 'reply' },
      ],
      [blocks.comment, 'edit_message', { p_message_id: mine, p_content: 'edited' }],
      [blocks.comment, 'toggle_message_like', { p_message_id: theirs }],
      [blocks.comment, 'report_message', { p_message_id: theirs }],
      [blocks.like, 'toggle_block_like', { p_block_id: blocks.like }],
      [blocks.button, 'record_button_click', { p_block_id: blocks.button }],
      [
        blocks.form,
        'submit_response',
        { p_block_id: blocks.form, p_answers: { [q.short.id]: 'x' } },
      ],
    ];
    for (const [block, fn, args] of attempts) {
      await refused(block, () => writer.client.rpc(fn, args), BLOCKED, 403);
    }
    // with their messages hidden at once
    await owner.client.rpc('block_writer', {
      p_block_id: blocks.comment,
      p_user_id: writer.id,
      p_hide_messages: true,
    });
    const view = await anonClient().rpc('get_block_view', { p_block_id: blocks.comment });
    expect(JSON.stringify(view.data)).not.toContain(mine);
    // unblocked: back in
    await owner.client.rpc('block_writer', {
      p_block_id: blocks.comment,
      p_user_id: writer.id,
      p_blocked: false,
    });
    expect((await tryPost(writer, blocks.comment)).error).toBeNull();
  });

  it('only the owner moderates, lists for moderation or blocks writers', async () => {
    const { owner, blocks } = await ownerWith('comment');
    const message = await post(await newGuest(), blocks.comment);
    const visitor = await newGuest();
    const other = await newUser('other');
    for (const client of [visitor.client, other.client]) {
      for (const action of ['approve', 'hide', 'delete', 'pin', 'resolve']) {
        await refused(
          blocks.comment,
          () => client.rpc('moderate_messages', { p_message_ids: [message], p_action: action }),
          'Only the block owner can moderate messages',
          403,
        );
      }
      await refused(
        blocks.comment,
        () => client.rpc('block_writer', { p_block_id: blocks.comment, p_user_id: owner.id }),
        "block doesn't exists",
        404,
      );
      const list = await client.rpc('moderation_messages', { p_block_id: blocks.comment });
      expect(list.error?.message).toBe("block doesn't exists");
      expect(list.status).toBe(404);
    }
    // a mixed batch (one of another owner's messages) is refused whole
    const { blocks: theirs } = await ownerWith('comment');
    const foreign = await post(await newGuest(), theirs.comment);
    await refused(
      [blocks.comment, theirs.comment],
      () =>
        owner.client.rpc('moderate_messages', {
          p_message_ids: [message, foreign],
          p_action: 'delete',
        }),
      'Only the block owner can moderate messages',
      403,
    );
    await refused(
      blocks.comment,
      () => anonClient().rpc('moderate_messages', { p_message_ids: [message], p_action: 'delete' }),
      /permission denied/,
      401,
    );
  });

  it('reports: once per visitor, never one’s own, seen by the owner with the reason', async () => {
    const { owner, blocks } = await ownerWith('comment');
    const writer = await newGuest();
    const message = await post(writer, blocks.comment);
    const reporter = await newGuest();
    for (let i = 0; i < 3; i++) {
      const { data, error } = await reporter.client.rpc('report_message', {
        p_message_id: message,
        p_reason: 'spam',
      });
      expect(error).toBeNull();
      expect(data).toEqual({ id: message, reported: true });
    }
    expect(
      await count('select 1 from public.message_reports where message_id = $1', [message]),
    ).toBe(1);
    await refused(
      blocks.comment,
      () => writer.client.rpc('report_message', { p_message_id: message }),
      'You cannot report your own message',
      400,
    );
    await refused(
      blocks.comment,
      () =>
        reporter.client.rpc('report_message', { p_message_id: message, p_reason: 'x'.repeat(201) }),
      'Too long message',
      400,
    );
    const list = await owner.client.rpc('moderation_messages', {
      p_block_id: blocks.comment,
      p_filter: 'reported',
    });
    expect(list.error).toBeNull();
    expect(list.data).toHaveLength(1);
    expect((list.data as Array<Record<string, unknown>>)[0]).toMatchObject({
      id: message,
      report_count: 1,
      reports: [expect.objectContaining({ reason: 'spam' })],
      writer_anonymous: true,
      writer_blocked: false,
    });
    // the reporter sees that they reported it (the element's "Reported"), nobody else does
    const mine = await reporter.client.rpc('get_block_view', { p_block_id: blocks.comment });
    expect(
      (mine.data as { me: { reported_message_ids: string[] } }).me.reported_message_ids,
    ).toEqual([message]);
    const theirs = await writer.client.rpc('get_block_view', { p_block_id: blocks.comment });
    expect(
      (theirs.data as { me: { reported_message_ids: string[] } }).me.reported_message_ids,
    ).toEqual([]);
  });

  it('names that imitate the owner are marked; the owner and ordinary names are not', async () => {
    const { owner, blocks } = await ownerWith('comment');
    const visitor = await newGuest();
    const marked = async (name: string, who = visitor) => {
      const { data, error } = await tryPost(who, blocks.comment, { p_creator_name: name });
      expect(error).toBeNull();
      return (data as { imitates_owner: boolean }).imitates_owner;
    };
    await overrideLimits(blocks.comment, {
      message: { visitor_burst: 100, visitor_per_minute: 100 },
    });
    for (const name of [
      'Admin',
      'ADMIN ✓',
      'The Admin',
      'Ａｄｍｉｎ',
      'Test owner',
      '관리자',
      'admin-2',
    ]) {
      expect(await marked(name), name).toBe(true);
    }
    for (const name of ['Quiet Otter', 'badminton fan', '']) {
      expect(await marked(name), name).toBe(false);
    }
    expect(await marked('Admin', owner)).toBe(false);
  });

  it('a free owner cannot turn on holding, the honeypot or the captcha', async () => {
    const owner = await newUser('free');
    const created = await owner.client.rpc('create_block', { p_block_type: 'comment' });
    const blockId = (created.data as { id: string }).id;
    for (const [key, value] of [
      ['hold_messages', 'all'],
      ['honeypot', true],
      ['captcha', true],
    ] as const) {
      const { error } = await owner.client.functions.invoke('save-block', {
        body: { blockId, settings: { [key]: value } },
      });
      expect(error, key).not.toBeNull();
      const body = (await (error as { context: Response }).context.json()) as {
        error: { message: string };
      };
      expect(body.error.message).toBe(`Paid plan required (${key})`);
    }
    const [row] = await sql(
      'select hold_messages, honeypot, captcha from public.blocks where id = $1',
      [blockId],
    );
    expect(row).toEqual({ hold_messages: 'off', honeypot: false, captcha: false });
  });
});

describe('abuse: the honeypot', () => {
  it('a block with the honeypot refuses a filled or missing field; the empty one passes', async () => {
    const { owner, blocks } = await ownerWith('comment', 'form');
    const q = await formWithQuestions(blocks.form);
    for (const block of [blocks.comment, blocks.form])
      await saveSettings(owner, block, { honeypot: true });
    const bot = await newGuest();
    const TRAPPED = 'This was not sent: it looked automated.';
    for (const honeypot of ['https://spam.example', ' ', undefined]) {
      const res = await refused(
        blocks.comment,
        () => tryPost(bot, blocks.comment, honeypot === undefined ? {} : { p_honeypot: honeypot }),
        TRAPPED,
        400,
      );
      expect(res.error?.details).toBe('honeypot');
      await refused(
        blocks.form,
        () =>
          bot.client.rpc('submit_response', {
            p_block_id: blocks.form,
            p_answers: { [q.short.id]: 'x' },
            ...(honeypot === undefined ? {} : { p_honeypot: honeypot }),
          }),
        TRAPPED,
        400,
      );
    }
    const person = await newGuest();
    expect((await tryPost(person, blocks.comment, { p_honeypot: '' })).error).toBeNull();
    // a block without the honeypot does not care
    const { blocks: plain } = await ownerWith('comment');
    expect((await tryPost(person, plain.comment)).error).toBeNull();
  });
});

describe('abuse: the captcha after the limits trip', () => {
  const token = async (outcome: 'pass' | 'fail') => {
    const { providersUrl } = await import('./support/providers.ts');
    const res = await fetch(
      `${providersUrl()}/turnstile/v0/token?sitekey=local-turnstile-site-key&outcome=${outcome}`,
    );
    return ((await res.json()) as { token: string }).token;
  };
  const verify = (visitor: TestUser, blockId: string, captcha: string) =>
    visitor.client.functions.invoke('verify-captcha', { body: { blockId, token: captcha } });
  const errorOf = async (error: unknown) =>
    error
      ? (
          (await (error as { context: Response }).context.json()) as {
            error: { code: string; message: string };
          }
        ).error
      : null;

  async function tripped() {
    const { owner, blocks } = await ownerWith('comment');
    await saveSettings(owner, blocks.comment, { captcha: true });
    await overrideLimits(blocks.comment, {
      message: { visitor_burst: 1, visitor_per_minute: 0.001 },
    });
    const visitor = await newGuest();
    expect((await tryPost(visitor, blocks.comment)).error).toBeNull();
    return { owner, blocks, visitor };
  }

  it('no captcha until the limit trips; then the refusal asks for one, and a solved one lets the visitor on', async () => {
    const { blocks, visitor } = await tripped();
    const view = await anonClient().rpc('get_block_view', { p_block_id: blocks.comment });
    expect((view.data as { block: { captcha: unknown } }).block.captcha).toMatchObject({
      provider: 'turnstile',
      site_key: 'local-turnstile-site-key',
    });
    const res = await refused(
      blocks.comment,
      () => tryPost(visitor, blocks.comment),
      TOO_FAST.message,
      429,
    );
    expect(res.error?.details).toBe('captcha');
    const { data, error } = await verify(visitor, blocks.comment, await token('pass'));
    expect(error).toBeNull();
    expect(data).toMatchObject({ data: { passed: true, uses_left: 10 } });
    expect((await tryPost(visitor, blocks.comment)).error).toBeNull();
    // a block without the captcha says rate_limit, not captcha
    const { blocks: plain } = await ownerWith('comment');
    await overrideLimits(plain.comment, {
      message: { visitor_burst: 1, visitor_per_minute: 0.001 },
    });
    await tryPost(visitor, plain.comment);
    const other = await refused(
      plain.comment,
      () => tryPost(visitor, plain.comment),
      TOO_FAST.message,
      429,
    );
    expect(other.error?.details).toBe('rate_limit');
    // refused before the token is spent: the visitor still passes with it where it is asked for
    const unspent = await token('pass');
    const missing = await verify(visitor, randomUUID(), unspent);
    expect((await errorOf(missing.error))?.message).toBe('This block does not ask for a captcha');
    const later = await verify(visitor, blocks.comment, unspent);
    expect(later.error).toBeNull();
    expect(later.data).toMatchObject({ data: { passed: true } });
    // every block may escalate to the platform's captcha (a spent shared budget), so a free one
    // grants a pass too; it does not lift the visitor's own limit there (that is the paid option)
    expect((await verify(visitor, plain.comment, await token('pass'))).error).toBeNull();
    const still = await refused(
      plain.comment,
      () => tryPost(visitor, plain.comment),
      TOO_FAST.message,
      429,
    );
    expect(still.error?.details).toBe('rate_limit');
  });

  it('a forged, a failed and a replayed captcha are refused and give no pass', async () => {
    const { blocks, visitor } = await tripped();
    const cases: Array<[string, string]> = [
      ['forged', `local.${randomUUID()}`],
      ['failed', await token('fail')],
    ];
    for (const [label, captcha] of cases) {
      const res = await unchanged(blocks.comment, () => verify(visitor, blocks.comment, captcha));
      const err = await errorOf(res.error);
      expect(err, label).toMatchObject({
        code: 'captcha_failed',
        message: 'The check failed. Please try again.',
      });
      expect((res.error as { context: Response }).context.status, label).toBe(403);
    }
    // replayed: once used by someone, never again (the provider says so, and the database too)
    const used = await token('pass');
    const helper = await newGuest();
    expect((await verify(helper, blocks.comment, used)).error).toBeNull();
    const replay = await unchanged(blocks.comment, () => verify(visitor, blocks.comment, used));
    expect(await errorOf(replay.error)).toMatchObject({ code: 'captcha_spent' });
    // still refused, still asked for a captcha
    const res = await refused(
      blocks.comment,
      () => tryPost(visitor, blocks.comment),
      TOO_FAST.message,
      429,
    );
    expect(res.error?.details).toBe('captcha');
    // the database refuses a replay even when a provider would take it
    const hash = (
      await sql<{ h: string }>(
        'select token_hash as h from private.captcha_tokens order by created_at desc limit 1',
      )
    )[0]!.h;
    const again = await serviceClient().rpc('grant_captcha_pass', {
      p_user_id: visitor.id,
      p_block_id: blocks.comment,
      p_token_hash: hash,
    });
    expect(again.error?.message).toBe('This captcha was already used');
  });

  it('visitors cannot grant themselves a pass', async () => {
    const { blocks, visitor } = await tripped();
    await refused(
      blocks.comment,
      () =>
        visitor.client.rpc('grant_captcha_pass', {
          p_user_id: visitor.id,
          p_block_id: blocks.comment,
          p_token_hash: 'a'.repeat(64),
        }),
      /permission denied/,
    );
  });
});
