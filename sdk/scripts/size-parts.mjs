// npm run size:parts [-- <element>] [-- --write]: what an element's CDN file (like.js unless
// named) is made of, part by part: lit-html (the templates), the reactive base (core/element.ts,
// in place of Lit's reactive-element and lit-element since issue 21), the base styles, the core's fetch and configuration, its session, its texts, the base class and the
// element's own code. The element is built again as in rollup.config.mjs, with each part a chunk
// of its own (same plugins, same terser), and the parts before its first data are gzipped one
// after another in that order: each row is what its part adds to the ones above it. The sum is
// above the real file by the import and export lines between the parts' chunks, given on its
// own row. With --write the table replaces the "SDK <element>.js by part" section of
// docs/benchmarks.md.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import configs from '../rollup.config.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const docs = resolve(root, '../docs/benchmarks.md');
const element = process.argv.slice(2).find((a) => !a.startsWith('--')) || 'like';
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const built = join(root, `dist/cdn/v${version}/${element}.js`);
if (!existsSync(built)) {
  console.error('[size:parts] run `npm run build` first');
  process.exit(1);
}

/** The parts, in the order their bytes are counted. */
const PARTS = [
  ['lit-html', (id) => id.includes('/node_modules/lit-html/')],
  ['core: the reactive base (element.ts)', (id) => id.endsWith('/core/element.ts')],
  [
    'core: fetch and configuration (api, request, errors, config)',
    (id) => /\/core\/(api|request|errors|config)\.ts$/.test(id),
  ],
  [
    'core: session and the page store (session, session-key, stored)',
    (id) => /\/core\/(session|session-key|stored)\.ts$/.test(id),
  ],
  ['core: texts (i18n, locales/en)', (id) => /\/core\/(i18n\.ts|locales\/en)/.test(id)],
  ['core: base styles (theme.ts)', (id) => /\/core\/theme\.ts$/.test(id)],
  [
    'core: other (log, chunk loading, profile, ...)',
    (id) => id.includes('/src/core/') && !id.endsWith('/core/base.ts'),
  ],
  ['core: the base class (base.ts)', (id) => id.endsWith('/core/base.ts')],
  // last: the entry's chunk
  [
    `the element (components/${element}/: its class, styles and texts)`,
    (id) => id.includes('/src/components/'),
  ],
];
/** A part's chunk name (rollup makes names safe for files): its index. */
const partOf = (id) => {
  const i = PARTS.findIndex(([, has]) => has(id));
  return 'part' + (i < 0 ? PARTS.length : i);
};

const config = configs.find(
  (c) => c.input?.[element] && c.output?.dir && !c.output.dir.endsWith('/shared'),
);
const bundle = await rollup({ ...config, onwarn: () => {} });
// what loads before the first data: the modules of the file as built (the dynamic imports are
// chunks of their own there); only those are parted, the rest stay as they are
const whole = (await bundle.generate(config.output)).output.find((o) => o.isEntry);
const firstModules = new Set(Object.keys(whole.modules));
const { output } = await bundle.generate({
  ...config.output,
  manualChunks: (id) => (firstModules.has(id) ? partOf(id) : undefined),
});
await bundle.close();

const gz = (s) => gzipSync(Buffer.from(s), { level: 9 }).length;
const kb = (n) => (n / 1024).toFixed(2) + ' KB';
const chunks = new Map(output.filter((o) => o.type === 'chunk').map((o) => [o.fileName, o]));
// what loads before the first data: the entry and what it imports statically
const first = new Set();
const walk = (c) => {
  if (first.has(c)) return;
  first.add(c);
  for (const i of c.imports) walk(chunks.get(i));
};
walk([...chunks.values()].find((c) => c.isEntry));
// the entry's chunk is the element's part (its module is in components/)
const rank = (c) => (c.isEntry ? PARTS.length - 1 : Number(c.name.slice(4)));
const label = (c) => PARTS[rank(c)]?.[0] ?? 'other';
let text = '';
let before = 0;
const rows = [...first]
  .sort((a, b) => rank(a) - rank(b))
  .map((c) => {
    text += c.code;
    const now = gz(text);
    const row = [label(c), now - before];
    before = now;
    return row;
  });
const real = gz(readFileSync(built));
const section = `## SDK ${element}.js by part

Measured by \`npm run size:parts -w @reaction-blocks/sdk -- ${element === 'like' ? '' : element + ' '}--write\` on ${new Date().toISOString().slice(0, 10)}: ${element}.js built again with each part a
chunk of its own (the same plugins and terser), the parts it loads before its first data gzipped
(-9) one after another in this order, each row what its part adds to those above it. The sum is
above the real file by the import and export lines between the parts' chunks.

| part | adds (gzip) |
|---|---|
${rows.map(([name, n]) => `| ${name} | ${kb(n)} |`).join('\n')}
| sum of the parts | ${kb(before)} |
| ${element}.js as built (one file) | ${kb(real)} |
| the lines joining the parts' chunks | ${kb(before - real)} |
`;
if (process.argv.includes('--write')) {
  let doc = readFileSync(docs, 'utf8');
  const re = new RegExp(`## SDK ${element}\\.js by part\\n[\\s\\S]*?(?=\\n## |$)`);
  if (re.test(doc)) doc = doc.replace(re, section);
  else doc = doc.replace(/(## SDK sizes\n[\s\S]*?)(?=\n## |$)/, `$1\n${section}`);
  writeFileSync(docs, doc);
}
console.log(section);
