// Child processes of the stack: spawned with piped, prefixed output; stopped on request; and
// tied to this process, so that they stop when it dies, however it dies (see tieToParent).
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import type { Socket } from 'node:net';
import { eventually } from '../../scripts/poll.ts';

/**
 * What a watchdog does once its stdin reaches end of file: signal the child, give it `grace`
 * tenths of a second, then SIGKILL it. The kernel closes the pipe when this process exits for
 * any reason (a crash, SIGKILL, the end of a test worker), so the watchdog always wakes up.
 */
const WATCHDOG = `
while read -r _; do :; done
kill -s "$2" "$1" 2>/dev/null || exit 0
i=0
while kill -0 "$1" 2>/dev/null && [ "$i" -lt "$3" ]; do sleep 0.1; i=$((i+1)); done
kill -s KILL "$1" 2>/dev/null
exit 0`;

/**
 * Ties the process `pid` to this one: Linux has no PR_SET_PDEATHSIG from Node, and Postgres,
 * PostgREST and Deno do not watch their parent, so a small shell (in a session of its own, so a
 * Ctrl-C to the terminal's group does not end it first) holds a pipe from this process and stops
 * the child when the pipe closes. Returns the call that unties them (before a normal stop, so
 * the watchdog never signals a pid that has been reused since).
 */
export function tieToParent(
  pid: number,
  signal: 'SIGTERM' | 'SIGINT' = 'SIGTERM',
  graceMs = 10_000,
): () => void {
  const watchdog = spawn(
    'sh',
    ['-c', WATCHDOG, 'watchdog', String(pid), signal.slice(3), String(Math.ceil(graceMs / 100))],
    { stdio: ['pipe', 'ignore', 'ignore'], detached: true },
  );
  watchdog.on('error', () => {});
  watchdog.stdin?.on('error', () => {});
  // neither the watchdog nor its pipe keeps this process alive
  watchdog.unref();
  (watchdog.stdin as unknown as Socket | null)?.unref?.();
  return () => {
    if (watchdog.exitCode === null && watchdog.signalCode === null) watchdog.kill('SIGKILL');
  };
}

export type Log = (service: string, line: string) => void;

/**
 * The log lines `npm start` prints without LOG_LEVEL=debug: those that read as a failure. The
 * dashboard's e2e journey fails on any of them that ordinary use makes (an expected 401 or a
 * client that left is not a failure and must not read as one).
 */
export const looksLikeFailure = (line: string): boolean => /error|fatal|panic/i.test(line);

export interface Managed {
  name: string;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
  isRunning(): boolean;
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Last lines of output, for error messages. */
  tail(): string;
}

export function startProcess(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions & { log: Log },
): Managed {
  const { log, ...spawnOptions } = options;
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...spawnOptions });
  const untie = child.pid ? tieToParent(child.pid) : () => {};
  let running = true;
  let recent = '';
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    recent = (recent + text).slice(-4000);
    for (const line of text.split('\n')) if (line.trim()) log(name, line);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      running = false;
      untie();
      resolve(code);
    });
    child.once('error', (err) => {
      running = false;
      recent += `\n${err.message}`;
      resolve(null);
    });
  });
  return {
    name,
    child,
    exited,
    isRunning: () => running,
    tail: () => recent,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (!running) return;
      untie();
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Polls `probe` until it returns true, failing early if the process dies. The deadline only
 * bounds a hang: on a busy machine (2 cores at load 20) a service takes minutes to answer, not
 * seconds (the tests' stack once missed 30 s for the gateway).
 */
export const waitUntil = (
  managed: Managed,
  probe: () => Promise<boolean>,
  timeoutMs = 120_000,
): Promise<true> =>
  eventually(
    async () => {
      if (!managed.isRunning()) {
        throw new Error(`${managed.name} exited during start-up:\n${managed.tail()}`);
      }
      return probe().catch(() => false);
    },
    timeoutMs,
    () => `${managed.name} was not ready:\n${managed.tail()}`,
    100,
  );

export async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url);
  await res.body?.cancel();
  return res.ok;
}
