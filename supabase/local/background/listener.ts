// A connection that LISTENs on some channels and comes back after it is lost (a terminated backend,
// a restarted server), calling onWake on each notification and on each connect, so that its owner
// also re-reads what it may have missed while it was away.
import pg from 'pg';

/** What a worker's listener listens for (the worker's options give its database and log). */
export interface ListenerOptions {
  /** shown in pg_stat_activity (net.check_worker_is_up looks for 'pg_net worker') */
  applicationName: string;
  channels: string[];
  /** on a notification on one of the channels, and after each (re)connect */
  onWake: () => void;
}

/** What a background worker starts with: its database role and where it logs. */
export interface WorkerOptions {
  databaseUrl: string;
  log: (line: string) => void;
}

/** A started background worker (pg_cron's, pg_net's, or both). */
export interface BackgroundWorker {
  close(): Promise<void>;
}

const RETRY_MS = 1_000;

/** Waits for `promise` (settled either way) or `ms`, whichever comes first. */
export function withTimeout(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.catch(() => {}),
    new Promise((resolve) => (timer = setTimeout(resolve, ms))),
  ]).finally(() => clearTimeout(timer));
}

export class Listener {
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  /** the last query asked (settled or not): the next waits for it */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly worker: WorkerOptions,
    private readonly opts: ListenerOptions,
  ) {}

  /** The worker's listener, connected once: throws if the database cannot be reached now. */
  static async start(worker: WorkerOptions, opts: ListenerOptions): Promise<Listener> {
    const listener = new Listener(worker, opts);
    await listener.connect();
    return listener;
  }

  /**
   * Runs `text` on this connection once the queries asked before it have finished: the cron
   * runner's jobs ask at the same time, and pg deprecates (pg@9 refuses) a query sent to a client
   * still executing one.
   */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    const run = () =>
      this.client
        ? this.client.query<R>(text, values)
        : Promise.reject(new Error('not connected to the database'));
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.worker.databaseUrl,
      application_name: this.opts.applicationName,
    });
    client.on('notification', () => this.opts.onWake());
    client.on('error', (err) => this.lost(client, err.message));
    client.on('end', () => this.lost(client, 'connection closed'));
    await client.connect();
    for (const channel of this.opts.channels) await client.query(`listen ${channel}`);
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
    this.opts.onWake();
  }

  private lost(client: pg.Client, reason: string): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    this.worker.log(`lost the database connection (${reason}); reconnecting`);
    void client.end().catch(() => {});
    this.reconnectLater();
  }

  private reconnectLater(): void {
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.connect().catch(() => {
        if (!this.closed) this.reconnectLater();
      });
    }, RETRY_MS);
  }
}
