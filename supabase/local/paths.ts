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
  seed: join(supabase, 'seed.sql'),
  functions: join(supabase, 'functions'),
  dataDir: join(root, '.data', 'postgres'),
  lockFile: join(root, '.data', 'stack.lock'),
  dashboardDist: join(root, 'dashboard', 'dist'),
  examples: join(root, 'examples'),
  sdkDist: join(root, 'sdk', 'dist'),
};
