// Builds the dashboard SPA into dist/: hashed ESM chunks (one per lazy route module), one
// stylesheet, the app shell (200.html, the answer for every path that is not a file) and the
// landing routes prerendered to static HTML (index.html for /, <route>/index.html for the rest;
// scripts/prerender.tsx). The landing pages never load the signed-in app's chunks.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { buildSync, transformSync } from 'esbuild';
import { CONTRACTS_DIR, contracts } from '../scripts/contracts.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const production = process.env.NODE_ENV !== 'development';

/** Emits the stylesheet and the app shell that loads /env.js before the app. */
function html() {
  let cssFile = '';
  /** What scripts/prerender.tsx needs to know about the chunks (passed on its stdin). */
  let manifest = null;
  return {
    name: 'dashboard-html',
    buildStart() {
      rmSync(join(root, 'dist'), { recursive: true, force: true });
      // src/styles/index.css lists the files in cascade order; each is inlined in its place.
      const dir = join(root, 'src/styles');
      const index = readFileSync(join(dir, 'index.css'), 'utf8');
      const files = Array.from(index.matchAll(/@import\s+'\.\/([^']+)';/g), (m) => m[1]);
      const unlisted = readdirSync(dir).filter(
        (f) => f.endsWith('.css') && f !== 'index.css' && !files.includes(f),
      );
      if (unlisted.length) this.error(`src/styles/index.css does not list ${unlisted.join(', ')}`);
      for (const f of ['index.css', ...files]) this.addWatchFile(join(dir, f));
      const css = files.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
      const ref = this.emitFile({ type: 'asset', name: 'app.css', source: minifyCss(css) });
      cssFile = ref;
    },
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry);
      const preload = entry.imports
        .map((f) => `<link rel="modulepreload" href="/${f}" />`)
        .join('\n    ');
      const template = readFileSync(join(root, 'index.html'), 'utf8');
      // Comments are for whoever reads index.html, not for every visitor's download.
      const source = template
        .replace(
          '<!-- styles -->',
          `<link rel="stylesheet" href="/${this.getFileName(cssFile)}" />`,
        )
        .replace(
          '<!-- scripts -->',
          `${preload}\n    <script type="module" src="/${entry.fileName}"></script>`,
        )
        .replace(/<!--[\s\S]*?-->\s*/g, '')
        .replace(/^\s*\/\/.*\n/gm, '');
      // The shell twice: 200.html stays the single-page fallback, index.html is replaced by
      // the prerendered home page (and stays the shell if prerendering is skipped).
      this.emitFile({ type: 'asset', fileName: '200.html', source });
      this.emitFile({ type: 'asset', fileName: 'index.html', source });
      manifest = {
        entry: entry.fileName,
        chunks: Object.values(bundle)
          .filter((c) => c.type === 'chunk')
          .map((c) => ({
            fileName: c.fileName,
            facadeModuleId: c.facadeModuleId
              ? relative(root, c.facadeModuleId).split(sep).join('/')
              : null,
            imports: c.imports,
          })),
      };
      // public/ as it is, folders included (public/sample/audience_list.csv)
      for (const f of readdirSync(join(root, 'public'), { recursive: true })) {
        const file = join(root, 'public', String(f));
        if (!statSync(file).isFile()) continue;
        this.emitFile({
          type: 'asset',
          fileName: String(f).split(sep).join('/'),
          source: readFileSync(file),
        });
      }
      // The public page of one block (/block/?id=&block_id=): no React, the SDK's loader and the
      // page's own small script (viewer/page.ts) inline.
      this.emitFile({
        type: 'asset',
        fileName: 'block/index.html',
        source: readFileSync(join(root, 'viewer/index.html'), 'utf8')
          .replace(/<!--[\s\S]*?-->\s*/g, '')
          .replace('%SDK_URL%', process.env.SDK_URL || '/sdk/cdn/reaction.js')
          .replace('%PAGE_SCRIPT%', () => viewerScript())
          .replace(/\/\* %FONTS_CSS%.*?\*\//, () =>
            minifyCss(readFileSync(join(root, 'src/styles/fonts.css'), 'utf8')).trim(),
          ),
      });
    },
    writeBundle() {
      // /send's before and after: fixture pages through the real letter pipeline
      // (scripts/letter-samples.ts), files beside the app at /letter-samples/.
      const samples = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'scripts/letter-samples.ts', join(root, 'dist/letter-samples')],
        { cwd: join(root, '..'), stdio: 'inherit' },
      );
      if (samples.status !== 0) this.error('rendering the letter samples failed (see above)');
      if (process.env.PRERENDER === '0') return;
      // The app's TSX runs in Node through tsx, with a tsconfig that covers src/ and scripts/
      // (tsx compiles JSX only for files its tsconfig includes). React's production build gives
      // the same markup as the browser's.
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/prerender.tsx'], {
        cwd: root,
        input: JSON.stringify(manifest),
        stdio: ['pipe', 'inherit', 'inherit'],
        env: {
          ...process.env,
          NODE_ENV: 'production',
          TSX_TSCONFIG_PATH: join(root, 'scripts/tsconfig.json'),
        },
      });
      if (run.status !== 0) this.error('prerendering the landing pages failed (see above)');
    },
  };
}

/**
 * The footer's SITE_* settings (src/config/site.ts names each one): their build-time values, or
 * undefined when unset, so the bundle never reads `process`.
 */
function siteEnvValues() {
  const source = readFileSync(join(root, 'src/config/site.ts'), 'utf8');
  const keys = new Set(
    Array.from(source.matchAll(/process\.env\.(SITE_[A-Z0-9_]+)/g), (m) => m[1]),
  );
  return Object.fromEntries(
    [...keys].map((key) => [
      `process.env.${key}`,
      process.env[key] === undefined ? 'undefined' : JSON.stringify(process.env[key]),
    ]),
  );
}

/**
 * The footer's configuration as src/config/site.ts parses it from the SITE_* settings, as JSON:
 * the browser build gets the result, not the parser. Invalid settings
 * are dropped here as there; the prerender step refuses them.
 */
function siteConfigJson() {
  const { outputFiles } = buildSync({
    entryPoints: [join(root, 'src/config/site.ts')],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    alias: { '@reaction-blocks/contracts': CONTRACTS_DIR.replace(/[\\/]$/, '') },
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'process', outputFiles[0].text)(module, module.exports, {
    env: { ...process.env, PARSED_SITE_CONFIG: undefined },
  });
  return JSON.stringify(module.exports.parseSiteConfig(module.exports.siteEnv).config);
}

/**
 * viewer/page.ts as one inline classic script: its one import, the contracts' id rule, bundled in
 * (`@reaction-blocks/contracts/<module>` mapped as scripts/contracts.mjs maps it).
 */
function viewerScript() {
  const { outputFiles } = buildSync({
    entryPoints: [join(root, 'viewer/page.ts')],
    bundle: true,
    write: false,
    alias: { '@reaction-blocks/contracts': CONTRACTS_DIR.replace(/[\\/]$/, '') },
    format: 'iife',
    minify: true,
    target: 'es2020',
  });
  const code = outputFiles[0].text;
  // an inline script ends at the first </script, whatever the JavaScript around it says
  if (/<\/script/i.test(code)) throw new Error('viewer/page.ts must not contain </script');
  return code.trim();
}

/** The app's stylesheet minified by esbuild's CSS minifier (a parser, not patterns). */
function minifyCss(css) {
  return transformSync(css, { loader: 'css', minify: true }).code;
}

/** @type {import('rollup').RollupOptions[]} */
export default [
  {
    input: { main: join(root, 'src/main.tsx') },
    output: {
      dir: join(root, 'dist'),
      format: 'es',
      entryFileNames: 'assets/[name]-[hash].js',
      chunkFileNames: 'assets/[name]-[hash].js',
      assetFileNames: 'assets/[name]-[hash][extname]',
      sourcemap: !production,
      manualChunks(id) {
        // Shared vendor code of the landing, split so it caches across deploys.
        if (/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom)\//.test(id))
          return 'react';
        // Realtime apart: only the screens that listen load it (src/lib/realtime.ts).
        if (/node_modules\/@supabase\/(realtime-js|phoenix)\//.test(id)) return 'realtime';
        if (id.includes('node_modules/@supabase/')) return 'supabase';
        if (id.includes('node_modules/@tanstack/')) return 'query';
        if (/node_modules\/(i18next|react-i18next)\//.test(id)) return 'i18n';
        return undefined;
      },
    },
    preserveEntrySignatures: false,
    plugins: [
      contracts(),
      replace({
        preventAssignment: true,
        values: {
          'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development'),
          'process.env.SUPABASE_URL': JSON.stringify(
            process.env.SUPABASE_URL ?? 'http://127.0.0.1:54321',
          ),
          'process.env.SUPABASE_ANON_KEY': JSON.stringify(process.env.SUPABASE_ANON_KEY ?? ''),
          'process.env.SDK_URL': JSON.stringify(process.env.SDK_URL ?? ''),
          ...siteEnvValues(),
          'process.env.PARSED_SITE_CONFIG': JSON.stringify(siteConfigJson()),
        },
      }),
      nodeResolve({
        browser: true,
        exportConditions: [production ? 'production' : 'development'],
        extensions: ['.mjs', '.js', '.json', '.ts', '.tsx'],
      }),
      commonjs(),
      esbuild({
        include: /\.[jt]sx?$/,
        target: 'es2022',
        jsx: 'automatic',
        tsconfig: join(root, 'tsconfig.json'),
      }),
      production && terser({ format: { comments: false } }),
      html(),
    ],
    onwarn(warning, warn) {
      // supabase-js ships `this` at module top level in a CJS shim; harmless.
      if (warning.code === 'THIS_IS_UNDEFINED') return;
      // Third-party packages: annotations rollup drops and cycles inside one package.
      const inDependency = (warning.id ?? warning.ids?.[0] ?? '').includes('node_modules');
      if (
        inDependency &&
        ['INVALID_ANNOTATION', 'CIRCULAR_DEPENDENCY', 'MODULE_LEVEL_DIRECTIVE'].includes(
          warning.code,
        )
      )
        return;
      warn(warning);
    },
  },
];
