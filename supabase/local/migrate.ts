// Applies the local bootstrap, then every not-yet-applied supabase/migrations/*.sql in order,
// recording them in supabase_migrations.schema_migrations as the Supabase CLI does.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { paths } from './paths.ts';

export interface MigrateResult {
  applied: string[];
  fresh: boolean;
}

export async function migrate(
  databaseUrl: string,
  opts: { seed?: boolean } = {},
): Promise<MigrateResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Serialise concurrent migrators (two stacks on one DATABASE_URL, for instance).
    await client.query('select pg_advisory_lock(7426001)');
    const hadTable = await client.query(
      `select 1 from information_schema.tables
       where table_schema = 'supabase_migrations' and table_name = 'schema_migrations'`,
    );
    // A Supabase project already has everything bootstrap.sql provides (and its own auth.uid()
    // and friends, which must not be replaced); `supabase_admin` exists only there.
    const isSupabase = await client.query(
      `select 1 from pg_roles where rolname = 'supabase_admin'`,
    );
    if (isSupabase.rowCount === 0) {
      await client.query(readFileSync(join(paths.local, 'bootstrap.sql'), 'utf8'));
    }
    // the Supabase CLI's bookkeeping of applied migrations
    await client.query(`
      create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (
        version text primary key, name text, statements text[]
      )`);
    const done = new Set(
      (
        await client.query<{ version: string }>(
          'select version from supabase_migrations.schema_migrations',
        )
      ).rows.map((r) => r.version),
    );
    const fresh = hadTable.rowCount === 0 || done.size === 0;
    const files = existsSync(paths.migrations)
      ? readdirSync(paths.migrations)
          .filter((f) => /^\d{14}_.+\.sql$/.test(f))
          .sort()
      : [];
    const applied: string[] = [];
    for (const file of files) {
      const version = file.slice(0, 14);
      if (done.has(version)) continue;
      const sql = readFileSync(join(paths.migrations, file), 'utf8');
      await client.query('begin');
      try {
        await client.query(sql);
        await client.query(
          'insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)',
          [version, file.slice(15, -4)],
        );
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw new Error(`migration ${file} failed: ${(err as Error).message}`);
      }
      applied.push(file);
    }
    if (fresh && opts.seed !== false && existsSync(paths.seed)) {
      await client.query(readFileSync(paths.seed, 'utf8'));
    }
    await client.query(`notify pgrst, 'reload schema'`);
    return { applied, fresh };
  } finally {
    await client.query('select pg_advisory_unlock(7426001)').catch(() => {});
    await client.end();
  }
}
