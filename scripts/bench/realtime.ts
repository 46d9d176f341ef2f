// `npm run bench:realtime` (also run by `npm run bench`): how long a change takes to reach every
// viewer of a block, and whether the local Realtime server keeps its memory. Each viewer has its
// own WebSocket through the local gateway (as a browser's) and joins its block's public topic as
// sdk/src/core/live.ts does; the viewers run in a process of their own
// (realtime-viewers.ts), so their sockets never share an event loop with the stack, which
// serves Realtime in its own process as `npm start` does. What is timed is the hint, from the
// insert being sent to a viewer hearing it (what the viewer then reads, get_block_change, is a
// cacheable GET: bench:cache counts it).
//
// Cases, in one run: 200, 2,000 and 10,000 viewers of ONE block; 2,000 viewers spread over 20
// blocks (100 each), the easy case beside the hard one. Ten rounds, one every 100 ms; a round is
// one comment on each block of the case in one transaction, so every case delivers one hint per
// viewer per round. "Last viewer": from the insert to the last viewer hearing it (p50/p95 over
// the rounds). Backlog: a round still being delivered when the next was sent.
// Then memory: the stack process's RSS and PSS, after a garbage collection, before and after
// rounds of 2,000 viewers joining and leaving one block.
//
//   npm run bench:realtime                      # prints only
//   npm run bench:realtime -- --write           # and writes the "Realtime" section of docs/benchmarks.md
//   BENCH_VIEWERS=2000 npm run bench:realtime   # one-block sizes to run (comma-separated)
//   BENCH_VIEWERS=0 BENCH_SPREAD=0 BENCH_MEMORY_ROUNDS=10 npm run bench:realtime   # memory only
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import pg from 'pg';
import type { Stack } from '../../supabase/local/stack.ts';
import type { ThrowawayStack } from '../../supabase/local/throwaway.ts';
import { writeBenchmarkSection } from './docs-section.ts';
import { ipcChild, loadNow, startBenchStack } from './support.ts';
import { realtimeUrl } from './realtime-join.ts';

const ROUNDS = 10;
const INTERVAL_MS = 100;
const ONE_BLOCK = (process.env.BENCH_VIEWERS ?? '200,2000,10000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
/** BENCH_SPREAD=0 leaves the spread case out (with BENCH_VIEWERS=0: memory only) */
const WITH_SPREAD = process.env.BENCH_SPREAD !== '0';
const SPREAD = { viewers: 2000, blocks: 20 };
const MEMORY_ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 20);

interface Case {
  label: string;
  /** the block of each viewer */
  blocks: string[];
}

interface Result {
  label: string;
  viewers: number;
  blocks: number;
  joinMs: number;
  /** per round: ms from the insert to the last viewer */
  last: number[];
  /** every delivery's ms */
  all: number[];
  missing: number;
  dupes: number;
  backlog: boolean;
}

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (values: number[], q: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))] ?? NaN;
};
const ms = (n: number) => `${Math.round(n)} ms`;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** The viewers' process and a way to ask it something and wait for its answer. */
const startViewers = () => ipcChild('realtime-viewers.ts');

/** A process's RSS and PSS in bytes (/proc/<pid>/smaps_rollup). */
function resident(pid: number | 'self'): { rss: number; pss: number } {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return { rss: kb('Rss') * 1024, pss: kb('Pss') * 1024 };
}

/**
 * This process's memory after a garbage collection: RSS and PSS (what it alone costs) and the JS
 * heap; and the gateway's, after a collection of its own (it takes each websocket's handshake
 * before handing it on).
 */
async function memory(stack: Stack): Promise<{
  rss: number;
  pss: number;
  heap: number;
  gateway: { rss: number; pss: number; heap: number };
}> {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await sleep(200);
  }
  const gatewayHeap = (await stack.gatewayMemory()).heapUsed;
  const self = resident('self');
  return {
    ...self,
    heap: process.memoryUsage().heapUsed,
    gateway: { ...resident(stack.gatewayPid), heap: gatewayHeap },
  };
}

type Memory = Awaited<ReturnType<typeof memory>>;
const memoryRow = (when: string, m: Memory) =>
  `| ${when} | ${mb(m.rss)} | ${mb(m.pss)} | ${mb(m.heap)} | ${mb(m.gateway.rss)} | ${mb(m.gateway.pss)} | ${mb(m.gateway.heap)} |`;

/**
 * The growth over the second half of the rounds, once the allocators have warmed up (the first
 * rounds take memory a process keeps for the next ones): what a leak would show.
 */
function memoryGrowth(rounds: Memory[]): string {
  if (rounds.length < 4) return '';
  const half = Math.floor(rounds.length / 2);
  const [from, to] = [rounds[half - 1]!, rounds.at(-1)!];
  const grew = (a: number, b: number) =>
    `${b - a >= 0 ? '+' : ''}${((b - a) / 1024 / 1024).toFixed(1)} MB (${(((b - a) / a) * 100).toFixed(1)} %)`;
  return `From round ${half} to round ${rounds.length}: the stack's PSS ${grew(from.pss, to.pss)}, its JS heap ${grew(from.heap, to.heap)}, the gateway's PSS ${grew(from.gateway.pss, to.gateway.pss)}, its JS heap ${grew(from.gateway.heap, to.gateway.heap)}.`;
}

async function run(
  stack: Stack,
  db: pg.Client,
  viewers: ReturnType<typeof startViewers>,
  c: Case,
): Promise<Result> {
  const url = realtimeUrl(stack.apiUrl, stack.anonKey);
  const { ms: joinMs } = await viewers.ask<{ ms: number }>(
    { type: 'connect', url, blocks: c.blocks },
    'joined',
  );
  await sleep(1500); // the joins settle
  const distinct = [...new Set(c.blocks)];
  const writer = randomUUID();
  /** message id -> [round, sent at] */
  const sent = new Map<string, [number, number]>();
  const roundStart: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const ids = distinct.map(() => randomUUID());
    const at = now();
    roundStart.push(at);
    for (const id of ids) sent.set(id, [r, at]);
    await db.query(
      `insert into public.messages (id, block_id, creator_id, creator_name, content)
       select m.id, m.block_id, $3, 'Bench', 'round ' || $4 from unnest($1::uuid[], $2::uuid[]) m(id, block_id)`,
      [ids, distinct, writer, r + 1],
    );
    const next = at + INTERVAL_MS - now();
    if (next > 0) await sleep(next);
  }
  // which message each hint named
  const { rows } = await db.query<{ id: string; message: string }>(
    `select id, payload #>> '{row,id}' as message from private.block_changes
     where block_id = any($1::uuid[]) and payload #>> '{row,id}' = any($2::text[])`,
    [distinct, [...sent.keys()]],
  );
  const messageOf = new Map(rows.map((r) => [r.id, r.message]));
  // everything heard, or 120 s
  const expected = c.blocks.length * ROUNDS;
  let heard: Array<Array<[string, number]>> = [];
  for (const end = Date.now() + 120_000; Date.now() < end;) {
    await sleep(500);
    ({ heard } = await viewers.ask<{ heard: typeof heard }>({ type: 'report' }, 'report'));
    if (heard.reduce((n, h) => n + h.length, 0) >= expected) break;
  }
  await viewers.ask({ type: 'close' }, 'closed');

  const lastOf = new Array<number>(ROUNDS).fill(0);
  const all: number[] = [];
  let dupes = 0;
  let got = 0;
  heard.forEach((list) => {
    const seen = new Set<string>();
    for (const [hint, t] of list) {
      const message = messageOf.get(hint);
      const s = message ? sent.get(message) : undefined;
      if (!s) continue;
      if (seen.has(hint)) {
        dupes++;
        continue;
      }
      seen.add(hint);
      got++;
      all.push(t - s[1]);
      lastOf[s[0]] = Math.max(lastOf[s[0]]!, t);
    }
  });
  const last = lastOf.map((t, r) => t - roundStart[r]!);
  const backlog = lastOf.some((t, r) => r + 1 < ROUNDS && t > roundStart[r + 1]!);
  return {
    label: c.label,
    viewers: c.blocks.length,
    blocks: distinct.length,
    joinMs,
    last,
    all,
    missing: expected - got,
    dupes,
    backlog,
  };
}

let stack: ThrowawayStack | undefined;
let viewers: ReturnType<typeof startViewers> | undefined;
const logs: string[] = [];
const load = loadNow();
try {
  ({ stack } = await startBenchStack('realtime', logs));
  const db = new pg.Client({ connectionString: stack.dbUrl });
  db.on('error', () => {});
  await db.connect();
  viewers = startViewers();

  // an owner's published comment blocks: one for the one-block cases, twenty for the spread one
  const owner = randomUUID();
  await db.query(
    "insert into auth.users (id, aud, role, email, raw_app_meta_data) values ($1, 'authenticated', 'authenticated', $2, '{\"owner\": true}')",
    [owner, `bench-owner-${owner.slice(0, 8)}@bench.local`],
  );
  await db.query('update public.profiles set block_limit = 50 where id = $1', [owner]);
  const blocks = (
    await db.query<{ id: string }>(
      `insert into public.blocks (owner_id, type, name)
       select $1, 'comment', 'bench ' || i from generate_series(1, $2) i returning id`,
      [owner, SPREAD.blocks + 1],
    )
  ).rows.map((r) => r.id);
  const [one, ...many] = blocks as [string, ...string[]];

  const cases: Case[] = [
    ...ONE_BLOCK.map((n) => ({ label: `one block`, blocks: Array<string>(n).fill(one) })),
    ...(WITH_SPREAD
      ? [
          {
            label: `spread over ${SPREAD.blocks} blocks`,
            blocks: Array.from({ length: SPREAD.viewers }, (_, i) => many[i % SPREAD.blocks]!),
          },
        ]
      : []),
  ];
  // the hard case and its easy twin back to back, so the machine's load weighs on both alike
  cases.sort((a, b) => a.blocks.length - b.blocks.length);
  const results: Result[] = [];
  for (const c of cases) {
    const r = await run(stack, db, viewers, c);
    results.push(r);
    process.stdout.write(
      `${r.viewers} viewers, ${r.label}: last viewer p50 ${ms(quantile(r.last, 0.5))}, p95 ${ms(quantile(r.last, 0.95))}, backlog ${r.backlog ? 'yes' : 'no'}\n`,
    );
  }

  // memory: rounds of 2,000 viewers joining and leaving one block
  const memoryRows: string[] = [];
  const measured: Memory[] = [];
  const before = await memory(stack);
  memoryRows.push(memoryRow('before', before));
  for (let i = 1; i <= MEMORY_ROUNDS; i++) {
    const url = realtimeUrl(stack.apiUrl, stack.anonKey);
    await viewers.ask({ type: 'connect', url, blocks: Array<string>(2000).fill(one) }, 'joined');
    await viewers.ask({ type: 'close' }, 'closed');
    await sleep(1000); // the server sees the sockets close
    if (process.env.BENCH_DEBUG_FDS) {
      const { readdirSync } = await import('node:fs');
      const fds = (pid: number | string) => readdirSync(`/proc/${pid}/fd`).length;
      process.stdout.write(`fds: stack ${fds('self')}, gateway ${fds(stack.gatewayPid)}\n`);
    }
    const m = await memory(stack);
    measured.push(m);
    // the table shows round 1, every fifth and the last; the growth line reads them all
    if (i === 1 || i % 5 === 0 || i === MEMORY_ROUNDS)
      memoryRows.push(memoryRow(`after round ${i}`, m));
    process.stdout.write(
      `memory after round ${i}: rss ${mb(m.rss)}, pss ${mb(m.pss)}, heap ${mb(m.heap)}, gateway rss ${mb(m.gateway.rss)} pss ${mb(m.gateway.pss)} heap ${mb(m.gateway.heap)}\n`,
    );
  }
  await db.end();

  const loadAfter = loadNow();
  const row = (r: Result) =>
    `| ${r.viewers.toLocaleString('en')} | ${r.label} | ${ms(quantile(r.last, 0.5))} | ${ms(quantile(r.last, 0.95))} | ${ms(quantile(r.all, 0.5))} | ${ms(r.last[0]!)} → ${ms(r.last.at(-1)!)} | ${r.backlog ? 'yes' : 'no'} | ${r.missing} / ${r.dupes} | ${(r.joinMs / 1000).toFixed(1)} s |`;
  const hard = results.find((r) => r.viewers === SPREAD.viewers && r.blocks === 1);
  const easy = results.find((r) => r.blocks === SPREAD.blocks);
  const ratio =
    hard && easy ? (quantile(hard.last, 0.5) / quantile(easy.last, 0.5)).toFixed(2) : '-';
  const body = [
    `${ROUNDS} rounds one every ${INTERVAL_MS} ms; a round is one comment on each block of the case, written in one`,
    'transaction, so every case delivers one hint per viewer per round. Each viewer has its own',
    "WebSocket through the local gateway and joins its block's public topic as the elements do; the",
    'viewers run in a process of their own. "Last viewer": ms from the insert being sent to the last',
    'viewer hearing the hint (p50/p95 over the rounds); "any viewer": p50 over every delivery.',
    'Backlog: a round still being delivered when the next was sent. `npm run bench:realtime -- --write`.',
    '',
    '| viewers | blocks | last viewer p50 | last viewer p95 | any viewer p50 | first → last round | backlog | missing / twice | all joined in |',
    '|---|---|---|---|---|---|---|---|---|',
    ...results.map(row),
    '',
    `2,000 viewers on one block against the same 2,000 spread over ${SPREAD.blocks} blocks (last viewer p50): ${ratio} x. Goal (issue 19): one block within 60 ms, no backlog, at most 1.5 x spread.`,
    '',
    `Memory of the stack's process (it serves Realtime; the viewers are elsewhere), and of the gateway's (a process of its own: it takes each websocket's handshake and hands the socket on), each after a full garbage collection, before and after rounds of 2,000 viewers joining and leaving one block:`,
    '',
    '| when | stack RSS | stack PSS | stack JS heap | gateway RSS | gateway PSS | gateway JS heap |',
    '|---|---|---|---|---|---|---|',
    ...memoryRows,
    '',
    memoryGrowth(measured),
    '',
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average before the run ${load} and at its end ${loadAfter}, shared with other work; the viewers' process, the gateway and the stack share these cores.`,
  ].join('\n');
  process.stdout.write(`\n${body}\n`);
  writeBenchmarkSection('Realtime', body);
} catch (err) {
  process.stderr.write(`${logs.slice(-40).join('\n')}\n${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
} finally {
  viewers?.proc.kill();
  await stack?.stop().catch(() => {});
}
