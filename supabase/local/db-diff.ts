// `npm run db:diff -- <name>`: writes supabase/migrations/<timestamp>_<name>.sql, the migration that
// takes a database built from supabase/migrations to the declarative schema (supabase/schemas/,
// config.toml `[db.migrations] schema_paths`), as the Supabase CLI's `supabase db diff -f <name>`
// does where Docker exists. `npm run db:diff -- --check` (in npm test) fails when the two disagree.
//
// Both databases are built in one throwaway embedded PostgreSQL and compared object by object
// (catalogue.ts). The statements come from @pgkit/migra (the diff engine the Supabase CLI runs),
// per schema. Around it: the statements are tried in order on a copy of the migrations' database
// and one that fails for want of an object made later is retried after the others (migra adds a
// check constraint before the function it calls); what migra does not diff is added from the
// catalogue (grants of tables, columns and functions, comments, the Realtime publication); and
// the result is compared with the schema files' database again. Whatever still differs is printed
// for the developer to write by hand, and the command fails.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import pg from 'pg';
import { run as migra } from '@pgkit/migra';
import { createClient } from '@pgkit/client';
import { describe, difference, type Catalogue } from './catalogue.ts';
import { freePorts } from './config.ts';
import { applyFiles } from './declarative.ts';
import { migrate } from './migrate.ts';
import { paths } from './paths.ts';
import { startPostgres } from './postgres.ts';

/** The schemas migra compares: ours, and Supabase's two that we add policies and triggers to. */
const DIFFED_SCHEMAS = ['public', 'private', 'realtime', 'auth'];

const args = process.argv.slice(2);
const check = args.includes('--check');
const name = args.find((a) => !a.startsWith('--'));
if (!check && !(name && /^[a-z0-9_]+$/.test(name))) {
  console.error('usage: npm run db:diff -- <name_in_snake_case>   |   npm run db:diff -- --check');
  process.exit(2);
}

const started = Date.now();
const dir = mkdtempSync(join(tmpdir(), 'rb-diff-'));
const server = await startPostgres({
  dataDir: join(dir, 'pg'),
  port: (await freePorts()).db,
  password: 'postgres',
});
const url = (db: string) => server.url.replace(/\/postgres$/, `/${db}`);
let exitCode = 0;
try {
  await sql(server.url, 'create database from_migrations; create database from_schemas');
  await migrate(url('from_migrations'), { seed: false });
  await withClient(url('from_schemas'), async (client) => {
    await client.query(readFileSync(join(paths.local, 'bootstrap.sql'), 'utf8'));
    await applyFiles(client);
  });
  const target = await catalogue(url('from_schemas'));
  const current = await catalogue(url('from_migrations'));
  const differs = difference(current, target, ['migrations', 'schemas']);
  if (check) {
    if (differs) {
      console.error(differs);
      console.error(
        '\nsupabase/schemas and supabase/migrations disagree (above: "migrations" is what the ' +
          'migrations build, "schemas" what the schema files declare).\n' +
          'Changed supabase/schemas? Run `npm run db:diff -- <name>` to write the migration.\n' +
          'Wrote a migration by hand (data, schedules)? Its schema part belongs in supabase/schemas too.',
      );
      exitCode = 1;
    } else {
      console.log(
        `supabase/schemas and supabase/migrations agree (${target.size} objects, ` +
          `${((Date.now() - started) / 1000).toFixed(1)} s).`,
      );
    }
  } else if (!differs) {
    console.log(
      'supabase/migrations already builds what supabase/schemas declares: nothing to write.',
    );
  } else {
    exitCode = await generate(name!, target);
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);

async function generate(migrationName: string, target: Catalogue): Promise<number> {
  await sql(server.url, 'create database work template from_migrations');
  const from = createClient(url('from_migrations'));
  const to = createClient(url('from_schemas'));
  const proposed: string[] = [];
  try {
    for (const schema of DIFFED_SCHEMAS) {
      const m = await migra(from, to, { schema, unsafe: true });
      for (const statement of m.statements) {
        const text = statement.trim();
        if (text && !/^set check_function_bodies/i.test(text)) proposed.push(text);
      }
    }
  } finally {
    await from.end();
    await to.end();
  }

  return withClient(url('work'), async (work) => {
    // function bodies are checked when they run, as in the schema files
    await work.query('set check_function_bodies = off');
    const { applied, failed } = await applyInAnyOrder(work, proposed);
    const supplements = supplementsFor(await describe(work), target);
    const more = await applyInAnyOrder(work, supplements);
    const statements = [...applied, ...more.applied];
    const left = difference(await describe(work), target, ['migration', 'schemas']);

    const version = nextVersion();
    const file = join(paths.migrations, `${version}_${migrationName}.sql`);
    const drops = statements.filter((s) => /^\s*(drop|alter table \S+ drop)\b/i.test(s));
    writeFileSync(
      file,
      [
        `-- Generated by \`npm run db:diff -- ${migrationName}\` from supabase/schemas. Review it; once it`,
        '-- is deployed it is never edited (change supabase/schemas and generate another).',
        'set check_function_bodies = off;',
        '',
        ...statements.map((s) => `${s.replace(/;?\s*$/, '')};\n`),
        ...[...failed, ...more.failed].map(
          (f) =>
            `-- FAILED when tried (${f.error}); write it by hand:\n-- ${f.statement.replace(/\n/g, '\n-- ')}\n`,
        ),
        'reset check_function_bodies;',
        '',
      ].join('\n'),
    );
    console.log(`wrote ${relative(paths.root, file)} (${statements.length} statements)`);
    if (drops.length) {
      console.log('\nIt drops (data in these is lost when it runs; check that you meant it):');
      for (const d of drops) console.log(`  ${d.split('\n')[0]}`);
    }
    if (left || failed.length || more.failed.length) {
      console.error(
        `\nThe migration does not yet build what supabase/schemas declares. Still different:\n${left}\n` +
          'Complete the migration by hand, then check with `npm run db:diff -- --check`.',
      );
      return 1;
    }
    console.log('Checked: the migrations with it build exactly what supabase/schemas declares.');
    return 0;
  });
}

interface Failure {
  statement: string;
  error: string;
}

/**
 * Runs each statement in a savepoint; one that fails is tried again after the others, as long as
 * a round makes progress (a statement may need an object a later one makes).
 */
async function applyInAnyOrder(
  client: pg.Client,
  statements: string[],
): Promise<{ applied: string[]; failed: Failure[] }> {
  const applied: string[] = [];
  let pending = statements.map((statement) => ({ statement, error: '' }));
  await client.query('begin');
  for (;;) {
    const next: Failure[] = [];
    for (const item of pending) {
      await client.query('savepoint step');
      try {
        await client.query(item.statement);
        await client.query('release savepoint step');
        applied.push(item.statement);
      } catch (err) {
        await client.query('rollback to savepoint step');
        next.push({ statement: item.statement, error: (err as Error).message });
      }
    }
    if (next.length === 0 || next.length === pending.length) {
      await client.query('commit');
      return { applied, failed: next };
    }
    pending = next;
  }
}

/**
 * What migra leaves out, from the catalogue: for each role whose grants on an object differ, its
 * privileges are revoked and granted again as declared (a table's revoke takes its column grants
 * with it, so those are granted again too); comments; membership of the Realtime publication.
 */
function supplementsFor(current: Catalogue, target: Catalogue): string[] {
  const out: string[] = [];
  for (const [key, want] of target) {
    const have = current.get(key);
    if (have === undefined) {
      const publication = /^publication (\S+) (\S+)$/.exec(key);
      if (publication) out.push(`alter publication ${publication[1]} add table ${publication[2]}`);
      continue;
    }
    if (have === want) continue;
    const wantLines = want.split('\n');
    const haveLines = have.split('\n');
    for (const line of wantLines) {
      if (line.startsWith('comment on ') && !haveLines.includes(line)) out.push(line);
    }
    for (const line of haveLines) {
      const comment = /^(comment on .+?) is '/.exec(line);
      if (comment && !wantLines.some((l) => l.startsWith(`${comment[1]} is `)))
        out.push(`${comment[1]} is null`);
    }
    const grantsOf = (lines: string[]) =>
      lines
        .map((l) => /^grant ([a-z, ]+?)(?: \(([^)]+)\))? on (.+) to (\S+);$/.exec(l))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => ({ line: m[0], on: m[3]!, role: m[4]! }));
    const wantGrants = grantsOf(wantLines);
    const haveGrants = grantsOf(haveLines);
    const roles = new Set([...wantGrants, ...haveGrants].map((g) => g.role));
    for (const role of roles) {
      const w = wantGrants.filter((g) => g.role === role).map((g) => g.line);
      const h = haveGrants.filter((g) => g.role === role).map((g) => g.line);
      if (w.length === h.length && w.every((l) => h.includes(l))) continue;
      const on = [...wantGrants, ...haveGrants].find((g) => g.role === role)!.on;
      out.push(`revoke all on ${on} from ${role}`, ...w.map((l) => l.replace(/;$/, '')));
    }
  }
  for (const key of current.keys()) {
    const publication = /^publication (\S+) (\S+)$/.exec(key);
    if (publication && !target.has(key))
      out.push(`alter publication ${publication[1]} drop table ${publication[2]}`);
  }
  return out;
}

/** Now as YYYYMMDDHHmmss (UTC), later than every migration there is. */
function nextVersion(): string {
  const stamp = (d: Date) => d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const versions = readdirSync(paths.migrations)
    .map((f) => /^(\d{14})_/.exec(f)?.[1])
    .filter((v): v is string => v !== undefined)
    .sort();
  const latest = versions.at(-1);
  let version = stamp(new Date());
  if (latest && version <= latest) {
    const t = latest.replace(/(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)/, '$1-$2-$3T$4:$5:$6Z');
    version = stamp(new Date(Date.parse(t) + 1000));
  }
  return version;
}

async function catalogue(databaseUrl: string): Promise<Catalogue> {
  return withClient(databaseUrl, (client) => describe(client));
}

async function sql(databaseUrl: string, text: string): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    for (const statement of text.split(';')) await client.query(statement);
  });
}

async function withClient<T>(
  databaseUrl: string,
  fn: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
