// The viewers of `npm run bench:live-likes`, in a process of their own (as realtime-viewers.ts):
// each has its own WebSocket through the gateway, joins the block's public topic and handles each
// hint as sdk/src/core/live.ts's hub does: a hint heard twice is read once; READS reads at once,
// the budget coming back one a second; beyond it the hint is dropped and the list is read again
// once, CATCH_UP_MS later (the comment element's resync: POST get_block_view, comment.read.ts).
// A read is `GET get_block_change` through `readUrl` (nginx, the CDN's stand-in); the counts a
// viewer learns (from a `counts` change or a catch-up's view) are stamped for the messages it
// tracks (those on its first page). Every `readEvery`-th viewer reads; the others run the same
// budget and count the reads and catch-ups they would make (one process cannot send 2,000
// browsers' reads on two shared cores: it became the bottleneck). Driven over IPC by
// live-likes.ts: `connect`, `reset` (the counters of a new case), `heard` (hints so far),
// `report`, `close`.
import { Agent, request as httpRequest } from 'node:http';
import WebSocket from 'ws';
import { request } from '../../sdk/src/core/api.ts';
import { blockJoinFrame, readFrame } from './realtime-join.ts';

// sdk/src/core/live.ts's READS, READ_REFILL_MS and CATCH_UP_MS (not exported by the SDK)
const READS = 10;
const READ_REFILL_MS = 1000;
const CATCH_UP_MS = 5000;
const HEARTBEAT_MS = 25_000;

interface Connect {
  type: 'connect';
  wsUrl: string;
  /** nginx in front of the gateway: what the viewers read through */
  readUrl: string;
  anonKey: string;
  block: string;
  viewers: number;
  /** the messages on a viewer's first page, whose counts are stamped */
  tracked: string[];
  /** every n-th viewer reads; the others count the reads and catch-ups they would make */
  readEvery: number;
}
type Command =
  Connect | { type: 'reset' } | { type: 'heard' } | { type: 'report' } | { type: 'close' };

const now = () => performance.timeOrigin + performance.now();

/**
 * The viewers' reads share this many connections to nginx (browsers have six each; 2,000 viewers'
 * ten reads at once would otherwise be 20,000 sockets of this one process).
 */
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** The request sdk/src/core/request.ts makes, sent over the shared agent; its JSON answer. */
function call(...[url, init]: ReturnType<typeof request>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { agent, method: init.method ?? 'GET', headers: init.headers as Record<string, string> },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'));
          } catch (err) {
            reject(err as Error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body as string | undefined);
  });
}

class Viewer {
  ws?: WebSocket;
  seen = new Set<string>();
  reads = READS;
  readAt = Date.now();
  catchUp?: ReturnType<typeof setTimeout>;
  applied: Promise<void> = Promise.resolve();
  hints = 0;
  sent = 0;
  catchUps = 0;
  errors = 0;
  /** per tracked message: [when, like_count] learnt */
  known = new Map<string, Array<[number, number]>>();

  constructor(
    private readonly c: Connect,
    /** sends its reads (else only counts them) */
    readonly reader: boolean,
  ) {}

  private learn(id: string, count: unknown, t: number): void {
    const list = this.known.get(id);
    if (list && typeof count === 'number') list.push([t, count]);
  }

  reset(): void {
    this.hints = this.sent = this.catchUps = this.errors = 0;
    this.known = new Map(this.c.tracked.map((id) => [id, []]));
  }

  join(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = (this.ws = new WebSocket(this.c.wsUrl));
      const timer = setTimeout(() => reject(new Error('join timed out')), 120_000);
      ws.on('error', reject);
      ws.on('open', () => {
        ws.send(blockJoinFrame(this.c.block));
        const beat = setInterval(
          () => ws.send(JSON.stringify([null, 'hb', 'phoenix', 'heartbeat', {}])),
          HEARTBEAT_MS,
        );
        ws.on('close', () => clearInterval(beat));
      });
      ws.on('message', (data) => {
        const { event, payload } = readFrame(data);
        if (event === 'phx_reply' && payload.status && timer) {
          clearTimeout(timer);
          if (payload.status === 'ok') resolve();
          else reject(new Error(`join refused: ${JSON.stringify(payload)}`));
        } else if (event === 'broadcast' && payload.event === 'hint' && payload.payload?.id)
          this.hint(payload.payload.id);
      });
    });
  }

  /** Takes a read from the budget (READS at most, one back every READ_REFILL_MS) if one is left. */
  private spend(): boolean {
    const t = Date.now();
    const refilled = this.reads + (t - this.readAt) / READ_REFILL_MS;
    [this.reads, this.readAt] = [Math.min(READS, refilled), t];
    const left = this.reads >= 1;
    if (left) this.reads -= 1;
    return left;
  }

  /** The catch-up the hub makes CATCH_UP_MS after the first hint beyond the budget. */
  private caughtUp(): void {
    this.catchUp = undefined;
    this.catchUps++;
    if (this.reader) void this.readView();
  }

  private hint(id: string): void {
    this.hints++;
    // the ids read lately (the hub keeps 200): a hint heard twice is read once
    if (this.seen.has(id)) return;
    this.seen.add(id);
    if (this.seen.size > 200) this.seen.delete(this.seen.values().next().value!);
    if (!this.spend()) {
      this.catchUp ??= setTimeout(() => this.caughtUp(), CATCH_UP_MS);
      return;
    }
    this.sent++;
    if (!this.reader) return;
    const p = { url: this.c.readUrl, key: this.c.anonKey };
    const read = call(
      ...request(p, 'get_block_change', { p_block_id: this.c.block, p_id: id }, '', true),
    ) as Promise<{ event?: string; payload?: Record<string, unknown> } | null>;
    // a failed read is counted where the chain reaches it, never an unhandled rejection meanwhile
    read.catch(() => {});
    this.applied = this.applied
      .then(() => read)
      .then((c) => {
        if (c?.event === 'counts') this.learn(String(c.payload?.id), c.payload?.like_count, now());
      })
      .catch(() => void this.errors++);
  }

  /** The catch-up: the view read again (not cacheable), its first page's counts learnt. */
  private async readView(): Promise<void> {
    try {
      const p = { url: this.c.readUrl, key: this.c.anonKey };
      const view = (await call(...request(p, 'get_block_view', { p_block_id: this.c.block }))) as {
        messages?: Array<{ id: string; like_count: number }>;
      } | null;
      const t = now();
      for (const m of view?.messages ?? []) this.learn(m.id, m.like_count, t);
    } catch {
      this.errors++;
    }
  }
}

let viewers: Viewer[] = [];

process.on('message', (cmd: Command) => {
  void (async () => {
    if (cmd.type === 'connect') {
      viewers = Array.from(
        { length: cmd.viewers },
        (_, i) => new Viewer(cmd, i % cmd.readEvery === 0),
      );
      for (const v of viewers) v.reset();
      const t0 = now();
      for (let i = 0; i < viewers.length; i += 200)
        await Promise.all(viewers.slice(i, i + 200).map((v) => v.join()));
      process.send!({ type: 'joined', ms: now() - t0 });
    } else if (cmd.type === 'reset') {
      for (const v of viewers) v.reset();
      process.send!({ type: 'reset' });
    } else if (cmd.type === 'heard') {
      process.send!({ type: 'heard', hints: viewers.reduce((n, v) => n + v.hints, 0) });
    } else if (cmd.type === 'report') {
      process.send!({
        type: 'report',
        viewers: viewers.map((v) => ({
          reader: v.reader,
          hints: v.hints,
          sent: v.sent,
          catchUps: v.catchUps,
          errors: v.errors,
          known: [...v.known],
        })),
      });
    } else {
      for (const v of viewers) {
        clearTimeout(v.catchUp);
        v.ws?.terminate();
      }
      viewers = [];
      process.send!({ type: 'closed' });
    }
  })().catch((err: Error) => process.send!({ type: 'error', message: err.message }));
});
