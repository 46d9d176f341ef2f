// `npm start`: the whole stack on this machine, no Docker. Ctrl-C or SIGTERM stops every process.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { takeLock } from './lock.ts';
import { DEFAULT_JWT_SECRET, listening, portsFromEnv } from './config.ts';
import { dataDirFromEnv, lockFileOf, paths } from './paths.ts';
import { authSettingsFromEnv } from './auth/env.ts';
import { fillDemoLetters } from './demo-letters.ts';
import { looksLikeFailure } from './process.ts';
import { startStack } from './stack.ts';

const DEMO_EMAIL = 'demo@reaction-blocks.local';

/** Builds the browser parts once if they have never been built (npm run build rebuilds them). */
function buildMissing(): void {
  const parts: Array<[string, string]> = [
    ['@reaction-blocks/sdk', join(paths.root, 'sdk')],
    ['@reaction-blocks/dashboard', join(paths.root, 'dashboard')],
    ['@reaction-blocks/example-react', join(paths.root, 'examples', 'react')],
  ];
  for (const [name, dir] of parts) {
    const pkgFile = join(dir, 'package.json');
    if (!existsSync(pkgFile) || existsSync(join(dir, 'dist'))) continue;
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { scripts?: Record<string, string> };
    if (!pkg.scripts?.build) continue;
    console.log(`Building ${name} (first start)...`);
    execFileSync('npm', ['run', 'build', '-w', name], { cwd: paths.root, stdio: 'inherit' });
  }
}

/** Waits until nothing listens on `ports` (an earlier run's processes are letting go). */
async function waitForFreePorts(ports: number[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const port of ports) {
    while (await listening(port)) {
      if (Date.now() > deadline) {
        console.error(`Port ${port} is still in use; stop what holds it (or set other ports).`);
        process.exit(1);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

async function main() {
  const dataDir = dataDirFromEnv();
  const lock = takeLock(lockFileOf(dataDir));
  const releaseLock = lock.release;
  const startedAt = Date.now();
  const ports = portsFromEnv();
  if (lock.recovered) {
    // the run that held it died; its processes are stopping (their watchdogs saw it go)
    console.log('An earlier run on this data directory did not stop cleanly; recovering...');
    await waitForFreePorts(Object.values(ports));
  }
  const verbose = process.env.LOG_LEVEL === 'debug';
  try {
    if (process.env.SKIP_BUILD !== '1') buildMissing();
  } catch {
    releaseLock();
    console.error('Build failed; fix it or start with SKIP_BUILD=1 to serve only the API.');
    process.exit(1);
  }

  let stack: Awaited<ReturnType<typeof startStack>>;
  // set once the stack runs: what stops it when it cannot go on
  let fatal = (reason: string) => {
    console.error(`[stack] ${reason}`);
  };
  try {
    stack = await startStack({
      ports,
      dataDir,
      databaseUrl: process.env.DATABASE_URL || undefined,
      seed: process.argv.includes('--seed') ? true : undefined,
      jwtSecret: process.env.JWT_SECRET || DEFAULT_JWT_SECRET,
      web: true,
      sesEventsWebhook: process.env.SES_EVENTS_WEBHOOK,
      sesVerifiedIdentities: process.env.SES_VERIFIED_IDENTITIES
        ? process.env.SES_VERIFIED_IDENTITIES.split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined,
      auth: authSettingsFromEnv(process.env),
      // a child that exits unasked is said loudly, whatever LOG_LEVEL, and started again
      supervise: true,
      report: (line) => console.error(`[stack] ${new Date().toISOString()} ${line}`),
      onFatal: (reason) => fatal(reason),
      log: (service, line) => {
        if (verbose || looksLikeFailure(line)) console.log(`[${service}] ${line}`);
      },
    });
  } catch (err) {
    releaseLock();
    console.error(`Could not start: ${(err as Error).message}`);
    process.exit(1);
  }

  let stopping = false;
  const shutdown = async (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${reason}: stopping...`);
    await stack.stop();
    releaseLock();
    console.log('Stopped.');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGHUP', () => void shutdown('SIGHUP'));
  // Every server answers a request that fails with an error status (http.ts); a failure outside
  // any request is a bug: say what it was and stop everything cleanly instead of dying halfway.
  const crash = (err: unknown) => {
    console.error('Unexpected failure:', err);
    void shutdown('Unexpected failure', 1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  fatal = (reason) => void shutdown(`${reason}; the stack cannot go on without it`, 1);

  const ms = Date.now() - startedAt;
  const demoLine =
    process.env.DATABASE_URL && !process.argv.includes('--seed')
      ? '  No demo data was loaded into DATABASE_URL (`npm start -- --seed` loads it into a new database).'
      : `  Demo owner: sign in with Google on the local sign-in page as ${DEMO_EMAIL}\n  (paid plan, one block of each of the nine types, the six reaction blocks again in Korean).`;
  const reactExample = existsSync(join(paths.examples, 'react', 'dist', 'index.html'));
  console.log(`
Reaction Blocks is running (ready in ${ms} ms${stack.migrated.applied.length ? `, applied ${stack.migrated.applied.length} migration(s)` : ''}).

  Dashboard      ${stack.webUrl}/
  Examples       ${stack.webUrl}/examples/html/${reactExample ? `   ${stack.webUrl}/examples/react/` : ''}
  SDK (CDN)      ${stack.webUrl}/sdk/cdn/reaction.js
  API URL        ${stack.apiUrl}        (/rest/v1 /auth/v1 /functions/v1 /realtime/v1)
  Mailbox        ${stack.providersUrl}/        (mail sent through the SES fake; other provider fakes)
  Database       ${stack.dbUrl}
  JWT secret     ${stack.jwtSecret}
  anon key       ${stack.anonKey}
  service_role   ${stack.serviceRoleKey}

${demoLine}

Ctrl-C stops everything.`);
  // the demo owner's letters, made from the fixture pages through the functions (once)
  fillDemoLetters(stack).then(
    (made) => {
      if (made > 0) console.log(`  Demo letters: ${made} made from the local fixture pages.`);
    },
    (err: unknown) =>
      console.error(`[demo] the demo letters could not be made: ${(err as Error).message}`),
  );
}

void main();
