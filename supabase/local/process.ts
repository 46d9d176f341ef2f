// Child processes of the stack: spawned with piped, prefixed output; stopped on request.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export type Log = (service: string, line: string) => void;

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
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `probe` until it returns true, failing early if the process dies. */
export async function waitUntil(
  managed: Managed,
  probe: () => Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!managed.isRunning()) {
      throw new Error(`${managed.name} exited during start-up:\n${managed.tail()}`);
    }
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) {
      throw new Error(`${managed.name} was not ready after ${timeoutMs} ms:\n${managed.tail()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url);
  await res.body?.cancel();
  return res.ok;
}
