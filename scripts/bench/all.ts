// `npm run bench`: every stack benchmark in turn, each on its own throwaway stack. Arguments
// (`-- --write` to record the figures in docs/benchmarks.md) go to each of them.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { paths } from '../../supabase/local/paths.ts';

const BENCHMARKS = [
  'load.ts', // visitor hot paths through the gateway and straight to PostgREST
  'mail.ts', // mail throughput through the queue and the SES fake
  'results.ts', // the results summary on a large block
  'letters.ts', // a letter to 10,000 members with the worker killed mid-send
  'anonymous.ts', // anonymous visitors in the auth tables and their purge
  'realtime.ts', // live updates to 200, 2,000 and 10,000 viewers of one block, 2,000 spread
  'cache.ts', // database calls per 1,000 page views behind a caching proxy (needs nginx)
];

for (const file of BENCHMARKS) {
  console.log(`\n== ${file}`);
  const run = spawnSync(
    process.execPath,
    // --expose-gc: realtime.ts reads memory after a collection
    [
      '--expose-gc',
      '--import',
      'tsx',
      join(paths.root, 'scripts', 'bench', file),
      ...process.argv.slice(2),
    ],
    { cwd: paths.root, stdio: 'inherit' },
  );
  if (run.status !== 0) {
    console.error(`${file} failed (exit ${run.status ?? run.signal})`);
    process.exit(1);
  }
}
