// Two outputs: the npm package (ESM modules, dependencies external) and the CDN bundles
// (reaction.js loader + one self-contained chunk per element, block.js holding all of them, six.js
// the same without the viewer, and shared/: the six elements' files sharing Lit and the core as
// chunks, for pages with several). The
// CDN files of a release live in dist/cdn/v<version>/ and never change (a change is a new
// release, a new folder), so a CDN may cache them for good and a script tag may pin them with
// `integrity`; dist/cdn/reaction.js is the newest release's loader, for the pages that use the
// address without a version.
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import esbuild from 'rollup-plugin-esbuild';
import minifyHTML from '@lit-labs/rollup-plugin-minify-html-literals';
import { contracts, CONTRACTS_DIR } from '../scripts/contracts.mjs';

// paths from this file, so the root rollup.config.mjs can build the SDK from any directory
const root = dirname(fileURLToPath(import.meta.url));
const at = (path) => join(root, path);
const tsconfig = at('tsconfig.json');

// every element folder: src/components/<name>/<name>.ts defines the tag
const ELEMENTS = readdirSync(at('src/components'))
  .filter((e) => existsSync(at(`src/components/${e}/${e}.ts`)))
  .sort();
const define = {
  preventAssignment: true,
  values: {
    __RB_PROJECT_URL__: JSON.stringify(process.env.RB_PROJECT_URL || ''),
    __RB_ANON_KEY__: JSON.stringify(process.env.RB_ANON_KEY || ''),
  },
};
const min = () =>
  terser({ ecma: 2020, module: true, compress: { passes: 2 }, format: { comments: false } });
// Lit templates keep their source whitespace and comments: html`` and css`` of our own sources
// go through a real minifier (html-minifier-next; lightningcss for the CSS), which knows where
// whitespace matters and leaves the ${} expressions in place.
const minifyTemplates = () =>
  minifyHTML({
    filter: (id) => id.startsWith(at('src/')) && !id.endsWith('.test.ts'),
    failOnError: true,
    options: {
      // Lit's html and svg; staticHtml builds its tag names from expressions (<${tag}>), which
      // no HTML parser reads, and is left as written
      shouldMinify: (template) => template.tag === 'html' || template.tag === 'svg',
      shouldMinifyCSS: (template) => template.tag === 'css',
      // A template is a fragment whose neighbours the minifier cannot see (html`<span> *</span>`
      // follows a title): whitespace runs become one space, never none.
      minifyOptions: { conservativeCollapse: true },
    },
  });
const quiet = (w, warn) => (w.code === 'THIS_IS_UNDEFINED' ? undefined : warn(w));

const npmInputs = { index: at('src/index.ts'), 'react/index': at('src/react/index.ts') };
for (const e of ELEMENTS) {
  npmInputs[`components/${e}/${e}`] = at(`src/components/${e}/${e}.ts`);
  npmInputs[`components/${e}/${e}.component`] = at(`src/components/${e}/${e}.component.ts`);
  npmInputs[`react/${e}`] = at(`src/react/${e}.ts`);
}

const { version } = JSON.parse(readFileSync(at('package.json'), 'utf8'));
const CDN_DIR = `v${version}`;

/**
 * Beside the newest loader, dist/cdn/<element>.js: a page whose browser still holds a loader from
 * before the versioned folders (cached for a while, it asks for the element files next to it)
 * gets a one-line module importing this release's element.
 */
function unversionedShims() {
  return {
    name: 'unversioned-shims',
    writeBundle() {
      for (const e of ELEMENTS)
        writeFileSync(at(`dist/cdn/${e}.js`), `import './${CDN_DIR}/${e}.js';\n`);
    },
  };
}

/**
 * The integrity of every file of this release the loader may bring in (its elements, shared/,
 * six.js, block.js and every chunk), by path in the release's folder: { "like.js": "sha256-…" }.
 * The loader's build comes after the elements' (rollup builds the configurations below in
 * order), so the files are final. The table is a file of its own beside them,
 * integrity-<hash>.js, a classic script that hands it to the loader
 * (`__reactionBlocksIntegrity({...})`): only a pinned loader asks for it, with the file's sha384
 * as its `integrity`, and puts the table in an import map before its first import, so the browser
 * refuses a file that does not match. The loader holds only the file's name and sha384 (about a
 * hundred hashes are about 4.5 KB gzip, which every loader carried before). sha256 in the table,
 * not the script tag's sha384: a CDN that changes a file would need a second preimage of SHA-256
 * to pass, and the table is a third shorter.
 */
const sri = (alg, path) => `${alg}-${createHash(alg).update(readFileSync(path)).digest('base64')}`;
/** The replacements of a loader's build: this release's folder, and what it pins. */
const releaseValues = (values) =>
  replace({
    preventAssignment: true,
    values: { __RB_CDN_DIR__: JSON.stringify(CDN_DIR), ...values },
  });
let integrityFile;
/** Writes this release's integrity table; answers [its file name, its sha384]. */
function releaseIntegrity() {
  if (integrityFile) return integrityFile;
  const dir = at(`dist/cdn/${CDN_DIR}`);
  const files = readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.js') && !/^(reaction|cafe24|integrity-.*)\.js$/.test(f))
    .sort();
  if (!files.includes('like.js')) throw new Error(`[integrity] ${dir} has no elements yet`);
  const table = Object.fromEntries(files.map((f) => [f, sri('sha256', join(dir, f))]));
  const body = `__reactionBlocksIntegrity(${JSON.stringify(table)});\n`;
  // named by its content: a new table is a new address, which no cache holds
  const name = `integrity-${createHash('sha256').update(body).digest('hex').slice(0, 10)}.js`;
  writeFileSync(join(dir, name), body);
  integrityFile = [name, sri('sha384', join(dir, name))];
  return integrityFile;
}

/**
 * The CDN files' dynamic imports (the writer's code, Korean, the captcha, realtime, ...) try once
 * more with a new address when the chunk failed to load: a browser keeps a failed module import
 * for the page's life, so without it the visitor's next click would fail again without asking.
 * Each call of the import asks afresh, so a later click retries after the visitor is back online.
 */
function retryingImports() {
  // one helper per file that imports any (terser gives it a one-letter name)
  const helper = '__rbImport';
  return {
    name: 'retrying-imports',
    renderDynamicImport({ targetModuleId }) {
      if (!targetModuleId) return null;
      return { left: `${helper}(new URL(`, right: ',import.meta.url).href)' };
    },
    // The loader, when it checks its release's files (src/cdn/loader.ts), retries itself: a new
    // address must be in an import map with its integrity first, or it would load unchecked.
    intro: (chunk) =>
      chunk.dynamicImports.length
        ? `const ${helper}=(u)=>import(u).catch(()=>(self.__reactionBlocksRetry||((v)=>import(v+"?retry="+Date.now())))(u));`
        : '',
  };
}

/** Empties dist/ before the first build writes to it: no file of an older build is packed. */
function clean() {
  return {
    name: 'clean-dist',
    buildStart() {
      rmSync(at('dist'), { recursive: true, force: true });
      mkdirSync(at('dist'));
    },
  };
}

/** A CDN build of these entries into this release's folder (`sub`: a folder in it). */
const cdn = (input, sub) => ({
  input,
  plugins: [
    contracts(),
    replace(define),
    minifyTemplates(),
    nodeResolve({ browser: true }),
    esbuild({ target: 'es2022', tsconfig }),
    retryingImports(),
  ],
  preserveEntrySignatures: false,
  output: {
    dir: at(`dist/cdn/${CDN_DIR}${sub}`),
    format: 'es',
    chunkFileNames: 'chunks/[name]-[hash].js',
    plugins: [min()],
  },
  onwarn: quiet,
});

export default [
  {
    input: Object.fromEntries(Object.entries(npmInputs).filter(([, f]) => existsSync(f))),
    external: (id) => /^(lit|@lit|@supabase|react)(\/|$)/.test(id),
    // the templates minified here too: an app's bundler minifies code, not what is inside html``
    plugins: [clean(), contracts(), minifyTemplates(), esbuild({ target: 'es2022', tsconfig })],
    output: {
      dir: at('dist'),
      format: 'es',
      preserveModules: true,
      preserveModulesRoot: at('src'),
      // the contracts the elements use (from supabase/functions/_shared/contracts/) in contracts/
      entryFileNames: (chunk) =>
        chunk.facadeModuleId?.startsWith(CONTRACTS_DIR)
          ? `contracts/${basename(chunk.facadeModuleId, '.ts')}.js`
          : '[name].js',
      sourcemap: true,
    },
    onwarn: quiet,
  },
  // block.js holds the six elements <reaction-block> renders (src/cdn/block.ts); six.js the six
  // without the viewer (src/cdn/six.ts)
  ...ELEMENTS.map((e) =>
    cdn({ [e]: at(e === 'block' ? 'src/cdn/block.ts' : `src/components/${e}/${e}.ts`) }, ''),
  ),
  cdn({ six: at('src/cdn/six.ts') }, ''),
  // shared/: one file per element whose Lit, core and what several elements use are chunks they
  // share, for a page with several block types (the loader's choice): each type's own code once
  // and Lit once, instead of block.js with all six. A page with one type keeps its self-contained
  // file above (no chunk to wait for after it).
  cdn(
    Object.fromEntries(
      ELEMENTS.filter((e) => e !== 'block' && e !== 'count').map((e) => [
        e,
        at(`src/components/${e}/${e}.ts`),
      ]),
    ),
    '/shared',
  ),
  {
    input: at('src/cdn/loader.ts'),
    plugins: [
      contracts(),
      releaseValues({ __RB_INTEGRITY__: () => JSON.stringify(releaseIntegrity()) }),
      esbuild({ target: 'es2020', tsconfig }),
      unversionedShims(),
    ],
    // the same file twice: this release's (dist/cdn/v<version>/reaction.js, for a pinned script
    // tag) and the newest (dist/cdn/reaction.js), which loads the elements of its own release
    output: [
      { file: at(`dist/cdn/${CDN_DIR}/reaction.js`), format: 'iife', plugins: [min()] },
      { file: at('dist/cdn/reaction.js'), format: 'iife', plugins: [min()] },
    ],
  },
  // the script tag installed in Cafe24 malls (docs/cafe24.md): places the blocks, then loads the
  // reaction.js beside it; like the loader, this release's (pinned with `integrity` by a
  // deployment) and the newest
  {
    input: at('src/cdn/cafe24.ts'),
    plugins: [
      contracts(),
      // built after the loader: the sha384 of this release's reaction.js, which it pins, and
      // the integrity table that loader asks for, which it preloads
      releaseValues({
        __RB_LOADER_INTEGRITY__: () =>
          JSON.stringify(sri('sha384', at(`dist/cdn/${CDN_DIR}/reaction.js`))),
        __RB_INTEGRITY__: () => JSON.stringify(releaseIntegrity()),
      }),
      esbuild({ target: 'es2020', tsconfig }),
    ],
    output: [
      { file: at(`dist/cdn/${CDN_DIR}/cafe24.js`), format: 'iife', plugins: [min()] },
      { file: at('dist/cdn/cafe24.js'), format: 'iife', plugins: [min()] },
    ],
  },
];
