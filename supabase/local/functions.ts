// Runs supabase/functions with the real Deno from the `deno` npm package.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { paths } from './paths.ts';
import { startProcess, waitUntil, httpOk, type Log, type Managed } from './process.ts';

const require = createRequire(import.meta.url);

export function denoBinary(): string {
  return join(dirname(require.resolve('deno/package.json')), 'deno');
}

export interface FunctionsOptions {
  port: number;
  /** The env vars Supabase gives every function. */
  env: {
    SUPABASE_URL: string;
    SUPABASE_ANON_KEY: string;
    SUPABASE_SERVICE_ROLE_KEY: string;
    SUPABASE_DB_URL: string;
  } & Record<string, string>;
  log: Log;
}

export async function startFunctions(opts: FunctionsOptions): Promise<Managed> {
  const proc = startProcess(
    'functions',
    denoBinary(),
    [
      'run',
      '--no-prompt',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      // the AWS SDK reads the OS release for its user agent; Supabase's runtime allows it
      '--allow-sys',
      '--config',
      join(paths.functions, 'deno.json'),
      join(paths.local, 'deno', 'functions-main.ts'),
    ],
    {
      log: opts.log,
      // Deno.serve's onListen (functions-main.ts); a port taken meanwhile ends the process with
      // "AddrInUse: Address already in use"
      bound: /^functions listening on \d+/,
      cwd: paths.root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DENO_NO_UPDATE_CHECK: '1',
        ...opts.env,
        FUNCTIONS_PORT: String(opts.port),
      },
    },
  );
  await waitUntil(proc, () => httpOk(`http://127.0.0.1:${opts.port}/_health`));
  return proc;
}
