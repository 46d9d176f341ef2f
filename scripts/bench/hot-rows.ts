// `npm run bench:hot-rows`: do visitor writes that share an owner, a block or a form's options wait
// on each other? (issues 13 and 19, "No hot rows on the visitor's path")
//
// Each write is measured twice under the same load, once on what a popular site concentrates
// (the hard case) and once spread over 32 owners (the easy one), in the same run:
//   - likes on ONE like block                 against  likes on 32 like blocks of 32 owners
//   - the same with the rate limits off       (what the limits' shards cost a hot block)
//   - submits to 32 forms of ONE owner        against  submits to 32 forms of 32 owners
//   - submits to ONE form                     against  the same 32 forms of 32 owners
//   - votes on ONE A/B                        against  votes on 32 A/Bs of 32 owners
//   - comments on ONE block from ONE address  against  comments on 32 blocks of 32 owners from
//     many addresses (the address's share in shards, and the lock a message
//     about to be published takes shared against a hold of the address's burst: issue 17)
//   - likes of ONE comment                    against  likes of one comment on each of 32 blocks
//     of 32 owners (the message's like_count)
//   - likes spread over 200 comments of ONE   against  the same 32 comments of 32 owners (a like
//     block                                            storm on one busy post: the block's own
//                                                      rows, not the message's)
// The ratio hard/easy is the share of the throughput a hot block, form or owner keeps; 100 %
// means nothing they share makes writes wait. While each slice runs, the database sessions are
// sampled (pg_stat_activity, pg_locks): "lock waits" is the share of samples of a busy session
// (a call in progress) that were waiting for a lock, and the relation most waited on.
//
// Load: SESSIONS database sessions (as many as PostgREST's pool), each call as PostgREST runs it
// (a transaction that sets the role and the visitor's JWT claims, the RPC, commit), each session
// cycling through its own visitors so one visitor never writes twice at once. Likes toggle (like,
// then unlike: each call writes). A vote is a new visitor's (one vote per visitor and A/B, as on
// a post that goes viral: each also joins the owner's audience). The configurations take turns
// in slices over several rounds, alternating the order, so other work on the shared machine
// weighs on all alike; each figure is the range (min-max) over the rounds and their median. The
// blocks carry an operator's rate limit override (the limits run in full and never refuse), the
// owners a quota out of reach; "limits off" is `limits.enabled` false for its slices only.
//
//   npm run bench:hot-rows                 (print the figures)
//   npm run bench:hot-rows -- --write      (and write the "Hot rows" section of docs/benchmarks.md)
//   BENCH_SESSIONS=20 BENCH_ROUNDS=5 BENCH_SLICE_SECONDS=2 npm run bench:hot-rows
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Stack } from '../../supabase/local/stack.ts';
import {
  addNameAndPoll,
  api,
  benchDurability,
  connectDb,
  createBlock,
  int,
  machineLine,
  mapLimit,
  median,
  range,
  runBench,
  setSetting,
  setting,
  signInOwner,
  type Session,
} from './support.ts';

const SESSIONS = setting('BENCH_SESSIONS', 20);
const ROUNDS = setting('BENCH_ROUNDS', 5);
const SLICE_MS = setting('BENCH_SLICE_SECONDS', 2) * 1000;
const VISITORS = setting('BENCH_VISITORS', 400);
const SPREAD = 32;
/** the comments of ONE block that like-comment-many spreads its likes over */
const MANY = 200;

const CONFIGS = [
  'like-one',
  'like-spread',
  'like-one-off',
  'like-spread-off',
  'submit-owner',
  'submit-form',
  'submit-spread',
  'vote-one',
  'vote-spread',
  'comment-address',
  'comment-spread',
  'like-comment-one',
  'like-comment-spread',
  'like-comment-many',
] as const;
type Config = (typeof CONFIGS)[number];
/** BENCH_CONFIGS=like-one,like-one-off measures only those (for experiments) */
const ACTIVE = CONFIGS.filter(
  (c) => !process.env.BENCH_CONFIGS || process.env.BENCH_CONFIGS.split(',').includes(c),
);

const NEVER_REFUSE = Object.fromEntries(
  ['like', 'vote', 'submit', 'message'].map((action) => [
    action,
    {
      visitor_per_minute: 1e9,
      visitor_burst: 1e9,
      block_per_minute: 1e9,
      block_burst: 1e9,
      // messages: the client address's share of the block (its 32 shards), never spent here
      address_per_minute: 1e9,
      address_burst: 1e9,
    },
  ]),
);

interface Form {
  blockId: string;
  answers: Record<string, unknown>;
}

interface Ab {
  blockId: string;
  questionId: string;
  options: [string, string];
}

interface Seeded {
  /** JWT claims of the anonymous visitors, as PostgREST sets them */
  visitors: string[];
  likeOne: string;
  likeSpread: string[];
  /** 32 forms of one owner; the first is also the ONE form */
  submitOwner: Form[];
  submitForm: Form;
  submitSpread: Form[];
  abOne: Ab;
  abSpread: Ab[];
  commentOne: string;
  commentSpread: string[];
  /** a message on commentOne, then one on each of commentSpread */
  messages: string[];
  /** MANY more messages on commentOne */
  many: string[];
}

async function seed(stack: Stack): Promise<Seeded> {
  process.stderr.write(`signing up ${SPREAD + 1} owners and ${VISITORS} visitors...\n`);
  const owners = await mapLimit(
    Array.from({ length: SPREAD + 1 }, (_, i) => i),
    8,
    (i) => signInOwner(stack, `hot-rows-${i}-${Date.now()}@bench.local`, `Hot Rows Owner ${i}`),
  );
  const visitors = await mapLimit(
    Array.from({ length: VISITORS }, (_, i) => i),
    16,
    async () =>
      (await api<Session>(stack, 'POST', '/auth/v1/signup', { data: {} }, stack.anonKey))
        .access_token,
  );
  const db = await connectDb(stack.dbUrl);
  try {
    await db.query(
      'update public.profiles set block_limit = 1000, paid = true, response_monthly_limit = 1000000000 where id = any($1)',
      [owners.map((o) => o.user.id)],
    );
    const create = (owner: Session, type: string) => createBlock(stack, owner, type);
    const createForm = async (owner: Session): Promise<Form> => {
      const form = await create(owner, 'form');
      return { blockId: form, answers: await addNameAndPoll(stack, form) };
    };
    const abOf = async (blockIds: string[]): Promise<Ab[]> => {
      const { rows } = await db.query<{ block_id: string; question_id: string; id: string }>(
        'select block_id, question_id, id from public.options where block_id = any($1) order by index',
        [blockIds],
      );
      return blockIds.map((blockId) => {
        const mine = rows.filter((r) => r.block_id === blockId);
        return { blockId, questionId: mine[0]!.question_id, options: [mine[0]!.id, mine[1]!.id] };
      });
    };
    const big = owners[SPREAD]!;
    const others = owners.slice(0, SPREAD);
    const likeOne = await create(big, 'like');
    const likeSpread = await mapLimit(others, 4, (o) => create(o, 'like'));
    const submitOwner = await mapLimit(
      Array.from({ length: SPREAD }, () => big),
      4,
      createForm,
    );
    const submitForm = await createForm(big);
    const submitSpread = await mapLimit(others, 4, createForm);
    const abOne = (await abOf([await create(big, 'ab')]))[0]!;
    const abSpread = await abOf(await mapLimit(others, 4, (o) => create(o, 'ab')));
    const commentOne = await create(big, 'comment');
    const commentSpread = await mapLimit(others, 4, (o) => create(o, 'comment'));
    const all = [
      likeOne,
      ...likeSpread,
      commentOne,
      ...commentSpread,
      ...[...submitOwner, submitForm, ...submitSpread, abOne, ...abSpread].map((f) => f.blockId),
    ];
    await db.query('update public.blocks set rate_limits = $2 where id = any($1)', [
      all,
      NEVER_REFUSE,
    ]);
    // BENCH_SETTINGS='{"limits.block_shards": 16}': private.settings rows, for experiments
    for (const [key, value] of Object.entries(
      JSON.parse(process.env.BENCH_SETTINGS ?? '{}') as Record<string, unknown>,
    )) {
      await setSetting(db, key, value);
    }
    // the comments liked: one on each comment block, written by its owner
    const { rows: messages } = await db.query<{ id: string }>(
      `insert into public.messages (block_id, creator_id, content)
       select b.id, b.owner_id, 'Like me' from unnest($1::uuid[]) with ordinality u(id, n)
       join public.blocks b on b.id = u.id order by u.n returning id`,
      [[commentOne, ...commentSpread]],
    );
    const { rows: many } = await db.query<{ id: string }>(
      `insert into public.messages (block_id, creator_id, content)
       select b.id, b.owner_id, 'Like me too ' || i from public.blocks b, generate_series(1, $2) i
       where b.id = $1 returning id`,
      [commentOne, MANY],
    );
    const claims = visitors.map((t) => Buffer.from(t.split('.')[1] ?? '', 'base64url').toString());
    return {
      visitors: claims,
      likeOne,
      likeSpread,
      submitOwner,
      submitForm,
      submitSpread,
      abOne,
      abSpread,
      commentOne,
      commentSpread,
      messages: messages.map((m) => m.id),
      many: many.map((m) => m.id),
    };
  } finally {
    await db.end();
  }
}

/** The SQL of call j of session s in a configuration. */
function call(c: pg.Client, data: Seeded, config: Config, s: number, j: number): string {
  // session s owns visitors s, s + SESSIONS, ...: one visitor never writes twice at once
  const perSession = Math.floor(data.visitors.length / SESSIONS);
  let visitor = data.visitors[s + SESSIONS * (j % perSession)]!;
  const spot = (s + j) % SPREAD;
  let rpc: string;
  // the client's address as the gateway passes it (the right-most X-Forwarded-For entry)
  let headers = '{}';
  const submit = (form: Form) =>
    `public.submit_response(p_block_id => ${c.escapeLiteral(form.blockId)}, p_answers => ${c.escapeLiteral(JSON.stringify(form.answers))}, p_creator_name => 'Bench Visitor', p_timezone => 'Asia/Seoul')`;
  switch (config) {
    case 'like-one':
    case 'like-one-off':
    case 'like-spread':
    case 'like-spread-off': {
      const block = config.startsWith('like-one') ? data.likeOne : data.likeSpread[spot]!;
      rpc = `public.toggle_block_like(p_block_id => ${c.escapeLiteral(block)}, p_creator_name => 'Bench Visitor', p_color => '#336699')`;
      break;
    }
    case 'submit-owner':
      rpc = submit(data.submitOwner[spot]!);
      break;
    case 'submit-form':
      rpc = submit(data.submitForm);
      break;
    case 'submit-spread':
      rpc = submit(data.submitSpread[spot]!);
      break;
    case 'vote-one':
    case 'vote-spread': {
      // a new visitor each time (one vote per visitor and A/B): the claims of a real one with
      // another subject, as the auth server would sign for a new anonymous sign-up
      visitor = JSON.stringify({ ...(JSON.parse(visitor) as object), sub: randomUUID() });
      const ab = config === 'vote-one' ? data.abOne : data.abSpread[spot]!;
      rpc = submit({ blockId: ab.blockId, answers: { [ab.questionId]: ab.options[j % 2] } });
      break;
    }
    case 'comment-address':
    case 'comment-spread': {
      const one = config === 'comment-address';
      const block = one ? data.commentOne : data.commentSpread[spot]!;
      // spread: each session's calls from 250 addresses of its own
      const address = one ? '203.0.113.1' : `10.${s}.${(j % 250) + 1}.1`;
      headers = JSON.stringify({ 'x-forwarded-for': address });
      rpc = `public.post_message(p_block_id => ${c.escapeLiteral(block)}, p_content => ${c.escapeLiteral(`bench ${randomUUID()}`)}, p_creator_name => 'Bench Visitor')`;
      break;
    }
    case 'like-comment-one':
    case 'like-comment-spread':
    case 'like-comment-many': {
      // many: the sessions' calls at one moment on different comments of the one block
      const message =
        config === 'like-comment-many'
          ? data.many[(s + SESSIONS * j) % MANY]!
          : data.messages[config === 'like-comment-one' ? 0 : 1 + spot]!;
      rpc = `public.toggle_message_like(p_message_id => ${c.escapeLiteral(message)})`;
      break;
    }
  }
  return `begin;
    select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${c.escapeLiteral(visitor)}, true),
           set_config('request.headers', ${c.escapeLiteral(headers)}, true);
    select ${rpc};
    commit;`;
}

interface Waits {
  /** samples of a session with a call in progress */
  busy: number;
  /** of those, waiting for a heavyweight lock */
  lock: number;
  /** lock waits by what was waited on (a relation's name, or the lock type) */
  on: Record<string, number>;
}

/**
 * Samples what the load's sessions wait for until `stop` resolves: every 25 ms, each session with
 * a call in progress, and for a lock wait the relation of the row it waits for (the tuple lock a
 * row waiter holds or queues for) or else the lock type (transactionid: an index entry another
 * transaction is inserting; advisory).
 */
async function sampleWaits(db: pg.Client, pids: number[], stop: Promise<void>): Promise<Waits> {
  const waits: Waits = { busy: 0, lock: 0, on: {} };
  let done = false;
  void stop.then(() => (done = true));
  while (!done) {
    const { rows } = await db.query<{ wait: string | null; rel: string | null; type: string }>(
      `select a.wait_event_type as wait, a.wait_event as type,
              (select l.relation::regclass::text from pg_locks l
                where l.pid = a.pid and l.relation is not null
                  and (l.locktype = 'tuple' or (l.locktype = 'relation' and not l.granted))
                limit 1) as rel
         from pg_stat_activity a where a.pid = any($1) and a.state = 'active'`,
      [pids],
    );
    for (const r of rows) {
      waits.busy++;
      if (r.wait !== 'Lock') continue;
      waits.lock++;
      const on = r.rel ?? r.type;
      waits.on[on] = (waits.on[on] ?? 0) + 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return waits;
}

interface Results {
  rate: Record<Config, number[]>;
  waits: Record<Config, Waits>;
  /** the most unfolded rows of private.message_count_deltas seen at the end of a slice */
  deltas: Partial<Record<Config, number>>;
}

async function measure(stack: Stack, data: Seeded): Promise<Results> {
  const connect = async () => {
    const c = await connectDb(stack.dbUrl);
    return c;
  };
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, connect));
  const pids = await Promise.all(
    sessions.map(
      async (c) => (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid,
    ),
  );
  const admin = await connect();
  const sampler = await connect();
  const rate = Object.fromEntries(CONFIGS.map((c) => [c, [] as number[]])) as Record<
    Config,
    number[]
  >;
  const waits = Object.fromEntries(
    CONFIGS.map((c) => [c, { busy: 0, lock: 0, on: {} } as Waits]),
  ) as Record<Config, Waits>;
  const counters = sessions.map(() => 0);
  const deltas: Results['deltas'] = {};
  const slice = async (config: Config, ms: number, sample: boolean) => {
    await setSetting(admin, 'limits.enabled', !config.endsWith('-off'));
    let n = 0;
    const start = performance.now();
    const end = start + ms;
    const errors: string[] = [];
    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const sampled = sample ? sampleWaits(sampler, pids, finished) : undefined;
    await Promise.all(
      sessions.map(async (c, s) => {
        while (performance.now() < end) {
          try {
            await c.query(call(c, data, config, s, counters[s]!++));
            n++;
          } catch (err) {
            await c.query('rollback').catch(() => {});
            if (errors.length < 3)
              errors.push(
                `${(err as Error).message} ${(err as { detail?: string }).detail ?? ''} ${(err as { where?: string }).where ?? ''}`,
              );
          }
        }
      }),
    );
    const elapsed = performance.now() - start;
    finish();
    if (sample && config.startsWith('like-comment')) {
      const { rows } = await admin.query<{ n: string }>(
        'select count(*) as n from private.message_count_deltas',
      );
      deltas[config] = Math.max(deltas[config] ?? 0, Number(rows[0]!.n));
    }
    const w = await sampled;
    if (w) {
      const into = waits[config];
      into.busy += w.busy;
      into.lock += w.lock;
      for (const [k, v] of Object.entries(w.on)) into.on[k] = (into.on[k] ?? 0) + v;
    }
    if (errors.length) process.stderr.write(`  ${config}: errors: ${errors.join('; ')}\n`);
    return (n / elapsed) * 1000;
  };
  try {
    // warm-up: every configuration once
    for (const config of ACTIVE) await slice(config, 500, false);
    for (let round = 0; round < ROUNDS; round++) {
      for (const config of round % 2 ? [...ACTIVE].reverse() : ACTIVE) {
        const r = await slice(config, SLICE_MS, true);
        rate[config].push(r);
        process.stderr.write(`  round ${round + 1} ${config}: ${Math.round(r)}/s\n`);
      }
    }
  } finally {
    await setSetting(admin, 'limits.enabled', true).catch(() => {});
    await Promise.all([...sessions, admin, sampler].map((c) => c.end()));
  }
  return { rate, waits, deltas };
}

const pct = (part: number, whole: number) =>
  whole ? `${Math.round((part / whole) * 100)} %` : '-';

/** "38 % (options 30 %, rate_limits 6 %)": lock waits of busy samples and the two most waited on */
function waitCell(w: Waits): string {
  const top = Object.entries(w.on)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 2)
    .map(([on, n]) => `${on.replace(/^(public|private)\./, '')} ${pct(n, w.busy)}`);
  return `${pct(w.lock, w.busy)}${top.length ? ` (${top.join(', ')})` : ''}`;
}

function report(results: Results, meta: { load: string; took: number }): string {
  const { rate, waits } = results;
  const cell = (c: Config) =>
    rate[c].length ? `${range(rate[c])} (median ${int(median(rate[c]))})` : '-';
  const row = (what: string, hard: Config, easy: Config, hardLabel: string) => {
    if (!rate[hard].length || !rate[easy].length) return '';
    const ratio = median(rate[hard]) / median(rate[easy]);
    // the ratio of each round's pair, for its spread
    const pairs = rate[hard].map((v, i) => v / rate[easy][i]!);
    return `| ${what} | ${hardLabel}: ${cell(hard)} | ${cell(easy)} | **${Math.round(ratio * 100)} %** (rounds ${Math.round(Math.min(...pairs) * 100)}-${Math.round(Math.max(...pairs) * 100)} %) | ${waitCell(waits[hard])} | ${waitCell(waits[easy])} |\n`;
  };
  return `Measured by \`npm run bench:hot-rows\` on ${new Date().toISOString().slice(0, 10)}; the run took ${Math.round(meta.took)} s.

- ${machineLine(meta.load)} Postgres and the load (${SESSIONS} database sessions in this process) share these cores.
- Postgres: ${benchDurability().label}.
- Each call is what PostgREST runs for a visitor's request (role and JWT claims set in a
  transaction, the RPC, commit), from ${SESSIONS} sessions at once, each cycling through its own
  anonymous visitors. Likes toggle (a like, then an unlike: every call writes). Submits answer a
  short text and a poll of three options (all choose the same one). A vote is a new visitor's,
  alternating between the A/B's two options. A comment is new text; on ONE block every visitor
  is at one client address (X-Forwarded-For in the request's headers, as the gateway passes
  it), spread from many (each session's calls from 250 addresses of its own). ${ROUNDS} rounds of ${SLICE_MS / 1000} s per configuration, the
  configurations taking turns (alternating the order); calls per second, range over the rounds and median.
- Lock waits: of the samples (every 25 ms) of a session with a call in progress, the share
  waiting for a lock, and the two relations (or lock types) most waited on.

| write | hard case (calls/s) | spread over ${SPREAD} owners (calls/s) | hard / spread | lock waits, hard | lock waits, spread |
|---|---|---|---|---|---|
${row('like a like block (`toggle_block_like`)', 'like-one', 'like-spread', 'ONE block')}${row('the same, rate limits off', 'like-one-off', 'like-spread-off', 'ONE block')}${row('submit a form (`submit_response`)', 'submit-owner', 'submit-spread', `${SPREAD} forms of ONE owner`)}${row('submit a form (`submit_response`)', 'submit-form', 'submit-spread', 'ONE form')}${row('vote on an A/B (`submit_response`)', 'vote-one', 'vote-spread', 'ONE A/B')}${row('post a comment (`post_message`)', 'comment-address', 'comment-spread', 'ONE block, every visitor at ONE address')}${row('like a comment (`toggle_message_like`)', 'like-comment-one', 'like-comment-spread', 'ONE comment')}${row('like a comment (`toggle_message_like`)', 'like-comment-many', 'like-comment-spread', `${MANY} comments of ONE block`)}${deltaNote(results)}${commentNote(results)}${baselineTable(results)}`;
}

/** The delta rows of comments' likes left unfolded at the end of a slice (the fold: every 5 s). */
function deltaNote({ deltas }: Results): string {
  const seen = Object.entries(deltas);
  if (!seen.length) return '';
  return `
Unfolded rows of \`private.message_count_deltas\` at the end of a slice (at most, over the rounds; the
fold-counters schedule folds them every 5 s): ${seen.map(([c, n]) => `${c} ${int(n)}`).join(', ')}.
`;
}

/** What comments wait for: Postgres's notify lock, and the address's lock (advisory). */
function commentNote({ rate, waits }: Results): string {
  if (!rate['comment-address'].length) return '';
  const advisory = (c: Config) => pct(waits[c].on.advisory ?? 0, waits[c].busy);
  return `
A comment's change is broadcast (\`realtime.send\`): the local stack's stand-in sends it with
\`pg_notify\`, and Postgres serializes the commits of transactions that notify (its one notify lock,
\`object\` in pg_locks, held to the end of the commit), so comments wait for each other whatever
their block or address; a hosted project's \`realtime.send\` writes a row instead. Waits on
advisory locks (the address's lock a message about to be published takes shared, exclusive only
while a hold of the address's burst runs; the shards' tries never wait): ${advisory('comment-address')}
on ONE block at ONE address, ${advisory('comment-spread')} spread.
`;
}

/**
 * BENCH_BASELINE=file.json: the rates of runs of the code before a change ({"like-one": [...],
 * ...}, the `raw:` line this script prints, several runs' arrays joined), compared side by side
 * with this run's; BENCH_BASELINE_LABEL names it.
 */
function baselineTable(current: Results): string {
  const file = process.env.BENCH_BASELINE;
  if (!file) return '';
  const before = JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<Config, number[]>>;
  const label = process.env.BENCH_BASELINE_LABEL ?? 'before';
  const ratio = (r: Partial<Record<Config, number[]>>, hard: Config, easy: Config) =>
    r[hard]?.length && r[easy]?.length
      ? `${Math.round((median(r[hard]) / median(r[easy])) * 100)} %`
      : '-';
  const cell = (xs: number[] | undefined) =>
    xs?.length ? `${range(xs)} (median ${int(median(xs))})` : '-';
  const row = (what: string, hard: Config, easy: Config) =>
    `| ${what} | ${label} | ${cell(before[hard])} | ${cell(before[easy])} | ${ratio(before, hard, easy)} |
| | after | ${cell(current.rate[hard])} | ${cell(current.rate[easy])} | ${ratio(current.rate, hard, easy)} |`;
  return `
Before and after (${label}: the same script on that code; after: this run):

| write | code | hard case (calls/s) | spread over ${SPREAD} owners (calls/s) | hard / spread |
|---|---|---|---|---|
${row('like ONE block', 'like-one', 'like-spread')}
${row('submit to 32 forms of ONE owner', 'submit-owner', 'submit-spread')}
${row('submit to ONE form', 'submit-form', 'submit-spread')}
${row('vote on ONE A/B', 'vote-one', 'vote-spread')}
${row('like ONE comment', 'like-comment-one', 'like-comment-spread')}
`;
}

await runBench({ name: 'hot-rows', section: 'Hot rows' }, async ({ stack, load, started }) => {
  const data = await seed(stack);
  const results = await measure(stack, data);
  const body = report(results, { load, took: (performance.now() - started) / 1000 });
  return { body, raw: results.rate };
});
