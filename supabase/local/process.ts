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
  return watch(WATCHDOG, [String(pid), signal.slice(3), String(Math.ceil(graceMs / 100))]);
}

/**
 * What a directory's watchdog does once its stdin reaches end of file: wait (up to a minute) for
 * the Postgres whose data directory is inside it to stop (its own watchdog asks it to; it writes
 * there until it has), then remove the directory.
 */
const REMOVER = `
while read -r _; do :; done
i=0
while [ -f "$1/pg/postmaster.pid" ] && [ "$i" -lt 600 ] &&
  kill -0 "$(head -n 1 "$1/pg/postmaster.pid" 2>/dev/null)" 2>/dev/null; do
  sleep 0.1; i=$((i+1))
done
rm -rf "$1"`;

/**
 * Removes the throwaway directory `dir` when this process dies without removing it (a Ctrl-C or a
 * SIGTERM to a test run ends it before any teardown): each such run left its database behind
 * (24 such directories, 1 GB, in this machine's /tmp on 2026-11-28). Returns the call that
 * unties it (before a normal stop, which removes the directory itself).
 */
export function removeWhenOrphaned(dir: string): () => void {
  return watch(REMOVER, [dir]);
}

/** A shell running `script` (args $1...) once this process's end closes its stdin. */
function watch(script: string, args: string[]): () => void {
  const watchdog = spawn('sh', ['-c', script, 'watchdog', ...args], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  watchdog.on('error', () => {});
  watchdog.stdin?.on('error', () => {});
  // neither the watchdog nor its pipe keeps this process alive
  watchdog.unref();
  (watchdog.stdin as unknown as Socket | null)?.unref?.();
  return () => {
    if (watchdog.exitCode === null && watchdog.signalCode === null) watchdog.kill('SIGKILL');
  };
}

/**
 * Calls `then` once the output of `child`, which has just exited, has been read: its last words
 * (a bind failure's "Address in use") may still be in the pipes when 'exit' comes, and a start
 * that read its tail then saw nothing and did not know to move the port (once in 7 starts
 * with Postgres at load 30). 'close' follows once the pipes are read; bounded, as a process the
 * child started may hold them open.
 */
export function whenOutputRead(child: ChildProcess, then: () => void, boundMs = 5_000): void {
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    then();
  };
  const timer = setTimeout(finish, boundMs);
  child.once('close', finish);
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
  /**
   * Whether the process has said it holds its port (the `bound` line of startProcess; true at
   * once without one).
   */
  bound(): boolean;
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Last lines of output, for error messages. */
  tail(): string;
}

export function startProcess(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions & {
    log: Log;
    /**
     * A line the process prints only once its listening socket is bound. Until it has said it, a
     * probe of its port that answers may be another server's (another stack's, which took the
     * port between its pick and this bind): waitUntil does not believe it.
     */
    bound?: RegExp;
  },
): Managed {
  const { log, bound: boundLine, ...spawnOptions } = options;
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...spawnOptions });
  const untie = child.pid ? tieToParent(child.pid) : () => {};
  let running = true;
  let recent = '';
  let bound = !boundLine;
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    recent = (recent + text).slice(-4000);
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      if (!bound && boundLine!.test(line)) bound = true;
      log(name, line);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      untie();
      whenOutputRead(child, () => {
        running = false;
        resolve(code);
      });
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
    bound: () => bound,
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
 * Polls `probe` until it returns true once the process has said it holds its port (`bound`),
 * failing early if the process dies. The deadline only bounds a hang: on a busy machine (2 cores
 * at load 20) a service takes minutes to answer, not seconds (the tests' stack once missed 30 s
 * for the gateway). A process that is not ready in time is stopped before the error: nothing is
 * left running that the caller never got hold of.
 */
export async function waitUntil(
  managed: Managed,
  probe: () => Promise<boolean>,
  timeoutMs = 120_000,
): Promise<true> {
  try {
    return await eventually(
      async () => {
        if (!managed.isRunning()) {
          throw new Error(`${managed.name} exited during start-up:\n${managed.tail()}`);
        }
        return managed.bound() && probe().catch(() => false);
      },
      timeoutMs,
      () => `${managed.name} was not ready:\n${managed.tail()}`,
      100,
    );
  } catch (err) {
    await managed.stop();
    throw err;
  }
}

export async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url);
  await res.body?.cancel();
  return res.ok;
}
