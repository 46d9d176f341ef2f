import { rpc } from './api.js';
import type { Project } from './config.js';
import { log } from './log.js';
import type { Message } from './types.js';

/**
 * A change of the block's messages. `live` marks those that came over Realtime (the list's
 * reply counts then follow the `counts` messages, not the inserts and deletes). REMOVE: a
 * published message was held or hidden by the owner (it leaves the list and the count);
 * `published`: an UPDATE of a message that became published (approved, shown again): counted now.
 */
export type Change =
  | { type: 'INSERT' | 'UPDATE'; row: Message; live?: boolean; published?: boolean }
  | { type: 'DELETE' | 'REMOVE'; row: Partial<Message> & { id: string }; live?: boolean };

/** A message's like or reply count moved: the delta and the value after it. */
export interface Counts {
  id: string;
  likes?: number;
  like_count?: number;
  replies?: number;
  reply_count?: number;
}

export interface Watcher {
  change(c: Change): void;
  counts(c: Counts): void;
  /** Joined again after a gap (hidden, offline, socket lost): changes may have been missed. */
  resync(): void;
}

const HEARTBEAT_MS = 25000;
const RETRY_MS = [1000, 2000, 5000, 10000, 30000];
/**
 * The wait before the n-th retry, spread from half to one and a half times RETRY_MS: when Realtime
 * closes every channel of the project at once (its messages-per-second quota, which anyone can
 * spend on a public topic: docs/security.md), the viewers must not all come back in the same
 * second and spend its joins-per-second quota next.
 */
const backoff = (n: number) => RETRY_MS[Math.min(n, RETRY_MS.length - 1)]! * (0.5 + Math.random());
/** A socket with no topic left stays open this long (scrolling back and forth does not churn). */
const LINGER_MS = 5000;
/**
 * Hint reads a topic may start at once; the budget comes back one read a second. Anyone may send
 * on the public topic: without it, a sender's flood of made-up ids became one read per hint per
 * viewer. Beyond it, hints are dropped and the list is read again, once, CATCH_UP_MS later.
 */
const READS = 10;
const READ_REFILL_MS = 1000;
const CATCH_UP_MS = 5000;

interface Sub {
  /** the block's id; its topic is `block:<id>` */
  block: string;
  /** a page's thread (page key): its topic is `block:<id>:page:<key>` */
  page?: string;
  el: Element;
  w: Watcher;
  visible: boolean;
  /** the data on screen is current (loaded just now, or joined since): no resync on the next join */
  fresh: boolean;
  /** what the data on screen was read after (the view's block: read_xmin; a read again moves it) */
  b?: { read_xmin?: number };
}

interface Topic {
  block: string;
  /** the page key of the thread (`''`: the block's own) */
  page: string;
  subs: Set<Sub>;
  joinRef?: string;
  joined: boolean;
  tries: number;
  retry?: ReturnType<typeof setTimeout>;
  /** ids of the changes read lately, and being read (a hint heard twice is read once) */
  seen: string[];
  /** changes are applied in the order of their hints, whatever order their reads answer in */
  applied: Promise<void>;
  /** hint reads left (READS at most) and when they were counted */
  reads: number;
  readAt: number;
  /** a catch-up is due: hints came faster than the reads budget */
  catchUp?: ReturnType<typeof setTimeout>;
}

/** A change as get_block_change answers it. */
type Read = { event: 'change' | 'counts'; payload: Record<string, unknown> } | null;

/**
 * The phx_join payload of a block's topic. A public topic: no token (the socket's apikey is
 * enough), no policy asked. The benchmarks' viewers send it too (scripts/bench/realtime-join.ts).
 */
export const PUBLIC_JOIN = {
  config: {
    broadcast: { ack: false, self: false },
    presence: { key: '', enabled: false },
    postgres_changes: [],
    private: false,
  },
};

const UUID = /^[\da-f]{8}(-[\da-f]{4}){3}-[\da-f]{12}$/;

/**
 * Live updates over one WebSocket per page and project, shared by every element: the part of the
 * Realtime protocol that `@supabase/realtime-js` speaks for broadcast channels (Phoenix, vsn 2.0.0
 * text frames `[join_ref, ref, topic, event, payload]`, phx_join, heartbeat every 25 s, rejoin
 * with back-off). realtime-js with its Phoenix client is about 17 KB gzip; this is about 2 KB.
 * The block topic is public, so joining it costs the database nothing; anyone may send on it, so
 * what it carries is only a hint naming a change, which is read with the cacheable GET
 * get_block_change (one database call per change behind a CDN, whatever the number of viewers)
 * and applied in the order of the hints. An element's topic is joined only while the element is
 * on screen (IntersectionObserver) and the page is visible; the socket is open only while some
 * topic is joined. Rejoining after a gap asks the element to read its list again. Checked
 * against the local stack's Realtime server by `npm run e2e`.
 */
class Hub {
  private ws?: WebSocket;
  private ref = 0;
  private beat?: ReturnType<typeof setInterval>;
  private linger?: ReturnType<typeof setTimeout>;
  private retry?: ReturnType<typeof setTimeout>;
  private tries = 0;
  private topics = new Map<string, Topic>();
  private io?: IntersectionObserver;
  private byEl = new Map<Element, Set<Sub>>();

  constructor(
    private url: string,
    private p: Project,
  ) {
    document.addEventListener('visibilitychange', () => this.sync());
  }

  add(sub: Sub): () => void {
    const name = topicOf(sub);
    const t: Topic = this.topics.get(name) || {
      block: sub.block,
      page: sub.page || '',
      subs: new Set(),
      joined: false,
      tries: 0,
      seen: [],
      applied: Promise.resolve(),
      reads: READS,
      // (reads start full: the refill tops them at READS)
      readAt: 0,
    };
    this.topics.set(name, t);
    t.subs.add(sub);
    const set = this.byEl.get(sub.el) || new Set();
    this.byEl.set(sub.el, set);
    set.add(sub);
    if (typeof IntersectionObserver == 'function') {
      this.io ||= new IntersectionObserver((entries) => {
        for (const e of entries)
          for (const s of this.byEl.get(e.target) || []) {
            // data loaded while off screen is stale by the time it shows
            if (!e.isIntersecting && !this.topics.get(topicOf(s))?.joined) s.fresh = false;
            s.visible = e.isIntersecting;
          }
        this.sync();
      });
      this.io.observe(sub.el);
    } else sub.visible = true;
    this.sync();
    return () => {
      t.subs.delete(sub);
      set.delete(sub);
      if (!set.size) {
        this.byEl.delete(sub.el);
        this.io?.unobserve(sub.el);
      }
      this.sync();
    };
  }

  private wanted(t: Topic): boolean {
    return document.visibilityState != 'hidden' && [...t.subs].some((s) => s.visible);
  }

  /** Joins and leaves topics, opens and closes the socket, to match what is wanted now. */
  private sync(): void {
    let any = false;
    for (const [name, t] of this.topics) {
      const want = this.wanted(t);
      any ||= want;
      if (want && !t.joinRef) this.join(name, t);
      else if (!want && t.joinRef) this.leave(name, t);
      if (!t.subs.size && !t.joinRef) this.topics.delete(name);
    }
    clearTimeout(this.linger);
    if (any) this.open();
    else if (this.ws) this.linger = setTimeout(() => this.close(), LINGER_MS);
  }

  private send(
    joinRef: string | null,
    topic: string,
    event: string,
    payload: object,
    ref = '' + ++this.ref,
  ): void {
    if (this.ws?.readyState == 1)
      this.ws.send(JSON.stringify([joinRef, ref, topic, event, payload]));
  }

  private open(): void {
    if (this.ws) return;
    const sock = (this.ws = new WebSocket(this.url));
    sock.onopen = () => {
      this.tries = 0;
      this.beat = setInterval(() => this.send(null, 'phoenix', 'heartbeat', {}), HEARTBEAT_MS);
      for (const [name, t] of this.topics) if (t.joinRef === '') this.join(name, t);
    };
    sock.onmessage = (e) => {
      try {
        const [joinRef, , topic, event, payload] = JSON.parse(e.data);
        const t = this.topics.get(String(topic).slice(9)); // 'realtime:' + name
        // a broadcast with this join's ref or an older one's: heard while joined
        if (t && event == 'broadcast') {
          if (t.joined) this.onBroadcast(t, payload);
        } else if (t && joinRef && joinRef === t.joinRef) this.onFrame(topic, t, event, payload);
      } catch (err) {
        log('realtime', err);
      }
    };
    sock.onclose = () => {
      if (this.ws != sock) return;
      // (closing a closed socket does nothing)
      this.close();
      if ([...this.topics.values()].some((t) => this.wanted(t)))
        this.retry = setTimeout(() => this.sync(), backoff(this.tries++));
    };
  }

  private close(): void {
    const sock = this.ws;
    this.ws = undefined;
    clearInterval(this.beat);
    clearTimeout(this.retry);
    for (const t of this.topics.values()) this.lost(t);
    sock?.close();
  }

  /** The topic is no longer joined: its subscribers will need to catch up. */
  private lost(t: Topic): void {
    t.joinRef = undefined;
    t.joined = false;
    clearTimeout(t.retry);
    // the rejoin catches up anyway
    clearTimeout(t.catchUp);
    t.catchUp = undefined;
    for (const s of t.subs) s.fresh = false;
  }

  private join(name: string, t: Topic): void {
    clearTimeout(t.retry);
    // '' = to be joined once the socket opens
    t.joinRef = '';
    if (this.ws?.readyState != 1) return;
    const ref = (t.joinRef = '' + ++this.ref);
    this.send(ref, 'realtime:' + name, 'phx_join', PUBLIC_JOIN, ref);
  }

  private leave(name: string, t: Topic): void {
    // '' (waiting for the socket) and 'wait' (refused, waiting to retry) were never joined
    if (t.joinRef != '' && t.joinRef != 'wait')
      this.send(t.joinRef || null, 'realtime:' + name, 'phx_leave', {});
    this.lost(t);
  }

  private onFrame(name: string, t: Topic, event: string, payload: Record<string, unknown>): void {
    if (event == 'phx_reply' && !t.joined) {
      if (payload?.status == 'error') this.refused(name, t, payload.response);
      else if (payload?.status == 'ok') {
        t.joined = true;
        t.tries = 0;
        for (const s of t.subs) {
          if (!s.fresh) s.w.resync();
          s.fresh = true;
        }
      }
    } else if (event == 'phx_close' || event == 'phx_error') this.refused(name, t, payload);
  }

  /** Refused or closed by the server (a key it does not take, too many joins): try again later. */
  private refused(name: string, t: Topic, why: unknown): void {
    log('realtime', name, why);
    this.lost(t);
    t.joinRef = 'wait';
    t.retry = setTimeout(() => {
      t.joinRef = undefined;
      this.sync();
    }, backoff(t.tries++));
  }

  /** A hint `{id}`: the change it names is read (once), then applied after those before it. */
  private onBroadcast(t: Topic, b: { event?: string; payload?: { id?: unknown } }): void {
    const id = b?.payload?.id;
    // anyone may send on the topic: only a well-formed id is read, and the read decides
    if (b?.event != 'hint' || typeof id != 'string' || !UUID.test(id) || t.seen.includes(id))
      return;
    const now = Date.now();
    t.reads = Math.min(READS, t.reads + (now - t.readAt) / READ_REFILL_MS);
    t.readAt = now;
    if (t.reads < 1) {
      t.catchUp ||= setTimeout(() => {
        t.catchUp = undefined;
        if (t.joined) for (const s of t.subs) s.w.resync();
      }, CATCH_UP_MS);
      return;
    }
    t.reads--;
    t.seen.push(id);
    const read = rpc<Read>(this.p, 'get_block_change', { p_block_id: t.block, p_id: id }, true);
    t.applied = t.applied
      .then(() => read)
      .then((c) => {
        const p = c?.payload;
        // an id that names no change (the read answers null, which the CDN keeps) leaves the seen
        // list, and only a change read makes it drop its oldest: made-up ids cannot push a real
        // change out of it to have it applied again (a made-up id heard again is read again, as
        // a new one would be, within the same budget)
        if (!p) return void (t.seen = t.seen.filter((s) => s != id));
        if (t.seen.length > 200) t.seen.shift();
        // the read checks the block, not the page: a hint replayed from another page's topic
        // names a message of that page's thread, which is not this one's
        const row = p.row as (Message & { page_key?: string }) | undefined;
        if (!t.joined || (row?.page_key ?? t.page) != t.page) return;
        // anyone may replay an old change's hint (its read answers for a minute): one written by a
        // transaction older than the oldest still running when the data on screen was read (the
        // view's read_xmin) is in that data already, and not applied again (break9 C2, C3; the
        // change id's last 48 bits are its transaction: realtime.sql)
        const xid = +('0x' + id.slice(24));
        for (const s of t.subs) {
          if (xid < (s.b?.read_xmin as number)) continue;
          // (what the server stored: a counts change always names its message)
          if (c.event == 'counts') s.w.counts(p as unknown as Counts);
          else if (c.event == 'change' && row?.id)
            s.w.change({ ...(p as unknown as Change), live: true });
        }
      })
      .catch((e) => log('realtime', e));
  }
}

/** A block's public topic, or its page's (one thread per page). */
const topicOf = (s: { block: string; page?: string }) =>
  'block:' + s.block + (s.page ? ':page:' + s.page : '');

// a new name whenever the hub's protocol changes: a page with two SDK versions keeps two hubs
const HUBS_KEY = '__reactionBlocksLive2';

/**
 * Watches the live changes of a block while `el` is visible: one socket per page and project
 * (shared with every other element of the page, whichever bundle loaded it), one public topic
 * `block:<id>` per block (`block:<id>:page:<key>` for a page's thread). `fresh` false: what `el`
 * shows may have missed changes, so the watcher resyncs once the topic is joined. Returns the
 * unsubscribe.
 */
export function watchBlock(
  p: Project,
  blockId: string,
  el: Element,
  w: Watcher,
  page = '',
  fresh = true,
  b?: Sub['b'],
): () => void {
  const url = `${p.url.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${encodeURIComponent(p.key)}&vsn=2.0.0`;
  const g = globalThis as unknown as Record<string, Map<string, Hub>>;
  const hubs = (g[HUBS_KEY] ||= new Map());
  let hub = hubs.get(url);
  if (!hub) hubs.set(url, (hub = new Hub(url, p)));
  return hub.add({ block: blockId, page, el, w, visible: false, fresh, b });
}
