// Measures `npm start` from launch to "ready" on this machine: cold (new data directory:
// initdb, migrations, seed) and warm (existing data), a few runs each, and writes the figures
// to the "Local stack start-up" section of docs/benchmarks.md.
//   npx tsx scripts/bench-start.ts [runs=3]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, portsToEnv } from '../supabase/local/config.ts';
import { paths } from '../supabase/local/paths.ts';
import { writeBenchmarkSection } from './docs-section.ts';

const runs = Number(process.argv[2] ?? 3);

async function once(dataDir: string): Promise<number> {
  const ports = await freePorts();
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', join(paths.local, 'start.ts')], {
    cwd: paths.root,
    env: {
      ...process.env,
      SKIP_BUILD: '1',
      DATA_DIR: dataDir,
      ...portsToEnv(ports),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('is running')) resolve(performance.now() - started);
    });
    child.once('exit', () => reject(new Error(`start exited:\n${out}`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return ready;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cold: number[] = [];
const warm: number[] = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'rb-bench-start-'));
  try {
    const dataDir = join(dir, 'data', 'postgres');
    cold.push(await once(dataDir));
    warm.push(await once(dataDir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const row = (name: string, xs: number[]) =>
  `| ${name} | ${fmt(median(xs))} | ${fmt(Math.min(...xs))} | ${fmt(Math.max(...xs))} |`;
writeBenchmarkSection(
  'Local stack start-up',
  `Measured by \`npx tsx scripts/bench-start.ts ${runs}\` on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores
(${cpus()[0]?.model ?? 'unknown CPU'}): time from launching \`npm start\` (with \`SKIP_BUILD=1\`) until it
prints "is running" — Postgres accepting connections, migrations applied, PostgREST ready, the Deno
runtime, auth, realtime and the gateway listening. Cold: a new data directory (initdb, every
migration, the seed). Warm: the same directory again.

| start | median | min | max |
|---|---|---|---|
${row('cold (new database)', cold)}
${row('warm (existing database)', warm)}`,
);
console.log(`cold ${cold.map(fmt).join(', ')}; warm ${warm.map(fmt).join(', ')}`);
