// `npm start` as a user runs it: comes up on the configured ports, refuses a second copy on the
// same data, lives through a few hundred malformed requests and clients that leave mid-exchange on
// every port, starts a gateway or PostgREST that was killed again, and on SIGTERM stops every
// process it started, leaving nothing listening. Killed with SIGKILL (alone, or with its
// whole process group during a burst of writes) it leaves nothing running, the next start
// recovers its lock, and every write that was answered 2xx is still there.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Resolver } from 'node:dns/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freePorts, listening } from '../local/config.ts';
import { paths } from '../local/paths.ts';
import {
  anonKeyOf,
  gone,
  nothingListens,
  serviceKeyOf,
  startCli,
  started,
  until,
} from './support/cli.ts';
import {
  badWebsocketFrames,
  dnsGarbage,
  garbage,
  leavingClients,
  malformedRequests,
  sendRaw,
  slowClients,
  type Outcome,
} from './support/fuzz.ts';

/** Paths with answers of many packets, for clients that leave mid-answer. */
const BIG_ANSWERS: Record<string, string[]> = {
  gateway: ['/rest/v1/', '/auth/v1/authorize?provider=google'],
  web: ['/sdk/cdn/reaction.js', '/assets/'],
  postgrest: ['/'],
};

/** The processes `pid` started, with their command lines. */
function childrenOf(pid: number): Array<{ pid: number; cmdline: string }> {
  const found: Array<{ pid: number; cmdline: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // the parent's pid is the field after the command name, which is in parentheses
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      found.push({ pid: Number(entry), cmdline });
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

const dir = mkdtempSync(join(tmpdir(), 'rb-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `tasks` with at most `limit` at a time. */
async function inParallel<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await tasks[i]!();
      }
    }),
  );
  return out;
}

describe('npm start', () => {
  it('serves, refuses a second copy, outlives malformed requests, and stops everything on SIGTERM', async () => {
    const ports = await freePorts();
    const dataDir = join(dir, 'data', 'postgres');
    const first = startCli(ports, dataDir);
    await started(first);
    expect(first.output()).toContain(`http://127.0.0.1:${ports.api}`);
    expect(first.output()).toMatch(/anon key\s+eyJ/);
    expect(first.output()).toContain('demo@reaction-blocks.local');
    // the providers server: the mailbox page and its JSON
    expect(first.output()).toMatch(new RegExp(`Mailbox\\s+http://127.0.0.1:${ports.providers}/`));
    expect((await fetch(`http://127.0.0.1:${ports.providers}/mailbox/messages`)).status).toBe(200);

    const health = await fetch(`http://127.0.0.1:${ports.api}/rest/v1/`, {
      headers: { apikey: 'wrong' },
    });
    expect(health.status).toBe(401);

    // The React example is printed and served from its build when it has been built.
    const reactBuilt = existsSync(join(paths.examples, 'react', 'dist', 'index.html'));
    const reactUrl = `http://127.0.0.1:${ports.web}/examples/react/`;
    const react = await fetch(reactUrl);
    if (reactBuilt) {
      expect(first.output()).toContain(reactUrl);
      expect(react.status).toBe(200);
      expect(await react.text()).toContain('src="./app.js"');
    } else {
      expect(first.output()).not.toContain(reactUrl);
      expect(react.status).toBe(404);
      expect(await react.text()).toContain('the React example is not built');
    }

    // an absolute DATA_DIR is used as given, with its lock beside it (not under the repository)
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(existsSync(`${dataDir}.lock`)).toBe(true);
    expect(existsSync(join(paths.root, dataDir))).toBe(false);

    const second = startCli(ports, dataDir);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('already running');
    // the first one is untouched
    expect(await listening(ports.api)).toBe(true);

    // another data directory in the same folder is another stack: not "already running"
    const other = startCli(await freePorts(), join(dir, 'data', 'other'));
    await started(other);
    other.child.kill('SIGTERM');
    expect(await other.exited).toBe(0);

    // ---- malformed input on every port: each server answers and lives ----
    const anonKey = anonKeyOf(first);
    const targets: Array<{ name: string; port: number; paths: string[]; ours: boolean }> = [
      {
        name: 'gateway',
        port: ports.api,
        paths: [
          '/',
          '/rest/v1/blocks',
          '/auth/v1/token?grant_type=password',
          '/functions/v1/x',
          '/storage/v1/object/public/letter-images/a',
          `/realtime/v1/websocket?apikey=${anonKey}`,
        ],
        ours: true,
      },
      { name: 'web', port: ports.web, paths: ['/', '/block/', '/sdk/x', '/examples/'], ours: true },
      {
        name: 'providers',
        port: ports.providers,
        paths: [
          '/',
          '/ses/v2/email/outbound-emails',
          '/mailbox/messages',
          '/notion/v1/search',
          '/payments/x',
        ],
        ours: true,
      },
      {
        name: 'services (auth, realtime, storage)',
        port: ports.services,
        paths: [
          '/auth/signup',
          '/auth/verify',
          '/auth/admin/users',
          '/storage/object/x',
          '/realtime/websocket',
        ],
        ours: true,
      },
      { name: 'postgrest', port: ports.postgrest, paths: ['/', '/rpc/x'], ours: false },
      { name: 'functions', port: ports.functions, paths: ['/', '/ses-events'], ours: false },
    ];
    const slow = targets.map((t) => slowClients(t.port, 20));
    try {
      for (const target of targets) {
        const tasks: Array<() => Promise<Outcome>> = [];
        for (const path of target.paths) {
          for (const request of malformedRequests(path))
            tasks.push(() => sendRaw(target.port, request));
        }
        for (const bytes of garbage(60)) tasks.push(() => sendRaw(target.port, bytes));
        const outcomes = await inParallel(tasks, 24);
        expect(outcomes.length, target.name).toBeGreaterThanOrEqual(120);
        if (target.ours) {
          // a refusal (4xx), a closed connection or a wait for the rest of a body; never a 5xx
          const failures = outcomes.filter((o) => o >= 500);
          expect(failures, `${target.name}: 5xx answers to malformed input`).toEqual([]);
        }
        // clients that go away before, while and after the server (or its upstream) answers,
        // with an apikey so the gateway passes each request upstream; big answers too
        const leavingPaths = [...target.paths, ...(BIG_ANSWERS[target.name] ?? [])];
        const leaving = await inParallel(
          leavingPaths.map(
            (path) => () => leavingClients(target.port, path, `apikey: ${anonKey}\r\n`),
          ),
          4,
        );
        expect(leaving, target.name).toEqual(leavingPaths.map(() => 13));
      }
      await badWebsocketFrames(ports.api, `/realtime/v1/websocket?apikey=${anonKey}&vsn=1.0.0`);
      await badWebsocketFrames(ports.services, '/realtime/websocket?vsn=1.0.0');
      await dnsGarbage(ports.providersDns, 200);
    } finally {
      slow.forEach((s) => s.release());
    }
    // the stack is still up, no child of it died (and was started again), every server answers
    expect(first.child.exitCode).toBeNull();
    expect(first.output()).not.toContain('unexpectedly');
    // and none of ours took a client that left for a failure of its own
    expect(first.output()).not.toContain('unexpected failure');
    const apikey = { apikey: anonKey };
    expect(
      (await fetch(`http://127.0.0.1:${ports.api}/rest/v1/`, { headers: apikey })).status,
    ).toBe(200);
    expect(
      (await fetch(`http://127.0.0.1:${ports.api}/auth/v1/health`, { headers: apikey })).status,
    ).toBe(200);
    const guest = await fetch(`http://127.0.0.1:${ports.api}/auth/v1/signup`, {
      method: 'POST',
      headers: { ...apikey, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(guest.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${ports.web}/env.js`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${ports.providers}/_health`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${ports.functions}/_health`)).status).toBe(200);
    const resolver = new Resolver();
    resolver.setServers([`127.0.0.1:${ports.providersDns}`]);
    expect((await resolver.resolveTxt('ses-ready.example')).length).toBeGreaterThan(0);

    // ---- a child that dies is said loudly and started again ----
    const rest = () =>
      fetch(`http://127.0.0.1:${ports.api}/rest/v1/`, { headers: apikey })
        .then((res) => res.status)
        .catch(() => 0);
    for (const [name, pattern] of [
      ['gateway', /gateway-main\.ts/],
      ['postgrest', /postgrest/],
    ] as const) {
      const child = childrenOf(first.child.pid!).find((c) => pattern.test(c.cmdline));
      expect(child, `${name} among the stack's children`).toBeDefined();
      process.kill(child!.pid, 'SIGKILL');
      await until(
        () => first.output().includes(`${name} restarted`),
        120_000,
        `${name} to be restarted`,
      );
      expect(first.output()).toContain(`${name} was killed unexpectedly`);
      await until(async () => (await rest()) === 200, 60_000, `the API to answer after ${name}`);
      const again = childrenOf(first.child.pid!).find((c) => pattern.test(c.cmdline));
      expect(again?.pid).not.toBe(child!.pid);
    }
    expect(first.child.exitCode).toBeNull();

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
    for (const [service, port] of Object.entries(ports)) {
      expect(await listening(port), `${service} port ${port} still listening`).toBe(false);
    }
  }, 600_000);

  it('killed with SIGKILL (with its process group during writes, or alone), leaves nothing running and loses no answered write', async () => {
    const ports = await freePorts();
    const dataDir = join(dir, 'durable', 'postgres');
    const db = `postgresql://postgres:postgres@127.0.0.1:${ports.db}/postgres`;

    // 1. a burst of writes through the API, and the whole stack killed in the middle of it
    const first = startCli(ports, dataDir);
    await started(first);
    const key = serviceKeyOf(first);
    const answered: string[] = [];
    let writing = true;
    const writer = async (w: number) => {
      for (let n = 0; writing; n++) {
        const code = `durable-${w}-${n}`;
        try {
          const res = await fetch(`http://127.0.0.1:${ports.api}/rest/v1/coupons`, {
            method: 'POST',
            headers: {
              apikey: key,
              authorization: `Bearer ${key}`,
              'content-type': 'application/json',
              prefer: 'return=minimal',
            },
            body: JSON.stringify({ code }),
          });
          if (res.status === 201) answered.push(code);
          await res.body?.cancel();
        } catch {
          return; // the stack is gone
        }
      }
    };
    const writers = Array.from({ length: 12 }, (_, w) => writer(w));
    await until(() => answered.length >= 300, 120_000, '300 answered writes');
    process.kill(-first.child.pid!, 'SIGKILL');
    writing = false;
    await Promise.all(writers);
    await gone(first, ports, dataDir);
    expect(existsSync(`${dataDir}.lock`)).toBe(true);

    // 2. the next start recovers the lock; every answered write is there
    const second = startCli(ports, dataDir);
    await started(second);
    expect(second.output()).toContain('did not stop cleanly');
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    const { rows } = await client.query<{ code: string }>(
      `select code from public.coupons where code like 'durable-%'`,
    );
    await client.end();
    const stored = new Set(rows.map((r) => r.code));
    const lost = answered.filter((code) => !stored.has(code));
    expect(lost, `${lost.length} of ${answered.length} answered writes lost`).toEqual([]);

    // 3. the stack process alone killed: its children (Postgres, PostgREST, Deno, the gateway) stop
    process.kill(second.child.pid!, 'SIGKILL');
    await gone(second, ports, dataDir);

    const third = startCli(ports, dataDir);
    await started(third);
    expect(third.output()).toContain('did not stop cleanly');
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    await nothingListens(ports);
  }, 600_000);
});
