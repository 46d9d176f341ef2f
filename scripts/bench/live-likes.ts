// `npm run bench:live-likes`: what the viewers of one comment block live through while its
// comments are liked fast. Since b2e270da the counter fold (every 5 s, private.fold_counters)
// announces one `counts` change per published message whose like or reply deltas it folded,
// beside the one each like announces; every viewer hears each hint and reads what it names
// (get_block_change, a cacheable GET), within the hub's read budget (sdk/src/core/live.ts: ten at
// once, one more a second, then a catch-up: the view read again, not cacheable).
//
// One block with 200 comments, VIEWERS viewers joined on it (their own process,
// live-likes-viewers.ts, each with its own WebSocket through the gateway, reading through nginx
// configured as docs/scaling.md says a CDN should be: cache-support.ts). Two storms in one run,
// the easy case first: RATE likes a second for SECONDS s on ONE comment (the newest, on every
// viewer's first page), then the same over all 200 (round robin). Likes are inserted into
// public.message_likes by WORKERS connections at once (the like RPC's count path is that table's
// trigger), each by a user of its own. The fold is the stack's own schedule. Per case: changes
// announced (by each like, by each fold), hints heard and reads made per viewer, catch-ups, the
// reads nginx answered and those that reached the gateway (and so Postgres), the delay from a like
// being sent to each viewer knowing a count that includes it (first-page messages), and the CPU
// of each process over the case.
//
//   npm run bench:live-likes                      # prints only
//   npm run bench:live-likes -- --write           # and writes "Live likes at scale" in docs/benchmarks.md
//   BENCH_VIEWERS=200 BENCH_RATE=10 BENCH_SECONDS=10 npm run bench:live-likes   # smaller
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Stack } from '../../supabase/local/stack.ts';
import { NGINX, quantile, sleep, startNginx } from './cache-support.ts';
import { realtimeUrl } from './realtime-join.ts';
import { connectDb, int, ipcChild, loadNow, machineLine, runBench, setting } from './support.ts';

/** READERS: the viewers that send their reads (one in VIEWERS / READERS); the others count them */
const [VIEWERS, RATE, SECONDS, WORKERS, READERS] = (
  [
    ['VIEWERS', 2000],
    ['RATE', 20],
    ['SECONDS', 20],
    ['WORKERS', 8],
    ['READERS', 200],
  ] as const
).map(([name, fallback]) => setting(`BENCH_${name}`, fallback)) as [
  number,
  number,
  number,
  number,
  number,
];
const COMMENTS = 200;
/** after the storm: two folds and a catch-up at least, then until the hints stop coming */
const SETTLE_MS = 15_000;
const SETTLE_MAX_MS = 90_000;

const now = () => performance.timeOrigin + performance.now();
const secs = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '-');

interface Proc {
  pid: number;
  ppid: number;
  name: string;
  /** utime + stime */
  own: number;
  /** and cutime + cstime: an ended child's time moves to its parent's */
  ticks: number;
}

/** Every process's parent and CPU ticks (utime + stime), from /proc. */
function processes(): Map<number, Proc> {
  const all = new Map<number, Proc>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      all.set(Number(name), {
        pid: Number(name),
        ppid: Number(f[1]),
        name: comm,
        own: +f[11]! + +f[12]!,
        ticks: +f[11]! + +f[12]! + +f[13]! + +f[14]!,
      });
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/**
 * CPU seconds of `root` and its descendants so far (those ended included); of this process alone
 * (the stack's: every other process measured is its descendant).
 */
function cpuOf(all: Map<number, Proc>, root: number | undefined): number {
  if (!root) return 0;
  if (root === process.pid) return (all.get(root)?.own ?? 0) / 100;
  let ticks = 0;
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    ticks += all.get(pid)?.ticks ?? 0;
    for (const p of all.values()) if (p.ppid === pid) todo.push(p.pid);
  }
  return ticks / 100;
}

/** The first process whose command line has all of `parts` (the stack's postmaster, PostgREST). */
function pidWith(...parts: string[]): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (parts.every((p) => cmd.includes(p))) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

interface ViewerReport {
  reader: boolean;
  hints: number;
  sent: number;
  catchUps: number;
  errors: number;
  known: Array<[string, Array<[number, number]>]>;
}

interface CaseResult {
  label: string;
  settleMs: number;
  likes: number;
  likeMs: number[];
  likeHints: number;
  folds: number[];
  viewers: ViewerReport[];
  nginx: Map<string, number>;
  views: number;
  delays: number[];
  never: number;
  cpu: Record<string, number>;
}

/** nginx's log lines since `from` bytes: cache status of get_block_change, and views read. */
function nginxSince(file: string, from: number): { change: Map<string, number>; views: number } {
  const text = readFileSync(file).subarray(from).toString('utf8');
  const change = new Map<string, number>();
  let views = 0;
  for (const line of text.split('\n')) {
    const [status, , , uri] = line.split(' ');
    if (uri === '/rest/v1/rpc/get_block_change')
      change.set(status!, (change.get(status!) ?? 0) + 1);
    else if (uri === '/rest/v1/rpc/get_block_view') views++;
  }
  return { change, views };
}

async function storm(
  stack: Stack,
  db: pg.Client,
  viewers: ReturnType<typeof ipcChild>,
  ctx: {
    block: string;
    targets: string[];
    tracked: string[];
    nginxLog: string;
    pids: Record<string, number | undefined>;
  },
  label: string,
  busy = false,
): Promise<CaseResult> {
  await viewers.ask({ type: 'reset' }, 'reset');
  // the worst case: every liked row held by another write meanwhile, so each like goes beside
  // its row and the first fold after the storm folds (and announces) every comment liked
  const holder = busy ? await connectDb(stack.dbUrl) : undefined;
  holder?.on('error', () => {});
  await holder?.query('begin');
  await holder?.query('select id from public.messages where id = any($1) for no key update', [
    ctx.targets,
  ]);
  const logFrom = statSync(ctx.nginxLog).size;
  const startedAt = (await db.query<{ t: Date }>('select clock_timestamp() as t')).rows[0]!.t;
  const cpu0 = processes();
  const pool = new pg.Pool({ connectionString: stack.dbUrl, max: WORKERS });
  pool.on('error', () => {});
  /** [message, sent at, answered at] */
  const likes: Array<[string, number, number]> = [];
  const total = RATE * SECONDS;
  const t0 = now();
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, w) => {
      for (let i = w; i < total; i += WORKERS) {
        const due = t0 + (i * 1000) / RATE - now();
        if (due > 0) await sleep(due);
        const message = ctx.targets[i % ctx.targets.length]!;
        const sent = now();
        await pool.query('insert into public.message_likes (message_id, user_id) values ($1, $2)', [
          message,
          randomUUID(),
        ]);
        likes.push([message, sent, now()]);
      }
    }),
  );
  await pool.end();
  await holder?.query('commit');
  await holder?.end();
  // the hints still on their way (a busy machine): until two readings 3 s apart agree
  const stormEnd = Date.now();
  await sleep(SETTLE_MS);
  for (let last = -1; Date.now() - stormEnd < SETTLE_MAX_MS; await sleep(3000)) {
    const { hints } = await viewers.ask<{ hints: number }>({ type: 'heard' }, 'heard');
    if (hints === last) break;
    last = hints;
  }
  const settleMs = Date.now() - stormEnd;
  const cpu1 = processes();
  const { viewers: report } = await viewers.ask<{ viewers: ViewerReport[] }>(
    { type: 'report' },
    'report',
  );
  const { rows } = await db.query<{ fold: boolean; at: Date; n: string }>(
    `select not (payload ? 'likes') as fold, created_at as at, count(*) as n
     from private.block_changes
     where block_id = $1 and event = 'counts' and created_at >= $2
     group by 1, 2 order by 2`,
    [ctx.block, startedAt],
  );
  const folds = rows.filter((r) => r.fold).map((r) => Number(r.n));
  const likeHints = rows.filter((r) => !r.fold).reduce((n, r) => n + Number(r.n), 0);
  const { change, views } = nginxSince(ctx.nginxLog, logFrom);

  // a like's rank on its message: its place among that message's likes, by answer
  const delays: number[] = [];
  let never = 0;
  const byMessage = new Map<string, Array<[number, number]>>();
  for (const [m, sent, done] of likes) {
    if (!byMessage.has(m)) byMessage.set(m, []);
    byMessage.get(m)!.push([sent, done]);
  }
  const base = new Map(
    (
      await db.query<{ id: string; likes: number }>(
        'select id, (select count(*) from public.message_likes l where l.message_id = m.id)::int as likes from public.messages m where id = any($1)',
        [ctx.tracked],
      )
    ).rows.map((r) => [r.id, r.likes - (byMessage.get(r.id)?.length ?? 0)]),
  );
  for (const v of report) {
    if (!v.reader) continue;
    const known = new Map(v.known);
    for (const m of ctx.tracked) {
      const list = (byMessage.get(m) ?? []).sort((a, b) => a[1] - b[1]);
      const heard = known.get(m) ?? [];
      list.forEach(([sent], k) => {
        const rank = (base.get(m) ?? 0) + k + 1;
        const at = heard.find(([, count]) => count >= rank)?.[0];
        if (at === undefined) never++;
        else delays.push(Math.max(0, at - sent));
      });
    }
  }
  const cpu: Record<string, number> = {};
  for (const [name, pid] of Object.entries(ctx.pids))
    cpu[name] = cpuOf(cpu1, pid) - cpuOf(cpu0, pid);
  return {
    label,
    settleMs,
    likes: likes.length,
    likeMs: likes.map(([, s, d]) => d - s),
    likeHints,
    folds,
    viewers: report,
    nginx: change,
    views,
    delays,
    never,
    cpu,
  };
}

await runBench(
  { name: 'live-likes', section: 'Live likes at scale' },
  async ({ stack, dir, extraPort, load }) => {
    const db = await connectDb(stack.dbUrl);
    db.on('error', () => {});
    const owner = randomUUID();
    await db.query(
      "insert into auth.users (id, aud, role, email, raw_app_meta_data) values ($1, 'authenticated', 'authenticated', $2, '{\"owner\": true}')",
      [owner, `live-likes-${owner.slice(0, 8)}@bench.local`],
    );
    const block = (
      await db.query<{ id: string }>(
        "insert into public.blocks (owner_id, type, name) values ($1, 'comment', 'live likes') returning id",
        [owner],
      )
    ).rows[0]!.id;
    const targets = (
      await db.query<{ id: string }>(
        `insert into public.messages (block_id, creator_id, creator_name, content, created_at)
       select $1, $2, 'Bench', 'comment ' || i, now() - (${COMMENTS} - i) * interval '1 second'
       from generate_series(1, ${COMMENTS}) i returning id`,
        [block, randomUUID()],
      )
    ).rows.map((r) => r.id);
    // a viewer's first page: the newest threads, as get_block_view serves them
    const view = (
      await db.query<{ v: { messages: Array<{ id: string; parent_id: string | null }> } }>(
        'select public.get_block_view($1) as v',
        [block],
      )
    ).rows[0]!.v;
    const tracked = view.messages.filter((m) => !m.parent_id).map((m) => m.id);
    const nginxDir = join(dir, 'nginx');
    const nginxPort = await extraPort(0);
    const nginx = await startNginx(nginxDir, nginxPort, stack.ports.api);
    const viewers = ipcChild('live-likes-viewers.ts');
    try {
      const { ms: joinMs } = await viewers.ask<{ ms: number }>(
        {
          type: 'connect',
          wsUrl: realtimeUrl(stack.apiUrl, stack.anonKey),
          readUrl: `http://127.0.0.1:${nginxPort}`,
          anonKey: stack.anonKey,
          block,
          viewers: VIEWERS,
          tracked,
          readEvery: Math.max(1, Math.round(VIEWERS / READERS)),
        },
        'joined',
      );
      await sleep(2000);
      const pids = {
        'stack (Realtime)': process.pid,
        gateway: stack.gatewayPid,
        Postgres: pidWith('postgres', dir),
        // PostgREST takes its settings from the environment: this process's child of that name
        PostgREST: [...processes().values()].find(
          (p) => p.ppid === process.pid && p.name.startsWith('postgrest'),
        )?.pid,
        nginx: nginx.pid,
        viewers: viewers.proc.pid,
      };
      // the first page's comments first, so that a round robin over all of them likes those too
      const others = targets.filter((id) => !tracked.includes(id));
      const ctx = {
        block,
        targets: [...tracked, ...others],
        tracked,
        nginxLog: join(nginxDir, 'access.log'),
        pids,
      };
      const loadBefore = loadNow();
      const results = [
        await storm(stack, db, viewers, { ...ctx, targets: [tracked[0]!] }, 'one comment'),
        await storm(stack, db, viewers, ctx, `${COMMENTS} comments`),
        await storm(stack, db, viewers, ctx, `${COMMENTS} comments, every row busy`, true),
      ];
      const loadAfter = loadNow();
      await viewers.ask({ type: 'close' }, 'closed');
      await db.end();

      const mean = (r: CaseResult, f: (v: ViewerReport) => number) =>
        (r.viewers.reduce((n, v) => n + f(v), 0) / r.viewers.length).toFixed(1);
      const sum = (r: CaseResult, f: (v: ViewerReport) => number) =>
        r.viewers.reduce((n, v) => n + f(v), 0);
      const answered = (r: CaseResult) =>
        (r.nginx.get('HIT') ?? 0) + (r.nginx.get('UPDATING') ?? 0) + (r.nginx.get('STALE') ?? 0);
      const passed = (r: CaseResult) =>
        [...r.nginx.values()].reduce((n, v) => n + v, 0) - answered(r);
      const row = (r: CaseResult) =>
        `| ${r.label} | ${int(r.likes)} (${secs(quantile(r.likeMs, 0.5))} / ${secs(quantile(r.likeMs, 0.95))}) | ${int(r.likeHints)} | ${r.folds.length}: ${r.folds.join(', ') || '-'} | ${mean(r, (v) => v.hints)} | ${mean(r, (v) => v.sent)} | ${int(answered(r))} / ${int(passed(r))} | ${mean(r, (v) => v.catchUps)}: ${int(sum(r, (v) => v.catchUps))} (${int(r.views)} sent) | ${secs(quantile(r.delays, 0.5))} / ${secs(quantile(r.delays, 0.95))} / ${secs(Math.max(...r.delays))} | ${int(r.never)} | ${int(sum(r, (v) => v.errors))} | ${secs(r.settleMs)} |`;
      const cpuRow = (r: CaseResult) =>
        `| ${r.label} | ${Object.values(r.cpu)
          .map((s) => `${s.toFixed(1)} s`)
          .join(' | ')} |`;
      const names = Object.keys(pids);
      const readers = results[0]!.viewers.filter((v) => v.reader).length;
      const body = [
        `${VIEWERS.toLocaleString('en')} viewers joined on one comment block of ${COMMENTS} comments (in ${secs(joinMs)}), each with its`,
        `own WebSocket through the gateway, handling hints as sdk/src/core/live.ts's hub does: ten reads`,
        `at once, one more a second, beyond that the hint dropped and a catch-up 5 s later (POST`,
        `get_block_view, not cacheable: it reaches Postgres). ${readers} of them (one in ${Math.round(VIEWERS / readers)}) send their reads,`,
        `through nginx as a CDN (docs/scaling.md); the others count what they would send (one process`,
        `cannot send ${VIEWERS.toLocaleString('en')} browsers' reads on two shared cores). A storm: ${RATE} likes a second for ${SECONDS} s from`,
        `${WORKERS} connections at once (inserted into public.message_likes, a user each) on one comment (the`,
        `newest), then round robin over all ${COMMENTS}, then the same while another transaction holds the ${COMMENTS}`,
        `rows (FOR NO KEY UPDATE, ended after the last like: every like goes beside its row and the next`,
        `fold announces every comment liked). The fold is the stack's schedule (every 5 s). After the`,
        `last like, at least ${SETTLE_MS / 1000} s and until the viewers hear nothing more ("settled"). Per viewer: mean.`,
        `\`npm run bench:live-likes -- --write\` (BENCH_VIEWERS, BENCH_READERS, BENCH_RATE, BENCH_SECONDS, BENCH_WORKERS).`,
        '',
        "| storm on | likes (write p50 / p95) | changes announced by the likes | folds: changes each announced | hints heard a viewer | reads a viewer | the readers' reads: nginx answered / passed on | catch-ups a viewer: all viewers (readers' views sent) | like → a reader knows its count, p50 / p95 / max | (like, reader) pairs never known | read errors | settled |",
        '|---|---|---|---|---|---|---|---|---|---|---|---|',
        ...results.map(row),
        '',
        `The delay is over every (like of a first-page comment, reader) pair: from the like sent to the reader knowing a count that includes it. CPU seconds each process used over each case (the storm and until settled; its ended children included); the stack's process serves Realtime and runs this script's storm:`,
        '',
        `| storm on | ${names.join(' | ')} |`,
        `|---|${names.map(() => '---').join('|')}|`,
        ...results.map(cpuRow),
        '',
        `nginx: ${NGINX}. ${machineLine(load)} Load before the storms ${loadBefore}, after ${loadAfter}.`,
      ].join('\n');
      return {
        body,
        raw: results.map((r) => ({
          ...r,
          viewers: undefined,
          nginx: [...r.nginx],
          delays: r.delays.length,
        })),
      };
    } finally {
      viewers.proc.kill();
      nginx.kill();
    }
  },
);
