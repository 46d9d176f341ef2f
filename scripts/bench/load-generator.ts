// The load-generating half of `npm run bench`, run as its own Node process so that the load
// generator's CPU is not the gateway's (the gateway lives in the parent's process). Reads a
// LoadPlan as JSON on stdin, writes a LoadResult as JSON on stdout, progress on stderr.
//
// Plain node:http with keep-alive agents (no load-testing package is installed):
// - peak: a closed loop, `connections` requests in flight at all times; throughput counts the
//   responses that arrive inside the measured windows.
// - fixed rate: an open loop that sends on a fixed schedule whether or not earlier requests
//   have answered; latency is measured from the scheduled send time, so a stalled server shows
//   up as latency instead of silently lowering the rate (no coordinated omission).
// The two targets take turns in short slices (gateway, direct, direct, gateway, ...) so that
// other work on a shared machine weighs on both alike; each target's slices are pooled.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paths } from '../../supabase/local/paths.ts';

export type PathName = 'read' | 'comment' | 'like' | 'submit';
export type TargetName = 'gateway' | 'postgrest';

export interface Target {
  name: TargetName;
  port: number;
  /** prefix of an RPC path: /rest/v1/rpc/ through the gateway, /rpc/ straight to PostgREST */
  rpcPrefix: string;
  /**
   * Each visitor writes from an address of their own (an X-Forwarded-For of 10.x.y.z from the
   * visitor's token, as a trusted proxy in front of the gateway would send): the spread-address
   * case. Without it every request is the loopback's, one address.
   */
  spreadAddresses?: boolean;
}

/** A visitor's own address in 10.0.0.0/8, from their token (the same visitor, the same address). */
export function addressOf(token: string): string {
  let h = 0;
  for (let i = 0; i < token.length; i++) h = (Math.imul(h, 31) + token.charCodeAt(i)) >>> 0;
  return `10.${(h >>> 16) & 255}.${(h >>> 8) & 255}.${h & 255}`;
}

/** What each hot path sends, per target (writes go to their own blocks per target). */
export interface PathData {
  read: { blockId: string };
  comment: { blockId: string };
  /** likes: request k likes block likeBlockIds[k / visitors] as visitor k % visitors */
  like: { likeBlockIds: string[] };
  submit: { blockId: string; answers: Record<string, unknown> };
}

export interface LoadPlan {
  anonKey: string;
  /** access tokens of anonymous visitors, as the SDK holds them after signInAnonymously */
  visitors: string[];
  targets: Target[];
  perTarget: Record<TargetName, PathData>;
  paths: PathName[];
  peak: { connections: number; warmupMs: number; durationMs: number };
  fixed: { rate: number; durationMs: number };
  /**
   * Instead of the measurement above: each of these write paths at peak through the first
   * target, in slices that alternate the visitor rate limits on and off (the parent switches
   * them when asked over IPC), on blocks of their own. The answer is a LimitsResult.
   */
  limitsAB?: { data: PathData; paths: PathName[]; slices: number; sliceMs: number };
}

export interface Stats {
  /** responses counted (inside the measured window) */
  requests: number;
  /** every request of the phase, warm-up included */
  sent: number;
  /**
   * CPU time the parent process used during the phase: the gateway (for the gateway target) plus
   * the auth and realtime servers living beside it; the direct target shows that baseline
   */
  parentCpuMs: number;
  /** responses per second: completed inside the window / window length */
  rate: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  /** status (or "error") -> count, for the non-2xx ones */
  failures: Record<string, number>;
  /** the first failing response body, to explain the failures */
  firstFailure?: string;
}

export interface PathResult {
  path: PathName;
  target: TargetName;
  peak: Stats;
  fixed: Stats;
  /** like requests that had to repeat a (visitor, block) pair: no new row, not an error */
  repeatedLikes: number;
}

export type LoadResult = PathResult[];

/** Peak throughput of one write path with the limits on and off, through the whole stack. */
export interface LimitsPathResult {
  path: PathName;
  on: Stats;
  off: Stats;
  /** a second series with the limits on: how far two series of the same setting differ */
  again: Stats;
  repeatedLikes: number;
}
export type LimitsResult = LimitsPathResult[];

/** Milliseconds as the reports print them, one decimal ("-" when there is none). */
// (+ 0 turns -0 into 0, so a rounding never prints "-0.0")
export const ms = (v: number) =>
  Number.isFinite(v) ? (Math.round(v * 10) / 10 + 0).toFixed(1) : '-';

/** The non-2xx answers of a phase and why: "0", or "12 (429: 12)". */
export const errors = (s: Stats) =>
  s.non2xx === 0
    ? '0'
    : `${s.non2xx} (${Object.entries(s.failures)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')})`;

/** One request: the RPC's name, the visitor's token and the JSON body. */
export type Request = [fn: string, token: string, body: string];

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Recorder {
  sent: number;
  /** milliseconds measured, over all slices */
  windowMs: number;
  /** the parent's CPU milliseconds over all slices */
  parentCpuMs: number;
  latencies: number[];
  failures: Record<string, number>;
  firstFailure?: string;
}

interface Outcome {
  ok: boolean;
  /** HTTP status, or "error" when the request failed on the socket */
  status: string;
  /** the start of a failing response's body */
  detail?: string;
}

function send(
  agent: http.Agent,
  target: Target,
  anonKey: string,
  [fn, token, body]: Request,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: 'POST',
        path: target.rpcPrefix + fn,
        agent,
        // what the SDK sends (sdk/src/core/api.ts); PostgREST ignores the apikey
        headers: {
          apikey: anonKey,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(target.spreadAddresses ? { 'x-forwarded-for': addressOf(token) } : {}),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        let text = '';
        if (ok) res.resume();
        else res.on('data', (d: Buffer) => (text += d));
        res.on('end', () =>
          resolve(
            ok
              ? { ok, status: String(status) }
              : { ok, status: String(status), detail: text.slice(0, 300) },
          ),
        );
      },
    );
    req.on('error', (err) => resolve({ ok: false, status: 'error', detail: err.message }));
    req.end(body);
  });
}

function record(rec: Recorder, outcome: Outcome, latency: number): void {
  rec.latencies.push(latency);
  if (outcome.ok) return;
  rec.failures[outcome.status] = (rec.failures[outcome.status] ?? 0) + 1;
  rec.firstFailure ??= `${outcome.status} ${outcome.detail ?? ''}`.trim();
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const recorder = (): Recorder => ({
  sent: 0,
  windowMs: 0,
  parentCpuMs: 0,
  latencies: [],
  failures: {},
});

function stats(rec: Recorder): Stats {
  const sorted = Float64Array.from(rec.latencies).sort();
  const non2xx = Object.values(rec.failures).reduce((a, b) => a + b, 0);
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    requests: sorted.length,
    sent: rec.sent,
    parentCpuMs: Math.round(rec.parentCpuMs),
    rate: Math.round((sorted.length / rec.windowMs) * 1000),
    p50: round(percentile(sorted, 0.5)),
    p99: round(percentile(sorted, 0.99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
    non2xx,
    failures: rec.failures,
    ...(rec.firstFailure === undefined ? {} : { firstFailure: rec.firstFailure }),
  };
}

/**
 * The requests of one path against one target, in order: each call gives the next RPC, the
 * visitor's token and the JSON body. Visitors take turns; comments never repeat their text.
 */
export function requestMaker(plan: Pick<LoadPlan, 'visitors'>, path: PathName, data: PathData) {
  const visitors = plan.visitors;
  const visitor = (k: number) => visitors[k % visitors.length]!;
  const visitorFields = (k: number) => ({
    p_creator_name: `Bench Visitor ${k % visitors.length}`,
    p_color: '#336699',
  });
  const likePairs = visitors.length * data.like.likeBlockIds.length;
  const counters = { repeatedLikes: 0 };
  let k = -1;
  const next = (): Request => {
    k++;
    switch (path) {
      case 'read':
        return ['get_block_view', visitor(k), JSON.stringify({ p_block_id: data.read.blockId })];
      case 'comment':
        return [
          'post_message',
          visitor(k),
          JSON.stringify({
            p_block_id: data.comment.blockId,
            p_parent_id: null,
            p_content: `Benchmark comment number ${k}: the quick brown fox jumps over the lazy dog.`,
            ...visitorFields(k),
            p_creator_photo_url: null,
            p_home_url: null,
            p_creator_email: null,
            p_timezone: 'Asia/Seoul',
          }),
        ];
      case 'like': {
        // every request is a new (visitor, block) pair, so each one inserts a like row
        if (k >= likePairs) counters.repeatedLikes++;
        const blocks = data.like.likeBlockIds;
        const block = blocks[Math.floor(k / visitors.length) % blocks.length]!;
        return [
          'toggle_block_like',
          visitor(k),
          JSON.stringify({ p_block_id: block, ...visitorFields(k), p_liked: true }),
        ];
      }
      case 'submit':
        return [
          'submit_response',
          visitor(k),
          JSON.stringify({
            p_block_id: data.submit.blockId,
            p_answers: data.submit.answers,
            ...visitorFields(k),
            p_timezone: 'Asia/Seoul',
          }),
        ];
    }
  };
  return { next, counters };
}

/** The CPU time (ms) the parent process has used so far, asked over IPC; 0 without a parent. */
function parentCpu(): Promise<number> {
  const ask = process.send?.bind(process);
  if (!ask) return Promise.resolve(0);
  return new Promise((resolve) => {
    process.once('message', (ms) => resolve(Number(ms)));
    ask('cpu');
  });
}

/** Asks the parent to switch the visitor rate limits on or off, and waits until it has. */
function switchLimits(on: boolean): Promise<void> {
  const ask = process.send?.bind(process);
  if (!ask) return Promise.reject(new Error('the limits are switched by the parent process'));
  return new Promise((resolve) => {
    process.once('message', () => resolve());
    ask({ limits: on });
  });
}

/** Sends requests in a closed loop for `ms`; responses after `rampMs` count. */
async function closedLoop(
  plan: LoadPlan,
  target: Target,
  agent: http.Agent,
  next: () => Request,
  ms: number,
  rampMs: number,
  rec?: Recorder,
): Promise<void> {
  const cpuBefore = await parentCpu();
  const from = now() + rampMs;
  const until = from + ms - rampMs;
  // responses that arrive inside [from, until] count, whenever they were sent
  const worker = async () => {
    while (now() < until) {
      const sent = now();
      const outcome = await send(agent, target, plan.anonKey, next());
      const done = now();
      if (!rec) continue;
      rec.sent++;
      if (done >= from && done <= until) record(rec, outcome, done - sent);
    }
  };
  await Promise.all(Array.from({ length: plan.peak.connections }, worker));
  if (!rec) return;
  rec.windowMs += until - from;
  rec.parentCpuMs += (await parentCpu()) - cpuBefore;
}

/** Sends `rate` requests per second on schedule for `ms`, waiting for the last answer. */
async function openLoop(
  plan: LoadPlan,
  target: Target,
  agent: http.Agent,
  next: () => Request,
  ms: number,
  rec: Recorder,
): Promise<void> {
  const cpuBefore = await parentCpu();
  const total = Math.round((plan.fixed.rate * ms) / 1000);
  const interval = 1000 / plan.fixed.rate;
  const pending: Array<Promise<void>> = [];
  const start = now();
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - now();
    if (wait > 1) await sleep(wait);
    rec.sent++;
    pending.push(
      send(agent, target, plan.anonKey, next()).then((outcome) =>
        record(rec, outcome, now() - due),
      ),
    );
  }
  await Promise.all(pending);
  // the achieved rate: everything sent over the time it took to answer all of it
  rec.windowMs += Math.max(ms, now() - start);
  rec.parentCpuMs += (await parentCpu()) - cpuBefore;
}

/** gateway, direct, direct, gateway, ...: neither target always goes first */
const turn = <T>(targets: T[], slice: number): T[] =>
  slice % 2 === 0 ? targets : [...targets].reverse();

async function measurePath(plan: LoadPlan, path: PathName): Promise<PathResult[]> {
  const { connections, warmupMs, durationMs } = plan.peak;
  const slices = Math.max(1, Math.round(durationMs / 1000));
  const runs = plan.targets.map((target) => ({
    target,
    ...requestMaker(plan, path, plan.perTarget[target.name]),
    peakAgent: new http.Agent({ keepAlive: true, maxSockets: connections }),
    fixedAgent: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    peak: recorder(),
    fixed: recorder(),
  }));
  for (const r of runs) await closedLoop(plan, r.target, r.peakAgent, r.next, warmupMs, 0);
  // the pipeline refills at the start of every slice; skip its first 100 ms
  for (let slice = 0; slice < slices; slice++) {
    for (const r of turn(runs, slice))
      await closedLoop(plan, r.target, r.peakAgent, r.next, durationMs / slices, 100, r.peak);
  }
  const fixedSlices = Math.max(1, Math.round(plan.fixed.durationMs / 2000));
  for (let slice = 0; slice < fixedSlices; slice++) {
    for (const r of turn(runs, slice))
      await openLoop(
        plan,
        r.target,
        r.fixedAgent,
        r.next,
        plan.fixed.durationMs / fixedSlices,
        r.fixed,
      );
  }
  return runs.map((r) => {
    r.peakAgent.destroy();
    r.fixedAgent.destroy();
    const peak = stats(r.peak);
    const fixed = stats(r.fixed);
    const cpu = Math.round((peak.parentCpuMs * 1000) / Math.max(1, peak.sent));
    process.stderr.write(
      `  ${path} via ${r.target.name}: peak ${peak.rate}/s (parent CPU ${cpu} µs/request); ` +
        `${plan.fixed.rate}/s p50 ${fixed.p50} ms p99 ${fixed.p99} ms\n`,
    );
    return { path, target: r.target.name, peak, fixed, repeatedLikes: r.counters.repeatedLikes };
  });
}

/**
 * One write path at peak through the first target, limits on and off in alternating slices
 * (on-off, off-on, ...), after a warm-up with the limits on. One request stream for both, so
 * every like is still a new pair.
 */
async function measureLimits(
  plan: LoadPlan,
  ab: NonNullable<LoadPlan['limitsAB']>,
  path: PathName,
): Promise<LimitsPathResult> {
  const target = plan.targets[0]!;
  const { next, counters } = requestMaker(plan, path, ab.data);
  const agent = new http.Agent({ keepAlive: true, maxSockets: plan.peak.connections });
  // a second series with the limits on ("again") measures the noise: it differs from "on" only
  // by the moment of the machine
  const recorders = { on: recorder(), off: recorder(), again: recorder() };
  const order: Array<keyof typeof recorders> = ['on', 'off', 'again'];
  await switchLimits(true);
  await closedLoop(plan, target, agent, next, plan.peak.warmupMs, 0);
  for (let slice = 0; slice < ab.slices; slice++) {
    // every variant goes first, second and third equally often
    const turn = [...order.slice(slice % 3), ...order.slice(0, slice % 3)];
    for (const variant of slice % 2 ? turn.reverse() : turn) {
      await switchLimits(variant !== 'off');
      await closedLoop(plan, target, agent, next, ab.sliceMs, 100, recorders[variant]);
    }
  }
  await switchLimits(true);
  agent.destroy();
  const result = {
    path,
    on: stats(recorders.on),
    off: stats(recorders.off),
    again: stats(recorders.again),
    repeatedLikes: counters.repeatedLikes,
  };
  process.stderr.write(
    `  ${path} via ${target.name}: limits on ${result.on.rate}/s, off ${result.off.rate}/s, on again ${result.again.rate}/s\n`,
  );
  return result;
}

async function main(): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const plan = JSON.parse(input) as LoadPlan;
  const ab = plan.limitsAB;
  if (ab) {
    const results: LimitsResult = [];
    for (const path of ab.paths) results.push(await measureLimits(plan, ab, path));
    process.stdout.write(JSON.stringify(results));
  } else {
    const results: LoadResult = [];
    for (const path of plan.paths) results.push(...(await measurePath(plan, path)));
    process.stdout.write(JSON.stringify(results));
  }
  process.disconnect?.();
}

// run when started as a process; bench.ts imports requestMaker only
// ---------------------------------------------------------------------------------------------
// the parent's side: running this file as the load process
// ---------------------------------------------------------------------------------------------

/** CPU milliseconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the name), in clock ticks
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * Runs the load process on a plan and gives back what it printed. It asks, over IPC, for the
 * gateway's CPU time ("cpu") at the start and end of every phase and, in the limits comparison,
 * for the limits to be switched ({ limits }), which `switchLimits` does before the answer.
 */
export function runLoad<T = LoadResult>(
  plan: LoadPlan,
  gatewayPid: number,
  switchLimits?: (on: boolean) => Promise<unknown>,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(paths.root, 'scripts', 'bench', 'load-generator.ts')],
      { cwd: paths.root, stdio: ['pipe', 'pipe', 'inherit', 'ipc'] },
    );
    child.on('message', (message: unknown) => {
      if (message && typeof message === 'object' && 'limits' in message) {
        if (!switchLimits) return reject(new Error('this run cannot switch the limits'));
        void switchLimits(Boolean(message.limits)).then(() => child.send('ok'), reject);
      } else child.send(processCpuMs(gatewayPid));
    });
    const { stdin, stdout } = child;
    if (!stdin || !stdout) return reject(new Error('the load process has no stdio'));
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the load process exited with ${code}`));
      try {
        resolve(JSON.parse(out) as T);
      } catch (err) {
        reject(err);
      }
    });
    stdin.end(JSON.stringify(plan));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
