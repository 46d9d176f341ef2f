// The load-generating half of `npm run bench`, run as its own Node process so that the load
// generator's CPU is not the gateway's (the gateway lives in the parent's process). Reads a
// LoadPlan as JSON on stdin, writes a LoadResult as JSON on stdout, progress on stderr.
//
// Plain node:http with keep-alive agents (no load-testing package is installed):
// - peak: a closed loop, `connections` requests in flight at all times; throughput counts the
//   responses that arrive inside the measured window (after a warm-up).
// - fixed rate: an open loop that sends on a fixed schedule whether or not earlier requests
//   have answered; latency is measured from the scheduled send time, so a stalled server shows
//   up as latency instead of silently lowering the rate (no coordinated omission).
import http from 'node:http';
import { fileURLToPath } from 'node:url';

export type PathName = 'read' | 'comment' | 'like' | 'submit';
export type TargetName = 'gateway' | 'postgrest';

export interface Target {
  name: TargetName;
  port: number;
  /** prefix of an RPC path: /rest/v1/rpc/ through the gateway, /rpc/ straight to PostgREST */
  rpcPrefix: string;
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

/** One request: the RPC's name, the visitor's token and the JSON body. */
export type Request = [fn: string, token: string, body: string];

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Recorder {
  sent: number;
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

function stats(rec: Recorder, windowMs: number, parentCpuMs: number): Stats {
  const sorted = Float64Array.from(rec.latencies).sort();
  const non2xx = Object.values(rec.failures).reduce((a, b) => a + b, 0);
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    requests: sorted.length,
    sent: rec.sent,
    parentCpuMs: Math.round(parentCpuMs),
    rate: Math.round((sorted.length / windowMs) * 1000),
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

async function peak(plan: LoadPlan, target: Target, next: () => Request): Promise<Stats> {
  const { connections, warmupMs, durationMs } = plan.peak;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const rec: Recorder = { sent: 0, latencies: [], failures: {} };
  const cpuBefore = await parentCpu();
  const from = now() + warmupMs;
  const until = from + durationMs;
  // responses that arrive inside [from, until] count, whenever they were sent
  const worker = async () => {
    while (now() < until) {
      const sent = now();
      const outcome = await send(agent, target, plan.anonKey, next());
      const done = now();
      rec.sent++;
      if (done >= from && done <= until) record(rec, outcome, done - sent);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  return stats(rec, durationMs, (await parentCpu()) - cpuBefore);
}

async function fixedRate(plan: LoadPlan, target: Target, next: () => Request): Promise<Stats> {
  const { rate, durationMs } = plan.fixed;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const rec: Recorder = { sent: 0, latencies: [], failures: {} };
  const cpuBefore = await parentCpu();
  const total = Math.round((rate * durationMs) / 1000);
  const interval = 1000 / rate;
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
  agent.destroy();
  // the achieved rate: everything sent over the time it took to answer all of it
  const took = now() - start;
  return stats(rec, Math.max(durationMs, took), (await parentCpu()) - cpuBefore);
}

async function main(): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const plan = JSON.parse(input) as LoadPlan;
  const results: LoadResult = [];
  for (const path of plan.paths) {
    for (const target of plan.targets) {
      const { next, counters } = requestMaker(plan, path, plan.perTarget[target.name]);
      process.stderr.write(`  ${path} via ${target.name}: peak`);
      const p = await peak(plan, target, next);
      const cpu = Math.round((p.parentCpuMs * 1000) / Math.max(1, p.sent));
      process.stderr.write(` ${p.rate}/s (parent CPU ${cpu} µs/request); ${plan.fixed.rate}/s`);
      const f = await fixedRate(plan, target, next);
      process.stderr.write(` p50 ${f.p50} ms p99 ${f.p99} ms\n`);
      results.push({
        path,
        target: target.name,
        peak: p,
        fixed: f,
        repeatedLikes: counters.repeatedLikes,
      });
    }
  }
  process.stdout.write(JSON.stringify(results));
  process.disconnect?.();
}

// run when started as a process; bench.ts imports requestMaker only
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
