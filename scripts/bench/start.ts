// Measures `npm start` from launch to "ready" on this machine: cold (new data directory:
// initdb, migrations, seed) and warm (existing data), a few runs each, and the memory of the
// whole process tree once it is ready (resident set per program). Prints the figures; with
// `-- --write` also writes the "Local stack start-up" section of docs/benchmarks.md.
//   npm run bench:start [-- --runs 3] [-- --write]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { portsToEnv } from '../../supabase/local/config.ts';
import { paths } from '../../supabase/local/paths.ts';
import { writeBenchmarkSection } from './docs-section.ts';
import { benchPorts, numberArg } from './support.ts';

const runs = numberArg('--runs', 3);

/** Resident memory (MB) of a process and all its descendants, summed per program name. */
function treeMemory(root: number): Map<string, { mb: number; count: number }> {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss=,comm='])
    .toString()
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/));
  const children = new Map<string, string[][]>();
  for (const row of rows) children.set(row[1]!, [...(children.get(row[1]!) ?? []), row]);
  const tree = rows.filter((r) => r[0] === String(root));
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]![0]!) ?? []));
  const out = new Map<string, { mb: number; count: number }>();
  for (const [, , rss, name] of tree) {
    const entry = out.get(name!) ?? { mb: 0, count: 0 };
    entry.mb += Number(rss) / 1024;
    entry.count += 1;
    out.set(name!, entry);
  }
  return out;
}

async function once(dataDir: string) {
  const { extra: _, ...ports } = await benchPorts();
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: paths.root,
    env: { ...process.env, SKIP_BUILD: '1', DATA_DIR: dataDir, ...portsToEnv(ports) },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const ready = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('is running')) resolve(performance.now() - started);
    });
    child.once('exit', () => reject(new Error(`start exited:\n${out}`)));
  });
  await new Promise((r) => setTimeout(r, 1_000)); // let start-up allocations settle
  const memory = treeMemory(child.pid!);
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
  return { ready, memory };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cold: number[] = [];
const warm: number[] = [];
const memories: Array<Map<string, { mb: number; count: number }>> = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'rb-bench-start-'));
  try {
    const dataDir = join(dir, 'data', 'postgres');
    cold.push((await once(dataDir)).ready);
    const w = await once(dataDir);
    warm.push(w.ready);
    memories.push(w.memory);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const row = (name: string, xs: number[]) =>
  `| ${name} | ${fmt(median(xs))} | ${fmt(Math.min(...xs))} | ${fmt(Math.max(...xs))} |`;
const programs = [...new Set(memories.flatMap((m) => [...m.keys()]))].sort();
const WHAT: Record<string, string> = {
  npm: 'npm itself (the README command; `node --import tsx supabase/local/start.ts` skips it)',
  node: 'the stack (auth, realtime, storage, providers, background workers) and the gateway, one process each',
  postgres: 'embedded PostgreSQL (postmaster and backends)',
  postgrest: 'PostgREST',
  deno: 'the edge functions',
  sh: 'the shell npm runs the script in',
};
const memoryRows = programs.map((name) => {
  const mbs = memories.map((m) => m.get(name)?.mb ?? 0);
  const count = Math.max(...memories.map((m) => m.get(name)?.count ?? 0));
  return `| ${name} | ${count} | ${Math.round(median(mbs))} MB | ${WHAT[name] ?? ''} |`;
});
const total = memories.map((m) => [...m.values()].reduce((a, b) => a + b.mb, 0));

const body = `Measured by \`npm run bench:start -- --runs ${runs}\` on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores
(${cpus()[0]?.model ?? 'unknown CPU'}): time from launching \`npm start\` (with \`SKIP_BUILD=1\`) until it
prints "is running" — Postgres accepting connections, migrations applied, PostgREST ready, the Deno
runtime, auth, realtime and the gateway listening. Cold: a new data directory (initdb, every
migration, the seed). Warm: the same directory again.

| start | median | min | max |
|---|---|---|---|
${row('cold (new database)', cold)}
${row('warm (existing database)', warm)}

Resident memory of the whole process tree once warm-started and idle (median of ${runs}):
${Math.round(median(total))} MB.

| program | processes | memory | what |
|---|---|---|---|
${memoryRows.join('\n')}`;
console.log(body);
writeBenchmarkSection('Local stack start-up', body);
