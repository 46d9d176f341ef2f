// The worker of the local pg_net stand-in (supabase/local/extensions/pg_net--0.19.5.sql): what
// pg_net's background worker does on a Supabase project. Woken by the queue's NOTIFY (sent only
// when the inserting transaction commits, so a rolled-back request is never sent) or, as a
// fallback, by a poll, it takes committed rows from net.http_request_queue (deleting them, as
// pg_net does), sends them with fetch (redirects followed, the row's timeout), at most
// `concurrency` at a time and without ever blocking the cron worker, and writes each outcome to
// net._http_response, whose rows it deletes after pg_net's TTL.
import { coalesced } from './coalesced.ts';
import { Listener, withTimeout, type BackgroundWorker, type WorkerOptions } from './listener.ts';

/** databaseUrl: a role that may read and delete the queue and write the responses. */
export interface NetWorkerOptions extends WorkerOptions {
  /** requests in flight at once */
  concurrency?: number;
}

interface QueuedRequest {
  id: string;
  method: string;
  url: string;
  headers: Record<string, unknown> | null;
  body: Buffer | null;
  timeout_milliseconds: number;
}

const CHANNEL = 'pg_net_wake';
/** Fallback for a wake-up missed while the connection was down. */
const POLL_MS = 10_000;
/** pg_net.ttl */
const RESPONSE_TTL = '6 hours';
const PURGE_EVERY_MS = 10 * 60_000;
const CLOSE_WAIT_MS = 5_000;

export async function startNet(opts: NetWorkerOptions): Promise<BackgroundWorker> {
  const log = opts.log;
  const concurrency = opts.concurrency ?? 16;
  const inFlight = new Set<Promise<void>>();
  const stopping = new AbortController();
  let installed = false;
  let closed = false;
  // the listener wakes the worker as it connects, before `db` below is assigned: that wake-up is
  // passed over, and the first pass runs once `db` is there (as cron.ts's reload); it used to
  // fail ("Cannot access 'db' before initialization"), and what was queued before the start
  // waited for the 10-second poll
  let ready = false;
  let lastPurge = 0;

  const drain = coalesced(takeQueued, () => !ready || closed);

  const db = await Listener.start(opts, {
    // net.check_worker_is_up() looks for this name
    applicationName: 'pg_net worker',
    channels: [CHANNEL],
    onWake: () => drain(),
  });
  ready = true;
  drain();
  const poll = setInterval(() => drain(), POLL_MS);

  /**
   * One pass of drain: takes as many queued requests as there are free slots; true when there may
   * be more.
   */
  async function takeQueued(): Promise<boolean> {
    try {
      if (!installed) {
        const { rows } = await db.query<{ ok: boolean }>(
          `select to_regclass('net.http_request_queue') is not null as ok`,
        );
        installed = rows[0]!.ok;
        if (!installed) return false;
      }
      purgeNowAndThen();
      const free = concurrency - inFlight.size;
      if (free <= 0) return false; // a finishing request drains again
      const { rows } = await db.query<QueuedRequest>(
        `with batch as (
           select id from net.http_request_queue order by id limit $1 for update skip locked
         )
         delete from net.http_request_queue as q using batch where q.id = batch.id
         returning q.id, q.method, q.url, q.headers, q.body, q.timeout_milliseconds`,
        [free],
      );
      for (const request of rows) track(send(request));
      return rows.length === free;
    } catch (err) {
      log(`could not read net.http_request_queue: ${(err as Error).message}`);
      return false;
    }
  }

  function track(p: Promise<void>): void {
    inFlight.add(p);
    void p.finally(() => {
      inFlight.delete(p);
      drain();
    });
  }

  async function send(request: QueuedRequest): Promise<void> {
    const ms = request.timeout_milliseconds;
    let outcome: unknown[];
    try {
      const url = new URL(request.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new Error(`Unsupported protocol "${url.protocol.slice(0, -1)}"`);
      }
      const headers = Object.entries(request.headers ?? {}).map(([k, v]): [string, string] => [
        k,
        typeof v === 'string' ? v : JSON.stringify(v),
      ]);
      const signal = AbortSignal.any([AbortSignal.timeout(ms), stopping.signal]);
      const res = await fetch(url, {
        method: request.method.toUpperCase(),
        headers,
        body:
          request.method.toUpperCase() === 'GET' || !request.body
            ? undefined
            : new Uint8Array(request.body),
        signal,
      });
      const content = await res.text();
      const responseHeaders: Record<string, string> = {};
      res.headers.forEach((value, name) => (responseHeaders[name] = value));
      outcome = [
        res.status,
        res.headers.get('content-type'),
        JSON.stringify(responseHeaders),
        content === '' ? null : content,
        false,
        null,
      ];
    } catch (err) {
      const e = err as Error & { cause?: Error };
      const timedOut = e.name === 'TimeoutError';
      const message = timedOut
        ? `Timeout of ${ms} ms reached`
        : stopping.signal.aborted
          ? 'the local stack stopped before the request finished'
          : (e.cause?.message ?? e.message);
      outcome = [null, null, null, null, timedOut, message];
    }
    await db
      .query(
        `insert into net._http_response
           (id, status_code, content_type, headers, content, timed_out, error_msg)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [request.id, ...outcome],
      )
      .catch((err: Error) => log(`could not record response ${request.id}: ${err.message}`));
  }

  function purgeNowAndThen(): void {
    if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = Date.now();
    db.query(
      `delete from net._http_response where created < now() - interval '${RESPONSE_TTL}'`,
    ).catch((err: Error) => log(`could not purge net._http_response: ${err.message}`));
  }

  return {
    async close() {
      closed = true;
      clearInterval(poll);
      stopping.abort();
      await withTimeout(Promise.allSettled(inFlight), CLOSE_WAIT_MS);
      await db.close();
    },
  };
}
