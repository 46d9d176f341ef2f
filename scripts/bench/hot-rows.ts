// `npm run bench:hot-rows`: do visitor writes that share an owner or a block wait on each other?
// (issue 13, "No hot rows on the visitor's path")
//
// Four configurations, each the same write under the same load, differing only in what the
// concurrent writes share:
//   - likes on ONE like block            against  likes spread over 32 like blocks of 32 owners
//   - submits to 32 forms of ONE owner   against  submits to 32 forms of 32 owners
// The ratio one/spread is the share of the throughput a hot block or a big owner keeps; 100 %
// means nothing they share makes writes wait.
//
// Load: SESSIONS database sessions (as many as PostgREST's pool), each call as PostgREST runs it
// (a transaction that sets the role and the visitor's JWT claims, the RPC, commit), each session
// cycling through its own visitors so one visitor never writes twice at once. Likes toggle (like,
// then unlike: each call writes). The configurations take turns in slices over several rounds,
// alternating the order, so other work on the shared machine weighs on all alike; each figure
// is the range (min-max) over the rounds and their median. The blocks carry an operator's rate
// limit override (the limits run in full and never refuse), the owners a quota out of reach.
//
//   npm run bench:hot-rows                 (print the figures)
//   npm run bench:hot-rows -- --write      (and write the "Hot rows" section of docs/benchmarks.md)
//   BENCH_SESSIONS=20 BENCH_ROUNDS=5 BENCH_SLICE_SECONDS=2 npm run bench:hot-rows
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DEFAULT_JWT_SECRET, freePorts } from '../../supabase/local/config.ts';
import { startStack, type Stack } from '../../supabase/local/stack.ts';
import {
  api,
  benchDurability,
  NO_AUTH_LIMITS,
  pool,
  type Session,
  signInOwner,
} from './support.ts';
import { writeBenchmarkSection } from './docs-section.ts';

const setting = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

const SESSIONS = setting('BENCH_SESSIONS', 20);
const ROUNDS = setting('BENCH_ROUNDS', 5);
const SLICE_MS = setting('BENCH_SLICE_SECONDS', 2) * 1000;
const VISITORS = setting('BENCH_VISITORS', 400);
const SPREAD = 32;

type Config = 'like-one' | 'like-spread' | 'submit-one' | 'submit-spread';
const CONFIGS: Config[] = ['like-one', 'like-spread', 'submit-one', 'submit-spread'];

const NEVER_REFUSE = Object.fromEntries(
  ['like', 'vote', 'submit'].map((action) => [
    action,
    { visitor_per_minute: 1e9, visitor_burst: 1e9, block_per_minute: 1e9, block_burst: 1e9 },
  ]),
);

interface Form {
  blockId: string;
  answers: Record<string, unknown>;
}

interface Seeded {
  /** JWT claims of the anonymous visitors, as PostgREST sets them */
  visitors: string[];
  likeOne: string;
  likeSpread: string[];
  submitOne: Form[];
  submitSpread: Form[];
}

async function seed(stack: Stack): Promise<Seeded> {
  process.stderr.write(`signing up ${SPREAD + 1} owners and ${VISITORS} visitors...\n`);
  const owners = await pool(
    Array.from({ length: SPREAD + 1 }, (_, i) => i),
    8,
    (i) => signInOwner(stack, `hot-rows-${i}-${Date.now()}@bench.local`, `Hot Rows Owner ${i}`),
  );
  const visitors = await pool(
    Array.from({ length: VISITORS }, (_, i) => i),
    16,
    async () =>
      (await api<Session>(stack, 'POST', '/auth/v1/signup', { data: {} }, stack.anonKey))
        .access_token,
  );
  const db = new pg.Client({ connectionString: stack.dbUrl });
  await db.connect();
  try {
    await db.query(
      'update public.profiles set block_limit = 1000, paid = true, response_monthly_limit = 1000000000 where id = any($1)',
      [owners.map((o) => o.user.id)],
    );
  } finally {
    await db.end();
  }
  const createBlock = async (owner: Session, type: string) =>
    (
      await api<{ id: string }>(
        stack,
        'POST',
        '/rest/v1/rpc/create_block',
        { p_block_type: type },
        owner.access_token,
      )
    ).id;
  const createForm = async (owner: Session): Promise<Form> => {
    const form = await createBlock(owner, 'form');
    const question = (q: Record<string, unknown>) =>
      api<Array<{ id: string }>>(
        stack,
        'POST',
        '/rest/v1/questions',
        { block_id: form, ...q },
        stack.serviceRoleKey,
        'return=representation',
      ).then((rows) => rows[0]!.id);
    const name = await question({ type: 'short_text', title: 'Your name', index: 0 });
    const poll = await question({ type: 'poll', title: 'Pick one', index: 1 });
    const options = await api<Array<{ id: string }>>(
      stack,
      'POST',
      '/rest/v1/options',
      ['Red', 'Green', 'Blue'].map((value, index) => ({
        question_id: poll,
        block_id: form,
        value,
        index,
      })),
      stack.serviceRoleKey,
      'return=representation',
    );
    return { blockId: form, answers: { [name]: 'Ada Lovelace', [poll]: options[1]!.id } };
  };
  const big = owners[SPREAD]!;
  const others = owners.slice(0, SPREAD);
  const likeOne = await createBlock(big, 'like');
  const likeSpread = await pool(others, 4, (o) => createBlock(o, 'like'));
  const submitOne = await pool(
    Array.from({ length: SPREAD }, () => big),
    4,
    createForm,
  );
  const submitSpread = await pool(others, 4, createForm);
  const db2 = new pg.Client({ connectionString: stack.dbUrl });
  await db2.connect();
  try {
    const all = [likeOne, ...likeSpread, ...[...submitOne, ...submitSpread].map((f) => f.blockId)];
    await db2.query('update public.blocks set rate_limits = $2 where id = any($1)', [
      all,
      NEVER_REFUSE,
    ]);
    // BENCH_SETTINGS='{"limits.block_shards": 16}': private.settings rows, for experiments
    for (const [key, value] of Object.entries(
      JSON.parse(process.env.BENCH_SETTINGS ?? '{}') as Record<string, unknown>,
    )) {
      await db2.query(
        `insert into private.settings (key, value) values ($1, $2)
         on conflict (key) do update set value = excluded.value`,
        [key, JSON.stringify(value)],
      );
    }
  } finally {
    await db2.end();
  }
  const claims = visitors.map((t) => Buffer.from(t.split('.')[1] ?? '', 'base64url').toString());
  return { visitors: claims, likeOne, likeSpread, submitOne, submitSpread };
}

/** The SQL of call j of session s in a configuration. */
function call(c: pg.Client, data: Seeded, config: Config, s: number, j: number): string {
  // session s owns visitors s, s + SESSIONS, ...: one visitor never writes twice at once
  const perSession = Math.floor(data.visitors.length / SESSIONS);
  const visitor = data.visitors[s + SESSIONS * (j % perSession)]!;
  const spot = (s + j) % SPREAD;
  let rpc: string;
  switch (config) {
    case 'like-one':
    case 'like-spread': {
      const block = config === 'like-one' ? data.likeOne : data.likeSpread[spot]!;
      rpc = `public.toggle_block_like(p_block_id => ${c.escapeLiteral(block)}, p_creator_name => 'Bench Visitor', p_color => '#336699')`;
      break;
    }
    case 'submit-one':
    case 'submit-spread': {
      const form = (config === 'submit-one' ? data.submitOne : data.submitSpread)[spot]!;
      rpc = `public.submit_response(p_block_id => ${c.escapeLiteral(form.blockId)}, p_answers => ${c.escapeLiteral(JSON.stringify(form.answers))}, p_creator_name => 'Bench Visitor', p_timezone => 'Asia/Seoul')`;
      break;
    }
  }
  return `begin;
    select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${c.escapeLiteral(visitor)}, true);
    select ${rpc};
    commit;`;
}

async function measure(stack: Stack, data: Seeded): Promise<Record<Config, number[]>> {
  const sessions = await Promise.all(
    Array.from({ length: SESSIONS }, async () => {
      const c = new pg.Client({ connectionString: stack.dbUrl });
      await c.connect();
      return c;
    }),
  );
  const out = Object.fromEntries(CONFIGS.map((c) => [c, [] as number[]])) as Record<
    Config,
    number[]
  >;
  const counters = sessions.map(() => 0);
  const slice = async (config: Config, ms: number) => {
    let n = 0;
    const start = performance.now();
    const end = start + ms;
    const errors: string[] = [];
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
    if (errors.length) process.stderr.write(`  ${config}: errors: ${errors.join('; ')}\n`);
    return (n / (performance.now() - start)) * 1000;
  };
  try {
    // warm-up: every configuration once
    for (const config of CONFIGS) await slice(config, 500);
    for (let round = 0; round < ROUNDS; round++) {
      for (const config of round % 2 ? [...CONFIGS].reverse() : CONFIGS) {
        const rate = await slice(config, SLICE_MS);
        out[config].push(rate);
        process.stderr.write(`  round ${round + 1} ${config}: ${Math.round(rate)}/s\n`);
      }
    }
  } finally {
    await Promise.all(sessions.map((c) => c.end()));
  }
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const int = (v: number) => Math.round(v).toLocaleString('en-US');
const range = (xs: number[]) => `${int(Math.min(...xs))}-${int(Math.max(...xs))}`;

/**
 * BENCH_BASELINE=file.json: the rounds of runs of the code before a change ({"like-one": [...],
 * ...}, the `raw:` line this script prints, several runs' arrays joined), compared side by side
 * with this run's; BENCH_BASELINE_LABEL names it.
 */
function baselineTable(current: Record<Config, number[]>): string {
  const file = process.env.BENCH_BASELINE;
  if (!file) return '';
  const before = JSON.parse(readFileSync(file, 'utf8')) as Record<Config, number[]>;
  // BENCH_ALSO=file.json: rounds of earlier runs of this code, interleaved with the baseline's
  const also = process.env.BENCH_ALSO
    ? (JSON.parse(readFileSync(process.env.BENCH_ALSO, 'utf8')) as Record<Config, number[]>)
    : undefined;
  const results = Object.fromEntries(
    CONFIGS.map((c) => [c, [...(also?.[c] ?? []), ...current[c]]]),
  ) as Record<Config, number[]>;
  const label = process.env.BENCH_BASELINE_LABEL ?? 'before';
  const ratio = (r: Record<Config, number[]>, one: Config, spread: Config) =>
    `${Math.round((median(r[one]) / median(r[spread])) * 100)} %`;
  const cell = (xs: number[]) => `${range(xs)} (median ${int(median(xs))})`;
  const row = (what: string, one: Config, spread: Config) =>
    `| ${what} | ${label} | ${cell(before[one])} | ${cell(before[spread])} | ${ratio(before, one, spread)} |
| | after | ${cell(results[one])} | ${cell(results[spread])} | ${ratio(results, one, spread)} |`;
  return `
Before and after, runs of the two codes taking turns on the machine (${label}: the same script on
that code, ${before['like-one'].length} rounds; after: this code, ${results['like-one'].length} rounds, this run's included):

| write | code | one block / one owner (calls/s) | spread over ${SPREAD} owners (calls/s) | one / spread |
|---|---|---|---|---|
${row('like a like block', 'like-one', 'like-spread')}
${row('submit a form', 'submit-one', 'submit-spread')}
`;
}

function report(results: Record<Config, number[]>, meta: { load: string; took: number }): string {
  const row = (what: string, one: Config, spread: Config, oneLabel: string) => {
    const ratio = median(results[one]) / median(results[spread]);
    // the ratio of each round's pair, for its spread
    const pairs = results[one].map((v, i) => v / results[spread][i]!);
    return `| ${what} | ${oneLabel}: ${range(results[one])} (median ${int(median(results[one]))}) | ${range(results[spread])} (median ${int(median(results[spread]))}) | ${Math.round(ratio * 100)} % (rounds ${Math.round(Math.min(...pairs) * 100)}-${Math.round(Math.max(...pairs) * 100)} %) |`;
  };
  const cpu = cpus();
  return `Measured by \`npm run bench:hot-rows\` on ${new Date().toISOString().slice(0, 10)}; the run took ${Math.round(meta.took)} s.

- Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), load average ${meta.load} before the run
  (other jobs share it). Postgres and the load (${SESSIONS} database sessions in this process) share these cores.
- Postgres: ${benchDurability().label}.
- Each call is what PostgREST runs for a visitor's request (role and JWT claims set in a
  transaction, the RPC, commit), from ${SESSIONS} sessions at once, each cycling through its own
  anonymous visitors. Likes toggle (a like, then an unlike: every call writes). Submits answer a
  short text and a poll. ${ROUNDS} rounds of ${SLICE_MS / 1000} s per configuration, the configurations taking turns
  (alternating the order); calls per second, range over the rounds and median.

| write | one block / one owner (calls/s) | spread over ${SPREAD} owners (calls/s) | one / spread |
|---|---|---|---|
${row('like a like block (`toggle_block_like`)', 'like-one', 'like-spread', 'ONE block')}
${row('submit a form (`submit_response`)', 'submit-one', 'submit-spread', `${SPREAD} forms of ONE owner`)}
${baselineTable(results)}`;
}

const started = performance.now();
const dir = mkdtempSync(join(tmpdir(), 'rb-bench-hot-'));
const logs: string[] = [];
const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(' / ');
let stack: Stack | undefined;
try {
  const ports = await freePorts();
  stack = await startStack({
    ports,
    dataDir: join(dir, 'pg'),
    jwtSecret: DEFAULT_JWT_SECRET,
    durable: benchDurability().durable,
    auth: NO_AUTH_LIMITS,
    log: (service, line) => logs.push(`[${service}] ${line}`),
  });
  process.stderr.write(`stack up on ${stack.apiUrl}\n`);
  const data = await seed(stack);
  const results = await measure(stack, data);
  const body = report(results, { load, took: (performance.now() - started) / 1000 });
  process.stdout.write(`${body}\n`);
  process.stdout.write(`raw: ${JSON.stringify(results)}\n`);
  writeBenchmarkSection(benchDurability().title('Hot rows'), body);
} catch (err) {
  process.stderr.write(`${logs.slice(-40).join('\n')}\n`);
  throw err;
} finally {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
}
