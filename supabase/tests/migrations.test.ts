// What supabase/migrations promises a database that already has a history (docs/data-model.md,
// "Migrations"). A project that applied the 8 migrations the twenty-fourth squash replaced has the
// baseline's version among them and 7 versions the folder no longer has: migrate refuses it,
// naming them and the way out, and changes nothing. After the repair a project makes (what
// `supabase migration repair --status reverted` does: their rows leave the history) it continues
// from the baseline: the schedules and every migration since apply, and it ends as a new database
// built from the folder, object by object and job by job.
// Its schema before is the squash's two files' (the commit that made them compared them with the
// 8 they replaced: no difference). Both databases are throwaway ones in the test stack's cluster.
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describe as catalogue, difference } from '../local/catalogue.ts';
import { migrate, MigrationHistoryError } from '../local/migrate.ts';
import { paths } from '../local/paths.ts';
import { sql, stack } from './support/clients.ts';

/** The newest migration the twenty-fourth squash replaced: the baseline took its version. */
const BASELINE = '20261130052723';
/** The other 7 it replaced, as a project that applied them has them in its history. */
const REPLACED = [
  '20261130022342',
  '20261130022343',
  '20261130043944',
  '20261130044433',
  '20261130050411',
  '20261130050528',
  '20261130052641',
];

const files = readdirSync(paths.migrations)
  .filter((f) => /^\d{14}_.+\.sql$/.test(f))
  .sort();
/** The squash's two files: the baseline and, one second after it, the schedules. */
const squashed = files.filter((f) => f.slice(0, 14) <= String(Number(BASELINE) + 1));
/** What came after the squash: such a project applies it after the repair, as any other. */
const later = files.filter((f) => !squashed.includes(f));

const suffix = randomUUID().replace(/-/g, '').slice(0, 12);
/** The project that applied the old migrations, and a new database built from the folder. */
const project = `migrations_project_${suffix}`;
const fresh = `migrations_new_${suffix}`;
function url(database: string): string {
  const at = new URL(stack().dbUrl);
  at.pathname = `/${database}`;
  return at.href;
}

async function withClient<T>(database: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url(database) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const history = () =>
  withClient(project, async (c) =>
    (
      await c.query<{ version: string }>(
        'select version from supabase_migrations.schema_migrations order by version',
      )
    ).rows.map((r) => r.version),
  );
const objects = (database: string) => withClient(database, (c) => catalogue(c, { data: true }));

beforeAll(async () => {
  expect(squashed).toEqual([`${BASELINE}_baseline.sql`, `${Number(BASELINE) + 1}_schedules.sql`]);
  await sql(`create database ${project}`);
  await sql(`create database ${fresh}`);
  const dir = mkdtempSync(join(tmpdir(), 'rb-squashed-'));
  try {
    for (const f of squashed) copyFileSync(join(paths.migrations, f), join(dir, f));
    await migrate(url(project), { seed: false, migrations: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // the history of a project that applied every migration the squash replaced
  await withClient(project, async (c) => {
    await c.query('delete from supabase_migrations.schema_migrations');
    await c.query(
      `insert into supabase_migrations.schema_migrations (version, name)
       select unnest($1::text[]), 'replaced by the twenty-fourth squash'`,
      [[...REPLACED, BASELINE]],
    );
  });
  await migrate(url(fresh), { seed: false });
}, 300_000);

afterAll(async () => {
  await sql(`drop database if exists ${project} with (force)`);
  await sql(`drop database if exists ${fresh} with (force)`);
});

describe('a project that applied the migrations a squash replaced', () => {
  it('is refused with the versions the folder lacks and the way out, and nothing is applied', async () => {
    const before = await objects(project);
    const refusal = await migrate(url(project), { seed: false }).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(MigrationHistoryError);
    expect((refusal as MigrationHistoryError).versions).toEqual(REPLACED);
    expect((refusal as Error).message).toContain('npm run db:reset');
    expect((refusal as Error).message).toContain('docs/data-model.md, "Migrations"');
    expect(await history()).toEqual([...REPLACED, BASELINE]);
    expect(difference(before, await objects(project))).toBe('');
  });

  it('continues from the baseline once repaired, and ends as a new database from the folder', async () => {
    await withClient(project, (c) =>
      c.query('delete from supabase_migrations.schema_migrations where version = any($1)', [
        REPLACED,
      ]),
    );
    const { applied } = await migrate(url(project), { seed: false });
    expect(applied).toEqual([squashed[1], ...later]);
    const [now, built] = await Promise.all([objects(project), objects(fresh)]);
    // the schedules file's twelve (mail-consents-purge joined it in the fourth squash)
    expect([...now.keys()].filter((k) => k.startsWith('cron job '))).toHaveLength(12);
    expect(difference(now, built, ['repaired project', 'new database'])).toBe('');
    expect(await history()).toEqual(files.map((f) => f.slice(0, 14)));
  });
});
