// Supervision of the stack's children under `npm start`: a child that exits when nobody asked it
// to (a crash, an out-of-memory kill, someone's `kill`) is reported loudly and started again, so
// one dead process does not leave the API refusing every request until a person notices. Test
// and benchmark stacks leave supervision off: they fail instead of hiding a crash.

/** A child process as the stack holds it (Managed from process.ts, or the embedded Postgres). */
export interface Child {
  /** Resolves when the process has exited, with its exit code (null: ended by a signal). */
  exited: Promise<number | null | void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface SupervisedOptions<T extends Child> {
  name: string;
  /** Starts the child again, resolving once it answers (as the first start did). */
  start: () => Promise<T>;
  /** Restart it when it exits unasked; false: only report it. */
  restart: boolean;
  /** Where the reports go; `npm start` prints them whatever the log level. */
  report: (line: string) => void;
  /**
   * Called when the child cannot be kept running (it exited unasked without `restart`, or
   * `maxRestarts` times within a minute): the stack stops rather than run without it.
   */
  onGiveUp?: (reason: string) => void;
  maxRestarts?: number;
  /**
   * Whether the whole stack is stopping (a Ctrl-C reaches every child of the terminal's process
   * group at once, so children exit before the stack stops them): no report, no restart.
   */
  stopping?: () => boolean;
}

export interface Supervised<T extends Child> {
  /** The running child (another object after each restart). */
  current(): T;
  /** Stops the child on purpose: no report and no restart until `restart()`. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Stops the child if it runs and starts it again (on purpose). */
  restart(): Promise<void>;
  /** Restarts made after an unasked exit. */
  readonly restarts: number;
}

const WINDOW_MS = 60_000;

export function supervise<T extends Child>(first: T, opts: SupervisedOptions<T>): Supervised<T> {
  const maxRestarts = opts.maxRestarts ?? 5;
  let child = first;
  let wanted = true;
  let restarts = 0;
  /** When the recent unasked exits happened (for the back-off and the give-up rule). */
  let recentExits: number[] = [];

  const unwanted = () => !wanted || opts.stopping?.() === true;

  const watch = (watched: T) => {
    void watched.exited.then(async (code) => {
      // a moment first: a Ctrl-C ends the children while the stack's own handler starts
      await new Promise((r) => setTimeout(r, 250));
      if (unwanted() || watched !== child) return;
      const how = code === null || code === undefined ? 'was killed' : `exited with code ${code}`;
      opts.report(`${opts.name} ${how} unexpectedly`);
      if (opts.restart) void restartAfterExit();
      else opts.onGiveUp?.(`${opts.name} ${how}`);
    });
  };

  const restartAfterExit = async () => {
    const now = Date.now();
    recentExits = [...recentExits.filter((t) => now - t < WINDOW_MS), now];
    if (recentExits.length > maxRestarts) {
      const reason = `${opts.name} exited ${recentExits.length} times within a minute`;
      opts.report(`${reason}; not restarting it again`);
      opts.onGiveUp?.(reason);
      return;
    }
    // 0.25 s after a first exit (the wait above), doubling for each exit in the same minute
    const delay = Math.min(8_000, 250 * 2 ** (recentExits.length - 1)) - 250;
    await new Promise((r) => setTimeout(r, delay));
    if (unwanted()) return;
    try {
      const next = await opts.start();
      if (unwanted()) {
        await next.stop();
        return;
      }
      child = next;
      restarts++;
      opts.report(`${opts.name} restarted`);
      watch(next);
    } catch (err) {
      opts.report(`${opts.name} could not be restarted: ${(err as Error).message}`);
      // counts as another exit: retried with a longer back-off until the limit
      if (!unwanted()) void restartAfterExit();
    }
  };

  watch(first);
  return {
    current: () => child,
    get restarts() {
      return restarts;
    },
    async stop(signal) {
      wanted = false;
      await child.stop(signal);
    },
    async restart() {
      wanted = false;
      await child.stop('SIGKILL');
      child = await opts.start();
      wanted = true;
      watch(child);
    },
  };
}
