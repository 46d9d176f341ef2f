// `npm run bench:realtime` (also run by `npm run bench`): live updates of one block watched by
// many distinct signed-in viewers. Each viewer has its own WebSocket (through the local gateway,
// as a browser's) and its own user JWT, and joins the block as the elements do: the private
// topic `block:<id>` (Broadcast from the database, authorised once at join by the
// realtime.messages policies). For comparison the path before issue 13 is run on the same
// machine: postgres_changes on public.messages filtered by block, which asks RLS once per
// distinct viewer for every change (the table is put back in the publication for that run only).
// Ten comments are inserted one every 100 ms; for each, the time from the insert being sent to
// the last viewer receiving it. A backlog means a comment was still being delivered when the
// next one was posted, and latency grows from the first comment to the last.
//
//   npm run bench:realtime                      # prints only
//   npm run bench:realtime -- --write           # and writes the "Realtime" section of docs/benchmarks.md
//   BENCH_VIEWERS=200 npm run bench:realtime    # one size only
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SignJWT } from 'jose';
import pg from 'pg';
import WebSocket from 'ws';
import { DEFAULT_JWT_SECRET, freePorts } from '../supabase/local/config.ts';
import { startStack, type Stack } from '../supabase/local/stack.ts';
import { writeBenchmarkSection } from './docs-section.ts';

const COMMENTS = 10;
const INTERVAL_MS = 100;
const SIZES = process.env.BENCH_VIEWERS ? [Number(process.env.BENCH_VIEWERS)] : [200, 2000];
/** The old path costs one RLS query per viewer and change: BENCH_PG_CHANGES_MAX=200 skips its 2,000 run. */
const POSTGRES_CHANGES_MAX = Number(process.env.BENCH_PG_CHANGES_MAX ?? 2000);

type Mode = 'broadcast' | 'postgres_changes';

interface Viewer {
  ws: WebSocket;
  /** message id -> ms (performance.now) of the first receipt */
  got: Map<string, number>;
  dupes: number;
}

interface Result {
  mode: Mode;
  viewers: number;
  joinMs: number;
  /** per comment: ms from insert to the last viewer */
  last: number[];
  /** every delivery's latency */
  all: number[];
  missing: number;
  dupes: number;
  overlap: boolean;
}

const quantile = (values: number[], q: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))] ?? NaN;
};
const ms = (n: number) => `${Math.round(n)} ms`;

function sign(secret: string, sub: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub, role: 'authenticated', aud: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(secret));
}

/** One viewer: the Phoenix frames the elements send (vsn 2.0.0), joined when this resolves. */
function connect(stack: Stack, token: string, block: string, mode: Mode): Promise<Viewer> {
  const url = `${stack.apiUrl.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${encodeURIComponent(stack.anonKey)}&vsn=2.0.0`;
  const topic = mode === 'broadcast' ? `realtime:block:${block}` : `realtime:bench-${randomUUID()}`;
  const ws = new WebSocket(url);
  const viewer: Viewer = { ws, got: new Map(), dupes: 0 };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('join timed out')), 60_000);
    ws.on('error', reject);
    ws.on('open', () => {
      ws.send(
        JSON.stringify([
          '1',
          '1',
          topic,
          'phx_join',
          {
            config: {
              broadcast: { ack: false, self: false },
              presence: { key: '', enabled: false },
              postgres_changes:
                mode === 'postgres_changes'
                  ? [
                      {
                        event: '*',
                        schema: 'public',
                        table: 'messages',
                        filter: `block_id=eq.${block}`,
                      },
                    ]
                  : [],
              private: mode === 'broadcast',
            },
            access_token: token,
          },
        ]),
      );
    });
    ws.on('message', (data) => {
      const now = performance.now();
      const [, , , event, payload] = JSON.parse(String(data)) as [
        string | null,
        string | null,
        string,
        string,
        Record<string, unknown>,
      ];
      if (event === 'phx_reply' && payload.status === 'ok' && topic) {
        clearTimeout(timer);
        resolve(viewer);
        return;
      }
      if (event === 'phx_reply' && payload.status === 'error') {
        clearTimeout(timer);
        reject(new Error(JSON.stringify(payload.response)));
        return;
      }
      let id: string | undefined;
      if (event === 'broadcast') {
        const b = payload as { event?: string; payload?: { type?: string; row?: { id?: string } } };
        if (b.event === 'change' && b.payload?.type === 'INSERT') id = b.payload.row?.id;
      } else if (event === 'postgres_changes') {
        const d = (payload as { data?: { type?: string; record?: { id?: string } } }).data;
        if (d?.type === 'INSERT') id = d.record?.id;
      }
      if (!id) return;
      if (viewer.got.has(id)) viewer.dupes++;
      else viewer.got.set(id, now);
    });
  });
}

async function run(
  stack: Stack,
  db: pg.Client,
  block: string,
  tokens: string[],
  mode: Mode,
): Promise<Result> {
  const viewers: Viewer[] = [];
  const t0 = performance.now();
  // joins in waves of 100, as visitors arriving
  for (let i = 0; i < tokens.length; i += 100)
    viewers.push(
      ...(await Promise.all(tokens.slice(i, i + 100).map((t) => connect(stack, t, block, mode)))),
    );
  const joinMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 1500)); // let the joins settle (system messages, GC)

  const sent: Array<{ id: string; at: number }> = [];
  const writer = randomUUID();
  for (let i = 0; i < COMMENTS; i++) {
    const id = randomUUID();
    const at = performance.now();
    sent.push({ id, at });
    await db.query(
      `insert into public.messages (id, block_id, creator_id, creator_name, content)
       values ($1, $2, $3, 'Bench', $4)`,
      [id, block, writer, `comment ${i + 1} of ${COMMENTS}`],
    );
    const next = at + INTERVAL_MS - performance.now();
    if (next > 0) await new Promise((r) => setTimeout(r, next));
  }
  // wait until everything arrived (or 120 s)
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && !viewers.every((v) => sent.every((s) => v.got.has(s.id)))) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const last: number[] = [];
  const all: number[] = [];
  let missing = 0;
  let overlap = false;
  sent.forEach((s, i) => {
    let worst = 0;
    for (const v of viewers) {
      const t = v.got.get(s.id);
      if (t === undefined) {
        missing++;
        continue;
      }
      all.push(t - s.at);
      worst = Math.max(worst, t);
    }
    last.push(worst - s.at);
    if (i + 1 < sent.length && worst > sent[i + 1]!.at) overlap = true;
  });
  const dupes = viewers.reduce((n, v) => n + v.dupes, 0);
  for (const v of viewers) v.ws.terminate();
  await new Promise((r) => setTimeout(r, 500));
  return { mode, viewers: tokens.length, joinMs, last, all, missing, dupes, overlap };
}

const dir = mkdtempSync(join(tmpdir(), 'rb-bench-realtime-'));
let stack: Stack | undefined;
const logs: string[] = [];
const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(' / ');
try {
  stack = await startStack({
    ports: await freePorts(),
    dataDir: join(dir, 'pg'),
    jwtSecret: DEFAULT_JWT_SECRET,
    log: (service, line) => logs.push(`[${service}] ${line}`),
  });
  const db = new pg.Client({ connectionString: stack.dbUrl });
  db.on('error', () => {});
  await db.connect();

  // an owner's published comment block
  const owner = randomUUID();
  await db.query(
    "insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)",
    [owner, `bench-owner-${owner.slice(0, 8)}@bench.local`],
  );
  await db.query('update public.profiles set block_limit = 10 where id = $1', [owner]);
  const block = (
    await db.query<{ id: string }>(
      "insert into public.blocks (owner_id, type, name) values ($1, 'comment', 'bench') returning id",
      [owner],
    )
  ).rows[0]!.id;

  // distinct signed-in viewers: users in auth.users, each with its own JWT
  const max = Math.max(...SIZES);
  const ids = Array.from({ length: max }, () => randomUUID());
  await db.query(
    `insert into auth.users (id, aud, role, email)
     select id, 'authenticated', 'authenticated', 'viewer-' || id || '@bench.local' from unnest($1::uuid[]) id`,
    [ids],
  );
  const tokens = await Promise.all(ids.map((id) => sign(stack!.jwtSecret, id)));

  const results: Result[] = [];
  for (const n of SIZES) {
    const r = await run(stack, db, block, tokens.slice(0, n), 'broadcast');
    results.push(r);
    process.stdout.write(
      `broadcast, ${n} viewers: last viewer p50 ${ms(quantile(r.last, 0.5))}, p95 ${ms(quantile(r.last, 0.95))}\n`,
    );
  }
  // before issue 13, for comparison: postgres_changes with RLS per viewer
  await db.query('alter publication supabase_realtime add table public.messages');
  for (const n of SIZES.filter((s) => s <= POSTGRES_CHANGES_MAX)) {
    const r = await run(stack, db, block, tokens.slice(0, n), 'postgres_changes');
    results.push(r);
    process.stdout.write(
      `postgres_changes, ${n} viewers: last viewer p50 ${ms(quantile(r.last, 0.5))}, p95 ${ms(quantile(r.last, 0.95))}\n`,
    );
  }
  await db.query('alter publication supabase_realtime drop table public.messages');
  await db.end();

  const row = (r: Result) =>
    `| ${r.mode === 'broadcast' ? 'block topic (Broadcast from the database)' : 'postgres_changes (before)'} | ${r.viewers.toLocaleString('en')} | ${ms(quantile(r.last, 0.5))} | ${ms(quantile(r.last, 0.95))} | ${ms(quantile(r.all, 0.5))} | ${ms(r.last[0]!)} → ${ms(r.last.at(-1)!)} | ${r.overlap ? 'yes' : 'no'} | ${r.missing} / ${r.dupes} | ${(r.joinMs / 1000).toFixed(1)} s |`;
  const body = [
    `${COMMENTS} comments inserted one every ${INTERVAL_MS} ms on one block, watched by distinct`,
    'signed-in viewers (one WebSocket and one user JWT each, through the local gateway). "Last',
    'viewer": ms from the insert being sent to the last viewer receiving the comment (p50/p95 over',
    'the comments); "any viewer": p50 over every delivery. Backlog: a comment still being',
    'delivered when the next was posted. `npm run bench:realtime -- --write`.',
    '',
    '| path | viewers | last viewer p50 | last viewer p95 | any viewer p50 | first → last comment | backlog | missing / twice | all joined in |',
    '|---|---|---|---|---|---|---|---|---|',
    ...results.map(row),
    '',
    `Goal (issue 13): 200 viewers, last viewer p50 within 60 ms, no backlog. Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average before the run ${load}; the bench itself (2,000 clients) runs on the same cores as the stack.`,
  ].join('\n');
  process.stdout.write(`\n${body}\n`);
  writeBenchmarkSection('Realtime', body);
} catch (err) {
  process.stderr.write(`${logs.slice(-40).join('\n')}\n${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
} finally {
  await stack?.stop().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
