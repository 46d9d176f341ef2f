// Change capture for the local Realtime: row triggers on the tables of publication
// `supabase_realtime` send each committed change through pg_notify on channel `_realtime_local`;
// one dedicated connection LISTENs. Everything lives in schema `_realtime_local`, created at
// start-up (never in the migrations, which stay hosted-compatible: hosted Supabase reads the WAL).
// Also answers the policy questions of policies.ts on a small pool.
import pg from 'pg';
import { tx } from '../transaction.ts';
import {
  authorizeTopic,
  pkWhere,
  qualified,
  visibleTo,
  type ChangeType,
  type Row,
  type TableInfo,
  type TopicRights,
  type Viewer,
} from './policies.ts';

export { ALLOWED_ROLES } from './policies.ts';
export type { ChangeType, Row, TableInfo, TopicRights, Viewer } from './policies.ts';

export const CHANNEL = '_realtime_local';
/** Where the local stand-in of realtime.send (supabase/local/bootstrap.sql) notifies. */
export const BROADCAST_CHANNEL = '_realtime_local_broadcast';
const TRIGGER = '_realtime_local_capture';
const LOCK_KEY = 7426077;

export interface ChangeEvent {
  schema: string;
  table: string;
  type: ChangeType;
  commit_timestamp: string;
  /** new row (INSERT/UPDATE) */
  record: Row | null;
  /** previous row (UPDATE/DELETE), full as captured */
  old_record: Row | null;
  /** the trigger sent only primary keys because the row was too big for a notification */
  truncated: boolean;
}

/** A message sent from the database with realtime.send (a row of realtime.messages). */
export interface DbBroadcast {
  id: string;
  topic: string;
  event: string;
  private: boolean;
  payload: unknown;
}

const SETUP_SQL = `
create schema if not exists ${CHANNEL};
revoke all on schema ${CHANNEL} from public;
create or replace function ${CHANNEL}.capture() returns trigger
language plpgsql security definer set search_path = pg_catalog
as $fn$
declare
  rec jsonb;
  prev jsonb;
  msg jsonb;
  txt text;
  keys text[];
begin
  if tg_op <> 'DELETE' then rec := to_jsonb(new); end if;
  if tg_op <> 'INSERT' then prev := to_jsonb(old); end if;
  msg := jsonb_build_object(
    's', tg_table_schema, 't', tg_table_name, 'op', tg_op,
    'ts', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'new', rec, 'old', prev);
  txt := msg::text;
  if octet_length(txt) > 7900 then
    -- too big for a notification: send the primary key only, the server re-reads the row
    select coalesce(array_agg(a.attname::text), '{}') into keys
      from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
     where i.indrelid = tg_relid and i.indisprimary;
    msg := msg || jsonb_build_object(
      'big', true,
      'new', case when rec is null then null else (select jsonb_object_agg(k, rec -> k) from unnest(keys) k) end,
      'old', case when prev is null then null else (select jsonb_object_agg(k, prev -> k) from unnest(keys) k) end);
    txt := msg::text;
    if octet_length(txt) > 7900 then
      return null; -- never fail the writer's transaction over a notification
    end if;
  end if;
  perform pg_notify('${CHANNEL}', txt);
  return null;
end
$fn$;
`;

const TABLES_SQL = `
select p.schemaname as schema, p.tablename as table, c.oid::int as oid,
       c.relrowsecurity as rls, c.relreplident = 'f' as replica_full,
       coalesce((select array_agg(a.attname::text order by array_position(i.indkey::int2[], a.attnum))
                   from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                  where i.indrelid = c.oid and i.indisprimary), '{}') as pk,
       coalesce((select json_agg(json_build_object('name', a.attname, 'type', t.typname) order by a.attnum)
                   from pg_attribute a join pg_type t on t.oid = a.atttypid
                  where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '[]') as columns,
       exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = '${TRIGGER}') as has_trigger
  from pg_publication_tables p
  join pg_namespace n on n.nspname = p.schemaname
  join pg_class c on c.relnamespace = n.oid and c.relname = p.tablename
 where p.pubname = 'supabase_realtime' and c.relkind = 'r'`;

const STALE_TRIGGERS_SQL = `
select n.nspname as schema, c.relname as table
  from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_namespace n on n.oid = c.relnamespace
 where g.tgname = '${TRIGGER}'
   and not exists (select 1 from pg_publication_tables p
                    where p.pubname = 'supabase_realtime' and p.schemaname = n.nspname and p.tablename = c.relname)`;

export interface Capture {
  /** Publication tables known now, keyed "schema.table". */
  tables(): Map<string, TableInfo>;
  /** Re-reads the publication and installs/removes triggers. Concurrent calls share one run. */
  refresh(): Promise<Map<string, TableInfo>>;
  /** For each viewer: may it see this row (INSERT/UPDATE: select by primary key under RLS; DELETE: table privilege)? */
  visible(info: TableInfo, type: ChangeType, row: Row, viewers: Viewer[]): Promise<boolean[]>;
  /**
   * The private-channel check of hosted Realtime: in a transaction that is rolled back, a
   * broadcast and a presence message of the topic are inserted, then, as the viewer's role with
   * its claims and `realtime.topic` set, SELECT asks whether the viewer may read them and INSERT
   * whether it may write.
   */
  authorize(viewer: Viewer, topic: string): Promise<TopicRights>;
  /** A database broadcast whose notification carried only its id. */
  readBroadcast(id: string): Promise<DbBroadcast | null>;
  /** Deletes realtime.messages rows older than a day (hosted drops daily partitions). */
  prune(): Promise<void>;
  /** Reads a full row by its primary key (for events too big for a notification). */
  readRow(info: TableInfo, keys: Row): Promise<Row | null>;
  close(): Promise<void>;
}

export async function startCapture(opts: {
  databaseUrl: string;
  onChange: (event: ChangeEvent) => void;
  onBroadcast: (message: DbBroadcast | { id: string; partial: true }) => void;
  log: (line: string) => void;
}): Promise<Capture> {
  const pool = new pg.Pool({
    connectionString: opts.databaseUrl,
    max: 6,
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', (err) => opts.log(`pool error: ${err.message}`));
  // a connection the pool already let go of may still hear the server shut down: never an uncaught error
  pool.on('connect', (client) => client.on('error', () => {}));
  let known = new Map<string, TableInfo>();
  let refreshing: Promise<Map<string, TableInfo>> | undefined;
  let closed = false;
  let listener: pg.Client | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;

  async function runRefresh(): Promise<Map<string, TableInfo>> {
    const tables = await tx(pool, async (client) => {
      await client.query('select pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const rows = (
        await client.query<{
          schema: string;
          table: string;
          oid: number;
          rls: boolean;
          replica_full: boolean;
          pk: string[];
          columns: Array<{ name: string; type: string }>;
          has_trigger: boolean;
        }>(TABLES_SQL)
      ).rows;
      for (const r of rows) {
        if (!r.has_trigger) {
          await client.query(
            `create or replace trigger ${TRIGGER} after insert or update or delete on ${qualified(r.schema, r.table)}
             for each row execute function ${CHANNEL}.capture()`,
          );
          opts.log(`capturing changes of ${r.schema}.${r.table}`);
        }
      }
      for (const r of (await client.query<{ schema: string; table: string }>(STALE_TRIGGERS_SQL))
        .rows) {
        await client.query(`drop trigger if exists ${TRIGGER} on ${qualified(r.schema, r.table)}`);
        opts.log(`stopped capturing ${r.schema}.${r.table} (left the publication)`);
      }
      return rows;
    });
    const next = new Map<string, TableInfo>();
    for (const r of tables) {
      next.set(`${r.schema}.${r.table}`, {
        schema: r.schema,
        table: r.table,
        oid: r.oid,
        pk: r.pk,
        rls: r.rls,
        replicaFull: r.replica_full,
        columns: r.columns,
      });
    }
    known = next;
    return next;
  }

  function refresh(): Promise<Map<string, TableInfo>> {
    if (!refreshing) {
      refreshing = runRefresh().finally(() => {
        refreshing = undefined;
      });
    }
    return refreshing;
  }

  function handleNotification(msg: pg.Notification) {
    if (msg.channel === BROADCAST_CHANNEL && msg.payload) {
      try {
        const p = JSON.parse(msg.payload) as Partial<DbBroadcast> & { id: string };
        if (typeof p.topic === 'string' && typeof p.event === 'string') {
          opts.onBroadcast({
            id: p.id,
            topic: p.topic,
            event: p.event,
            private: p.private !== false,
            payload: p.payload ?? {},
          });
        } else opts.onBroadcast({ id: p.id, partial: true });
      } catch (err) {
        opts.log(`bad broadcast notification: ${(err as Error).message}`);
      }
      return;
    }
    if (msg.channel !== CHANNEL || !msg.payload) return;
    try {
      const p = JSON.parse(msg.payload) as {
        s: string;
        t: string;
        op: ChangeType;
        ts: string;
        new: Row | null;
        old: Row | null;
        big?: boolean;
      };
      opts.onChange({
        schema: p.s,
        table: p.t,
        type: p.op,
        commit_timestamp: p.ts,
        record: p.new,
        old_record: p.old,
        truncated: p.big === true,
      });
    } catch (err) {
      opts.log(`bad change notification: ${(err as Error).message}`);
    }
  }

  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString: opts.databaseUrl });
    client.on('notification', handleNotification);
    client.on('error', (err) => {
      opts.log(`listener error: ${err.message}`);
      scheduleReconnect();
    });
    client.on('end', () => scheduleReconnect());
    await client.connect();
    await client.query(`listen ${CHANNEL}; listen ${BROADCAST_CHANNEL}`);
    listener = client;
  }

  function scheduleReconnect() {
    if (closed || reconnectTimer) return;
    const old = listener;
    listener = undefined;
    old?.removeAllListeners('end');
    void old?.end().catch(() => {});
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      if (closed) return;
      listen()
        .then(() => opts.log('listener reconnected'))
        .catch((err: Error) => {
          opts.log(`listener reconnect failed: ${err.message}`);
          scheduleReconnect();
        });
    }, 1000);
  }

  // set-up: schema and function (serialised with other stacks on the same database), triggers, LISTEN
  await tx(pool, async (client) => {
    await client.query('select pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await client.query(SETUP_SQL);
  }).catch(async (err: unknown) => {
    await pool.end();
    throw err;
  });
  try {
    await refresh();
    await listen();
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }

  return {
    tables: () => known,
    authorize: (viewer, topic) => authorizeTopic(pool, opts.log, viewer, topic),
    async readBroadcast(id) {
      const r = await pool.query<DbBroadcast>(
        'select id, topic, event, coalesce(private, false) as private, payload from realtime.messages where id = $1',
        [id],
      );
      return r.rows[0] ?? null;
    },
    async prune() {
      await pool.query(
        "delete from realtime.messages where inserted_at < now() - interval '1 day'",
      );
    },
    refresh,
    visible: (info, type, row, viewers) =>
      Promise.all(viewers.map((v) => visibleTo(pool, opts.log, info, type, row, v))),
    async readRow(info, keys) {
      const where = pkWhere(info, keys);
      if (!where) return null;
      const r = await pool.query<{ row: Row }>(
        `select to_jsonb(t) as row from ${qualified(info.schema, info.table)} t where ${where}`,
      );
      return r.rows[0]?.row ?? null;
    },
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const l = listener;
      listener = undefined;
      l?.removeAllListeners('end');
      await l?.end().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}
