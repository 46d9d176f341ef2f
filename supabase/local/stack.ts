// The whole local Supabase stack in one call: PostgreSQL (embedded, or DATABASE_URL), migrations,
// PostgREST, the auth server, the Deno edge runtime, the gateway, the static web server, and the
// workers of the local pg_cron and pg_net stand-ins.
// Used by `npm start` and by the tests (free ports, throwaway data directory).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import pg from 'pg';
import { makeKeys, type Ports } from './config.ts';
import { startPostgres, type RunningPostgres } from './postgres.ts';
import { migrate } from './migrate.ts';
import { startPostgrest } from './postgrest.ts';
import { startFunctions } from './functions.ts';
import { startGateway } from './gateway.ts';
import { startWeb } from './web.ts';
import { createAuthServer } from './auth/server.ts';
import { createRealtimeServer } from './realtime/server.ts';
import { startBackgroundWorkers } from './background/index.ts';
import type { Log, Managed } from './process.ts';
import { paths } from './paths.ts';

export interface StackOptions {
  ports: Ports;
  /** Embedded Postgres data directory (ignored with databaseUrl). */
  dataDir: string;
  /** An existing Postgres (for instance a Supabase project's) instead of the embedded one. */
  databaseUrl?: string;
  jwtSecret: string;
  /** Serve dashboard, examples and SDK on ports.web. */
  web?: boolean;
  log?: Log;
}

export interface Stack {
  apiUrl: string;
  webUrl: string;
  dbUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  /** Migrations applied by this start, and whether the database was new (seeded). */
  migrated: { applied: string[]; fresh: boolean };
  stop(): Promise<void>;
}

/** Functions whose config.toml section says `verify_jwt = false`. */
function publicFunctions(): Set<string> {
  const file = join(paths.supabase, 'config.toml');
  const names = new Set<string>();
  if (!existsSync(file)) return names;
  let current: string | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const section = /^\s*\[functions\.([a-z0-9-]+)\]/.exec(line);
    if (section) current = section[1];
    else if (/^\s*\[/.test(line)) current = undefined;
    else if (current && /^\s*verify_jwt\s*=\s*false/.test(line)) names.add(current);
  }
  return names;
}

export async function startStack(opts: StackOptions): Promise<Stack> {
  const log: Log = opts.log ?? (() => {});
  const keys = await makeKeys(opts.jwtSecret);
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    stops.length = 0;
  };

  try {
    let dbUrl: string;
    let postgrestUri: string;
    let migrated: { applied: string[]; fresh: boolean };
    if (opts.databaseUrl) {
      dbUrl = opts.databaseUrl;
      // on a Supabase project the connecting role can switch to anon/authenticated itself
      postgrestUri = opts.databaseUrl;
      migrated = await migrate(dbUrl);
    } else {
      const password = 'postgres';
      const server: RunningPostgres = await startPostgres({
        dataDir: opts.dataDir,
        port: opts.ports.db,
        password,
        onLog: (line) => log('postgres', line.trimEnd()),
      });
      stops.push(() => server.stop());
      dbUrl = server.url;
      // PostgREST logs in as `authenticator` with a password made for this run only
      const authenticatorPassword = randomBytes(18).toString('base64url');
      postgrestUri = `postgresql://authenticator:${authenticatorPassword}@127.0.0.1:${opts.ports.db}/postgres`;
      migrated = await migrate(dbUrl);
      const client = new pg.Client({ connectionString: dbUrl });
      await client.connect();
      await client.query(`alter role authenticator with login password '${authenticatorPassword}'`);
      await client.end();
    }

    const apiUrl = `http://127.0.0.1:${opts.ports.api}`;
    const webUrl = `http://127.0.0.1:${opts.ports.web}`;

    const [postgrest, functions]: Managed[] = await Promise.all([
      startPostgrest({
        dbUri: postgrestUri,
        jwtSecret: opts.jwtSecret,
        port: opts.ports.postgrest,
        adminPort: opts.ports.postgrestAdmin,
        log,
      }),
      startFunctions({
        port: opts.ports.functions,
        log,
        env: {
          SUPABASE_URL: apiUrl,
          SUPABASE_ANON_KEY: keys.anonKey,
          SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
          SUPABASE_DB_URL: dbUrl,
        },
      }),
    ]);
    stops.push(() => postgrest!.stop());
    stops.push(() => functions!.stop());

    const auth = createAuthServer({
      databaseUrl: dbUrl,
      jwtSecret: opts.jwtSecret,
      externalUrl: `${apiUrl}/auth/v1`,
      siteUrl: webUrl,
      additionalRedirectUrls: [apiUrl, webUrl, 'http://localhost:*', 'http://127.0.0.1:*'],
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
    });
    stops.push(() => auth.close());

    // Realtime only on the embedded database: a Supabase project has its own Realtime, and
    // the local stand-in installs capture triggers in the database it serves.
    const realtime = opts.databaseUrl
      ? undefined
      : await createRealtimeServer({ databaseUrl: dbUrl, jwtSecret: opts.jwtSecret, log });
    if (realtime) stops.push(() => realtime.close());

    // pg_cron's and pg_net's workers, for the local stand-ins of those extensions: embedded
    // database only (a Supabase project runs the real ones), after the migrations created them.
    if (!opts.databaseUrl) {
      const background = await startBackgroundWorkers({ databaseUrl: dbUrl, log });
      stops.push(() => background.close());
    }

    const gateway: Server = await startGateway({
      port: opts.ports.api,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      jwtSecret: opts.jwtSecret,
      postgrestPort: opts.ports.postgrest,
      functionsPort: opts.ports.functions,
      auth,
      realtime,
      publicFunctions: publicFunctions(),
    });
    stops.push(() => closeServer(gateway));

    if (opts.web) {
      const web = await startWeb({ port: opts.ports.web, apiUrl, anonKey: keys.anonKey });
      stops.push(() => closeServer(web));
    }

    return {
      apiUrl,
      webUrl,
      dbUrl,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      jwtSecret: opts.jwtSecret,
      migrated,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
