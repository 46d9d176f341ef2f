// A stack for one run of a test suite, a journey, a benchmark or a screenshot script: free ports,
// a new temporary directory, the development JWT secret, the web server, and Postgres without
// durability (speed over surviving a crash: docs/getting-started.md). Everything the stack keeps
// goes inside the directory (the database in pg/, the providers' state beside it in
// pg-providers/), and stop() removes the directory after the stack (or, when the process dies
// first, a watchdog once the stack's Postgres has stopped).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_JWT_SECRET, freePorts } from './config.ts';
import { removeWhenOrphaned } from './process.ts';
import { startStack, type Stack, type StackOptions } from './stack.ts';

export interface ThrowawayStack extends Stack {
  /** The run's temporary directory (the database is in pg/); removed by stop(). */
  dir: string;
}

/**
 * Starts a throwaway stack in a new directory `rb-<name>-XXXXXX` under the system's temporary
 * folder. `opts` overrides the defaults (ports, durability, web server, auth limits, log...).
 * Without `opts.ports` it picks free ones and may move a server whose port was taken before it
 * bound it (`stack.ports`, `apiUrl`... say where each listens).
 */
export async function startThrowawayStack(
  name: string,
  opts: Partial<Omit<StackOptions, 'dataDir'>> = {},
): Promise<ThrowawayStack> {
  const dir = mkdtempSync(join(tmpdir(), `rb-${name}-`));
  // a run that dies before its stop() (Ctrl-C, SIGTERM, SIGKILL) does not leave it behind either
  const untie = removeWhenOrphaned(dir);
  const remove = () => {
    untie();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const stack = await startStack({
      ports: opts.ports ?? (await freePorts()),
      // ports it picked itself: a server whose port another stack took meanwhile moves
      movablePorts: !opts.ports,
      dataDir: join(dir, 'pg'),
      jwtSecret: DEFAULT_JWT_SECRET,
      durable: false,
      web: true,
      ...opts,
    });
    const stopStack = stack.stop;
    // assigned onto the stack itself, so its live getters (gatewayPid) stay live
    return Object.assign(stack, {
      dir,
      async stop() {
        try {
          await stopStack();
        } finally {
          remove();
        }
      },
    });
  } catch (err) {
    remove();
    throw err;
  }
}
