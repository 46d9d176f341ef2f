// postgres_changes: each captured change, in commit order, goes to the channels whose
// subscriptions match it, after RLS says each distinct viewer may see the row (one check per
// distinct role and claims: many viewers of one user cost one query).
import { isCurrent, push, type Channel, type Subscription } from './channel.ts';
import type { ChangeEvent, Row, TableInfo, Viewer } from './changes.ts';
import type { Context } from './context.ts';
import { matches } from './filters.ts';

function pick(row: Row, keys: string[]): Row {
  const out: Row = {};
  for (const k of keys) if (k in row) out[k] = row[k];
  return out;
}

function subMatches(s: Subscription, ev: ChangeEvent, row: Row | null): boolean {
  if (s.event !== '*' && s.event !== ev.type) return false;
  if (s.schema !== '*' && s.schema !== ev.schema) return false;
  if (s.table !== undefined && s.table !== ev.table) return false;
  return matches(s.conditions, row);
}

/** The `data` of a postgres_changes push, as hosted Realtime shapes it. */
function changeData(ev: ChangeEvent, info: TableInfo, record: Row | null): Record<string, unknown> {
  // old values: the whole row only with REPLICA IDENTITY FULL and no RLS, else the primary key
  const old = ev.old_record
    ? info.replicaFull && !info.rls && !ev.truncated
      ? ev.old_record
      : pick(ev.old_record, info.pk)
    : null;
  const data: Record<string, unknown> = {
    schema: ev.schema,
    table: ev.table,
    commit_timestamp: ev.commit_timestamp,
    type: ev.type,
    columns: info.columns,
    errors: null,
  };
  if (ev.type !== 'DELETE') data.record = record;
  if (ev.type !== 'INSERT') data.old_record = old;
  return data;
}

export class PostgresChanges {
  private readonly queue: ChangeEvent[] = [];
  private draining: Promise<void> | undefined;

  constructor(private readonly ctx: Context) {}

  /** A change from the capture; delivered after those before it. */
  enqueue(event: ChangeEvent): void {
    this.queue.push(event);
    this.draining ??= this.drain().finally(() => (this.draining = undefined));
  }

  /** Drops what is queued and waits for the delivery under way. */
  async stop(): Promise<void> {
    this.queue.length = 0;
    await this.draining?.catch(() => {});
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const event = this.queue.shift()!;
      try {
        await this.deliver(event);
      } catch (err) {
        this.ctx.log(
          `delivering a ${event.type} on ${event.schema}.${event.table} failed: ${(err as Error).message}`,
        );
      }
    }
  }

  /** The channels whose subscriptions match, with the ids of those subscriptions. */
  private targets(ev: ChangeEvent, filterRow: Row | null): Map<Channel, number[]> {
    const targets = new Map<Channel, number[]>();
    for (const ch of this.ctx.registry.channels()) {
      for (const s of ch.subs) {
        if (!subMatches(s, ev, filterRow)) continue;
        const ids = targets.get(ch) ?? [];
        if (!ids.includes(s.id)) ids.push(s.id);
        targets.set(ch, ids);
      }
    }
    return targets;
  }

  private async deliver(ev: ChangeEvent): Promise<void> {
    const { capture } = this.ctx;
    if (this.ctx.closing) return;
    const info = capture.tables().get(`${ev.schema}.${ev.table}`);
    if (!info) return;
    let record = ev.record;
    if (ev.truncated && record) {
      record = await capture.readRow(info, record);
      if (!record) return;
    }
    const targets = this.targets(ev, ev.type === 'DELETE' ? ev.old_record : record);
    if (targets.size === 0) return;

    const byViewer = new Map<string, { viewer: Viewer; channels: Channel[] }>();
    for (const ch of targets.keys()) {
      const k = ch.viewer.role + '|' + JSON.stringify(ch.viewer.claims);
      const entry = byViewer.get(k) ?? { viewer: ch.viewer, channels: [] };
      entry.channels.push(ch);
      byViewer.set(k, entry);
    }
    const entries = [...byViewer.values()];
    const row = (ev.type === 'DELETE' ? ev.old_record : record) ?? {};
    const allowed = await capture.visible(
      info,
      ev.type,
      row,
      entries.map((e) => e.viewer),
    );
    if (
      record &&
      info.columns.length > 0 &&
      Object.keys(record).some((k) => !info.columns.some((c) => c.name === k))
    ) {
      void capture.refresh().catch(() => {}); // columns changed: re-read the table's description
    }
    const data = changeData(ev, info, record);
    entries.forEach((entry, i) => {
      if (!allowed[i]) return;
      for (const ch of entry.channels) {
        if (!isCurrent(ch)) continue; // left meanwhile
        push(ch, 'postgres_changes', { ids: targets.get(ch), data });
      }
    });
  }
}
