// `npm run db:reset`: wipes the embedded database and re-applies bootstrap, migrations and seed.
// The local providers' state goes too: they remember what the database remembers.
import { rmSync } from 'node:fs';
import { takeLock } from './lock.ts';
import { migrate } from './migrate.ts';
import { dataDirFromEnv, lockFileOf, providersStateDir } from './paths.ts';
import { startPostgres } from './postgres.ts';
import { portsFromEnv } from './config.ts';

if (process.env.DATABASE_URL) {
  console.error(
    'db:reset only resets the embedded database; it never wipes a DATABASE_URL database.',
  );
  process.exit(1);
}
const dataDir = dataDirFromEnv();
const releaseLock = takeLock(lockFileOf(dataDir)).release;
try {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(providersStateDir(dataDir), { recursive: true, force: true });
  const server = await startPostgres({ dataDir, port: portsFromEnv().db, password: 'postgres' });
  try {
    const result = await migrate(server.url);
    console.log(`Database reset: applied ${result.applied.length} migration(s) and the seed.`);
  } finally {
    await server.stop();
  }
} catch (err) {
  console.error(`Reset failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  releaseLock();
}
