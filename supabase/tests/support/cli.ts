// `npm start` as a user runs it, from a test: a stack of its own in a process group of its own
// (so the test can SIGKILL the whole stack at once), on ports and a data directory the test picks.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import { eventually } from '../../../scripts/poll.ts';
import { listening, portsToEnv, type Ports } from '../../local/config.ts';
import { paths } from '../../local/paths.ts';
import { tieToParent } from '../../local/process.ts';

export interface Cli {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * `npm start` in a process group of its own (so a test can SIGKILL the whole stack at once),
 * tied to this test process: if the test dies or times out, the stack is stopped all the same.
 */
export function startCli(ports: Ports, dataDir: string, env: Record<string, string> = {}): Cli {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', join(paths.local, 'start.ts')], {
    cwd: paths.root,
    env: { ...process.env, SKIP_BUILD: '1', DATA_DIR: dataDir, ...portsToEnv(ports), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const untie = tieToParent(child.pid!, 'SIGTERM');
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      untie();
      resolve(code);
    }),
  );
  // whatever happens in the test, the stack does not outlive it
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
      child.kill('SIGKILL');
    }
  });
  return { child, output: () => out, exited };
}

/** Waits for a state of the stack (the one poll, every 100 ms; a start takes up to 3 minutes). */
export const until = (check: () => boolean | Promise<boolean>, ms = 180_000, what = 'a state') =>
  eventually(check, ms, what, 100);

export const started = (cli: Cli) =>
  until(
    () => cli.output().includes('is running') || cli.output().includes('Could not start'),
    180_000,
    'the stack to start',
  ).then(() => expect(cli.output()).toContain('is running'));

export async function nothingListens(ports: Ports) {
  for (const [service, port] of Object.entries(ports)) {
    await until(() => listening(port).then((l) => !l), 60_000, `${service} port ${port} to close`);
  }
}

/** Processes whose command line names `dir` (the stack's Postgres names its data directory). */
export function processesUsing(dir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(dir)) found.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** A killed stack is gone: its process ended, its ports free, no process on its data directory. */
export async function gone(cli: Cli, ports: Ports, dataDir: string) {
  await cli.exited;
  await nothingListens(ports);
  await until(
    () => processesUsing(dataDir).length === 0,
    60_000,
    'no process on the data directory',
  );
}

export const serviceKeyOf = (cli: Cli) => /service_role\s+(eyJ\S+)/.exec(cli.output())![1]!;
export const anonKeyOf = (cli: Cli) => /anon key\s+(eyJ\S+)/.exec(cli.output())![1]!;
