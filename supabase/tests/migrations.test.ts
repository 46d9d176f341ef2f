// What supabase/migrations promises a database that already has a history (docs/data-model.md,
// "Migrations"). A database that applied the 22 migrations the second squash replaced has the
// baseline's version among them and 21 versions the folder no longer has: migrate refuses it,
// naming them and the way out, and changes nothing; after the repair a project makes (what
// `supabase migration repair --status reverted` does: their rows leave the history) it continues
// from the baseline, and the one migration it applies, the schedules, leaves every object and job
// as it was. The database is a throwaway one in the test stack's cluster, built from the folder:
// the squash's proof (the commit that made it) showed that the old migrations build the same.
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describe as catalogue, difference } from '../local/catalogue.ts';
import { migrate, MigrationHistoryError } from '../local/migrate.ts';
import { paths } from '../local/paths.ts';
import { sql, stack } from './support/clients.ts';

/** The newest migration the second squash replaced: the baseline took its version. */
const BASELINE = '20261126095821';
/** The other 21 it replaced, as a project that applied them has them in its history. */
const REPLACED = [
  '20261121000000',
  '20261121000001',
  '20261126014400',
  '20261126015742',
  '20261126021037',
  '20261126021100',
  '20261126023340',
  '20261126035917',
  '20261126040617',
  '20261126042932',
  '20261126043017',
  '20261126051614',
  '20261126052428',
  '20261126052506',
  '20261126053936',
  '20261126054841',
  '20261126055151',
  '20261126071248',
  '20261126073146',
  '20261126074237',
  '20261126085959',
];

const SCHEDULES = String(Number(BASELINE) + 1);
/** Migrations added after the squash: such a project applies them after the repair, as any other. */
const LATER = readdirSync(paths.migrations)
  .filter((f) => /^\d{14}_.+\.sql$/.test(f))
  .map((f) => f.slice(0, 14))
  .filter((v) => v > SCHEDULES);

const database = `migrations_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
function url(): string {
  const at = new URL(stack().dbUrl);
  at.pathname = `/${database}`;
  return at.href;
}

async function withClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const history = () =>
  withClient(async (c) =>
    (
      await c.query<{ version: string }>(
        'select version from supabase_migrations.schema_migrations order by version',
      )
    ).rows.map((r) => r.version),
  );
const objects = () => withClient((c) => catalogue(c, { data: true }));

beforeAll(async () => {
  await sql(`create database ${database}`);
  await migrate(url(), { seed: false });
  // the history of a project that applied every migration the squash replaced (and, so that
  // only the schedules are left to apply, every one added since)
  await withClient(async (c) => {
    await c.query('delete from supabase_migrations.schema_migrations');
    await c.query(
      `insert into supabase_migrations.schema_migrations (version, name)
       select unnest($1::text[]), 'replaced by the second squash'`,
      [[...REPLACED, BASELINE, ...LATER]],
    );
  });
}, 180_000);

afterAll(async () => {
  await sql(`drop database if exists ${database} with (force)`);
});

describe('a database that applied the migrations a squash replaced', () => {
  it('is refused with the versions the folder lacks and the way out, and nothing is applied', async () => {
    const before = await objects();
    const refusal = await migrate(url(), { seed: false }).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(MigrationHistoryError);
    expect((refusal as MigrationHistoryError).versions).toEqual(REPLACED);
    expect((refusal as Error).message).toContain('npm run db:reset');
    expect((refusal as Error).message).toContain('docs/data-model.md, "Migrations"');
    expect(await history()).toEqual([...REPLACED, BASELINE, ...LATER]);
    expect(difference(before, await objects())).toBe('');
  });

  it('continues from the baseline once repaired: only the schedules apply, changing nothing', async () => {
    await withClient((c) =>
      c.query('delete from supabase_migrations.schema_migrations where version = any($1)', [
        REPLACED,
      ]),
    );
    const before = await objects();
    const jobs = [...before.keys()].filter((k) => k.startsWith('cron job ')).sort();
    expect(jobs).toHaveLength(11);
    const { applied } = await migrate(url(), { seed: false });
    expect(applied).toEqual([`${SCHEDULES}_schedules.sql`]);
    expect(difference(before, await objects())).toBe('');
    expect(await history()).toEqual([BASELINE, SCHEDULES, ...LATER]);
  });
});
