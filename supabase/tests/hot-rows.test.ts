// No hot rows on the visitor's path (issues 13 and 19): a visitor's write never waits for another
// visitor's write because they share an owner, a block, a form's options or a rate-limit shard;
// the monthly quota still holds exactly; the sharded counts equal the rows they count; the month
// starts again.
//
// The "does not wait" tests hold one visitor's transaction open in a database session (as
// PostgREST runs it: role and JWT claims set in the transaction) and run a second visitor's write
// in another session with a lock timeout: on the old design (the owner's count on profiles, the
// group count and the block counters updated in place) the second write waited for the first
// and failed with "canceling statement due to lock timeout".
import { isDeepStrictEqual as isEqual } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  newGuest,
  newUser,
  paidOwner,
  sql,
  sqlValue,
  stack,
  type TestUser,
  wholeQuotaForOneAddress,
} from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import { eventually } from './support/providers.ts';

const claimsOf = (u: TestUser) =>
  Buffer.from(u.accessToken.split('.')[1] ?? '', 'base64url').toString();

const open: pg.Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.end().catch(() => {})));
});

async function session(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: stack().dbUrl });
  await c.connect();
  open.push(c);
  return c;
}

const pidOf = async (c: pg.Client) =>
  (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;

/** A session whose backend pid differs from `other`'s mod 32 (its own count and delta shards). */
async function sessionBeside(other: pg.Client): Promise<pg.Client> {
  const taken = (await pidOf(other)) % 32;
  for (;;) {
    const c = await session();
    if ((await pidOf(c)) % 32 !== taken) return c;
  }
}

/** Starts a transaction in `c` as visitor `v` (what PostgREST does before calling an RPC). */
async function beginAs(c: pg.Client, v: TestUser, lockTimeout = '0'): Promise<void> {
  await c.query('begin');
  await c.query(
    `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true),
            set_config('lock_timeout', $2, true)`,
    [claimsOf(v), lockTimeout],
  );
}

/** Visitors whose rate-limit shards of a block differ (hash of the uid mod 32, as the limits do). */
async function visitorsOnDistinctShards(n: number): Promise<TestUser[]> {
  const out: TestUser[] = [];
  const seen = new Set<number>();
  while (out.length < n) {
    const g = await newGuest();
    const [row] = await sql<{ shard: number }>('select abs(mod(hashtext($1::text), 32)) as shard', [
      g.id,
    ]);
    if (seen.has(row!.shard)) continue;
    seen.add(row!.shard);
    out.push(g);
  }
  return out;
}

/**
 * Two visitors on distinct shards in sessions of their own: the first has run `firstWrite` in a
 * transaction it keeps open; the second has begun one with a 1 s lock timeout, so a write of its
 * that waits for the first fails ("canceling statement due to lock timeout").
 */
async function secondBesideOpenFirst(firstWrite: string) {
  const [a, b] = await visitorsOnDistinctShards(2);
  const first = await session();
  const second = await sessionBeside(first);
  await beginAs(first, a!);
  await first.query(firstWrite);
  await beginAs(second, b!, '1s');
  return { first, second };
}

/** How many lock requests of these backends wait now. */
async function waitingPids(pids: number[]): Promise<number> {
  const [row] = await sql<{ n: number }>(
    'select count(*)::int as n from pg_locks where not granted and pid = any($1)',
    [pids],
  );
  return row!.n;
}

/** How many lock requests of these sessions wait now (sessions not running a statement). */
const waitingLocks = async (...sessions: pg.Client[]) =>
  waitingPids(await Promise.all(sessions.map(pidOf)));

async function ownerWithBlocks(...types: string[]): Promise<{ owner: TestUser; ids: string[] }> {
  const owner = await paidOwner('hot');
  const ids: string[] = [];
  for (const type of types) {
    ids.push(await createBlock(owner, type));
  }
  return { owner, ids };
}

const submitSql = (block: string) =>
  `select public.submit_response(p_block_id => '${block}', p_answers => '{}'::jsonb, p_creator_name => 'Visitor')`;
const likeSql = (block: string) =>
  `select public.toggle_block_like(p_block_id => '${block}', p_creator_name => 'Visitor', p_liked => true)`;
const messageLikeSql = (message: string) =>
  `select public.toggle_message_like(p_message_id => '${message}', p_liked => true)`;
const replySql = (block: string, parent: string) =>
  `select public.post_message(p_block_id => '${block}', p_parent_id => '${parent}', p_content => 'Me too',
     p_creator_name => 'Visitor', p_honeypot => '')`;

/** A comment block of a paid owner with one published comment, posted by a visitor. */
async function popularComment(): Promise<{ owner: TestUser; block: string; message: string }> {
  const { owner, ids } = await ownerWithBlocks('comment');
  const writer = await newGuest();
  const posted = await writer.client.rpc('post_message', {
    p_block_id: ids[0],
    p_content: 'Popular',
    p_creator_name: 'Writer',
    p_honeypot: '',
  });
  expect(posted.error).toBeNull();
  return { owner, block: ids[0]!, message: (posted.data as { id: string }).id };
}

/** A block's counts as its readers get them: the row's plus what waits beside it. */
const liveCounts = async (block: string) =>
  (
    await sql<{ like_count: number; response_count: number; new_response_count: number }>(
      `select (private.with_live_counts(b)).like_count, (private.with_live_counts(b)).response_count,
              (private.with_live_counts(b)).new_response_count
       from public.blocks b where b.id = $1`,
      [block],
    )
  )[0]!;

/** A message's counts as stored, what waits beside them, and the rows they count. */
const messageCounts = async (message: string) =>
  (
    await sql<{ likes: number; replies: number; beside: number; liked: number; answered: number }>(
      `select m.like_count as likes, m.reply_count as replies,
              (select count(*)::int from private.message_count_deltas d where d.message_id = m.id) as beside,
              (select count(*)::int from public.message_likes l where l.message_id = m.id) as liked,
              (select count(*)::int from public.messages r where r.parent_id = m.id) as answered
       from public.messages m where m.id = $1`,
      [message],
    )
  )[0]!;

describe("a visitor's write does not wait for another visitor's", () => {
  it('submits to two forms of one owner: the second goes through while the first is open', async () => {
    const { owner, ids } = await ownerWithBlocks('form', 'form');
    const { first, second } = await secondBesideOpenFirst(submitSql(ids[0]!));
    // the first submit holds its locks (its count shard, the owner's group row, its block row)
    await second.query(submitSql(ids[1]!));
    // neither session waits for a lock (other test files may be waiting on their own locks)
    expect(await waitingLocks(first, second)).toBe(0);
    await second.query('commit');
    await first.query('commit');
    const [counted] = await sql<{ n: number; members: number }>(
      `select p.response_monthly_count as n,
              (select g.member_count from public.audience_groups g
               where g.user_id = p.id and g.name = 'activated') as members
       from public.profiles p where p.id = $1`,
      [owner.id],
    );
    expect(counted).toEqual({ n: 2, members: 2 });
  });

  it('likes on one block: the second goes through while the first is open', async () => {
    const { ids } = await ownerWithBlocks('like');
    const { first, second } = await secondBesideOpenFirst(likeSql(ids[0]!));
    const { rows } = await second.query<{ toggle_block_like: { like_count: number } }>(
      likeSql(ids[0]!),
    );
    // the second like sees itself; the first is not committed yet
    expect(rows[0]!.toggle_block_like.like_count).toBe(1);
    await second.query('commit');
    await first.query('commit');
    expect(await liveCounts(ids[0]!)).toMatchObject({ like_count: 2, response_count: 2 });
  });
});

describe("one popular comment: a like or a reply does not wait for another's", () => {
  // The message's like_count and reply_count were updated in place: every like of one comment
  // queued behind the previous one's open transaction (breaker break6: the second like failed
  // with its one-second lock timeout).
  it.each([
    { write: 'likes', sql: (c: { message: string }) => messageLikeSql(c.message) },
    {
      write: 'replies',
      sql: (c: { block: string; message: string }) => replySql(c.block, c.message),
    },
  ])('two $write of one comment: the second goes through while the first is open', async (w) => {
    const comment = await popularComment();
    const { first, second } = await secondBesideOpenFirst(w.sql(comment));
    await second.query(w.sql(comment));
    expect(await waitingLocks(first, second)).toBe(0);
    await second.query('commit');
    await first.query('commit');
    // the viewers read both (one on the row, one beside it until the fold)
    const view = await (
      await newGuest()
    ).client.rpc('get_block_view', { p_block_id: comment.block });
    expect(view.error).toBeNull();
    const [shown] = (view.data as { messages: Array<{ like_count: number; reply_count: number }> })
      .messages;
    expect(w.write === 'likes' ? shown!.like_count : shown!.reply_count).toBe(2);
  });
});

describe('one popular comment: the count its viewers hear last is the true one', () => {
  // The like that went beside the row while another held the row's turn announced the count it
  // could see, without the other's like (both said 1); nothing said 2 after (break8 F2). The fold
  // that takes the likes beside the row restates the comment's counts.
  it('two likes of one comment at once: the fold announces 2 after both said what they saw', async () => {
    const { block, message } = await popularComment();
    const { first, second } = await secondBesideOpenFirst(messageLikeSql(message));
    await second.query(messageLikeSql(message));
    await first.query('commit');
    await second.query('commit');
    const last = async () =>
      (
        await sql<{ payload: { like_count?: number } }>(
          `select payload from private.block_changes
           where block_id = $1 and event = 'counts' and payload ->> 'id' = $2
           order by created_at desc limit 1`,
          [block, message],
        )
      )[0]?.payload;
    // folded by this call, or by pg_cron's beside it
    await eventually(
      async () => (await sql('select private.fold_counters()')) && (await last())?.like_count === 2,
      60_000,
      last,
    );
    expect(await last()).toEqual({ id: message, like_count: 2, reply_count: 0 });
  });
});

describe("one popular form or A/B: a submit does not wait for another's option count", () => {
  /** A form with a poll of two options (as save_block writes them), published. */
  async function pollForm(): Promise<{ block: string; question: string; options: string[] }> {
    const { ids } = await ownerWithBlocks('form');
    const [q] = await sql<{ id: string }>(
      `insert into public.questions (block_id, type, title, index) values ($1, 'poll', 'Pick one', 0)
       returning id`,
      [ids[0]],
    );
    const options = await sql<{ id: string }>(
      `insert into public.options (question_id, block_id, value, index)
       values ($1, $2, 'Red', 0), ($1, $2, 'Green', 1) returning id`,
      [q!.id, ids[0]],
    );
    return { block: ids[0]!, question: q!.id, options: options.map((o) => o.id) };
  }

  const answerSql = (block: string, answers: Record<string, unknown>) =>
    `select public.submit_response(p_block_id => '${block}', p_answers => '${JSON.stringify(answers)}'::jsonb,
       p_creator_name => 'Visitor') as r`;

  /** The option's count as stored, what waits beside it, and what a visitor's view shows. */
  async function optionState(block: string, option: string, viewer: TestUser) {
    const [row] = await sql<{ stored: number; deltas: number; beside: number }>(
      `select o.response_count as stored,
              (select count(*)::int from private.option_count_deltas d where d.option_id = o.id) as deltas,
              (select coalesce(sum(d.delta), 0)::int from private.option_count_deltas d where d.option_id = o.id) as beside
       from public.options o where o.id = $1`,
      [option],
    );
    const view = await viewer.client.rpc('get_block_view', { p_block_id: block });
    expect(view.error).toBeNull();
    const shown = (
      view.data as { questions: Array<{ options: Array<{ id: string; response_count: number }> }> }
    ).questions
      .flatMap((q) => q.options)
      .find((o) => o.id === option)!.response_count;
    return { ...row!, shown };
  }

  it('two submits choosing one option of one form: the second goes through while the first is open, and the counts stay exact through the fold and deletes', async () => {
    const { block, question, options } = await pollForm();
    const [a, b] = await Promise.all([newGuest(), newGuest()]);
    const first = await session();
    const second = await session();
    await beginAs(first, a!);
    await first.query(answerSql(block, { [question]: options[0] }));
    // the first submit holds the option's row; the second counts beside it and answers exact
    await beginAs(second, b!, '1s');
    const { rows } = await second.query<{ r: { options: unknown } }>(
      answerSql(block, { [question]: options[0] }),
    );
    expect(rows[0]!.r.options).toEqual([{ id: options[0], response_count: 1 }]);
    expect(await waitingLocks(first, second)).toBe(0);
    await second.query('commit');
    // the row is still held by the first (so no fold can run): the second's count waits beside it
    const [beside] = await sql<{ n: number }>(
      'select coalesce(sum(delta), 0)::int as n from private.option_count_deltas where option_id = $1',
      [options[0]],
    );
    expect(beside!.n).toBe(1);
    await first.query('commit');
    // exact before the fold (pg_cron may fold at any moment: row plus deltas is what counts)
    const before = await optionState(block, options[0]!, a!);
    expect({ total: before.stored + before.beside, shown: before.shown }).toEqual({
      total: 2,
      shown: 2,
    });
    await sql('select private.fold_counters()');
    const folded = { stored: 2, deltas: 0, beside: 0, shown: 2 };
    await eventually(
      async () => isEqual(await optionState(block, options[0]!, a!), folded),
      60_000,
      () => optionState(block, options[0]!, a!),
    );

    // a response deleted while another write holds the option's row: its decrement waits beside
    // the row too (checked while the row is held, so no fold can run)
    const holder = await session();
    await holder.query('begin');
    await holder.query('select 1 from public.options where id = $1 for no key update', [
      options[0],
    ]);
    await sql('delete from public.responses where block_id = $1 and creator_id = $2', [
      block,
      a!.id,
    ]);
    expect(await optionState(block, options[0]!, b!)).toEqual({
      stored: 2,
      deltas: 1,
      beside: -1,
      shown: 1,
    });
    await holder.query('commit');
    await sql('select private.fold_counters()');
    await eventually(
      async () =>
        isEqual(await optionState(block, options[0]!, b!), {
          stored: 1,
          deltas: 0,
          beside: 0,
          shown: 1,
        }),
      60_000,
      () => optionState(block, options[0]!, b!),
    );
    // the last response gone: zero, on the row (free now, and it can take the decrement)
    await sql('delete from public.responses where block_id = $1', [block]);
    expect(await optionState(block, options[0]!, b!)).toEqual({
      stored: 0,
      deltas: 0,
      beside: 0,
      shown: 0,
    });
  });

  it('two votes on one A/B at once: neither waits, and each answer counts the votes it can see', async () => {
    const { ids } = await ownerWithBlocks('ab');
    const [q] = await sql<{ question_id: string; id: string }>(
      'select question_id, id from public.options where block_id = $1 order by index limit 1',
      [ids[0]],
    );
    const [a, b, c] = await Promise.all([newGuest(), newGuest(), newGuest()]);
    const first = await session();
    const second = await session();
    await beginAs(first, a!);
    await first.query(answerSql(ids[0]!, { [q!.question_id]: q!.id }));
    await beginAs(second, b!, '1s');
    const { rows } = await second.query<{ r: { options: unknown } }>(
      answerSql(ids[0]!, { [q!.question_id]: q!.id }),
    );
    expect(rows[0]!.r.options).toEqual([{ id: q!.id, response_count: 1 }]);
    await second.query('commit');
    await first.query('commit');
    // a third vote through PostgREST, as the element sends it: its bars count all three
    const third = await c!.client.rpc('submit_response', {
      p_block_id: ids[0],
      p_answers: { [q!.question_id]: q!.id },
    });
    expect(third.error).toBeNull();
    expect((third.data as { options: unknown }).options).toEqual([
      { id: q!.id, response_count: 3 },
    ]);
    expect((await optionState(ids[0]!, q!.id, c!)).shown).toBe(3);
  });

  it("the fold-counters schedule folds an option's count that waits beside it alone", async () => {
    const { block, question, options } = await pollForm();
    const a = await newGuest();
    const sent = await a.client.rpc('submit_response', {
      p_block_id: block,
      p_answers: { [question]: options[0] },
    });
    expect(sent.error).toBeNull();
    // the response deleted while another write holds the option's row: the option's decrement
    // waits beside it, the block's goes on its free row (no block or group delta of this block);
    // checked while the row is held, so no fold can run (pg_cron's may come as soon as it is free)
    const holder = await session();
    await holder.query('begin');
    await holder.query('select 1 from public.options where id = $1 for no key update', [
      options[0],
    ]);
    await sql('delete from public.responses where block_id = $1', [block]);
    const [waiting] = await sql<{ blocks: number }>(
      'select count(*)::int as blocks from private.block_count_deltas where block_id = $1',
      [block],
    );
    expect(waiting!.blocks).toBe(0);
    expect(await optionState(block, options[0]!, a)).toEqual({
      stored: 1,
      deltas: 1,
      beside: -1,
      shown: 0,
    });
    await holder.query('commit');
    // what pg_cron runs every 5 seconds (it may run meanwhile too)
    const [job] = await sql<{ command: string }>(
      "select command from cron.job where jobname = 'fold-counters'",
    );
    await sql(job!.command);
    const folded = { stored: 0, deltas: 0, beside: 0, shown: 0 };
    await eventually(
      async () => isEqual(await optionState(block, options[0]!, a), folded),
      60_000,
      () => optionState(block, options[0]!, a),
    );
  });
});

describe('one write at a time takes a counted row; the others write beside it', () => {
  // SKIP LOCKED alone let two visitor writes of one row wait on each other: a locker that finds
  // the row updated by an open write waits for that write while holding the row's tuple lock,
  // which the write may then want (a deadlock under a like storm on one block). A write takes a
  // block's row, its options' rows or a group's row only with the row's turn, a transaction lock
  // tried and never waited for. Here another session holds the turn while the row itself is free.
  async function counted() {
    const { owner, ids } = await ownerWithBlocks('ab');
    const [option] = await sql<{ id: string }>(
      'select id from public.options where block_id = $1 order by index limit 1',
      [ids[0]],
    );
    await sql("insert into public.audience_groups (user_id, name) values ($1, 'Friends')", [
      owner.id,
    ]);
    const [message] = await sql<{ id: string }>(
      `insert into public.messages (block_id, creator_id, content) values ($1, $2, 'Hello')
       returning id`,
      [await createBlock(owner, 'comment'), owner.id],
    );
    return { owner: owner.id, block: ids[0]!, option: option!.id, message: message!.id };
  }
  type Counted = Awaited<ReturnType<typeof counted>>;
  /** A counted row's stored count and the sum of its delta rows: `of` names the table and its row. */
  const countOf = (stored: string, deltas: string, delta: string, key: string, of: string) =>
    `select t.${stored} as stored,
            (select coalesce(sum(d.${delta}), 0)::int from private.${deltas} d where d.${key} = t.id) as beside
     from ${of}`;
  /** The same for the row `id` of a table: [table, stored column, delta table, delta column, key]. */
  const byId = (of: readonly string[], id: string): [string, unknown[]] => [
    countOf(of[1]!, of[2]!, of[3]!, of[4]!, `${of[0]} t where t.id = $1`),
    [id],
  ];
  const tables = {
    blocks: ['public.blocks', 'like_count', 'block_count_deltas', 'like_count', 'block_id'],
    options: ['public.options', 'response_count', 'option_count_deltas', 'delta', 'option_id'],
    messages: ['public.messages', 'like_count', 'message_count_deltas', 'like_count', 'message_id'],
  } as const;
  const rows: Array<{
    row: string;
    turn: (c: Counted) => string;
    bump: (c: Counted) => [string, unknown[]];
    state: (c: Counted) => [string, unknown[]];
  }> = [
    {
      row: "a block's counters",
      turn: (c) => `block_count_row:${c.block}`,
      bump: (c) => ['select private.bump_block_counts($1, 1, 1, 1)', [c.block]],
      state: (c) => byId(tables.blocks, c.block),
    },
    {
      row: "a block's options",
      turn: (c) => `option_count_rows:${c.block}`,
      bump: (c) => [
        'select private.bump_option_counts($1, array[$2]::uuid[], 1)',
        [c.block, c.option],
      ],
      state: (c) => byId(tables.options, c.option),
    },
    {
      row: "an owner's audience group",
      turn: (c) => `audience_group_row:${c.owner}/Friends`,
      bump: (c) => ["select private.bump_audience_group($1, 'Friends', 1)", [c.owner]],
      state: (c) => [
        countOf(
          'count',
          'audience_group_deltas',
          'delta',
          'group_id',
          "public.audience_groups t where t.user_id = $1 and t.name = 'Friends'",
        ),
        [c.owner],
      ],
    },
    {
      row: "a message's like and reply counts",
      turn: (c) => `message_count_row:${c.message}`,
      bump: (c) => ['select private.bump_message_counts($1, 1, 0)', [c.message]],
      state: (c) => byId(tables.messages, c.message),
    },
  ];

  it.each(rows)('$row: beside the row while another write has its turn, exact after', async (r) => {
    const c = await counted();
    const holder = await session();
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock(hashtext($1), 0)', [r.turn(c)]);
    // the write and its read in one open transaction, so no fold can move what it wrote
    const writer = await session();
    const bumpAndRead = async () => {
      await writer.query('begin');
      await writer.query(...r.bump(c));
      const { rows: state } = await writer.query<{ stored: number; beside: number }>(...r.state(c));
      await writer.query('commit');
      return state[0];
    };
    expect(await bumpAndRead()).toEqual({ stored: 0, beside: 1 });
    await holder.query('commit');
    // the turn is free again: the next write counts too (on the row, or beside it while a fold holds it)
    const after = await bumpAndRead();
    expect(after!.stored + after!.beside).toBe(2);
  });
});

describe('the fold waits for nobody', () => {
  it('a fold that meets a lock for 100 ms answers 0 and folds nothing; the next one folds', async () => {
    const { ids } = await ownerWithBlocks('like');
    await sql(
      `insert into private.block_count_deltas (block_id, shard, response_count, new_response_count, like_count)
       values ($1, 5, 2, 2, 2)`,
      [ids[0]],
    );
    // a lock no fold can skip: the whole delta table, as a long statement of an operator's would
    const holder = await session();
    await holder.query('begin');
    await holder.query('lock table private.block_count_deltas in access exclusive mode');
    const folder = await session();
    await folder.query("set statement_timeout = '20s'"); // bounds the old fold's endless wait
    const { rows } = await folder.query<{ n: number }>('select private.fold_counters() as n');
    expect(rows[0]!.n).toBe(0);
    await holder.query('commit');
    await eventually(
      async () =>
        (await folder.query('select private.fold_counters()')) &&
        (await sqlValue<number>('select like_count from public.blocks where id = $1', [ids[0]])) ===
          2,
      60_000,
    );
  });
});

describe("a rate-limit shard one visitor's write holds is not waited for", () => {
  it('two likes on one block by visitors whose uids hash to the same shard', async () => {
    const { ids } = await ownerWithBlocks('like');
    const pair: TestUser[] = [];
    const byShard = new Map<number, TestUser>();
    while (pair.length < 2) {
      const g = await newGuest();
      const [row] = await sql<{ shard: number }>(
        'select abs(mod(hashtext($1::text), 32)) as shard',
        [g.id],
      );
      const met = byShard.get(row!.shard);
      if (met) pair.push(met, g);
      else byShard.set(row!.shard, g);
    }
    const first = await session();
    const second = await session();
    await beginAs(first, pair[0]!);
    await first.query(likeSql(ids[0]!));
    // on hashed shards alone the second waited for the first's shard row and timed out
    await beginAs(second, pair[1]!, '1s');
    await second.query(likeSql(ids[0]!));
    await second.query('commit');
    await first.query('commit');
    expect((await liveCounts(ids[0]!)).like_count).toBe(2);
  });
});

describe("one address's writers do not queue on its share (issue 19)", () => {
  /** The key of what every visitor without a track record counted together (take_address_quota). */
  const FRESH_VISITORS = '00000000-0000-0000-0000-000000000000';
  /** What the gateway passes PostgREST for a client at this address (no trusted proxy here). */
  const fromAddress = (c: pg.Client, address: string) =>
    c.query("select set_config('request.headers', $1, true)", [
      JSON.stringify({ 'x-forwarded-for': address }),
    ]);
  const commentSql = (block: string) =>
    `select public.post_message(p_block_id => '${block}', p_content => 'From the office', p_creator_name => 'Visitor')`;

  it("two submits and two comments from one address: the second goes through while the first is open, and each is counted as anyone's", async () => {
    const { owner, ids } = await ownerWithBlocks('form', 'comment');
    const [a, b] = await visitorsOnDistinctShards(2);
    for (const write of [submitSql(ids[0]!), commentSql(ids[1]!)]) {
      const first = await session();
      const second = await sessionBeside(first);
      await beginAs(first, a!);
      await fromAddress(first, '203.0.113.50');
      await first.query(write);
      // the first holds its shard of the address's share (of the owner's month; of the block's
      // comments); on one row per address the second waited for it and timed out
      await beginAs(second, b!, '1s');
      await fromAddress(second, '203.0.113.50');
      await second.query(write);
      await second.query('commit');
      await first.query('commit');
    }
    const [state] = await sql<{ counted: number; held: number; published: number; shares: number }>(
      `select (select count(*)::int from public.responses where block_id = $2 and not held) as counted,
              (select count(*)::int from public.responses where block_id = $2 and held) as held,
              (select count(*)::int from public.messages where block_id = $3 and status = 'published') as published,
              (select coalesce(sum(counted), 0)::int from private.address_quota where owner_id = $1 and address <> $4) as shares,
              (select coalesce(sum(counted), 0)::int from private.address_quota where owner_id = $1 and address = $4) as fresh`,
      [owner.id, ids[0], ids[1], FRESH_VISITORS],
    );
    // the address's share and the fresh visitors' (these two have no track record) took one each
    expect(state).toEqual({ counted: 2, held: 0, published: 2, shares: 2, fresh: 2 });
  });

  it("the address's share of a free owner's month stays exact across its shards: 30 at once, 10 counted", async () => {
    const { owner, ids } = await ownerWithBlocks('form');
    // the form's own bucket out of the way: this is the address's share alone
    await sql(
      `update public.blocks set rate_limits = '{"submit": {"block_burst": 1000, "block_per_minute": 1000}}' where id = $1`,
      [ids[0]],
    );
    const visitors = await Promise.all(Array.from({ length: 30 }, () => newGuest()));
    const results = await Promise.all(
      visitors.map(async (v) => {
        const c = await session();
        await beginAs(c, v);
        await fromAddress(c, '203.0.113.51');
        const { rows } = await c.query<{ r: { held: boolean } }>(`${submitSql(ids[0]!)} as r`);
        await c.query('commit');
        return rows[0]!.r.held;
      }),
    );
    expect(results.filter((held) => !held)).toHaveLength(10);
    const [state] = await sql<{ shares: number; rows: number }>(
      `select coalesce(sum(counted), 0)::int as shares, count(*)::int as rows
       from private.address_quota where owner_id = $1 and address <> $2`,
      [owner.id, FRESH_VISITORS],
    );
    expect(state).toEqual({ shares: 10, rows: 10 });
  });
});

describe('the monthly quota under a burst', () => {
  it('30 visitors submitting at once against a limit of 10: exactly 10 counted (overshoot 0), each notice once', async () => {
    const { owner, ids } = await ownerWithBlocks('form', 'form');
    await sql('update public.profiles set response_monthly_limit = 10 where id = $1', [owner.id]);
    await wholeQuotaForOneAddress(ids);
    const visitors = await Promise.all(Array.from({ length: 30 }, () => newGuest()));
    const results = await Promise.all(
      visitors.map((v, i) =>
        v.client.rpc('submit_response', { p_block_id: ids[i % 2], p_answers: {} }),
      ),
    );
    const ok = results.filter((r) => r.error === null);
    expect(ok).toHaveLength(10);
    for (const r of results.filter((r) => r.error)) {
      expect(r.error?.message).toMatch(/^Monthly response limit reached\. /);
      expect(r.status).toBe(429);
    }
    // the sweep records a level that two writes crossing it together could both miss
    await sql('select private.sweep_quota_notices()');
    const [state] = await sql<{ count: number; rows: number; notices: number[]; jobs: number }>(
      `select p.response_monthly_count as count,
              (select count(*)::int from public.responses r where r.block_id = any($2)) as rows,
              (select array_agg(level order by level) from private.quota_notices n where n.user_id = p.id) as notices,
              (select count(*)::int from private.jobs j
               where j.kind = 'quota.notice' and j.payload ->> 'user_id' = p.id::text) as jobs
       from public.profiles p where p.id = $1`,
      [owner.id, ids],
    );
    // 100 % always; 80 % too unless no write and no sweep saw the count between 8 and 9 (a burst
    // may cross both levels before anyone looks: then the 100 % mail alone is the right one)
    expect(state).toMatchObject({ count: 10, rows: 10 });
    expect([[80, 100], [100]]).toContainEqual(state!.notices);
    expect(state!.jobs).toBe(state!.notices.length);
    // the sweep again changes nothing
    await sql('select private.sweep_quota_notices()');
    const [again] = await sql<{ jobs: number }>(
      "select count(*)::int as jobs from private.jobs where kind = 'quota.notice' and payload ->> 'user_id' = $1",
      [owner.id],
    );
    expect(again!.jobs).toBe(state!.jobs);
  });

  it('the shares of the 32 shards add up to the limit, whatever the limit', async () => {
    const [row] = await sql<{ bad: number }>(
      `select count(*)::int as bad from generate_series(0, 1000) l
       where (select sum(private.quota_share(l, s)) from generate_series(0, 31) s) <> l`,
    );
    expect(row!.bad).toBe(0);
  });

  it("a letter send takes the month's remaining units over the shards, and no more", async () => {
    const { owner } = await ownerWithBlocks();
    await sql('update public.profiles set response_monthly_limit = 40 where id = $1', [owner.id]);
    await sql('select private.set_monthly_response_count($1, 25)', [owner.id]);
    const take = (n: number) =>
      sqlValue<boolean>('select private.take_response_quota($1, $2)', [owner.id, n]);
    expect(await take(16)).toBe(false);
    expect(await take(15)).toBe(true);
    expect(await take(1)).toBe(false);
    const [row] = await sql<{ count: number; over: number }>(
      `select private.monthly_response_count($1) as count,
              (select count(*)::int from private.response_counts c
               where c.user_id = $1 and c.count > private.quota_share(40, c.shard)) as over`,
      [owner.id],
    );
    expect(row).toEqual({ count: 40, over: 0 });
  });
});

describe("the owner's reset of new responses does not wait for a visitor's write", () => {
  it('a like writing its delta row stays open; the reset goes through, and the like counts after it', async () => {
    const { owner, ids } = await ownerWithBlocks('like');
    const block = ids[0]!;
    // a busy block: unread counts waiting on every shard
    await sql(
      `insert into private.block_count_deltas (block_id, shard, response_count, new_response_count, like_count)
       select $1, s, 1, 1, 0 from generate_series(0, 31) s`,
      [block],
    );
    // another write has the row's turn, so the like goes to (and holds) a delta row
    const turn = await session();
    await turn.query('begin');
    await turn.query("select pg_advisory_xact_lock(hashtext('block_count_row:' || $1), 0)", [
      block,
    ]);
    const visitor = await newGuest();
    const liking = await session();
    await beginAs(liking, visitor);
    await liking.query(likeSql(block));
    // the owner marks the block read (as the dashboard's results do), with a 1 s lock timeout
    const reading = await session();
    await beginAs(reading, owner, '1s');
    await reading.query('update public.blocks set new_response_count = 0 where id = $1', [block]);
    expect(await waitingLocks(liking, reading)).toBe(0);
    await reading.query('commit');
    await liking.query('commit');
    await turn.query('commit');
    expect(await liveCounts(block)).toMatchObject({ new_response_count: 1, response_count: 33 });
  });
});

describe('sharded counts equal the rows they count', () => {
  it('after a burst of likes and unlikes on one block, and after the fold', async () => {
    const { owner, ids } = await ownerWithBlocks('like');
    const block = ids[0]!;
    const visitors = await Promise.all(Array.from({ length: 24 }, () => newGuest()));
    await Promise.all(
      visitors.map((v) => v.client.rpc('toggle_block_like', { p_block_id: block, p_liked: true })),
    );
    await Promise.all(
      visitors
        .slice(0, 8)
        .map((v) => v.client.rpc('toggle_block_like', { p_block_id: block, p_liked: false })),
    );
    const state = () =>
      sql<{ live: number; live_responses: number; rows: number; members: number; group: number }>(
        `select (private.with_live_counts(b)).like_count as live,
                (private.with_live_counts(b)).response_count as live_responses,
                (select count(*)::int from public.responses r where r.block_id = b.id and r.kind = 'like') as rows,
                (select count(*)::int from public.audience_members m where m.user_id = b.owner_id and not m.deactivated) as members,
                (select g.member_count from public.audience_groups g
                 where g.user_id = b.owner_id and g.name = 'activated') as group
         from public.blocks b where b.id = $1`,
        [block],
      );
    const [before] = await state();
    expect(before).toEqual({ live: 16, live_responses: 16, rows: 16, members: 24, group: 24 });
    // the view and the answer of a write read the same numbers
    const view = await visitors[0]!.client.rpc('get_block_view', { p_block_id: block });
    expect((view.data as { block: { like_count: number } }).block.like_count).toBe(16);
    // the owner's workspace reads the row with the same exact counts (dashboard
    // get-workspace-block.ts), whether the fold has run or not
    const own = await owner.client
      .from('blocks')
      .select('*, live_response_count, live_new_response_count')
      .eq('id', block)
      .single();
    expect(own.error).toBeNull();
    expect(own.data).toMatchObject({ live_response_count: 16, live_new_response_count: 16 });

    // folded by this call, or by pg_cron's beside it (a row it holds is skipped here)
    const folded = async () =>
      (
        await sql<{
          like_count: number;
          response_count: number;
          deltas: number;
          group: number;
          group_deltas: number;
        }>(
          `select b.like_count, b.response_count,
              (select count(*)::int from private.block_count_deltas d where d.block_id = b.id) as deltas,
              (select g.count from public.audience_groups g where g.user_id = $2 and g.name = 'activated') as group,
              (select count(*)::int from private.audience_group_deltas d
               join public.audience_groups g on g.id = d.group_id where g.user_id = $2) as group_deltas
       from public.blocks b where b.id = $1`,
          [block, owner.id],
        )
      )[0];
    const whole = { like_count: 16, response_count: 16, deltas: 0, group: 24, group_deltas: 0 };
    await eventually(
      async () => (await sql('select private.fold_counters()')) && isEqual(await folded(), whole),
      60_000,
      folded,
    );
  });

  it("a comment's likes and replies beside its row: every reader counts them, and the fold", async () => {
    const { owner, block, message } = await popularComment();
    // another write holds the comment's row: every like and reply of this burst goes beside it, and
    // no fold (pg_cron's every 5 s) takes them before the reads below
    const holder = await session();
    await holder.query('begin');
    await holder.query('select 1 from public.messages where id = $1 for no key update', [message]);
    const visitors = await Promise.all(Array.from({ length: 12 }, () => newGuest()));
    const liked = await Promise.all(
      visitors.map((v) =>
        v.client.rpc('toggle_message_like', { p_message_id: message, p_liked: true }),
      ),
    );
    expect(liked.map((r) => r.error)).toEqual(Array(12).fill(null));
    const unliked = await Promise.all(
      visitors
        .slice(0, 4)
        .map((v) => v.client.rpc('toggle_message_like', { p_message_id: message, p_liked: false })),
    );
    expect(unliked.map((r) => r.error)).toEqual(Array(4).fill(null));
    for (const v of visitors.slice(0, 3)) {
      const replied = await v.client.rpc('post_message', {
        p_block_id: block,
        p_parent_id: message,
        p_content: 'Agreed',
        p_creator_name: 'Visitor',
        p_honeypot: '',
      });
      expect(replied.error).toBeNull();
    }
    expect(await messageCounts(message)).toMatchObject({ likes: 0, replies: 0, liked: 8 });
    const exact = { like_count: 8, reply_count: 3 };
    // the public copy, a viewer's own view, the next page, the owner's moderation list
    const viewer = visitors[11]!;
    const reads = await Promise.all([
      viewer.client.rpc('get_block_public', { p_block_id: block }),
      viewer.client.rpc('get_block_view', { p_block_id: block }),
      viewer.client.rpc('list_messages', {
        p_block_id: block,
        p_before: new Date(Date.now() + 60_000).toISOString(),
      }),
      owner.client.rpc('moderation_messages', { p_block_id: block }),
    ]);
    for (const r of reads) expect(r.error).toBeNull();
    const [pub, own, page, moderation] = reads.map((r) => r.data) as [
      { messages: unknown[] },
      { messages: unknown[] },
      unknown[],
      Array<{ id: string }>,
    ];
    expect(pub.messages[0]).toMatchObject(exact);
    expect(own.messages[0]).toMatchObject({ ...exact, liked: true });
    expect(page[0]).toMatchObject(exact);
    expect(moderation.find((m) => m.id === message)).toMatchObject(exact);
    // a like's answer, and the count its live change carries
    const more = await viewer.client.rpc('toggle_message_like', {
      p_message_id: message,
      p_liked: false,
    });
    expect(more.data).toEqual({ liked: false, like_count: 7 });
    const [announced] = await sql<{ payload: unknown }>(
      `select payload from private.block_changes
       where block_id = $1 and event = 'counts' order by created_at desc limit 1`,
      [block],
    );
    expect(announced!.payload).toEqual({ id: message, likes: -1, like_count: 7 });
    await holder.query('commit');
    // folded by this call, or by pg_cron's beside it (a row it holds is skipped here)
    const whole = { likes: 7, replies: 3, beside: 0, liked: 7, answered: 3 };
    await eventually(
      async () =>
        (await sql('select private.fold_counters()')) &&
        isEqual(await messageCounts(message), whole),
      60_000,
      () => messageCounts(message),
    );
  });

  it("an owner's rename of a group keeps its count (its members stay in it)", async () => {
    const owner = await paidOwner('rename');
    const made = await owner.client.from('audience_groups').insert({ name: 'Friends' });
    expect(made.error).toBeNull();
    const members = await owner.client
      .from('audience_members')
      .insert([1, 2, 3].map((i) => ({ email: `friend${i}@example.com`, group_name: 'Friends' })));
    expect(members.error).toBeNull();
    const renamed = await owner.client
      .from('audience_groups')
      .update({ name: 'Old friends' })
      .eq('name', 'Friends');
    expect(renamed.error).toBeNull();
    const groups = await owner.client
      .from('audience_groups')
      .select('name, member_count')
      .in('name', ['Friends', 'Old friends', 'activated']);
    expect(groups.error).toBeNull();
    expect(groups.data).toEqual(
      expect.arrayContaining([
        { name: 'Old friends', member_count: 3 },
        { name: 'activated', member_count: 3 },
      ]),
    );
    expect(groups.data).toHaveLength(2);
    // a member moved out after the rename leaves it, once
    const moved = await owner.client
      .from('audience_members')
      .update({ group_name: null })
      .eq('email', 'friend1@example.com');
    expect(moved.error).toBeNull();
    const after = await owner.client
      .from('audience_groups')
      .select('member_count')
      .eq('name', 'Old friends')
      .single();
    expect(after.data).toEqual({ member_count: 2 });
  });

  it("an owner's rename of a group and a move of one of its members in another tab both go through", async () => {
    // The rename locks the group row (its key changes), then its cascade each member; the move
    // locks its member, then its -1 for the group went to a delta row whose foreign key waited
    // for the renamed group row: the two waited on each other ("deadlock detected", breaker
    // break6 finding 6), the cascade held up here by a third session on the group's first member.
    const owner = await paidOwner('rename-move');
    const made = await owner.client
      .from('audience_groups')
      .insert([{ name: 'g1' }, { name: 'g3' }]);
    expect(made.error).toBeNull();
    const ids: string[] = [];
    for (const i of [0, 1]) {
      const m = await owner.client
        .from('audience_members')
        .insert({ email: `move${i}@example.com`, group_name: 'g1' })
        .select('id')
        .single();
      expect(m.error).toBeNull();
      ids.push((m.data as { id: string }).id);
    }
    const [held, moved] = ids as [string, string];
    const holder = await session();
    await holder.query('begin');
    await holder.query('select 1 from public.audience_members where id = $1 for update', [held]);
    const renamer = await session();
    const mover = await session();
    const [renamerPid, moverPid] = await Promise.all([pidOf(renamer), pidOf(mover)]);
    const rename = renamer
      .query("update public.audience_groups set name = 'g2' where user_id = $1 and name = 'g1'", [
        owner.id,
      ])
      .then(
        () => 'renamed',
        (e: Error) => e.message,
      );
    await eventually(async () => (await waitingPids([renamerPid])) > 0, 30_000);
    let moving = true;
    const move = mover
      .query("update public.audience_members set group_name = 'g3' where id = $1", [moved])
      .then(
        () => 'moved',
        (e: Error) => e.message,
      )
      .finally(() => (moving = false));
    // the move is done, or waits for something (on the old design: the renamed group row)
    await eventually(async () => !moving || (await waitingPids([moverPid])) > 0, 30_000);
    await holder.query('commit');
    expect(await Promise.all([rename, move])).toEqual(['renamed', 'moved']);
    const groups = await owner.client
      .from('audience_groups')
      .select('name, member_count')
      .in('name', ['g1', 'g2', 'g3']);
    expect(groups.data).toEqual(
      expect.arrayContaining([
        { name: 'g2', member_count: 1 },
        { name: 'g3', member_count: 1 },
      ]),
    );
    expect(groups.data).toHaveLength(2);
  });

  it("a deleted group's deltas go at the next fold (they have no foreign key to it)", async () => {
    const owner = await paidOwner('group-gone');
    const made = await owner.client
      .from('audience_groups')
      .insert({ name: 'Gone' })
      .select('id')
      .single();
    expect(made.error).toBeNull();
    const group = (made.data as { id: string }).id;
    // a move's -1 written beside the row just before the owner deleted the group
    await sql(
      'insert into private.audience_group_deltas (group_id, shard, delta) values ($1, 3, -1)',
      [group],
    );
    expect((await owner.client.from('audience_groups').delete().eq('id', group)).error).toBeNull();
    const left = () =>
      sqlValue<number>(
        'select count(*)::int from private.audience_group_deltas where group_id = $1',
        [group],
      );
    await eventually(
      async () => (await sql('select private.fold_counters()')) && (await left()) === 0,
      60_000,
      left,
    );
  });

  it("the owner's reset of new responses also resets what waits beside the row", async () => {
    const { owner, ids } = await ownerWithBlocks('like');
    const block = ids[0]!;
    // a delta as a busy row leaves it (the fold has not run yet)
    await sql(
      `insert into private.block_count_deltas (block_id, shard, response_count, new_response_count, like_count)
       values ($1, 7, 3, 3, 3)`,
      [block],
    );
    const reset = await owner.client
      .from('blocks')
      .update({ new_response_count: 0 })
      .eq('id', block);
    expect(reset.error).toBeNull();
    expect(await liveCounts(block)).toMatchObject({ new_response_count: 0, response_count: 3 });
  });
});

describe('the month', () => {
  it("last month's shards do not count, and the schedule of the first drops them", async () => {
    const { owner, ids } = await ownerWithBlocks('form');
    await sql(
      `insert into private.response_counts (user_id, month, shard, count)
       values ($1, (date_trunc('month', now()) - interval '1 month')::date, 3, 7)`,
      [owner.id],
    );
    const v = await newGuest();
    expect(
      (await v.client.rpc('submit_response', { p_block_id: ids[0], p_answers: {} })).error,
    ).toBeNull();
    const count = async () =>
      (
        await sql<{ n: number; rows: number }>(
          `select p.response_monthly_count as n,
                  (select count(*)::int from private.response_counts c where c.user_id = p.id) as rows
           from public.profiles p where p.id = $1`,
          [owner.id],
        )
      )[0];
    expect(await count()).toEqual({ n: 1, rows: 2 });
    const [job] = await sql<{ command: string; schedule: string }>(
      "select command, schedule from cron.job where jobname = 'monthly-response-reset'",
    );
    expect(job!.schedule).toBe('0 0 1 * *');
    await sql(job!.command);
    expect(await count()).toEqual({ n: 1, rows: 1 });
  });
});

describe('who reads the counts', () => {
  it('the owner reads their count and group counts; nobody reads another owner’s', async () => {
    const { owner, ids } = await ownerWithBlocks('form');
    const stranger = await newUser('stranger');
    const v = await newGuest();
    expect(
      (await v.client.rpc('submit_response', { p_block_id: ids[0], p_answers: {} })).error,
    ).toBeNull();
    const own = await owner.client
      .from('profiles')
      .select('response_monthly_count')
      .eq('id', owner.id)
      .single();
    expect(own.data).toEqual({ response_monthly_count: 1 });
    const groups = await owner.client
      .from('audience_groups')
      .select('name, member_count')
      .eq('name', 'activated');
    expect(groups.data).toEqual([{ name: 'activated', member_count: 1 }]);
    // the dashboard's block list: exact counts through the computed fields, another owner's none
    const list = await owner.client
      .from('blocks')
      .select('response_count:live_response_count, new_response_count:live_new_response_count')
      .eq('owner_id', owner.id);
    expect(list.error).toBeNull();
    const [row] = await sql<{ response_count: number; new_response_count: number }>(
      `select (private.with_live_counts(b)).response_count, (private.with_live_counts(b)).new_response_count
       from public.blocks b where b.owner_id = $1 order by (private.with_live_counts(b)).response_count desc limit 1`,
      [owner.id],
    );
    expect(list.data).toContainEqual(row);
    expect(row!.response_count).toBe(1);
    const theirBlocks = await stranger.client
      .from('blocks')
      .select('response_count:live_response_count')
      .eq('owner_id', owner.id);
    expect(theirBlocks.data).toEqual([]);
    // the stranger sees no row of the owner's (RLS), and the functions called directly with a
    // forged row answer nothing
    const theirs = await stranger.client
      .from('profiles')
      .select('response_monthly_count')
      .eq('id', owner.id);
    expect(theirs.data ?? []).toEqual([]);
    const forged = await stranger.client.rpc('response_monthly_count', {
      p_profile: { id: owner.id },
    } as never);
    expect(forged.data ?? null).toBeNull();
    const [group] = await sql<{ id: string }>(
      "select id from public.audience_groups where user_id = $1 and name = 'activated'",
      [owner.id],
    );
    // the row passed in is the caller's to write: another owner's id under the caller's own
    // user id, or under the owner's, answers nothing either (the stored row decides)
    for (const user_id of [owner.id, stranger.id]) {
      const forgedGroup = await stranger.client.rpc('member_count', {
        p_group: { id: group!.id, user_id, count: 0 },
      } as never);
      expect(forgedGroup.error, user_id).toBeNull();
      expect(forgedGroup.data ?? null, user_id).toBeNull();
    }
    for (const owner_id of [owner.id, stranger.id]) {
      for (const fn of ['live_response_count', 'live_new_response_count']) {
        const forgedBlock = await stranger.client.rpc(fn, {
          p_block: { id: ids[0], owner_id, response_count: 0, new_response_count: 0 },
        } as never);
        expect(forgedBlock.error, `${fn} ${owner_id}`).toBeNull();
        expect(forgedBlock.data ?? null, `${fn} ${owner_id}`).toBeNull();
      }
    }
    // the owner's own call counts the stored row, whatever the row passed in says
    const own2 = await owner.client.rpc('live_response_count', {
      p_block: { id: ids[0], owner_id: owner.id, response_count: 1000, new_response_count: 0 },
    } as never);
    expect(own2.data).toBe(1);
    for (const v2 of [v]) {
      const anon = await v2.client.from('profiles').select('response_monthly_count');
      expect(anon.data ?? []).toEqual([]);
    }
  });
});
