// Where things are in the repository, independent of the working directory.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const local = dirname(fileURLToPath(import.meta.url));
const supabase = resolve(local, '..');
const root = resolve(supabase, '..');

export const paths = {
  root,
  local,
  supabase,
  migrations: join(supabase, 'migrations'),
  functions: join(supabase, 'functions'),
  dataDir: join(root, '.data', 'postgres'),
  dashboardDist: join(root, 'dashboard', 'dist'),
  examples: join(root, 'examples'),
  sdkDist: join(root, 'sdk', 'dist'),
};

/** The data directory: DATA_DIR as given (relative to the working directory), else .data/postgres. */
export function dataDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATA_DIR ? resolve(process.cwd(), env.DATA_DIR) : paths.dataDir;
}

/** The lock of a data directory: one running stack (or reset) per directory, beside it. */
export function lockFileOf(dataDir: string): string {
  return `${resolve(dataDir)}.lock`;
}

/** Where the local providers keep their state (the mailbox, what each fake holds), beside it. */
export function providersStateDir(dataDir: string): string {
  return `${resolve(dataDir)}-providers`;
}
