// Applies the local bootstrap, then every not-yet-applied supabase/migrations/*.sql in order,
// recording them in supabase_migrations.schema_migrations as the Supabase CLI does; a new
// database then gets the demo seed (config.toml `[db.seed] sql_paths`, as `supabase db reset`).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { applyFiles, seedFiles } from './declarative.ts';
import { paths } from './paths.ts';

export interface MigrateResult {
  applied: string[];
  fresh: boolean;
}

/** The database has applied migrations that supabase/migrations does not have. */
export class MigrationHistoryError extends Error {
  constructor(readonly versions: string[]) {
    const shown =
      versions.slice(0, 3).join(', ') +
      (versions.length > 3 ? ` and ${versions.length - 3} more` : '');
    super(
      `this database has applied migrations that supabase/migrations does not have (${shown}): ` +
        'it was built from migrations that have since been squashed into a baseline or removed. ' +
        'A local database is development data: `npm run db:reset` rebuilds it from the current ' +
        'migrations and the demo seed (everything in it is lost). A project that applied the ' +
        'migrations a squash replaced repairs its history instead: docs/data-model.md, "Migrations".',
    );
    this.name = 'MigrationHistoryError';
  }
}

export async function migrate(
  databaseUrl: string,
  opts: { seed?: boolean; migrations?: string } = {},
): Promise<MigrateResult> {
  const dir = opts.migrations ?? paths.migrations;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Serialise concurrent migrators (two stacks on one DATABASE_URL, for instance).
    await client.query('select pg_advisory_lock(7426001)');
    const files = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => /^\d{14}_.+\.sql$/.test(f))
          .sort()
      : [];
    // the Supabase CLI's bookkeeping of applied migrations, read before anything is written
    const hadTable =
      (
        await client.query(
          `select 1 from information_schema.tables
           where table_schema = 'supabase_migrations' and table_name = 'schema_migrations'`,
        )
      ).rowCount !== 0;
    const done = new Set(
      hadTable
        ? (
            await client.query<{ version: string }>(
              'select version from supabase_migrations.schema_migrations',
            )
          ).rows.map((r) => r.version)
        : [],
    );
    // As `supabase db push` does, refuse a history this folder does not continue, and leave the
    // database as it is: it was built from migrations that are gone (squashed into the
    // baseline, or another branch's).
    const known = new Set(files.map((f) => f.slice(0, 14)));
    const unknown = [...done].filter((v) => !known.has(v)).sort();
    if (unknown.length > 0) throw new MigrationHistoryError(unknown);
    const fresh = done.size === 0;
    // A Supabase project already has everything bootstrap.sql provides (and its own auth.uid()
    // and friends, which must not be replaced); `supabase_admin` exists only there.
    const isSupabase = await client.query(
      `select 1 from pg_roles where rolname = 'supabase_admin'`,
    );
    if (isSupabase.rowCount === 0) {
      await client.query(readFileSync(join(paths.local, 'bootstrap.sql'), 'utf8'));
    }
    await client.query(`
      create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (
        version text primary key, name text, statements text[]
      )`);
    const applied: string[] = [];
    for (const file of files) {
      const version = file.slice(0, 14);
      if (done.has(version)) continue;
      const sql = readFileSync(join(dir, file), 'utf8');
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
    if (fresh && opts.seed !== false) {
      // the demo seed, config.toml's [db.seed] files in order, all or nothing
      await client.query('begin');
      try {
        await applyFiles(client, seedFiles());
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw err;
      }
    }
    await client.query(`notify pgrst, 'reload schema'`);
    return { applied, fresh };
  } finally {
    await client.query('select pg_advisory_unlock(7426001)').catch(() => {});
    await client.end();
  }
}
