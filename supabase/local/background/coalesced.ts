// One pass at a time for the background workers' wake-ups (cron.ts's reload, net.ts's drain).

/**
 * A task run one pass at a time, for wake-ups that come in bursts: a call while a pass runs asks
 * for one more pass after it instead of a second pass beside it, and so does a pass that answers
 * true (more may be waiting). No pass starts once `stopped()`; `after` runs when the passes end.
 * A pass logs its own failures: it must not throw.
 */
export function coalesced(
  pass: () => Promise<boolean | void>,
  stopped: () => boolean,
  after?: () => void,
): () => void {
  let running = false;
  let again = false;
  return () => {
    if (stopped()) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    void (async () => {
      do {
        again = false;
        if (await pass()) again = true;
      } while (again && !stopped());
      running = false;
      after?.();
    })();
  };
}
