// `@reaction-blocks/contracts/<module>`: the rules the SDK, the dashboard and the edge functions
// share (payload schemas, enums, limits, messages). The files live in
// supabase/functions/_shared/contracts/, because `supabase functions deploy` uploads only what is
// under supabase/functions/. The name is mapped for TypeScript and tsx by `paths` in
// tsconfig.base.json (and the root tsconfig.json), for Deno by `imports` in
// supabase/functions/deno.json, and for the JavaScript tools (rollup, vitest, @web/test-runner)
// by the plugins below.
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONTRACTS_DIR = fileURLToPath(
  new URL('../supabase/functions/_shared/contracts/', import.meta.url),
);
const NAME = /^@reaction-blocks\/contracts\/([\w-]+)$/;

/** The file a `@reaction-blocks/contracts/<module>` specifier names, or null for any other. */
export function contractFile(source) {
  const m = NAME.exec(source);
  if (!m) return null;
  const file = join(CONTRACTS_DIR, `${m[1]}.ts`);
  if (!existsSync(file)) throw new Error(`${source}: no such contracts module (${file})`);
  return file;
}

/** Rollup and Vite (vitest) plugin. */
export function contracts() {
  return {
    name: 'reaction-blocks-contracts',
    enforce: 'pre',
    resolveId: (source) => contractFile(source),
  };
}

/** @web/test-runner (dev server) plugin: the file's URL under the server's rootDir. */
export function contractsForDevServer(rootDir) {
  return {
    name: 'reaction-blocks-contracts',
    resolveImport({ source }) {
      const file = contractFile(source);
      return file ? '/' + relative(rootDir, file).split(sep).join('/') : undefined;
    },
  };
}
