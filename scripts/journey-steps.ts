// The steps of a browser journey that goes on after a failed step (the SDK's end-to-end run and
// the React example's): each step's verdict, printed at the end, and the exit code.
export function journeySteps() {
  const results: Array<[string, string]> = [];
  let failed = 0;
  return {
    /** Runs one step; a failure is recorded with the first line of its message. */
    async step(name: string, fn: () => Promise<void>): Promise<void> {
      try {
        await fn();
        results.push(['ok', name]);
      } catch (e) {
        failed++;
        results.push(['FAIL', `${name}: ${(e as Error).message.split('\n')[0]}`]);
      }
    },
    /** A failure outside every step (the set-up): printed whole, and the run fails. */
    fail(what: string, e: unknown): void {
      failed++;
      console.error(`${what}:`, e);
    },
    /** Prints every step's verdict and exits, with 1 when anything failed. */
    finish(): never {
      for (const [s, n] of results) console.log(`${s.padEnd(4)} ${n}`);
      process.exit(failed ? 1 : 0);
    },
  };
}
