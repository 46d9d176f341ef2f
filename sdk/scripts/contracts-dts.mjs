// After `tsc -b tsconfig.build.json`: the SDK's declarations import the contracts by the
// repository's name for them, `@reaction-blocks/contracts/<module>`, which a site owner's project
// cannot resolve. The contracts' own declarations are in dist/contracts/ (tsconfig.contracts.json,
// the modules the SDK may import); this points every such import at them, and fails if one is left.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const contracts = join(dist, 'contracts');
const NAME = /(['"])@reaction-blocks\/contracts\/([\w-]+)\1/g;

let left = 0;
for (const file of readdirSync(dist, { recursive: true }).map(String)) {
  if (!file.endsWith('.d.ts')) continue;
  const path = join(dist, file);
  const source = readFileSync(path, 'utf8');
  let out = source.replace(NAME, (_, q, name) => {
    const to = relative(dirname(path), join(contracts, `${name}.js`))
      .split(sep)
      .join('/');
    return q + (to.startsWith('.') ? to : `./${to}`) + q;
  });
  // the contracts import each other as Deno wants, with .ts
  if (path.startsWith(contracts)) out = out.replace(/(from ['"]\.\/[\w-]+)\.ts(['"])/g, '$1.js$2');
  if (out !== source) writeFileSync(path, out);
  if (out.includes('@reaction-blocks/contracts/')) {
    console.error(`${file}: an import of @reaction-blocks/contracts is left`);
    left++;
  }
}
if (left) process.exit(1);
