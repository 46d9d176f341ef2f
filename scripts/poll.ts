// The one wait for a state that tests, journeys and the local stack share: ask again until it
// holds, never sleep a fixed time and hope.

/**
 * Asks `check` again every `every` ms until it answers something other than `undefined` or
 * `false`, which is returned (a check that throws fails at once). After `ms` it fails with what
 * `explain` says: a string, or a function answering what was seen last (a string as it is,
 * anything else as JSON). `ms` only bounds a hang: a state a busy machine reaches late (2 cores
 * at load 20 run the stack ten times slower) is still waited for, and one reached at once is
 * answered at once.
 */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 60_000,
  explain?: string | (() => unknown),
  every = 25,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) {
      const seen = typeof explain === 'function' ? await explain() : explain;
      const said =
        seen === undefined ? '' : `: ${typeof seen === 'string' ? seen : JSON.stringify(seen)}`;
      throw new Error(`timed out waiting after ${ms} ms${said}`);
    }
    await new Promise((r) => setTimeout(r, every));
  }
}
