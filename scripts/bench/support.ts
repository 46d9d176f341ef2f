// Helpers the stack benchmarks share: calling the stack as its clients do, a small pool, the
// edge functions' process and the SES fake's count.
import { readdirSync, readFileSync } from 'node:fs';
import { backgroundEnv, type Stack } from '../../supabase/local/stack.ts';

export interface Session {
  access_token: string;
  user: { id: string };
}

export async function api<T>(
  stack: Stack,
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
 * benchmark makes the user with the admin API and signs it in with a generate_link link, as on
 * GoTrue (three calls, once per owner: not part of any measured path).
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
    { email, email_confirm: true, user_metadata: { full_name: fullName } },
    stack.serviceRoleKey,
  );
  const link = await call<{ hashed_token: string }>(
    '/admin/generate_link',
    { type: 'magiclink', email },
    stack.serviceRoleKey,
  );
  return call('/verify', { type: 'magiclink', token_hash: link.hashed_token }, stack.anonKey);
}

/** Runs `task` over `items` with at most `limit` at a time, keeping the order of results. */
export async function pool<I, O>(
  items: I[],
  limit: number,
  task: (item: I) => Promise<O>,
): Promise<O[]> {
  const out = new Array<O>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return out;
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
