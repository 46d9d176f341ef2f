// Work that continues after a function has answered. Supabase's edge runtime provides
// `EdgeRuntime.waitUntil(promise)`: the isolate stays up until the promise settles. The local
// runner (supabase/local/deno/functions-main.ts) provides the same global.
import { apiUrl, env } from './env.ts';

declare global {
  // deno-lint-ignore no-var
  var EdgeRuntime: { waitUntil(promise: Promise<unknown>): void } | undefined;
}

/** Keeps `promise` running after the response; logs instead of throwing. */
export function inBackground(promise: Promise<unknown>, label: string): void {
  const guarded = promise.catch((err) => console.error(`[${label}]`, err));
  if (globalThis.EdgeRuntime) globalThis.EdgeRuntime.waitUntil(guarded);
}

/**
 * Asks the jobs worker to run now (after an enqueue, so mail leaves within seconds instead of
 * waiting for the schedule's next tick). The schedule still runs it if this call is lost.
 */
export function kickWorker(): void {
  inBackground(
    fetch(`${apiUrl()}/functions/v1/jobs-worker`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${env('JOBS_WORKER_SECRET')}`,
        'content-type': 'application/json',
      },
      body: '{"source":"kick"}',
    }).then((res) => res.body?.cancel()),
    'kick jobs-worker',
  );
}
