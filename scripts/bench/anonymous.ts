// `npm run bench:anonymous`: what anonymous visitors cost while they pile up, and how fast the
// daily purge (private.purge_idle_anonymous_users) removes them. Signs up N anonymous visitors
// through the gateway's auth API as the SDK does on a first write (signInAnonymously), measures
// the bytes they add to the auth tables (rows and indexes; the local auth server's tables, which
// have fewer columns than hosted GoTrue's, so hosted rows are larger), ages them past the 30-day
// idle window and times one purge run. Prints the figures; `-- --write` also writes the
// "Anonymous visitors" section of docs/benchmarks.md.
//   npm run bench:anonymous [-- --visitors 2000] [-- --write]
import { cpus } from 'node:os';
import pg from 'pg';
import { connectDb, numberArg, runBench } from './support.ts';

const VISITORS = numberArg('--visitors', 2000);
const CONCURRENCY = 16;

const AUTH_TABLES = ['auth.users', 'auth.sessions', 'auth.refresh_tokens', 'auth.identities'];
async function authBytes(db: pg.Client): Promise<number> {
  await db.query(`vacuum analyze ${AUTH_TABLES.join(', ')}`);
  const { rows } = await db.query<{ bytes: string }>(
    `select sum(pg_total_relation_size(t::regclass))::bigint as bytes
     from unnest($1::text[]) t`,
    [AUTH_TABLES],
  );
  return Number(rows[0]!.bytes);
}

await runBench({ name: 'anonymous', section: 'Anonymous visitors' }, async ({ stack }) => {
  const db = await connectDb(stack.dbUrl);
  try {
    const before = await authBytes(db);
    let next = 0;
    const signUpStarted = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < VISITORS) {
          next++;
          const res = await fetch(`${stack.apiUrl}/auth/v1/signup`, {
            method: 'POST',
            headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
            body: '{}',
          });
          if (!res.ok)
            throw new Error(`anonymous sign-up failed: ${res.status} ${await res.text()}`);
          await res.body?.cancel();
        }
      }),
    );
    const signUpSeconds = (performance.now() - signUpStarted) / 1000;
    const after = await authBytes(db);
    const perVisitor = (after - before) / VISITORS;

    // all of them idle for 31 days: one purge run (batches of 10,000) removes them
    await db.query(
      `update auth.users set created_at = now() - interval '31 days' where is_anonymous`,
    );
    await db.query(`update auth.sessions set updated_at = now() - interval '31 days'`);
    const purgeStarted = performance.now();
    const { rows } = await db.query<{ deleted: number }>(
      'select private.purge_idle_anonymous_users() as deleted',
    );
    const purgeMs = performance.now() - purgeStarted;
    const left = Number(
      (await db.query('select count(*) as n from auth.users where is_anonymous')).rows[0].n,
    );

    const body = `Measured by \`npm run bench:anonymous -- --visitors ${VISITORS}\` on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores
(${cpus()[0]?.model ?? 'unknown CPU'}), against the local stack. The SDK signs a visitor up anonymously on
the first write (never on a view): one auth user per browser that wrote. Sizes are of the local
auth server's tables (${AUTH_TABLES.join(', ')}, rows and indexes), which have fewer columns than
hosted GoTrue's; read them as a lower bound.

| measure | value |
|---|---|
| anonymous sign-ups | ${VISITORS} (${Math.round(VISITORS / signUpSeconds)}/s through the gateway, ${CONCURRENCY} at a time) |
| auth tables grow per visitor | ${(perVisitor / 1024).toFixed(2)} KB |
| so 1 million first-time writers a month | ${((perVisitor * 1e6) / 1024 ** 3).toFixed(2)} GB a month, kept 30 days after their last token refresh |
| purge of ${rows[0]!.deleted} idle visitors (one daily run) | ${Math.round(purgeMs)} ms (${Math.round((rows[0]!.deleted / purgeMs) * 1000)}/s), ${left} left |`;
    return { body };
  } finally {
    await db.end();
  }
});
