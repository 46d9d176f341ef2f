// What the stack benchmarks share: their set-up (a throwaway stack on free ports, or on fixed ones
// from BENCH_BASE_PORT, its logs shown when the run fails, its removal on every exit, the figures
// printed and written to docs/benchmarks.md on request), calling the stack as its clients do, a
// small pool, figures (settings, medians, the machine line), the edge functions' process and the
// SES fake's count.
import { type ChildProcess, fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  backgroundEnv,
  DEFAULT_PORTS,
  freePorts,
  type Ports,
} from '../../supabase/local/config.ts';
import type { Stack, StackOptions } from '../../supabase/local/stack.ts';
import { startThrowawayStack, type ThrowawayStack } from '../../supabase/local/throwaway.ts';
import { paths } from '../../supabase/local/paths.ts';
import { writeBenchmarkSection } from './docs-section.ts';

/** Runs a task over items, a few at a time, in order: the jobs worker's own (functions/_shared/jobs.ts). */
export { mapLimit } from '../../supabase/functions/_shared/map-limit.ts';

/** A positive number from the environment, or the fallback. */
export function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

/** A connection to the database at `url`, open (the caller ends it). */
export async function connectDb(url: string): Promise<pg.Client> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  return db;
}

/** A number given on the command line (`npm run bench:x -- --name 20`), or the fallback. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/**
 * The ports of a bench stack. BENCH_BASE_PORT=n: n, n+1, ... in the order of the stack's default
 * ports (API, database, web, PostgREST, its admin port, functions, providers, DNS, services), and
 * from n+9 on for what a benchmark runs beside the stack (`extra`, such as nginx), so two stacks
 * measured side by side are on ports chosen beforehand (`BENCH_BASE_PORT=55000` and `55100`).
 * Without it, ports nobody listens on, which the stack may move (`movablePorts`: one taken by
 * another process before its server bound it); read them from `stack.ports` then.
 */
export async function benchPorts(): Promise<
  Ports & { extra: (i: number) => Promise<number>; movablePorts: boolean }
> {
  const raw = process.env.BENCH_BASE_PORT;
  if (raw === undefined || raw === '') {
    return {
      ...(await freePorts()),
      extra: async () => (await freePorts()).api,
      movablePorts: true,
    };
  }
  const base = Number(raw);
  const count = Object.keys(DEFAULT_PORTS).length;
  if (!Number.isInteger(base) || base < 1024 || base + count + 10 > 65535) {
    throw new Error(
      `BENCH_BASE_PORT must be a port from 1024 to ${65535 - count - 10}, got "${raw}"`,
    );
  }
  const ports = Object.fromEntries(
    (Object.keys(DEFAULT_PORTS) as Array<keyof Ports>).map((name, i) => [name, base + i]),
  ) as unknown as Ports;
  return { ...ports, extra: async (i: number) => base + count + i, movablePorts: false };
}

/** The load average now, as the reports print it: "12.10 / 14.02 / 15.33". */
export const loadNow = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

/** "Machine: 2 cores (...), load average ... before the run (other jobs share it)." */
export function machineLine(load: string): string {
  const cpu = cpus();
  return `Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), load average ${load} before the run (other jobs share it).`;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
export const int = (v: number): string => Math.round(v).toLocaleString('en-US');
export const range = (xs: number[]): string => `${int(Math.min(...xs))}-${int(Math.max(...xs))}`;

export interface BenchContext {
  stack: Stack;
  /** the stack's ports (where its servers listen: stack.ports) */
  ports: Readonly<Ports>;
  /** the load average before the stack started */
  load: string;
  /** performance.now() at the start */
  started: number;
  /** a temporary directory removed at the end */
  dir: string;
  /** ports for what the benchmark runs beside the stack (BENCH_BASE_PORT + 9 + i when set) */
  extraPort: (i: number) => Promise<number>;
}

/**
 * A benchmark's throwaway stack: a temporary data directory, the ports of benchPorts (`extra`
 * gives the ports for what runs beside it), Postgres as benchDurability says, no web server, its
 * log lines kept in `logs` (the last 200 to 400: a failed run prints its last lines).
 */
export async function startBenchStack(
  name: string,
  logs: string[],
  options: Partial<StackOptions> = {},
): Promise<{ stack: ThrowawayStack; extra: (i: number) => Promise<number> }> {
  const { extra, movablePorts, ...ports } = await benchPorts();
  const stack = await startThrowawayStack(`bench-${name}`, {
    ports,
    movablePorts,
    durable: benchDurability().durable,
    web: false,
    log: (service, line) => {
      logs.push(`[${service}] ${line}`);
      if (logs.length > 400) logs.splice(0, 200);
    },
    ...options,
  });
  return { stack, extra };
}

/**
 * Runs one stack benchmark: a throwaway stack (a temporary data directory, the ports of
 * benchPorts, the auth server's sign-up limit off: benchmarks sign up many visitors from one
 * address), then `run`, whose report is printed with its raw figures and, with `--write`, becomes
 * the section `section` of docs/benchmarks.md. The stack's last log lines are printed when the run
 * fails; the stack and the directory go on every exit.
 */
export async function runBench(
  opts: { name: string; section: string; stack?: Partial<StackOptions> },
  run: (ctx: BenchContext) => Promise<{ body: string; raw?: unknown }>,
): Promise<void> {
  const started = performance.now();
  const load = loadNow();
  const logs: string[] = [];
  let stack: ThrowawayStack | undefined;
  try {
    let extra: (i: number) => Promise<number>;
    ({ stack, extra } = await startBenchStack(opts.name, logs, {
      auth: NO_AUTH_LIMITS,
      ...opts.stack,
    }));
    process.stderr.write(`stack up on ${stack.apiUrl}\n`);
    const { body, raw } = await run({
      stack,
      ports: stack.ports,
      load,
      started,
      dir: stack.dir,
      extraPort: extra,
    });
    process.stdout.write(`${body.trim()}\n`);
    if (raw !== undefined) process.stdout.write(`raw: ${JSON.stringify(raw)}\n`);
    writeBenchmarkSection(benchDurability().title(opts.section), body);
  } catch (err) {
    process.stderr.write(`${logs.slice(-40).join('\n')}\n`);
    throw err;
  } finally {
    await stack?.stop();
  }
}

export interface Session {
  access_token: string;
  user: { id: string };
}

export async function api<T>(
  stack: Pick<Stack, 'apiUrl' | 'anonKey'>,
  method: string,
  path: string,
  body: unknown,
  token: string,
  prefer?: string,
): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: {
      apikey: stack.anonKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(prefer ? { prefer } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/**
 * The auth server's per-address limits off: a benchmark signs up its visitors and signs in its
 * owners from one address (a real deployment sees them from many).
 */
export const NO_AUTH_LIMITS = {
  rateLimitAnonymousUsers: 0,
  rateLimitOtp: 0,
  rateLimitVerify: 0,
  rateLimitTokenRefresh: 0,
};

/**
 * Whether the bench stack's Postgres is durable: BENCH_DURABILITY=durable (the default: what
 * `npm start` runs, each answered write waited for its WAL on disk) or `fast` (fsync, synchronous
 * commits and full-page writes off, as the test suite runs). Write figures depend on it, so a
 * benchmark that writes names it in its report and its docs/benchmarks.md section.
 */
export function benchDurability(): {
  durable: boolean;
  label: string;
  title: (t: string) => string;
} {
  const mode = process.env.BENCH_DURABILITY ?? 'durable';
  if (mode !== 'durable' && mode !== 'fast') {
    throw new Error(`BENCH_DURABILITY must be durable or fast, got "${mode}"`);
  }
  const durable = mode === 'durable';
  return {
    durable,
    label: durable
      ? 'durable Postgres (fsync and synchronous_commit on, as npm start runs: each answered write is on disk)'
      : 'fast Postgres (BENCH_DURABILITY=fast: fsync and synchronous_commit off, as the tests run; writes never wait for the disk, and a crash loses recent ones)',
    title: (title) => (durable ? title : `${title} (fast settings)`),
  };
}

/**
 * An owner, signed in. Owners sign up with Google or Apple and email sign-up is off, so a
 * benchmark makes the user with the admin API (an owner by its app_metadata, which only the
 * service role writes) and signs it in with a generate_link link, as on GoTrue (three calls, once
 * per owner: not part of any measured path).
 */
export async function signInOwner(
  stack: Pick<Stack, 'apiUrl' | 'anonKey' | 'serviceRoleKey'>,
  email: string,
  fullName: string,
): Promise<Session & { refresh_token: string; expires_at: number }> {
  const call = async <T>(path: string, body: unknown, key: string): Promise<T> => {
    const res = await fetch(`${stack.apiUrl}/auth/v1${path}`, {
      method: 'POST',
      headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`POST /auth/v1${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  await call(
    '/admin/users',
    {
      email,
      email_confirm: true,
      app_metadata: { owner: true },
      user_metadata: { full_name: fullName },
    },
    stack.serviceRoleKey,
  );
  const link = await call<{ hashed_token: string }>(
    '/admin/generate_link',
    { type: 'magiclink', email },
    stack.serviceRoleKey,
  );
  return call('/verify', { type: 'magiclink', token_hash: link.hashed_token }, stack.anonKey);
}

/**
 * Adds a question to a form, and a poll's options (`options`, in order), with the service role:
 * form content is written by save-block only, and the benchmarks set it up directly. Answers the
 * question's id and its options' ids.
 */
export async function addQuestion(
  stack: Pick<Stack, 'apiUrl' | 'anonKey' | 'serviceRoleKey'>,
  blockId: string,
  question: Record<string, unknown>,
  options: string[] = [],
): Promise<{ id: string; options: string[] }> {
  const [q] = await api<Array<{ id: string }>>(
    stack,
    'POST',
    '/rest/v1/questions',
    { block_id: blockId, ...question },
    stack.serviceRoleKey,
    'return=representation',
  );
  const rows = options.length
    ? await api<Array<{ id: string }>>(
        stack,
        'POST',
        '/rest/v1/options',
        options.map((value, index) => ({ question_id: q!.id, block_id: blockId, value, index })),
        stack.serviceRoleKey,
        'return=representation',
      )
    : [];
  return { id: q!.id, options: rows.map((o) => o.id) };
}

/** Sets one of the database's operator settings (private.settings; `value` as JSON). */
export const setSetting = (db: pg.ClientBase, key: string, value: unknown) =>
  db.query(
    `insert into private.settings (key, value) values ($1, $2)
     on conflict (key) do update set value = excluded.value`,
    [key, JSON.stringify(value)],
  );

/** A new block of `type`, created as the dashboard creates it (create_block as the owner); its id. */
export async function createBlock(
  stack: Pick<Stack, 'apiUrl' | 'anonKey'>,
  owner: Session,
  type: string,
): Promise<string> {
  const block = await api<{ id: string }>(
    stack,
    'POST',
    '/rest/v1/rpc/create_block',
    { p_block_type: type },
    owner.access_token,
  );
  return block.id;
}

/**
 * The benchmarks' form questions: a required short text "Your name" and a poll "Pick one" (Red,
 * Green, Blue), and the answers of a visitor (Ada Lovelace, Green).
 */
export async function addNameAndPoll(
  stack: Pick<Stack, 'apiUrl' | 'anonKey' | 'serviceRoleKey'>,
  form: string,
): Promise<Record<string, string>> {
  const name = await addQuestion(stack, form, { type: 'short_text', title: 'Your name', index: 0 });
  const poll = await addQuestion(stack, form, { type: 'poll', title: 'Pick one', index: 1 }, [
    'Red',
    'Green',
    'Blue',
  ]);
  return { [name.id]: 'Ada Lovelace', [poll.id]: poll.options[1]! };
}

/**
 * A script of scripts/bench/ in a Node process of its own (so its work and memory are not the
 * stack's), driven over IPC: `ask` sends a command and waits for the answer of a type (a message
 * `{ type: 'error', message }` rejects).
 */
export function ipcChild(file: string): {
  proc: ChildProcess;
  ask: <T>(cmd: object, answer: string) => Promise<T>;
} {
  const proc = fork(join(paths.root, 'scripts/bench', file), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T>(cmd: object, answer: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: { type: string; message?: string }) => {
        if (m.type === 'error') reject(new Error(m.message));
        else if (m.type === answer) resolve(m as T);
        else return;
        proc.off('message', onMessage);
      };
      proc.on('message', onMessage);
      proc.send(cmd);
    });
  return { proc, ask };
}

/** The Deno process serving this stack's functions (its FUNCTIONS_PORT names it). */
export function functionsPid(port: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmd.includes('functions-main.ts')) continue;
      const env = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (env.includes(`FUNCTIONS_PORT=${port}`)) return Number(entry);
    } catch {
      // a process that ended meanwhile
    }
  }
  return undefined;
}

/** A process's resident memory in MB; NaN when there is no such process (any more). */
export function rssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return NaN;
  }
}

/** Mails the SES fake accepted for the functions' account (each also lands in the mailbox). */
export async function sesSent(providersUrl: string): Promise<number> {
  const state = (await (await fetch(`${providersUrl}/ses/_control/state`)).json()) as {
    sent?: number;
  };
  return state.sent ?? 0;
}

/** One call of the jobs worker, as the schedule and a function's kick make it. */
export async function kick(stack: Stack): Promise<void> {
  const secret = backgroundEnv(stack.jwtSecret, '').JOBS_WORKER_SECRET;
  const res = await fetch(`${stack.apiUrl}/functions/v1/jobs-worker`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: '{"source":"bench"}',
  });
  await res.body?.cancel();
}
