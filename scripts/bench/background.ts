// Measures what the local pg_cron and pg_net workers (supabase/local/background/) cost on this
// machine: CPU of the Node process that runs them, CPU of the whole embedded PostgreSQL (server
// and every backend), and the queries the workers send, over a window per scenario:
//   - the database alone (no workers), the baseline;
//   - the workers with no job;
//   - the workers with one "5 seconds" job shaped like the jobs queue's (reads a Vault secret,
//     would post with net.http_post, but its `where exists` finds nothing due);
//   - the same job posting every time (a request through pg_net to a local HTTP server).
// Writes the "Background workers" section of docs/benchmarks.md.
//   npm run bench:background [-- seconds per scenario, default 60]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { migrate } from '../../supabase/local/migrate.ts';
import { paths } from '../../supabase/local/paths.ts';
import { startPostgres } from '../../supabase/local/postgres.ts';
import { writeBenchmarkSection } from './docs-section.ts';
import { benchPorts, connectDb } from './support.ts';

const seconds = Number(process.argv[2] ?? 60);

/** CPU nanoseconds of each thread of a process (/proc/<pid>/task/<tid>/schedstat), summed. */
function cpuNs(pid: number): number {
  let ns = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    }
  } catch {
    // exited meanwhile
  }
  return ns;
}

/** The postmaster and its children (the server's processes and every backend). */
function postgresPids(postmaster: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (Number(entry) === postmaster || ppid === postmaster) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/**
 * The workers run in a child process of plain Node (a bundle made with esbuild), not under tsx,
 * whose loader alone costs about 180 ms of CPU per minute when idle.
 */
async function startWorkersProcess(databaseUrl: string, dir: string): Promise<ChildProcess> {
  const outfile = join(dir, 'workers.cjs');
  await build({
    stdin: {
      contents: `
        import pg from 'pg';
        import { startBackgroundWorkers } from './background/index.ts';
        let queries = 0;
        const query = pg.Client.prototype.query;
        pg.Client.prototype.query = function (...args) { queries++; return query.apply(this, args); };
        startBackgroundWorkers({ databaseUrl: process.argv[2], log: () => {} }).then((workers) => {
          process.on('message', () => process.send(queries));
          process.on('SIGTERM', () => workers.close().then(() => process.exit(0)));
          process.send('ready');
        });
      `,
      resolveDir: paths.local,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['pg-native'],
    outfile,
    logLevel: 'error',
  }).catch(() => {
    throw new Error('could not bundle the workers');
  });
  const child = spawn(process.execPath, [outfile, databaseUrl], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', () => reject(new Error('the workers process exited')));
  });
  return child;
}

const queriesOf = (child: ChildProcess) =>
  new Promise<number>((resolve) => {
    child.once('message', (n) => resolve(n as number));
    child.send('count');
  });

interface Figures {
  name: string;
  nodeMsPerMin: number;
  postgresMsPerMin: number;
  queriesPerSecond: number | undefined;
}

async function measure(
  name: string,
  postmaster: number,
  workers: ChildProcess | undefined,
): Promise<Figures> {
  await new Promise((r) => setTimeout(r, 10_000)); // settle (JIT, first polls)
  const before = new Map(postgresPids(postmaster).map((pid) => [pid, cpuNs(pid)]));
  const node0 = workers ? cpuNs(workers.pid!) : 0;
  const q0 = workers ? await queriesOf(workers) : 0;
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const q1 = workers ? await queriesOf(workers) : 0;
  const node1 = workers ? cpuNs(workers.pid!) : 0;
  let postgresNs = 0;
  for (const pid of postgresPids(postmaster)) postgresNs += cpuNs(pid) - (before.get(pid) ?? 0);
  const perMinute = 60 / seconds;
  return {
    name,
    nodeMsPerMin: ((node1 - node0) / 1e6) * perMinute,
    postgresMsPerMin: (postgresNs / 1e6) * perMinute,
    // minus the counting round trip itself (no query)
    queriesPerSecond: workers ? (q1 - q0) / seconds : undefined,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'rb-bench-background-'));
const server = await startPostgres({
  dataDir: join(dir, 'pg'),
  port: (await benchPorts()).db,
  password: 'postgres',
});
const http = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
const target = `http://127.0.0.1:${(http.address() as AddressInfo).port}/jobs-worker`;

const results: Figures[] = [];
let workers: ChildProcess | undefined;
try {
  await migrate(server.url, { seed: false });
  const postmaster = Number(
    readFileSync(join(dir, 'pg', 'postmaster.pid'), 'utf8')
      .split('\n')[0]!
      .trim(),
  );
  const client = await connectDb(server.url);
  await client.query(`select vault.create_secret($1, 'bench_worker_url')`, [target]);
  await client.query(`create table public.bench_due (due boolean not null)`);
  results.push(await measure('database alone (no workers)', postmaster, undefined));

  workers = await startWorkersProcess(server.url, dir);
  results.push(await measure('workers, no job', postmaster, workers));
  await client.query(`select cron.schedule('bench', '5 seconds', $1)`, [
    `select net.http_post(
       url := (select decrypted_secret from vault.decrypted_secrets where name = 'bench_worker_url'),
       body := '{}'::jsonb
     )
     where exists (select from public.bench_due where due)`,
  ]);
  results.push(await measure('workers, a 5-second job with nothing due', postmaster, workers));
  await client.query('insert into public.bench_due values (true)');
  results.push(await measure('workers, a 5-second job posting each time', postmaster, workers));
  await client.end();
} finally {
  if (workers) {
    const exited = new Promise((r) => workers!.once('exit', r));
    workers.kill('SIGTERM');
    await exited;
  }
  http.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

const fmt = (x: number) => x.toFixed(x < 10 ? 1 : 0);
const rows = results
  .map(
    (r) =>
      `| ${r.name} | ${r.queriesPerSecond === undefined ? '—' : `${fmt(r.nodeMsPerMin)} ms`} | ${fmt(
        r.postgresMsPerMin,
      )} ms | ${r.queriesPerSecond === undefined ? '—' : r.queriesPerSecond.toFixed(2)} |`,
  )
  .join('\n');
const body = `Measured by \`npm run bench:background -- ${seconds}\` on ${new Date()
  .toISOString()
  .slice(0, 10)}, ${cpus().length} cores, over ${seconds} s per scenario: CPU time per minute of a
plain Node process running only the pg_cron and pg_net workers, of the embedded PostgreSQL (server
and all backends), and queries per second the workers send.

| scenario | Node CPU / min | PostgreSQL CPU / min | queries / s |
|---|---|---|---|
${rows}

With no job the workers set no timer: they wait on LISTEN, plus one poll of the pg_net queue every
10 s. A job costs its own command plus three queries per run (record the start, \`discard all\`,
record the end; the first run on a connection also reads its backend pid); a request sent by
pg_net two (take it from the queue, record the response).`;
writeBenchmarkSection('Background workers (local pg_cron and pg_net)', body);
console.log(body);
