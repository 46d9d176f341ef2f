// `npm run bench`: a load benchmark of the visitor hot paths against a throwaway local stack.
//
// This process starts the stack (free ports, a temporary data directory; the gateway runs in
// a process of its own, whose CPU time the report reads from /proc), seeds an owner with the blocks the hot paths need and signs up anonymous
// visitors through the auth API as the SDK does; a second Node process
// (scripts/bench/load-generator.ts) then sends the load, once through the gateway (api port, apikey +
// the visitor's JWT) and once straight to PostgREST (its own port, the same JWT). The figures go
// to the "Load benchmark" section of docs/benchmarks.md. Not part of `npm test`.
//
//   npm run bench:load           (print the figures)
//   npm run bench:load -- --write (and record them in docs/benchmarks.md)
//   BENCH_CONNECTIONS=32 BENCH_PEAK_SECONDS=5 BENCH_RATE=200 BENCH_RATE_SECONDS=10 npm run bench
import { cpus } from 'node:os';
import type { Stack } from '../../supabase/local/stack.ts';
import {
  errors,
  type LoadPlan,
  type LoadResult,
  ms,
  type PathData,
  type PathName,
  type PathResult,
  requestMaker,
  runLoad,
  type Stats,
  type TargetName,
} from './load-generator.ts';
import {
  hotRow,
  rolledBackCall,
  limitsCost,
  limitsEndToEnd,
  limitsSection,
  neverRefuse,
  type LimitsCost,
} from './load-limits.ts';
import {
  addNameAndPoll,
  addQuestion,
  api,
  benchDurability,
  connectDb,
  int,
  loadNow,
  mapLimit,
  runBench,
  setting,
  signInOwner,
  type Session,
} from './support.ts';

const SETTINGS = {
  connections: setting('BENCH_CONNECTIONS', 32),
  warmupSeconds: 1,
  peakSeconds: setting('BENCH_PEAK_SECONDS', 5),
  rate: setting('BENCH_RATE', 200),
  rateSeconds: setting('BENCH_RATE_SECONDS', 10),
  visitors: setting('BENCH_VISITORS', 400),
  /** like blocks per target: visitors x like blocks distinct likes before any repeats */
  likeBlocks: setting('BENCH_LIKE_BLOCKS', 40),
};

const ALL_PATHS: Array<{ name: PathName; rpc: string; what: string }> = [
  { name: 'read', rpc: 'get_block_view', what: 'read a comment block with its messages' },
  { name: 'comment', rpc: 'post_message', what: 'post a comment' },
  { name: 'like', rpc: 'toggle_block_like', what: 'like a like block' },
  { name: 'submit', rpc: 'submit_response', what: 'submit a 3-question form' },
];
/** BENCH_PATHS=read,like measures only those (for profiling; the docs want all four) */
const PATHS = ALL_PATHS.filter(
  (p) => !process.env.BENCH_PATHS || process.env.BENCH_PATHS.split(',').includes(p.name),
);

// ---------------------------------------------------------------------------------------------
// talking to the stack as its clients do
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// seed
// ---------------------------------------------------------------------------------------------

async function seed(stack: Stack): Promise<{
  visitors: string[];
  perTarget: LoadPlan['perTarget'];
  /** the write paths' blocks of the limits on/off comparison through the whole stack */
  limitsData: PathData;
  /** the same, for the spread-address run */
  spreadData: PathData;
  /** every block the load writes to (for the rate-limit override) */
  blockIds: string[];
  /** a comment block for the contention measurement of the rate limits */
  hotBlock: string;
}> {
  const owner = await signInOwner(stack, `bench-owner-${Date.now()}@bench.local`, 'Bench Owner');
  const ownerId = owner.user.id;
  const db = await connectDb(stack.dbUrl);
  try {
    // room for the blocks below (plan limits are for the service role, as on a paid plan)
    await db.query('update public.profiles set block_limit = 1000, paid = true where id = $1', [
      ownerId,
    ]);
  } finally {
    await db.end();
  }
  // no quota in the way of thousands of form submits
  await api(
    stack,
    'PATCH',
    `/rest/v1/profiles?id=eq.${ownerId}`,
    { response_monthly_limit: 1_000_000_000 },
    stack.serviceRoleKey,
  );

  const rpc = <T>(fn: string, args: unknown, token = owner.access_token) =>
    api<T>(stack, 'POST', `/rest/v1/rpc/${fn}`, args, token);
  const createBlock = async (type: string) =>
    (await rpc<{ id: string }>('create_block', { p_block_type: type })).id;

  process.stderr.write(`signing up ${SETTINGS.visitors} anonymous visitors...\n`);
  const visitors = await mapLimit(
    Array.from({ length: SETTINGS.visitors }, (_, i) => i),
    16,
    async () =>
      (await api<Session>(stack, 'POST', '/auth/v1/signup', { data: {} }, stack.anonKey))
        .access_token,
  );

  // the block every read hits: 20 comments, the newest five with two replies each
  const readBlock = await createBlock('comment');
  // its 30 seed messages come from one address (the loopback), the whole of an address's share
  // of a block (30 at once): the limits' override first, or the share's end would hold them
  await neverRefuse(stack, [readBlock]);
  for (let i = 0; i < 20; i++) {
    const thread = await rpc<{ id: string }>(
      'post_message',
      {
        p_block_id: readBlock,
        p_content: `Seed comment ${i}: a message of ordinary length, with a link https://example.com/${i}`,
        p_creator_name: `Seed Visitor ${i}`,
        p_color: '#336699',
      },
      visitors[i % visitors.length],
    );
    if (i >= 15) {
      for (let r = 0; r < 2; r++) {
        await rpc(
          'post_message',
          { p_block_id: readBlock, p_parent_id: thread.id, p_content: `Reply ${r} to ${i}` },
          visitors[(i + r + 1) % visitors.length],
        );
      }
    }
  }

  /** A comment block, like blocks and a form of three questions: what the writes go to. */
  const writeBlocks = async (likeBlocks: number): Promise<PathData> => {
    const [comment, form] = [await createBlock('comment'), await createBlock('form')];
    const likeBlockIds = await mapLimit(
      Array.from({ length: likeBlocks }, () => 'like'),
      4,
      createBlock,
    );
    const nameAndPoll = await addNameAndPoll(stack, form);
    const mail = await addQuestion(stack, form, {
      type: 'mail',
      title: 'Email',
      index: 2,
      required: false,
    });
    return {
      read: { blockId: readBlock },
      comment: { blockId: comment },
      like: { likeBlockIds },
      submit: {
        blockId: form,
        answers: { ...nameAndPoll, [mail.id]: 'ada@example.com' },
      },
    };
  };
  const perTarget = {} as LoadPlan['perTarget'];
  for (const target of ['gateway', 'postgrest'] as TargetName[])
    perTarget[target] = await writeBlocks(SETTINGS.likeBlocks);
  // the limits comparison sends about three times a target's peak load: three times the pairs
  const limitsData = await writeBlocks(SETTINGS.likeBlocks * 3);
  const spreadData = await writeBlocks(SETTINGS.likeBlocks * 3);
  const hotBlock = await createBlock('comment');
  const blockIds = [
    readBlock,
    hotBlock,
    ...[...Object.values(perTarget), limitsData, spreadData].flatMap((d) => [
      d.comment.blockId,
      d.submit.blockId,
      ...d.like.likeBlockIds,
    ]),
  ];
  return { visitors, perTarget, limitsData, spreadData, blockIds, hotBlock };
}

// ---------------------------------------------------------------------------------------------
// database time per call
// ---------------------------------------------------------------------------------------------

/**
 * Milliseconds per call of each hot path's RPC inside Postgres, sequential in one session: what
 * PostgREST runs for a request (a transaction that sets the role and the visitor's JWT claims,
 * then the call), rolled back so nothing is written. Measured before the load, so the like pairs
 * are still new. Cores / this time bounds what any HTTP layer in front can reach.
 */
async function databaseTime(stack: Stack, plan: LoadPlan): Promise<Record<PathName, number>> {
  const db = await connectDb(stack.dbUrl);
  const out = {} as Record<PathName, number>;
  try {
    for (const path of PATHS) {
      const { next } = requestMaker(plan, path.name, plan.perTarget.gateway);
      const statement = () => rolledBackCall(db, next());
      for (let i = 0; i < 20; i++) await db.query(statement());
      // the median of ten batches of 20: a busy moment on a shared machine spoils one batch only
      const batches: number[] = [];
      for (let b = 0; b < 10; b++) {
        const t0 = performance.now();
        for (let i = 0; i < 20; i++) await db.query(statement());
        batches.push((performance.now() - t0) / 20);
      }
      out[path.name] = batches.sort((x, y) => x - y)[5]!;
    }
  } finally {
    await db.end();
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// report
// ---------------------------------------------------------------------------------------------

/** Microseconds of CPU the gateway spent per request at peak (see the table's caption). */
function gatewayCpuPerRequest(g: PathResult, d: PathResult): number {
  const perRequest = (s: Stats) => (s.sent > 0 ? (s.parentCpuMs * 1000) / s.sent : 0);
  return perRequest(g.peak) - perRequest(d.peak);
}

interface Meta {
  pgVersion: string;
  /** load average of the machine before the run */
  load: string;
  /** and at its end */
  loadAfter: string;
  /** seconds the whole benchmark took */
  took: number;
  /** Postgres milliseconds per call, per path */
  dbMs: Record<PathName, number>;
  /** the visitor rate limits' cost (absent on code without them) */
  limits?: LimitsCost;
}

function report(results: LoadResult, meta: Meta) {
  const find = (path: PathName, target: TargetName) =>
    results.find((r) => r.path === path && r.target === target)!;
  const rows: string[] = [];
  const cost: string[] = [];
  for (const p of PATHS) {
    for (const target of ['gateway', 'postgrest'] as TargetName[]) {
      const r = find(p.name, target);
      rows.push(
        `| ${p.what} (\`${p.rpc}\`) | ${target === 'gateway' ? 'gateway' : 'PostgREST direct'} | ${int(r.peak.rate)} | ${ms(r.peak.p50)} / ${ms(r.peak.p99)} | ${int(r.fixed.rate)} | ${ms(r.fixed.p50)} | ${ms(r.fixed.p99)} | ${errors(r.peak)} / ${errors(r.fixed)} |`,
      );
    }
    const g = find(p.name, 'gateway');
    const d = find(p.name, 'postgrest');
    const share = d.peak.rate > 0 ? Math.round((g.peak.rate / d.peak.rate) * 100) : 0;
    const ceiling = (cpus().length * 1000) / meta.dbMs[p.name];
    cost.push(
      `| ${p.name} | ${meta.dbMs[p.name].toFixed(2)} ms (${int(ceiling)}/s) | ${share} % | ${ms(g.fixed.p50 - d.fixed.p50)} ms | ${int(gatewayCpuPerRequest(g, d))} µs |`,
    );
  }
  const repeated = results.reduce((n, r) => n + r.repeatedLikes, 0);
  const failures = results
    .flatMap((r) =>
      [r.peak, r.fixed].map((s) => s.firstFailure && `${r.path}/${r.target}: ${s.firstFailure}`),
    )
    .filter(Boolean);

  const peaks = (target: TargetName) =>
    PATHS.map((p) => `${p.name} ${int(find(p.name, target).peak.rate)}/s`).join(', ');
  const cpu = cpus();
  const date = new Date().toISOString().slice(0, 10);
  const { connections, peakSeconds, warmupSeconds, rate, rateSeconds, visitors, likeBlocks } =
    SETTINGS;

  return `Measured by \`npm run bench\` on ${date}; the whole run took ${Math.round(meta.took)} s.

- Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), load average ${meta.load} before the run
  and ${meta.loadAfter} at its end (other jobs share it). Node ${process.version}, ${meta.pgVersion}, PostgREST 12 (pool 20). Postgres,
  PostgREST, the gateway (a process of its own) and the load generator (a second Node
  process, plain \`node:http\` with keep-alive) all share these cores.
- Requests: what the SDK sends (\`sdk/src/core/api.ts\`), \`POST /rest/v1/rpc/<name>\` with \`apikey\`
  and the JWT of one of ${visitors} anonymous visitors signed up through the auth API beforehand; once
  through the gateway (api port) and once straight to PostgREST (its own port, the same JWT).
- Peak: ${connections} connections in a closed loop, ${peakSeconds} s per target after ${warmupSeconds} s of warm-up. Fixed rate:
  ${rate} requests/s for ${rateSeconds} s per target in an open loop, latency counted from the scheduled send
  time. The targets take turns in slices (1 s at peak, 2 s at the fixed rate, alternating which
  goes first) so that other work on the machine weighs on both alike.
- Data: reads hit one comment block of 20 threads, the newest five with two replies each
  (\`get_block_view\` returns five threads with their replies and the visitor's likes). Writes go
  to their own blocks per target: every comment is new text; every like is a new (visitor, block)
  pair over ${likeBlocks} like blocks (${repeated} repeats); every submit answers a short text, a poll and an
  email question of one form, so all submits count against one block's counters and one owner's
  monthly quota, as on a popular form.

| hot path | via | peak req/s | peak p50 / p99 ms | fixed: achieved req/s | p50 ms | p99 ms | non-2xx (peak / fixed) |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Where the time goes:

| path | Postgres per call | gateway / direct peak | gateway's extra p50 | gateway CPU per request |
|---|---|---|---|---|
${cost.join('\n')}

- Postgres per call: the RPC alone, one session, sequential, each call in a rolled-back
  transaction that sets the role and the JWT claims as PostgREST does, round trip included; the
  median of ten batches of 20. In brackets, the cores divided by it: roughly the most Postgres
  alone could answer here if nothing else ran.
- Gateway CPU per request: the gateway process's CPU time per request during its peak slices,
  minus the same during the direct slices (what the gateway does when the load bypasses it).
- p99 at the fixed rate mostly shows the machine's other work: one stall of a few hundred
  milliseconds lifts it for either target.
${limitsSection(meta.limits, SETTINGS.connections)}
- For scale, the issue's reference is PostgREST on 2 vCPU at about 2,600 reads/s and 1,500
  single-row inserts/s, with the load generated elsewhere. Here, through the gateway: ${peaks('gateway')};
  straight to PostgREST: ${peaks('postgrest')}. Lower because the load generator and the gateway
  share the two cores with Postgres and PostgREST and the machine carried other work, because a
  read is the whole viewer payload rather than one row, and because a write is a transaction of
  several rows (the row, the block's counters, the owner's audience entry and, for a submit, the
  options' counts and the owner's monthly quota).
${failures.length ? `\nFirst failures: ${failures.join('; ')}\n` : ''}`;
}

// ---------------------------------------------------------------------------------------------

await runBench(
  { name: 'load', section: 'Load benchmark' },
  async ({ stack, ports, load, started }) => {
    const { visitors, perTarget, limitsData, spreadData, blockIds, hotBlock } = await seed(stack);
    const limited = await neverRefuse(stack, blockIds);
    const db = await connectDb(stack.dbUrl);
    const durability = (
      await db.query<{ f: string; s: string }>(
        "select current_setting('fsync') as f, current_setting('synchronous_commit') as s",
      )
    ).rows[0];
    const pgVersion = (
      (await db.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]?.v ??
      '?'
    ).split(' ')[0];
    await db.end();

    const plan: LoadPlan = {
      anonKey: stack.anonKey,
      visitors,
      targets: [
        { name: 'gateway', port: ports.api, rpcPrefix: '/rest/v1/rpc/' },
        { name: 'postgrest', port: ports.postgrest, rpcPrefix: '/rpc/' },
      ],
      perTarget,
      paths: PATHS.map((p) => p.name),
      peak: {
        connections: SETTINGS.connections,
        warmupMs: SETTINGS.warmupSeconds * 1000,
        durationMs: SETTINGS.peakSeconds * 1000,
      },
      fixed: { rate: SETTINGS.rate, durationMs: SETTINGS.rateSeconds * 1000 },
    };
    process.stderr.write('Postgres time per call...\n');
    const dbMs = await databaseTime(stack, plan);
    process.stderr.write('load (a second process):\n');
    const results = await runLoad(plan, stack.gatewayPid);
    let limits: LimitsCost | undefined;
    if (limited) {
      process.stderr.write('the cost of the visitor rate limits...\n');
      limits = {
        endToEnd: await limitsEndToEnd(stack, plan, limitsData),
        spread: await limitsEndToEnd(stack, plan, spreadData, true),
        perCall: await limitsCost(stack, plan),
        contention: await hotRow(stack, plan, hotBlock),
      };
    }
    const body = report(results, {
      limits,
      pgVersion: `PostgreSQL ${pgVersion}, ${benchDurability().label} (fsync ${durability?.f}, synchronous_commit ${durability?.s})`,
      load,
      loadAfter: loadNow(),
      took: (performance.now() - started) / 1000,
      dbMs,
    });
    return { body };
  },
);
