// `npm run bench:cache` (also run by `npm run bench`): what a caching proxy in front of the API
// saves the database, and what the one-statement block view costs.
//
// 1. Cacheable reads. Starts a throwaway stack and Debian's nginx (/usr/sbin/nginx, package
//    nginx-light) in front of its gateway with proxy_cache, configured from a file written into a
//    temporary directory (the set-up docs/scaling.md "Cacheable reads" describes for a CDN;
//    cache-support.ts). Then 1,000 anonymous page views of a like block and of a comment
//    block with live updates through it, spread over BENCH_CACHE_SECONDS (default 30), each what
//    the elements send (cache-views.ts), and as before: the private topic, and POST
//    get_block_view. Counted as every transaction of the database (pg_stat_database), whoever
//    ran it; nginx's log says how many requests it answered from its cache. Latency: a cached
//    view (an nginx hit) and an uncached one (the same GET straight to the gateway).
// 2. The block view on a big block: get_block_view as before issue 13 (its previous body, kept in
//    get-block-view-before.sql and loaded as a temporary function) and now, for an anonymous
//    caller and for a visitor with 300 likes on a 10,000-message block; the same view while a
//    like storm's deltas are unfolded (32 rows of private.message_count_deltas, every shard, on
//    each of its messages, the schedules paused) and after one fold of them; and how many
//    like-count updates of messages stay HOT with the table's fillfactor at 100 (before) and at
//    the migration's value.
//
// 3. Counts for many pages (countsBench): an index page with 50 <reaction-count> makes one GET
//    get_block_counts (sdk/src/core/counts.ts `countsRequest`); 1,000 views of one such page through
//    nginx, and as the worst case 1,000 views spread over 20 different index pages (an archive's
//    pages, overlapping sets of blocks), and the same page straight to the gateway (no cache).
//
// Figures go to docs/benchmarks.md ("Cacheable reads", "Counts for many pages") only with
// `-- --write` (or BENCH_WRITE=1).
//
//   npm run bench:cache
//   npm run bench:cache -- --write
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { paths } from '../../supabase/local/paths.ts';
import type { ThrowawayStack } from '../../supabase/local/throwaway.ts';
import { request } from '../../sdk/src/core/api.ts';
import { countsRequest } from '../../sdk/src/core/counts.ts';
import {
  cacheLog,
  functionCalls,
  interleaved,
  ms,
  NGINX,
  paced,
  quantile,
  settledCalls,
  startNginx,
} from './cache-support.ts';
import { pauseSchedules, viewsBench } from './cache-views.ts';
import { writeBenchmarkSection } from './docs-section.ts';
import { int, loadNow, startBenchStack } from './support.ts';

const VIEWS = Number(process.env.BENCH_CACHE_VIEWS ?? 1000);
const SECONDS = Number(process.env.BENCH_CACHE_SECONDS ?? 30);
const LIVE_COMMENTS = Number(process.env.BENCH_CACHE_COMMENTS ?? 5);
const LATENCY_RUNS = Number(process.env.BENCH_RUNS ?? 200);
const VIEW_RUNS = Number(process.env.BENCH_VIEW_RUNS ?? 100);
const COUNTS_PER_PAGE = 50;
const INDEX_PAGES = 20;

if (!existsSync(NGINX)) {
  console.error(
    `bench:cache needs nginx at ${NGINX} (a real caching proxy in front of the API).\n` +
      `Install Debian's nginx-light:  sudo apt-get install nginx-light\n` +
      `(or set NGINX=/path/to/nginx). Nothing was measured.`,
  );
  process.exit(1);
}

/**
 * get_block_view as it was before the one-statement view, as a temporary function of this session
 * (its migration went when the migrations were squashed; get-block-view-before.sql keeps it).
 */
const previousGetBlockView = () =>
  readFileSync(join(paths.root, 'scripts/bench/get-block-view-before.sql'), 'utf8');

/**
 * 3. Counts for many pages: database calls of index pages with 50 <reaction-count> each, through
 * nginx (one index page; 20 different ones, the worst case) and straight to the gateway. Writes
 * the "Counts for many pages" section.
 */
async function countsBench(
  db: pg.Client,
  proxied: { url: string; key: string },
  direct: { url: string; key: string },
  nginxDir: string,
): Promise<void> {
  // an archive of blog posts, each with a comment (or like) block carrying some counts
  const posts = COUNTS_PER_PAGE + (INDEX_PAGES - 1) * 5;
  const [{ owner_id: owner }] = (
    await db.query<{ owner_id: string }>(
      `select owner_id from public.blocks where type = 'comment' order by created_at limit 1`,
    )
  ).rows as [{ owner_id: string }];
  await db.query('update public.profiles set block_limit = block_limit + $2 where id = $1', [
    owner,
    posts,
  ]);
  const ids = (
    await db.query<{ id: string }>(
      `insert into public.blocks (owner_id, type, name, response_count, like_count)
       select $1, case when i % 5 = 0 then 'like' else 'comment' end::public.block_type,
              'post ' || i, (i * 7) % 40, case when i % 5 = 0 then i % 13 else 0 end
       from generate_series(1, $2) i returning id`,
      [owner, posts],
    )
  ).rows.map((r) => r.id);
  // index page k shows posts 5k .. 5k+49: neighbouring pages share most of their blocks
  const page = (k: number) => ids.slice(k * 5, k * 5 + COUNTS_PER_PAGE).sort();
  const view = (p: typeof proxied, k: number) => fetch(...countsRequest(p, page(k)));
  const check = await (await view(direct, 0)).json();
  if (!Array.isArray(check) || check.length !== COUNTS_PER_PAGE)
    throw new Error(`get_block_counts answered ${JSON.stringify(check).slice(0, 200)}`);
  const names = ['get_block_counts'];
  const run = async (label: string, p: typeof proxied, pages: number, views: number, s: number) => {
    const before = await functionCalls(db, names);
    console.log(`${label}: ${views} views over ${s} s...`);
    let n = 0;
    const out = await paced(views, s, () => view(p, n++ % pages));
    if (out.errors) throw new Error(`${label}: ${out.errors} failed requests`);
    const calls = await settledCalls(db, before, names);
    console.log(
      `  ${calls} database calls (${Math.round((calls / views) * 1000)} per 1,000 views)`,
    );
    return { views, calls };
  };
  const one = await run('one index page (50 counts) through nginx', proxied, 1, VIEWS, SECONDS);
  const many = await run(
    `${INDEX_PAGES} index pages through nginx`,
    proxied,
    INDEX_PAGES,
    VIEWS,
    SECONDS,
  );
  const bare = await run('one index page straight to the gateway', direct, 1, 100, 10);
  const hits = cacheLog(nginxDir, '/rest/v1/rpc/get_block_counts');
  // the cost of one uncached answer in the database, 50 and 100 blocks, against one block's view
  const [c50, c100, one50] = (await interleaved(LATENCY_RUNS, [
    () => fetch(...countsRequest(direct, page(0))),
    () => fetch(...countsRequest(direct, ids.slice(0, 100).sort())),
    () => fetch(...request(direct, 'get_block_public', { p_block_id: ids[0]! }, '', true)),
  ])) as [number[], number[], number[]];
  const per = (r: { views: number; calls: number }) => Math.round((r.calls / r.views) * 1000);
  const date = new Date().toISOString().slice(0, 10);
  const body = `
Measured by \`npm run bench:cache\` on ${date}, ${cpus().length} cores, load ${load}, in the same run
and behind the same nginx as "Cacheable reads". A blog's index page shows ${COUNTS_PER_PAGE} posts, each with
\`<reaction-count>\`: the page makes one request, \`GET get_block_counts\` with the ${COUNTS_PER_PAGE} ids (sorted, as
the element sends them, \`sdk/src/core/counts.ts\`); without it, each post's block would be a
request of its own (${COUNTS_PER_PAGE} per page view). Database calls are the calls of get_block_counts counted
by Postgres (\`track_functions = all\`).

| page views | requests per view | database calls | per 1,000 views |
|---|---|---|---|
| ${one.views} of one index page in ${SECONDS} s, through the cache | 1 | ${one.calls} | ${per(one)} |
| worst case: ${many.views} spread over ${INDEX_PAGES} index pages in ${SECONDS} s, through the cache | 1 | ${many.calls} | ${per(many)} |
| ${bare.views} of one index page, no cache (straight to the gateway) | 1 | ${bare.calls} | ${per(bare)} |

nginx's log for the counts: ${[...hits].map(([k, v]) => `${k} ${v}`).join(', ')}. Behind a cache the calls
grow with the number of different index pages and with time (about one per page per max-age, 10 s),
not with views.

One uncached answer (straight to the gateway, one request at a time, ${LATENCY_RUNS} each, interleaved), p50 / p95:
${COUNTS_PER_PAGE} blocks ${ms(quantile(c50, 0.5))} / ${ms(quantile(c50, 0.95))} ms, 100 blocks ${ms(quantile(c100, 0.5))} / ${ms(quantile(c100, 0.95))} ms, against
${ms(quantile(one50, 0.5))} / ${ms(quantile(one50, 0.95))} ms for one block's public view (get_block_public).
`;
  writeBenchmarkSection('Counts for many pages', body);
}

let stack: ThrowawayStack | undefined;
let nginx: ChildProcess | undefined;
const logs: string[] = [];
const load = loadNow();
try {
  let extra: (i: number) => Promise<number>;
  ({ stack, extra } = await startBenchStack('cache', logs));
  const { dir } = stack;
  const db = new pg.Client({ connectionString: stack.dbUrl });
  db.on('error', () => {});
  await db.connect();
  // count every function call in every backend (PostgREST's pool included, from its next statement)
  await db.query(`alter system set track_functions = 'all'`);
  await db.query('select pg_reload_conf()');

  // ------------------------------------------------------------------------------------------
  // 1. cacheable reads through nginx
  // ------------------------------------------------------------------------------------------
  const [{ id: blockId, response_count: messages }] = (
    await db.query<{ id: string; response_count: number }>(
      `select id, response_count from public.blocks
       where type = 'comment' and not deactivated order by response_count desc limit 1`,
    )
  ).rows as [{ id: string; response_count: number }];
  // the previous view, for part 2, loaded and called once now: a failure shows before the long part
  await db.query(previousGetBlockView());
  await db.query('select pg_temp.get_block_view_before($1)', [blockId]);
  const nginxPort = await extra(0);
  chmodSync(dir, 0o711); // nginx's workers (nobody) reach their cache inside it
  nginx = await startNginx(join(dir, 'nginx'), nginxPort, stack.ports.api);
  const project = { url: `http://127.0.0.1:${nginxPort}`, key: stack.anonKey };
  const direct = { url: stack.apiUrl, key: stack.anonKey };
  const view = (p: typeof project) =>
    fetch(...request(p, 'get_block_public', { p_block_id: blockId }, '', true));
  const oldView = (p: typeof project) =>
    fetch(...request(p, 'get_block_view', { p_block_id: blockId }));

  // the demo like block beside the comment block: the easy case and the one that goes live
  const [{ id: likeBlock }] = (
    await db.query<{ id: string }>(
      `select id from public.blocks where type = 'like' and not deactivated order by created_at limit 1`,
    )
  ).rows as [{ id: string }];
  const viewsBody = await viewsBench({
    stack,
    proxied: project,
    nginxDir: join(dir, 'nginx'),
    likeBlock,
    commentBlock: blockId,
    views: VIEWS,
    seconds: SECONDS,
    comments: LIVE_COMMENTS,
  });
  console.log(viewsBody);

  // latency, one request at a time: a cache hit, and the same GET to the gateway (no cache)
  await view(project);
  const [hit, miss, post] = (await interleaved(LATENCY_RUNS, [
    () => view(project),
    () => view(direct),
    () => oldView(direct),
  ])) as [number[], number[], number[]];
  const probe = await view(project);
  const cacheControl = (await view(direct)).headers.get('cache-control');
  console.log(
    `latency p50/p95: cached ${ms(quantile(hit, 0.5))}/${ms(quantile(hit, 0.95))} ms, uncached GET ${ms(quantile(miss, 0.5))}/${ms(quantile(miss, 0.95))} ms, POST get_block_view ${ms(quantile(post, 0.5))}/${ms(quantile(post, 0.95))} ms (X-Cache-Status ${probe.headers.get('x-cache-status')})`,
  );

  console.log('\nCounts for many pages (<reaction-count>)...');
  await countsBench(db, project, direct, join(dir, 'nginx'));

  // ------------------------------------------------------------------------------------------
  // 2. the view on a big block, and HOT counter updates
  // ------------------------------------------------------------------------------------------
  console.log('\nget_block_view on a 10,000-message block, a visitor with 300 likes...');
  const [{ owner_id: owner }] = (
    await db.query<{ owner_id: string }>('select owner_id from public.blocks where id = $1', [
      blockId,
    ])
  ).rows as [{ owner_id: string }];
  const fillfactor = Number(
    (
      await db.query<{ ff: string }>(
        `select coalesce((select split_part(o, '=', 2) from unnest(reloptions) o where o like 'fillfactor=%'), '100') as ff
         from pg_class where oid = 'public.messages'::regclass`,
      )
    ).rows[0]!.ff,
  );

  /** A comment block of the owner with 10,000 top-level messages (triggers off: no mail, no jobs). */
  async function bigBlock(): Promise<string> {
    const { rows } = await db.query<{ id: string }>(
      `insert into public.blocks (owner_id, type, name) values ($1, 'comment', 'bench') returning id`,
      [owner],
    );
    const id = rows[0]!.id;
    await db.query(`set session_replication_role = replica`);
    await db.query(
      `insert into public.messages (block_id, creator_id, creator_name, content, created_at)
       select $1, gen_random_uuid(), 'Visitor ' || i, 'message ' || i, now() - make_interval(secs => i)
       from generate_series(1, 10000) i`,
      [id],
    );
    await db.query(`set session_replication_role = origin`);
    await db.query('analyze public.messages');
    return id;
  }

  /** Like-count updates of `count` messages of a block (as likes do); the share that was HOT. */
  async function hotShare(block: string, count: number): Promise<number> {
    const read = async () => {
      await db.query('select pg_stat_force_next_flush()');
      await db.query('select 1');
      await db.query('select pg_stat_clear_snapshot()');
      const { rows } = await db.query<{ upd: string; hot: string }>(
        `select n_tup_upd as upd, n_tup_hot_upd as hot from pg_stat_user_tables where relid = 'public.messages'::regclass`,
      );
      return { upd: Number(rows[0]!.upd), hot: Number(rows[0]!.hot) };
    };
    const a = await read();
    await db.query(
      `insert into public.message_likes (message_id, user_id)
       select id, gen_random_uuid() from public.messages where block_id = $1
       order by random() limit $2`,
      [block, count],
    );
    const b = await read();
    return (b.hot - a.hot) / Math.max(1, b.upd - a.upd);
  }

  // fillfactor 100 (as before the migration) for a block written now, then the migration's value
  await db.query('alter table public.messages set (fillfactor = 100)');
  const blockBefore = await bigBlock();
  const hotBefore = await hotShare(blockBefore, 2000);
  await db.query(`alter table public.messages set (fillfactor = ${fillfactor})`);
  const big = await bigBlock();
  const hotAfter = await hotShare(big, 2000);

  // a visitor with 300 likes on the big block, most of them on older messages
  const visitor = (await db.query<{ id: string }>('select gen_random_uuid() as id')).rows[0]!.id;
  await db.query(
    `insert into public.message_likes (message_id, user_id)
     select id, $2 from public.messages where block_id = $1 order by created_at desc offset 2 limit 300`,
    [big, visitor],
  );
  await db.query('analyze public.message_likes');

  async function timeView(fn: string, uid: string | null): Promise<number[]> {
    await db.query(`select set_config('request.jwt.claims', $1, false)`, [
      uid ? JSON.stringify({ sub: uid, role: 'authenticated' }) : '',
    ]);
    const out: number[] = [];
    for (let i = 0; i < VIEW_RUNS + 5; i++) {
      const t = performance.now();
      await db.query(`select ${fn}($1)`, [big]);
      if (i >= 5) out.push(performance.now() - t);
    }
    return out;
  }
  const rows: [string, number[], number[]][] = [
    [
      'anonymous',
      await timeView('pg_temp.get_block_view_before', null),
      await timeView('public.get_block_view', null),
    ],
    [
      'visitor with 300 likes',
      await timeView('pg_temp.get_block_view_before', visitor),
      await timeView('public.get_block_view', visitor),
    ],
  ];
  const publicView = await timeView('public.get_block_public', null);

  // a like storm's worst case for a reader: every message of the block with a delta row in each
  // of the 32 shards (the fold-counters schedule paused, so they stay), then one fold of them
  const views = async () => [
    await timeView('public.get_block_view', null),
    await timeView('public.get_block_view', visitor),
    await timeView('public.get_block_public', null),
  ];
  const resumeFold = await pauseSchedules(db);
  let storm: { unfolded: number[][]; folded: number[][]; rows: number; foldMs: number };
  try {
    const { rowCount } = await db.query(
      `insert into private.message_count_deltas (message_id, shard, like_count)
       select m.id, s, 1 from public.messages m, generate_series(0, 31) s where m.block_id = $1`,
      [big],
    );
    await db.query('analyze private.message_count_deltas');
    const unfolded = await views();
    const t = performance.now();
    await db.query('select private.fold_counters()');
    const foldMs = performance.now() - t;
    const left = await db.query<{ n: string }>(
      'select count(*) as n from private.message_count_deltas m join public.messages b on b.id = m.message_id where b.block_id = $1',
      [big],
    );
    if (Number(left.rows[0]!.n)) throw new Error(`the fold left ${left.rows[0]!.n} delta rows`);
    storm = { unfolded, folded: await views(), rows: rowCount ?? 0, foldMs };
  } finally {
    await resumeFold();
  }
  await db.query(`select set_config('request.jwt.claims', '', false)`);
  for (const [who, a, b] of rows)
    console.log(`${who}: before ${ms(quantile(a, 0.5))} ms, now ${ms(quantile(b, 0.5))} ms (p50)`);
  console.log(`get_block_public: ${ms(quantile(publicView, 0.5))} ms (p50)`);
  console.log(
    `with ${storm.rows} unfolded delta rows: ${storm.unfolded.map((v) => ms(quantile(v, 0.5))).join(' / ')} ms; folded in ${ms(storm.foldMs)} ms; then ${storm.folded.map((v) => ms(quantile(v, 0.5))).join(' / ')} ms (p50)`,
  );
  console.log(
    `HOT like-count updates: fillfactor 100 ${(hotBefore * 100).toFixed(0)}%, fillfactor ${fillfactor} ${(hotAfter * 100).toFixed(0)}%`,
  );
  await db.end();

  const stormRows: [string, number[]][] = [
    ['get_block_view, anonymous', rows[0]![2]],
    ['get_block_view, visitor with 300 likes', rows[1]![2]],
    ['get_block_public (anyone)', publicView],
  ];
  const date = new Date().toISOString().slice(0, 10);
  const body = `
Measured by \`npm run bench:cache\` on ${date}, ${cpus().length} cores (${cpus()[0]?.model.trim()}), load
${load}: a throwaway stack with Debian's nginx (${NGINX}) in front of the gateway, proxy_cache
configured as docs/scaling.md "Cacheable reads" describes (key: method and URL; Accept, Prefer,
Range and Cookie normalised; TTL from the answer's \`Cache-Control: ${cacheControl}\`). The
demo comment block has ${messages} messages.
${viewsBody}
Latency of one view, one request at a time (${LATENCY_RUNS} each, the three kinds interleaved), p50 / p95:

| view | p50 | p95 |
|---|---|---|
| cached (nginx hit) | ${ms(quantile(hit, 0.5))} ms | ${ms(quantile(hit, 0.95))} ms |
| uncached GET get_block_public (gateway, PostgREST, Postgres) | ${ms(quantile(miss, 0.5))} ms | ${ms(quantile(miss, 0.95))} ms |
| before: POST get_block_view | ${ms(quantile(post, 0.5))} ms | ${ms(quantile(post, 0.95))} ms |

The block view on a block with 10,000 top-level messages, in the database (one connection,
${VIEW_RUNS} calls each, p50): get_block_view as it was (its previous body as a temporary
function) and now (one statement; the caller's liked list probed for the returned messages only).

| caller | before | now |
|---|---|---|
${rows.map(([who, a, b]) => `| ${who} | ${ms(quantile(a, 0.5))} ms | ${ms(quantile(b, 0.5))} ms |`).join('\n')}
| get_block_public (anyone) | - | ${ms(quantile(publicView, 0.5))} ms |

The same view in a like storm's worst case for a reader, in the same run: each of the block's
10,000 messages with an unfolded delta row in every one of its 32 shards
(\`private.message_count_deltas\`, ${int(storm.rows)} rows; the schedules paused so that none was
folded), which \`private.live_message_json\` adds to each message it reads; then after one
\`private.fold_counters()\` (${(storm.foldMs / 1000).toFixed(1)} s for all of them; its dead rows not yet vacuumed). p50 of ${VIEW_RUNS} calls each:

| caller | folded (above) | 32 unfolded delta rows a message | after the fold |
|---|---|---|---|
${stormRows
  .map(
    ([who, folded], i) =>
      `| ${who} | ${ms(quantile(folded, 0.5))} ms | ${ms(quantile(storm.unfolded[i]!, 0.5))} ms | ${ms(quantile(storm.folded[i]!, 0.5))} ms |`,
  )
  .join('\n')}

Like-count updates of 2,000 messages (a like each) that were HOT (no index entries written):
${(hotBefore * 100).toFixed(0)}% with fillfactor 100 (before), ${(hotAfter * 100).toFixed(0)}% with fillfactor ${fillfactor} (the migration's, for pages written since).
`;
  writeBenchmarkSection('Cacheable reads', body);
} catch (err) {
  console.error(logs.slice(-30).join('\n'));
  console.error(err);
  process.exitCode = 1;
} finally {
  if (nginx && nginx.exitCode === null) {
    nginx.kill('SIGQUIT');
    await new Promise((r) => nginx!.once('exit', r));
  }
  await stack?.stop();
}
