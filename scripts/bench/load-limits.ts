// The visitor rate limits' part of `npm run bench:load` (issue 9): what they cost a write through
// the whole stack (limits on, off and on again in slices that take turns), inside Postgres (rolled
// back calls, alternating batches) and on one hot comment block (the block's bucket in 1, 4 and 32
// shards), and that part of the report.
import pg from 'pg';
import type { Stack } from '../../supabase/local/stack.ts';
import {
  errors,
  type LimitsResult,
  type LoadPlan,
  ms,
  type PathData,
  type PathName,
  requestMaker,
  runLoad,
} from './load-generator.ts';
import { connectDb, int, setSetting } from './support.ts';

/** What the limits cost, as measured here (absent on code without them). */
export interface LimitsCost {
  endToEnd: LimitsResult;
  /** the same with every visitor at an address of their own (absent on code before issue 17) */
  spread?: LimitsResult;
  perCall: Record<string, { on: number; off: number }>;
  contention: Record<string, number>;
}

/** Every action's buckets far above what the load sends: the checks run in full, none refuses. */
const NEVER_REFUSE = Object.fromEntries(
  ['message', 'edit', 'like', 'vote', 'submit', 'click', 'report'].map((action) => [
    action,
    { visitor_per_minute: 1e9, visitor_burst: 1e9, block_per_minute: 1e9, block_burst: 1e9 },
  ]),
);

/** Whether this code has the visitor rate limits (the same script measures the code before them). */
async function hasLimits(db: pg.Client): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>(
    "select to_regclass('private.rate_limits') is not null as ok",
  );
  return rows[0]!.ok;
}

/**
 * The bench's blocks get an operator's override (blocks.rate_limits) so the limits never refuse
 * the load: each write still takes its two tokens, so the throughput below includes their cost.
 */
export async function neverRefuse(stack: Stack, blockIds: string[]): Promise<boolean> {
  const db = await connectDb(stack.dbUrl);
  try {
    if (!(await hasLimits(db))) return false;
    await db.query('update public.blocks set rate_limits = $2 where id = any($1)', [
      blockIds,
      NEVER_REFUSE,
    ]);
    return true;
  } finally {
    await db.end();
  }
}

/** One call of a write path as PostgREST runs it, rolled back: the SQL and its arguments. */
export function rolledBackCall(db: pg.Client, [fn, token, body]: [string, string, string]): string {
  const literal = (v: unknown) =>
    v === null || v === undefined
      ? 'null'
      : db.escapeLiteral(typeof v === 'object' ? JSON.stringify(v) : String(v));
  const claims = Buffer.from(token.split('.')[1] ?? '', 'base64url').toString();
  const args = Object.entries(JSON.parse(body) as Record<string, unknown>)
    .map(([name, value]) => `${name} => ${literal(value)}`)
    .join(', ');
  return `begin;
    select set_config('role', 'authenticated', true),
           set_config('request.jwt.claims', ${db.escapeLiteral(claims)}, true);
    select public.${fn}(${args});
    rollback;`;
}

export const WRITE_PATHS: PathName[] = ['comment', 'like', 'submit'];

/** Turns the visitor rate limits on or off for every session at once (private.settings). */
const setLimitsEnabled = (db: pg.Client, on: boolean) => setSetting(db, 'limits.enabled', on);

/** The loopback in every spelling the gateway's peer can take: the proxy in front of the API. */
const LOOPBACK = ['127.0.0.0/8', '::1/128', '::ffff:127.0.0.0/104'];

/**
 * What the limits cost through the whole stack: each write path at peak through the gateway,
 * on blocks of its own, in 1 s slices taking turns: limits on, off, on again (eight each).
 * Every visitor is the loopback, one client address (an office behind one NAT; the hard case for
 * an address's share), or with `spread` each visitor writes from an address of their own (the
 * loopback trusted as a proxy for that run: network.trusted_proxies).
 */
export async function limitsEndToEnd(
  stack: Stack,
  plan: LoadPlan,
  data: PathData,
  spread = false,
): Promise<LimitsResult> {
  const db = await connectDb(stack.dbUrl);
  try {
    if (spread)
      await db.query(
        `insert into private.settings (key, value) values ('network.trusted_proxies', $1)
         on conflict (key) do update set value = excluded.value`,
        [JSON.stringify(LOOPBACK)],
      );
    return await runLoad<LimitsResult>(
      {
        ...plan,
        targets: plan.targets
          .filter((t) => t.name === 'gateway')
          .map((t) => ({ ...t, spreadAddresses: spread })),
        limitsAB: {
          data,
          paths: WRITE_PATHS.filter((p) => plan.paths.includes(p)),
          slices: 8,
          sliceMs: 1000,
        },
      },
      stack.gatewayPid,
      (on) => setLimitsEnabled(db, on),
    );
  } finally {
    await db
      .query(
        "delete from private.settings where key = any('{limits.enabled, network.trusted_proxies}')",
      )
      .catch(() => {});
    await db.end();
  }
}

/**
 * Postgres time per call of each write path with the limits on and off (setting limits.enabled),
 * alternating batches of 20 in one session: the same calls, the same data, the same moment of
 * the machine. What the limits add to a write, without any HTTP in front.
 */
export async function limitsCost(
  stack: Stack,
  plan: LoadPlan,
): Promise<Record<string, { on: number; off: number }>> {
  const db = await connectDb(stack.dbUrl);
  const setEnabled = (on: boolean) => setLimitsEnabled(db, on);
  const out: Record<string, { on: number; off: number }> = {};
  try {
    for (const path of WRITE_PATHS.filter((p) => plan.paths.includes(p))) {
      const { next } = requestMaker(plan, path, plan.perTarget.gateway);
      // a like that changes nothing takes no token: toggle instead (each call is rolled back)
      const call = (): [string, string, string] => {
        const [fn, token, body] = next();
        if (path !== 'like') return [fn, token, body];
        const { p_liked: _, ...rest } = JSON.parse(body) as Record<string, unknown>;
        return [fn, token, JSON.stringify(rest)];
      };
      const batch = async () => {
        const t0 = performance.now();
        for (let i = 0; i < 20; i++) await db.query(rolledBackCall(db, call()));
        return (performance.now() - t0) / 20;
      };
      await batch(); // warm-up
      const on: number[] = [];
      const off: number[] = [];
      for (let b = 0; b < 16; b++) {
        for (const enabled of b % 2 ? [false, true] : [true, false]) {
          await setEnabled(enabled);
          (enabled ? on : off).push(await batch());
        }
      }
      const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
      out[path] = { on: median(on), off: median(off) };
    }
  } finally {
    await db.query("delete from private.settings where key = 'limits.enabled'").catch(() => {});
    await db.end();
  }
  return out;
}

/**
 * The block-wide bucket under contention (issue 13 wants no row that all of a block's or an
 * owner's visitors lock): `connections` sessions post comments to one comment block, each as its
 * own visitor, committing every call, for `ms` per variant: limits off, the block bucket in one
 * row, in 4 shards (the default before issue 13) and in the default 32. Variants alternate over
 * three rounds; commits per second.
 */
export async function hotRow(
  stack: Stack,
  plan: LoadPlan,
  blockId: string,
  connections = 16,
  ms = 2000,
): Promise<Record<string, number>> {
  const admin = await connectDb(stack.dbUrl);
  const sessions = await Promise.all(
    Array.from({ length: connections }, async () => {
      const c = await connectDb(stack.dbUrl);
      return c;
    }),
  );
  const variants: Array<[string, Record<string, unknown>]> = [
    ['limits off', { 'limits.enabled': false }],
    ['block bucket in 1 row', { 'limits.enabled': true, 'limits.block_shards': 1 }],
    ['block bucket in 4 shards', { 'limits.enabled': true, 'limits.block_shards': 4 }],
    ['block bucket in 32 shards (default)', { 'limits.enabled': true, 'limits.block_shards': 32 }],
  ];
  const done: Record<string, { n: number; ms: number }> = {};
  let k = 0;
  try {
    for (let round = 0; round < 3; round++) {
      for (const [name, settings] of round % 2 ? [...variants].reverse() : variants) {
        for (const [key, value] of Object.entries(settings)) {
          await setSetting(admin, key, value);
        }
        let n = 0;
        const end = performance.now() + ms;
        const t0 = performance.now();
        await Promise.all(
          sessions.map(async (c, i) => {
            while (performance.now() < end) {
              const token = plan.visitors[(i * 7919 + k++) % plan.visitors.length]!;
              const claims = Buffer.from(token.split('.')[1] ?? '', 'base64url').toString();
              await c.query(
                `begin;
                 select set_config('role', 'authenticated', true),
                        set_config('request.jwt.claims', ${c.escapeLiteral(claims)}, true);
                 select public.post_message(p_block_id => ${c.escapeLiteral(blockId)},
                   p_content => ${c.escapeLiteral(`contention ${k} ${Math.random()}`)},
                   p_creator_name => 'Bench Visitor');
                 commit;`,
              );
              n++;
            }
          }),
        );
        const entry = (done[name] ??= { n: 0, ms: 0 });
        entry.n += n;
        entry.ms += performance.now() - t0;
      }
    }
  } finally {
    await admin
      .query("delete from private.settings where key in ('limits.enabled', 'limits.block_shards')")
      .catch(() => {});
    await Promise.all(sessions.map((c) => c.end()));
    await admin.end();
  }
  return Object.fromEntries(Object.entries(done).map(([k2, v]) => [k2, (v.n / v.ms) * 1000]));
}

/** The rate limits' part of the report (issue 9). */
export function limitsSection(limits: LimitsCost | undefined, connections: number): string {
  if (!limits)
    return '- This code has no visitor rate limits (the section on their cost is empty).';
  const pct = (on: number, off: number) =>
    `${on >= off ? '+' : ''}${Math.round(((on - off) / off) * 100)} %`;
  const perCall = Object.entries(limits.perCall)
    .map(
      ([path, { on, off }]) =>
        `| ${path} | ${off.toFixed(2)} ms | ${on.toFixed(2)} ms | ${pct(on, off)} |`,
    )
    .join('\n');
  const table = (result: LimitsResult) =>
    result
      .map(
        (r) =>
          `| ${r.path} | ${int(r.off.rate)} | ${int(r.on.rate)} | ${pct(r.on.rate, r.off.rate)} | ${int(r.again.rate)} (${pct(r.again.rate, r.on.rate)}) | ${ms(r.off.p50)} / ${ms(r.on.p50)} | ${errors(r.off)} / ${errors(r.on)} |`,
      )
      .join('\n');
  const endToEnd = table(limits.endToEnd);
  const repeated = [...limits.endToEnd, ...(limits.spread ?? [])].reduce(
    (n, r) => n + r.repeatedLikes,
    0,
  );
  const spread = limits.spread
    ? `
The same with every visitor at an address of their own (a trusted proxy in front of the gateway
sends each one's X-Forwarded-For; the spread-address case of a popular page), on blocks of its own:

| write | limits off req/s | limits on req/s | difference | on again req/s (vs on) | p50 ms off / on | non-2xx off / on |
|---|---|---|---|---|---|---|
${table(limits.spread)}
`
    : '';
  const contention = Object.entries(limits.contention)
    .map(([name, rate]) => `| ${name} | ${int(rate)} |`)
    .join('\n');
  return `- Visitor rate limits (issue 9) are on for every write above: each takes a token from the
  visitor's bucket and one from the block's (one upsert of two rows in an unlogged table). The bench's blocks
  carry an operator override (\`blocks.rate_limits\`) so that nothing is refused: the load pays
  the whole check and gets no 429.

What the limits cost the throughput of a write through the whole stack (the issue's measure: each
write path at peak, ${connections} connections through the gateway, on blocks of its own, in 1 s
slices that take turns: limits on, off, and on again (a second series of the same setting, whose
difference from the first is this machine's noise), eight slices each; ${repeated} like repeats).
Every visitor here is the loopback, one client address, as behind one office's NAT: each write
also takes a token of that address's share of the block (comments) or a unit of its share of the
owner's month (submits), the shares in shards (docs/data-model.md "When a shared budget is under
pressure"):

| write | limits off req/s | limits on req/s | difference | on again req/s (vs on) | p50 ms off / on | non-2xx off / on |
|---|---|---|---|---|---|---|
${endToEnd}
${spread}
What the limits cost a write inside Postgres (as "Postgres per call" above: one session, rolled
back, the median of sixteen alternating batches of 20 with \`limits.enabled\` on and off; likes
toggle here, as a like that changes nothing takes no token):

| write | limits off | limits on | difference |
|---|---|---|---|
${perCall}

Contention on one block (16 sessions posting comments to one block as different visitors, each
call committed; three alternating rounds of 2 s per variant; commits per second):

| variant | comments/s |
|---|---|
${contention}
`;
}
