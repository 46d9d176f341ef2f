// The SES fake's events between "published" and "the endpoint answered 2xx", kept in a journal
// in the providers' state directory (`ses-events.jsonl`), so that a stack killed mid-send still
// tells ses-events about every mail the fake accepted, as SES and SNS would (they do not die with
// our stack). A send's events (Send, then Delivery or the simulator's outcome) are written before
// SendEmail answers and fsync'd with the mailbox; an event leaves the journal when its delivery
// ends (2xx, or SNS's retries given up, as SNS discards it then). At start the journal is read
// again: events of a mail the mailbox never took (the stack died between the two writes) are
// dropped, those older than an hour too (SNS's longest delivery policy; ses-events refuses older
// messages), and the rest are published again once their topic's subscription is confirmed,
// with the same SNS MessageId and Timestamp, so ses-events applies each once.
import type { Log } from '../../process.ts';
import { Journal } from '../journal.ts';
import type { DeliveryRecord } from './sns.ts';

export interface PendingEvent {
  /** The SNS MessageId it is delivered with, on every attempt and after a restart. */
  id: string;
  /** The access key id of the account whose topic publishes it. */
  account: string;
  /** The SES event record: the notification's Message. */
  message: string;
  summary: { eventType: string; messageId: string };
  /** The mail's recipients (a divert picks its endpoint by them). */
  recipients: string[];
  /** When it is published (ms since the epoch); also its SNS Timestamp. */
  due: number;
}

type Line = { p: PendingEvent } | { d: string };

/** How long an event is kept for a delivery (SNS's HTTP delivery policy caps retries at 1 h). */
export const MAX_EVENT_AGE_MS = 3600_000;
/** The journal is rewritten as the pending events once its appends outgrow this. */
const REWRITE_BYTES = 8 * 1024 * 1024;

export class Outbox {
  private readonly pending = new Map<string, PendingEvent>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Events of an earlier run (they wait for a confirmed subscription, never dropped for want of one). */
  private readonly loaded = new Set<string>();
  /** Those of them waiting for their topic's subscription to be confirmed. */
  private readonly held = new Map<string, PendingEvent>();
  private readonly journal: Journal | undefined;

  constructor(
    /**
     * Posts an event to its topic's subscription (undefined when there is no confirmed one);
     * `done` is called once the delivery ended (2xx, or retries given up).
     */
    private readonly post: (event: PendingEvent, done: () => void) => DeliveryRecord | undefined,
    file: string | undefined,
    log: Log,
  ) {
    this.journal = file ? new Journal(file, log) : undefined;
  }

  /**
   * Takes back the events an earlier run had not delivered: `accepted(messageId)` tells whether
   * the mailbox took their mail. They wait for a confirmed subscription (`resume`).
   */
  load(accepted: (messageId: string) => boolean, log: Log): void {
    if (!this.journal) return;
    const found = new Map<string, PendingEvent>();
    for (const line of this.journal.read() as Line[]) {
      if ('p' in line) found.set(line.p.id, line.p);
      else found.delete(line.d);
    }
    const oldest = Date.now() - MAX_EVENT_AGE_MS;
    let dropped = 0;
    for (const event of found.values()) {
      if (event.due < oldest || !accepted(event.summary.messageId)) dropped++;
      else {
        this.pending.set(event.id, event);
        this.loaded.add(event.id);
        this.held.set(event.id, event);
      }
    }
    this.journal.rewrite([...this.pending.values()].map((p) => ({ p })));
    if (this.pending.size || dropped) {
      log(
        'providers',
        `ses: ${this.pending.size} event(s) of the last run to deliver once the events webhook is confirmed${dropped ? `, ${dropped} dropped (too old, or their mail never sent)` : ''}`,
      );
    }
  }

  /** Journals events before what they tell about is answered; `schedule` publishes them. */
  add(events: PendingEvent[]): void {
    for (const event of events) {
      this.pending.set(event.id, event);
      this.journal?.append({ p: event } satisfies Line);
    }
  }

  /** Publishes each event when it is due. */
  schedule(events: PendingEvent[]): void {
    for (const event of events) {
      const timer = setTimeout(
        () => {
          this.timers.delete(event.id);
          this.fire(event);
        },
        Math.max(0, event.due - Date.now()),
      );
      this.timers.set(event.id, timer);
    }
  }

  /** Resolves once every event added so far is on the disk. */
  sync(): Promise<void> {
    return this.journal?.sync() ?? Promise.resolve();
  }

  /** Publishes the held events of an account whose subscription was just confirmed. */
  resume(account: string): void {
    const ready = [...this.held.values()].filter((e) => e.account === account);
    for (const event of ready) this.held.delete(event.id);
    this.schedule(ready);
  }

  /** Journals an event and publishes it at once (what the post answered, undefined: dropped). */
  now(event: PendingEvent): DeliveryRecord | undefined {
    this.add([event]);
    return this.fire(event);
  }

  /** Forgets events without publishing them. */
  drop(events: Iterable<PendingEvent>): void {
    for (const event of [...events]) this.done(event.id);
  }

  /** Forgets an account's events (its reset), or every event. */
  forget(account?: string): void {
    this.drop(
      [...this.pending.values()].filter((e) => account === undefined || e.account === account),
    );
  }

  /** Stops the timers; what was not delivered stays in the journal for the next start. */
  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.journal?.close();
  }

  private fire(event: PendingEvent): DeliveryRecord | undefined {
    if (!this.pending.has(event.id)) return undefined;
    const record = this.post(event, () => this.done(event.id));
    // an event of this run published while nothing would receive it is dropped, as SNS drops
    // it; one of an earlier run waits for the subscription the stack makes at start
    if (record) return record;
    if (this.loaded.has(event.id)) this.held.set(event.id, event);
    else this.done(event.id);
    return undefined;
  }

  private done(id: string): void {
    if (!this.pending.delete(id)) return;
    this.held.delete(id);
    this.loaded.delete(id);
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
    if (!this.journal) return;
    this.journal.append({ d: id } satisfies Line);
    if (this.journal.appended > REWRITE_BYTES) {
      this.journal.rewrite([...this.pending.values()].map((p) => ({ p })));
    }
  }
}
