// @vitest-environment node
// What the block dashboard's first paint loads, from the modules' static imports (esbuild's
// metafile of the route, dynamic imports not followed): zod is not among them. The write schemas
// load with the first write (features/blocks/api/schemas.ts); the page-weight budget
// (scripts/bench/budgets.ts, the e2e journey) counts the bytes, this says which module broke it.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contractFile } from '../../../scripts/contracts.mjs';

const dashboard = fileURLToPath(new URL('../../', import.meta.url));

/** Every module the entry imports statically, directly or not, by path from dashboard/. */
async function staticImports(entry: string): Promise<Set<string>> {
  const { metafile } = await build({
    entryPoints: [entry],
    absWorkingDir: dashboard,
    bundle: true,
    write: false,
    metafile: true,
    splitting: true,
    format: 'esm',
    outdir: 'out',
    logLevel: 'silent',
    loader: { '.png': 'empty', '.svg': 'empty' },
    plugins: [
      {
        name: 'contracts',
        setup(b) {
          b.onResolve({ filter: /^@reaction-blocks\/contracts\// }, ({ path }) => ({
            path: contractFile(path) as string,
          }));
        },
      },
    ],
  });
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { path, kind } of metafile.inputs[file]?.imports ?? [])
      if (kind === 'import-statement') walk(path);
  };
  walk(Object.keys(metafile.inputs).find((f) => f.endsWith(entry))!);
  return seen;
}

describe("the block dashboard's first load", () => {
  it('imports no zod: the write schemas load with the first write', async () => {
    const modules = [
      ...(await staticImports('src/main.tsx')),
      ...(await staticImports('src/app/routes/signed-in.tsx')),
      ...(await staticImports('src/app/routes/dashboard.tsx')),
    ];
    expect(modules.length).toBeGreaterThan(50);
    expect(modules.filter((m) => m.includes('node_modules/zod/'))).toEqual([]);
  });
});
