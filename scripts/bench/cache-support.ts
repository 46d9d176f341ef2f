// What the parts of `npm run bench:cache` share: Debian's nginx as the caching proxy in front of a
// throwaway stack (configured as docs/scaling.md "Cacheable reads" says a CDN should be), paced
// and interleaved requests, and what Postgres counts: calls of named functions and all
// transactions of the database.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

export const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';

export const quantile = (list: number[], q: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]!;
};
export const ms = (n: number) => n.toFixed(n < 10 ? 2 : 1);
export const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

/** The cacheable GETs: the same answer for every caller (docs/scaling.md "What to cache"). */
export const CACHED = ['get_block_public', 'get_block_counts', 'get_block_change'];

/** The nginx configuration: the cacheable reads cached, the Realtime websocket and the rest passed on. */
function nginxConfig(dir: string, port: number, upstreamPort: number): string {
  return `# written by scripts/bench/cache-support.ts
worker_processes 1;
worker_rlimit_nofile 16384;
daemon off;
${process.getuid?.() === 0 ? 'user nobody nogroup;' : ''}
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 8192; }
http {
  log_format cache '$upstream_cache_status $status $request_method $uri';
  access_log ${dir}/access.log cache;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=api:10m max_size=100m inactive=10m use_temp_path=off;
  upstream gateway { server 127.0.0.1:${upstreamPort}; keepalive 32; }
  server {
    listen 127.0.0.1:${port};
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    # the public reads: the same answer for every caller, so the key is the URL alone (never
    # Authorization or apikey); what else could change the answer is normalised
    location ~ ^/rest/v1/rpc/(${CACHED.join('|')})$ {
      proxy_pass http://gateway;
      proxy_cache api;
      proxy_cache_methods GET HEAD;
      proxy_cache_key "$request_method $uri?$args";
      proxy_set_header Accept application/json;
      proxy_set_header Accept-Profile "";
      proxy_set_header Prefer "";
      proxy_set_header Range "";
      proxy_set_header Cookie "";
      proxy_ignore_headers Set-Cookie Vary;
      # the TTL comes from the answer's Cache-Control (max-age, stale-while-revalidate)
      proxy_cache_lock on;
      proxy_cache_use_stale updating error timeout http_500 http_502 http_503 http_504;
      proxy_cache_background_update on;
      add_header X-Cache-Status $upstream_cache_status always;
    }
    # the Realtime websocket passes through (a CDN must allow websockets)
    location /realtime/v1/ {
      proxy_pass http://gateway;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection "upgrade";
      proxy_read_timeout 120s;
    }
    location / {
      proxy_pass http://gateway;
    }
  }
}
`;
}

export async function startNginx(
  dir: string,
  port: number,
  upstreamPort: number,
): Promise<ChildProcess> {
  const dirs = ['tmp', 'tmp/body', 'tmp/proxy', 'tmp/fastcgi', 'tmp/uwsgi', 'tmp/scgi', 'cache'];
  for (const d of dirs) mkdirSync(join(dir, d), { recursive: true });
  // the workers may run as nobody: they write the cache and temp files
  chmodSync(dir, 0o755);
  for (const d of dirs) chmodSync(join(dir, d), 0o777);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(dir, port, upstreamPort));
  const proc = spawn(NGINX, ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const end = Date.now() + 10_000;
  for (;;) {
    try {
      await fetch(`http://127.0.0.1:${port}/health`);
      return proc;
    } catch {
      if (proc.exitCode !== null || Date.now() > end) {
        const log = existsSync(join(dir, 'error.log'))
          ? readFileSync(join(dir, 'error.log'), 'utf8')
          : '';
        throw new Error(`nginx did not start (exit ${proc.exitCode}):\n${log}`);
      }
      await sleep(100);
    }
  }
}

/** nginx's cache statuses of one path, from its log. */
export function cacheLog(dir: string, path = '/rest/v1/rpc/get_block_public'): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of readFileSync(join(dir, 'access.log'), 'utf8').split('\n')) {
    const [status, , , uri] = line.split(' ');
    if (uri !== path) continue;
    counts.set(status!, (counts.get(status!) ?? 0) + 1);
  }
  return counts;
}

export const statusLine = (m: Map<string, number>) =>
  [...m].map(([k, v]) => `${k} ${v}`).join(', ') || 'none';

export const VIEW_FUNCTIONS = [
  'get_block_public',
  'get_block_view',
  'get_block_me',
  'list_messages',
];

/** Calls of the named functions so far, as Postgres counts them (pg_stat_user_functions). */
export async function functionCalls(db: pg.Client, names = VIEW_FUNCTIONS): Promise<number> {
  await db.query('select pg_stat_clear_snapshot()');
  const { rows } = await db.query<{ calls: string }>(
    `select coalesce(sum(calls), 0) as calls from pg_stat_user_functions
     where schemaname = 'public' and funcname = any($1)`,
    [names],
  );
  return Number(rows[0]!.calls);
}

/**
 * A count since `before`, once every backend has reported it: a backend flushes its statistics
 * when it goes idle, at most 10 s later; wait until two readings 11 s apart agree.
 */
async function settled(read: () => Promise<number>, before: number): Promise<number> {
  let last = -1;
  for (;;) {
    await sleep(11_000);
    const now = (await read()) - before;
    if (now === last) return now;
    last = now;
  }
}

export const settledCalls = (db: pg.Client, before: number, names = VIEW_FUNCTIONS) =>
  settled(() => functionCalls(db, names), before);

const FLUSH_MS = 12_000;

/**
 * Every transaction of the stack's database (pg_stat_database: xact_commit + xact_rollback), from
 * whoever: PostgREST, Realtime's policy checks, the auth server, the background workers. Read
 * from a connection to database `postgres`, so that the readings do not count themselves.
 */
export class Transactions {
  private constructor(
    private readonly client: pg.Client,
    private readonly database: string,
  ) {}

  static async open(dbUrl: string): Promise<Transactions> {
    const url = new URL(dbUrl);
    const database = decodeURIComponent(url.pathname.slice(1));
    url.pathname = '/postgres';
    const client = new pg.Client({ connectionString: url.toString() });
    client.on('error', () => {});
    await client.connect();
    await client.query('set stats_fetch_consistency = none');
    return new Transactions(client, database);
  }

  async now(): Promise<number> {
    const { rows } = await this.client.query<{ n: string }>(
      'select xact_commit + xact_rollback as n from pg_stat_database where datname = $1',
      [this.database],
    );
    return Number(rows[0]!.n);
  }

  /**
   * The transactions since `before`, read once every backend has reported its own (12 s later:
   * a busy backend reports every second, an idle one within 10 s). What ran in those 12 s counts
   * too, so compare with an idle window measured the same way (`idle`).
   */
  async since(before: number): Promise<number> {
    await sleep(FLUSH_MS);
    return (await this.now()) - before;
  }

  /** The transactions of `seconds` with nothing asked of the stack, measured as `since` does. */
  async idle(seconds: number): Promise<number> {
    const before = await this.now();
    await sleep(seconds * 1000);
    return this.since(before);
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

/** `count` requests spread evenly over `seconds`, each timed; resolves when all have answered. */
export async function paced(
  count: number,
  seconds: number,
  send: (i: number) => Promise<Response>,
): Promise<{ latencies: number[]; statuses: Map<string, number>; errors: number }> {
  const latencies: number[] = [];
  const statuses = new Map<string, number>();
  let errors = 0;
  const gap = (seconds * 1000) / count;
  const start = performance.now();
  const all: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + i * gap;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    all.push(
      (async () => {
        const t = performance.now();
        try {
          const res = await send(i);
          await res.arrayBuffer();
          latencies.push(performance.now() - t);
          const key = `${res.status} ${res.headers.get('x-cache-status') ?? '-'}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          if (!res.ok) errors++;
        } catch {
          errors++;
        }
      })(),
    );
  }
  await Promise.all(all);
  return { latencies, statuses, errors };
}

/**
 * `runs` rounds of one request of each kind, one after the other, timed; interleaved so that
 * other work on a shared machine weighs on every kind alike.
 */
export async function interleaved(
  runs: number,
  kinds: (() => Promise<Response>)[],
): Promise<number[][]> {
  const out = kinds.map(() => [] as number[]);
  for (let i = 0; i < runs; i++)
    for (const [k, send] of kinds.entries()) {
      const t = performance.now();
      const res = await send();
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`request failed: ${res.status}`);
      out[k]!.push(performance.now() - t);
    }
  return out;
}
