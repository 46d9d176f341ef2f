// A stack's free ports are free when picked, not reserved: until each server binds its port
// (seconds later, minutes at load 30) another stack may pick and bind it. Test files run side by
// side on a busy machine, each with a stack of its own, and one lost its PostgREST port so
// ("Address in use"). Here the race is made to happen: every port the stack picked is taken by
// another server (one that answers 200 to anything, as another stack's PostgREST, gateway or
// functions would) before the stack starts. A throwaway stack moves each server to a new port,
// believes no answer from the port's holder, and serves; `npm start` (ports asked for) fails,
// and a start that fails leaves none of its servers running.
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_JWT_SECRET, freePorts, listening, type Ports } from '../local/config.ts';
import { startStack } from '../local/stack.ts';
import { startThrowawayStack } from '../local/throwaway.ts';
import { nothingListens, processesUsing } from './support/cli.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Squatter {
  /** connections (TCP) and datagrams (UDP) it was sent */
  contacts(): number;
  close(): Promise<void>;
}

/**
 * Holds `port` of 127.0.0.1 as another stack's server would, answering 200 to any request (a
 * probe of /health, /ready or /_health that believed it would take it for the stack's own);
 * with `udp`, the UDP port too.
 */
async function squat(port: number, udp = false): Promise<Squatter> {
  let contacts = 0;
  const server: Server = createServer((_req, res) => res.end('ok'));
  server.on('connection', () => contacts++);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  let socket: UdpSocket | undefined;
  if (udp) {
    socket = createSocket('udp4');
    socket.on('message', () => contacts++);
    await new Promise<void>((resolve) => socket!.bind(port, '127.0.0.1', resolve));
  }
  return {
    contacts: () => contacts,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (socket) await new Promise<void>((resolve) => socket!.close(() => resolve()));
    },
  };
}

/** Every port of `ports` taken by a squatter (the DNS port for UDP as well). */
async function squatAll(ports: Ports): Promise<Map<keyof Ports, Squatter>> {
  const held = new Map<keyof Ports, Squatter>();
  for (const name of Object.keys(ports) as Array<keyof Ports>) {
    held.set(name, await squat(ports[name], name === 'providersDns'));
  }
  return held;
}

describe('a stack whose picked ports are taken before its servers bind them', () => {
  it('moves every server to a free port, believes no answer from the holders, and serves', async () => {
    const picked = await freePorts();
    const held = await squatAll(picked);
    try {
      const stack = await startThrowawayStack('ports', { ports: picked, movablePorts: true });
      dirs.push(stack.dir);
      try {
        for (const name of Object.keys(picked) as Array<keyof Ports>) {
          expect(stack.ports[name], `${name} moved`).not.toBe(picked[name]);
          expect(await listening(stack.ports[name]), `${name} listens`).toBe(true);
        }
        expect(stack.apiUrl).toBe(`http://127.0.0.1:${stack.ports.api}`);

        // the auth server (services port) and PostgREST, through the gateway, as a visitor
        const visitor = createClient(stack.apiUrl, stack.anonKey, {
          auth: { persistSession: false },
        });
        const { data: session, error: signUp } = await visitor.auth.signInAnonymously();
        expect(signUp).toBeNull();
        expect(session.user?.is_anonymous).toBe(true);
        const { error: read } = await visitor.from('blocks').select('id').limit(1);
        expect(read).toBeNull();
        // the functions' Deno, through the gateway: its own answer to a name it does not know
        const fn = await fetch(`${stack.apiUrl}/functions/v1/no-such-function`, {
          method: 'POST',
          headers: { apikey: stack.anonKey, authorization: `Bearer ${stack.serviceRoleKey}` },
        });
        expect(fn.status).toBe(404);
        expect(await fn.json()).toMatchObject({ error: { code: 'not_found' } });
        // Postgres, the providers (HTTP and DNS) and the web server
        const db = new pg.Client({ connectionString: stack.dbUrl });
        await db.connect();
        expect((await db.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
        await db.end();
        expect((await fetch(`${stack.providersUrl}/mailbox/messages`)).status).toBe(200);
        const dns = new Resolver({ timeout: 5_000, tries: 3 });
        dns.setServers([stack.dnsNameserver]);
        expect((await dns.resolveTxt('ses-ready.example')).flat().join(' ')).toContain('spf1');
        const env = await (await fetch(`${stack.webUrl}/env.js`)).text();
        expect(env).toContain(stack.apiUrl);

        // no probe, request or query of the stack went to a port's holder
        for (const [name, squatter] of held) expect(squatter.contacts(), name).toBe(0);
      } finally {
        await stack.stop();
      }
      await nothingListens(stack.ports);
    } finally {
      for (const squatter of held.values()) await squatter.close();
    }
  }, 600_000);

  it('fails on ports asked for, and leaves none of its servers running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rb-ports-'));
    dirs.push(dir);
    const ports = await freePorts();
    // PostgREST's: it fails while the functions' Deno, started beside it, is still starting
    const squatter = await squat(ports.postgrest);
    try {
      await expect(
        startStack({
          ports,
          dataDir: join(dir, 'pg'),
          jwtSecret: DEFAULT_JWT_SECRET,
          durable: false,
        }),
      ).rejects.toThrow(/Address in use/);
      const { postgrest: _, ...others } = ports;
      await nothingListens(others as Ports);
      expect(processesUsing(dir)).toEqual([]);
      expect(squatter.contacts()).toBe(0);
    } finally {
      await squatter.close();
    }
  }, 600_000);
});
