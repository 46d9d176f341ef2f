// Starts only PostgreSQL (with bootstrap, migrations and seed) for schema work:
//   npx tsx supabase/local/db.ts [--port 54329] [--data-dir .tmp/pg]
// Prints the connection URL and runs until Ctrl-C.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startPostgres } from './postgres.ts';
import { migrate } from './migrate.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '54329' },
    'data-dir': { type: 'string', default: '.tmp/pg' },
  },
});
const pgServer = await startPostgres({
  dataDir: resolve(values['data-dir']!),
  port: Number(values.port),
  password: 'postgres',
});
try {
  const result = await migrate(pgServer.url);
  console.log(`applied: ${result.applied.join(', ') || 'nothing new'}`);
} catch (err) {
  console.error((err as Error).message);
}
console.log(`DATABASE_URL=${pgServer.url}`);
const stop = () => void pgServer.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
