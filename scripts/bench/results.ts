// `npm run bench:results` (also run by `npm run bench`): how long the results summary takes
// (block_results_summary, the one call above a block's result rows) for a form with 1 000,
// 10 000 and 100 000 responses, measured in the database alone and through the API as the
// dashboard calls it (supabase-js -> gateway -> PostgREST). Not part of `npm test`.
//
//   npm run bench:results
//   BENCH_RUNS=5 npm run bench:results
import { createClient } from '@supabase/supabase-js';
import { cpus } from 'node:os';
import pg from 'pg';
import { runBench, signInOwner } from './support.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const SIZES = [1_000, 10_000, 100_000];
const TIME_ZONE = 'Asia/Seoul';

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]!;

interface Row {
  responses: number;
  dbMedian: number;
  dbP95: number;
  apiMedian: number;
  apiP95: number;
  bytes: number;
}

await runBench({ name: 'results', section: 'Results summary' }, async ({ stack, load }) => {
  const db = new pg.Client({ connectionString: stack.dbUrl });
  // the stack stopping ends this connection; that is not an error of the benchmark
  db.on('error', () => {});
  await db.connect();

  // an owner with a form of six questions, as the dashboard would make it
  const owner = createClient(stack.apiUrl, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const session = await signInOwner(stack, `bench-${Date.now()}@bench.local`, 'Bench Owner');
  await owner.auth.setSession({
    access_token: session.access_token,
    refresh_token: session.refresh_token,
  });
  const ownerId = session.user.id;
  await db.query('update public.profiles set paid = true, block_limit = 20 where id = $1', [
    ownerId,
  ]);
  const created = await owner.rpc('create_block', { p_block_type: 'form' });
  if (created.error) throw new Error(created.error.message);
  const blockId = (created.data as { id: string }).id;
  const question = async (type: string, index: number, title: string, multi = false) =>
    (
      await db.query<{ id: string }>(
        `insert into public.questions (block_id, type, index, title, required, allow_multi_select)
         values ($1, $2, $3, $4, false, $5) returning id`,
        [blockId, type, index, title, multi],
      )
    ).rows[0]!.id;
  const poll = await question('poll', 0, 'Which blocks do you use?', true);
  const options: string[] = [];
  for (const [i, value] of ['Comment', 'Q&A', 'Like', 'Form'].entries()) {
    const { rows } = await db.query<{ id: string }>(
      'insert into public.options (question_id, block_id, value, index) values ($1, $2, $3, $4) returning id',
      [poll, blockId, value, i],
    );
    options.push(rows[0]!.id);
  }
  const number = await question('number', 1, 'How many sites do you run?');
  const name = await question('short_text', 2, 'Your name');
  const mail = await question('mail', 3, 'Email');
  const more = await question('long_text', 4, 'Anything else?');

  /**
   * Adds `count` responses shaped as submit_response stores them, over the last 90 days. Written
   * in one statement without the per-row triggers (replica mode), then the block's counters set
   * once: the benchmark measures reading them, not writing them.
   */
  const seed = async (count: number) => {
    await db.query('begin');
    await db.query('set local session_replication_role = replica');
    await db.query(
      `insert into public.responses (block_id, kind, creator_id, creator_name, answers, created_at)
       select $1, 'form', gen_random_uuid(), 'Visitor ' || g,
         jsonb_strip_nulls(jsonb_build_object(
           $2::text, case when g % 5 <> 0 then jsonb_build_object('index', 0, 'title', 'Which blocks do you use?', 'type', 'poll',
             'value', jsonb_build_array((array['Comment', 'Q&A', 'Like', 'Form'])[1 + g % 4]), 'option_ids', jsonb_build_array(($3::text[])[1 + g % 4])) end,
           $4::text, case when g % 3 <> 0 then jsonb_build_object('index', 1, 'title', 'How many sites do you run?', 'type', 'number',
             'value', (1 + (g * 7919) % 40)::text) end,
           $5::text, jsonb_build_object('index', 2, 'title', 'Your name', 'type', 'short_text', 'value', 'Visitor ' || g),
           $6::text, case when g % 2 = 0 then jsonb_build_object('index', 3, 'title', 'Email', 'type', 'mail', 'value', 'v' || g || '@example.com') end,
           $7::text, case when g % 4 = 0 then jsonb_build_object('index', 4, 'title', 'Anything else?', 'type', 'long_text',
             'value', repeat('Works well on my site. ', 1 + g % 6)) end)),
         now() - make_interval(secs => (g * 7727) % (90 * 86400))
       from generate_series(1, $8::integer) g`,
      [blockId, poll, options, number, name, mail, more, count],
    );
    await db.query(
      'update public.blocks set response_count = (select count(*) from public.responses where block_id = $1) where id = $1',
      [blockId],
    );
    await db.query('commit');
    // what autovacuum does to a table that keeps growing: statistics and the visibility map
    await db.query('vacuum analyze public.responses');
  };

  const dbCall = async () => {
    const t0 = performance.now();
    await db.query('begin');
    await db.query('set local role authenticated');
    await db.query("select set_config('request.jwt.claims', $1, true)", [
      JSON.stringify({ sub: ownerId, role: 'authenticated' }),
    ]);
    await db.query('select public.block_results_summary($1, $2)', [blockId, TIME_ZONE]);
    await db.query('rollback');
    return performance.now() - t0;
  };
  const apiCall = async () => {
    const t0 = performance.now();
    const { data, error } = await owner.rpc('block_results_summary', {
      p_block_id: blockId,
      p_timezone: TIME_ZONE,
    });
    if (error) throw new Error(error.message);
    return { ms: performance.now() - t0, bytes: JSON.stringify(data).length };
  };

  const rows: Row[] = [];
  let seeded = 0;
  for (const size of SIZES) {
    await seed(size - seeded);
    seeded = size;
    for (let i = 0; i < 2; i++) {
      await dbCall();
      await apiCall();
    }
    const dbTimes: number[] = [];
    const apiTimes: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      dbTimes.push(await dbCall());
      const api = await apiCall();
      apiTimes.push(api.ms);
      bytes = api.bytes;
    }
    dbTimes.sort((a, b) => a - b);
    apiTimes.sort((a, b) => a - b);
    const row = {
      responses: size,
      dbMedian: quantile(dbTimes, 0.5),
      dbP95: quantile(dbTimes, 0.95),
      apiMedian: quantile(apiTimes, 0.5),
      apiP95: quantile(apiTimes, 0.95),
      bytes,
    };
    rows.push(row);
    process.stdout.write(
      `${size} responses: database ${row.dbMedian.toFixed(0)} ms (p95 ${row.dbP95.toFixed(0)}), API ${row.apiMedian.toFixed(0)} ms (p95 ${row.apiP95.toFixed(0)}), ${(bytes / 1024).toFixed(1)} KB\n`,
    );
  }
  await db.end();

  const table = rows
    .map(
      (r) =>
        `| ${r.responses.toLocaleString('en')} | ${r.dbMedian.toFixed(0)} ms | ${r.dbP95.toFixed(0)} ms | ${r.apiMedian.toFixed(0)} ms | ${r.apiP95.toFixed(0)} ms | ${(r.bytes / 1024).toFixed(1)} KB |`,
    )
    .join('\n');
  const body = `Measured by \`npm run bench:results\` (scripts/bench/results.ts) on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores, load average before ${load}.

The summary above a block's results (\`block_results_summary\`: totals, responses per day or
week in the owner's time zone, each option's count, the number question's count, mean and
median, the latest five answers of each text question) for one form of six questions (a
multiple-choice poll of four options, a number, three texts) whose responses spread over 90 days
(so weekly buckets). ${RUNS} calls per size after two warm-up calls; "database" is the call in
Postgres alone (as the owner, through \`pg\`), "API" the dashboard's call through supabase-js, the
gateway and PostgREST. The answer's size does not grow with the responses: the browser never
loads the rows to draw the charts.

| responses | database (median) | database (p95) | API (median) | API (p95) | answer |
| --- | --- | --- | --- | --- | --- |
${table}

The function reads the rows twice (one pass groups them into time buckets, one computes every
question's figures with one aggregate per question and option), plus an index scan of at most
five rows per text question; the time grows with the rows, about linearly.`;
  return { body };
});
