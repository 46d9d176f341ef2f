// PostgREST follows DDL at once, as on hosted Supabase, whose event triggers pgrst_ddl_watch and
// pgrst_drop_watch send NOTIFY pgrst 'reload schema' (supabase/local/bootstrap.sql has the same):
// a migration applied to a running stack is served without a restart. Each test makes and drops
// objects of its own only.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { anonClient, sql, stack } from './support/clients.ts';
import { eventually } from './support/providers.ts';

const unique = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

describe('PostgREST schema reload after DDL', () => {
  it('a function created in SQL is callable through PostgREST, and gone once dropped', async () => {
    const name = unique('reload_probe');
    await sql(`create function public.${name}() returns text language sql as $$ select 'here' $$`);
    try {
      const answer = await eventually(async () => {
        const { data, error } = await anonClient().rpc(name);
        return error ? undefined : (data as string);
      });
      expect(answer).toBe('here');
    } finally {
      await sql(`drop function public.${name}()`);
    }
    const gone = await eventually(async () => {
      const { error } = await anonClient().rpc(name);
      return error?.code === 'PGRST202' ? error : undefined;
    });
    expect(gone.code).toBe('PGRST202');
  });

  it('DDL on temporary objects sends no reload (the local pg_cron runner makes one per run)', async () => {
    const listener = new pg.Client({ connectionString: stack().dbUrl });
    const writer = new pg.Client({ connectionString: stack().dbUrl });
    await listener.connect();
    await writer.connect();
    try {
      const pid = (await writer.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!
        .pid;
      const fromWriter: string[] = [];
      listener.on('notification', (n) => {
        if (n.channel === 'pgrst' && n.processId === pid) fromWriter.push(n.payload ?? '');
      });
      await listener.query('listen pgrst');
      const table = unique('reload_table');
      await writer.query(`create temporary table ${table}_tmp (id int)`);
      await writer.query(
        `create function pg_temp.${table}_fn() returns int language sql as 'select 1'`,
      );
      await writer.query(`drop table ${table}_tmp`);
      // then a real one: its notices come after any the temporary DDL would have sent
      await writer.query(`create table public.${table} (id int)`);
      await writer.query(`drop table public.${table}`);
      await eventually(() => fromWriter.length >= 2);
      expect(fromWriter).toEqual(['reload schema', 'reload schema']);
    } finally {
      await writer.end();
      await listener.end();
    }
  });
});
