// What the database side of the local Realtime shares: the shapes of rows, tables and viewers,
// quoting for the SQL it builds, and the two policy checks hosted Realtime makes: "may this
// subscriber see that row?" (postgres_changes) and "may this viewer read or write that topic?"
// (private channels).
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export type ChangeType = 'INSERT' | 'UPDATE' | 'DELETE';
export type Row = Record<string, unknown>;

export interface TableInfo {
  schema: string;
  table: string;
  oid: number;
  pk: string[];
  rls: boolean;
  replicaFull: boolean;
  columns: Array<{ name: string; type: string }>;
}

/** Who is asking: the role to switch to and the JWT claims PostgREST would set. */
export interface Viewer {
  role: string;
  claims: Record<string, unknown>;
}

/** What the realtime.messages policies let a viewer do on a topic (hosted Realtime's check). */
export interface TopicRights {
  read: boolean;
  write: boolean;
}

export const ALLOWED_ROLES = new Set(['anon', 'authenticated', 'service_role']);

export const ident = (name: string) => '"' + name.replace(/"/g, '""') + '"';
export const qualified = (schema: string, table: string) => `${ident(schema)}.${ident(table)}`;

export function literal(value: unknown): string {
  const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  return pg.escapeLiteral(text);
}

export function pkWhere(info: TableInfo, row: Row): string | undefined {
  if (info.pk.length === 0) return undefined;
  const parts: string[] = [];
  for (const col of info.pk) {
    const v = row[col];
    if (v === null || v === undefined) return undefined;
    parts.push(`${ident(col)} = ${literal(v)}`);
  }
  return parts.join(' and ');
}

/**
 * postgres_changes: may the viewer see this row? INSERT/UPDATE: a select by primary key under its
 * role and claims (RLS); DELETE: the row is gone, so the role's table privilege (as on Supabase).
 */
export async function visibleTo(
  pool: pg.Pool,
  log: (line: string) => void,
  info: TableInfo,
  type: ChangeType,
  row: Row,
  viewer: Viewer,
): Promise<boolean> {
  if (!ALLOWED_ROLES.has(viewer.role)) return false;
  const client = await pool.connect();
  try {
    if (type === 'DELETE') {
      // the row is gone: RLS cannot be asked (as on Supabase); the role must still be able to read the table
      const r = await client.query<{ ok: boolean }>(
        'select has_table_privilege($1, $2::oid, $3) as ok',
        [viewer.role, info.oid, 'select'],
      );
      return r.rows[0]?.ok === true;
    }
    const where = pkWhere(info, row);
    if (!where) return false;
    // one round trip: switch role and claims for this transaction only, then look the row up
    const text =
      `begin; set local role ${ident(viewer.role)}; ` +
      `select set_config('request.jwt.claims', ${literal(JSON.stringify(viewer.claims))}, true); ` +
      `select 1 from ${qualified(info.schema, info.table)} where ${where}; commit;`;
    try {
      const results = (await client.query(text)) as unknown as pg.QueryResult[];
      return (results[3]?.rowCount ?? 0) > 0;
    } catch (err) {
      await client.query('rollback').catch(() => {});
      const message = (err as Error).message;
      if (!/permission denied/.test(message))
        log(`visibility check on ${info.schema}.${info.table} failed: ${message}`);
      return false;
    }
  } finally {
    client.release();
  }
}

/**
 * The private-channel check of hosted Realtime: in a transaction that is rolled back, a broadcast
 * and a presence message of the topic are inserted, then, as the viewer's role with its claims and
 * `realtime.topic` set, SELECT asks whether it may read them and INSERT whether it may write.
 */
export async function authorizeTopic(
  pool: pg.Pool,
  log: (line: string) => void,
  viewer: Viewer,
  topic: string,
): Promise<TopicRights> {
  if (!ALLOWED_ROLES.has(viewer.role)) return { read: false, write: false };
  const client = await pool.connect();
  const t = literal(topic);
  const ids = [randomUUID(), randomUUID()];
  try {
    const results = (await client.query(
      'begin; ' +
        `insert into realtime.messages (id, topic, extension) values (${literal(ids[0])}, ${t}, 'broadcast'), (${literal(ids[1])}, ${t}, 'presence'); ` +
        `set local role ${ident(viewer.role)}; ` +
        `select set_config('request.jwt.claims', ${literal(JSON.stringify(viewer.claims))}, true), set_config('realtime.topic', ${t}, true); ` +
        `select extension from realtime.messages where id in (${literal(ids[0])}, ${literal(ids[1])});`,
    )) as unknown as pg.QueryResult<{ extension: string }>[];
    const read = (results[4]?.rows ?? []).some((r) => r.extension === 'broadcast');
    let write = false;
    try {
      await client.query(
        `insert into realtime.messages (topic, extension) values (${t}, 'broadcast')`,
      );
      write = true;
    } catch (err) {
      const message = (err as Error).message;
      if (!/row-level security|permission denied/.test(message))
        log(`write check on ${topic} failed: ${message}`);
    }
    return { read, write };
  } catch (err) {
    log(`read check on ${topic} failed: ${(err as Error).message}`);
    return { read: false, write: false };
  } finally {
    await client.query('rollback').catch(() => {});
    client.release();
  }
}
