// `npm start` as a user runs it: comes up on the configured ports, refuses a second copy on the
// same data, and on SIGTERM stops every process it started, leaving nothing listening.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePorts, portsToEnv, type Ports } from '../local/config.ts';
import { paths } from '../local/paths.ts';

function startCli(
  ports: Ports,
  dataDir: string,
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', join(paths.local, 'start.ts')], {
    cwd: paths.root,
    env: {
      ...process.env,
      SKIP_BUILD: '1',
      DATA_DIR: dataDir,
      ...portsToEnv(ports),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, output: () => out, exited };
}

async function until(check: () => boolean, ms = 60_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'rb-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm start', () => {
  it('serves, refuses a second copy, and stops everything on SIGTERM', async () => {
    const ports = await freePorts();
    const dataDir = join(dir, 'data', 'postgres');
    const first = startCli(ports, dataDir);
    try {
      await until(
        () => first.output().includes('is running') || first.output().includes('Could not start'),
      );
      expect(first.output()).toContain('is running');
      expect(first.output()).toContain(`http://127.0.0.1:${ports.api}`);
      expect(first.output()).toMatch(/anon key\s+eyJ/);
      expect(first.output()).toContain('demo@reaction-blocks.local');
      // the providers server: the mailbox page and its JSON
      expect(first.output()).toMatch(new RegExp(`Mailbox\\s+http://127.0.0.1:${ports.providers}/`));
      expect((await fetch(`http://127.0.0.1:${ports.providers}/mailbox/messages`)).status).toBe(
        200,
      );

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
      const otherPorts = await freePorts();
      const other = startCli(otherPorts, join(dir, 'data', 'other'));
      try {
        await until(
          () => other.output().includes('is running') || other.output().includes('Could not start'),
        );
        expect(other.output()).toContain('is running');
      } finally {
        other.child.kill('SIGTERM');
        await other.exited;
      }

      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(existsSync(`${dataDir}.lock`)).toBe(false);
      for (const [service, port] of Object.entries(ports)) {
        expect(await listening(port), `${service} port ${port} still listening`).toBe(false);
      }
    } finally {
      first.child.kill('SIGKILL');
    }
  });
});
