// Builds the example into dist/: index.html, app.js and lazy chunks (the SDK's Korean texts and
// its Realtime client). @reaction-blocks/sdk is resolved through its package exports (sdk/dist),
// as in a customer's app, so build the SDK first (`npm run build` does, in workspace order).
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';

const root = dirname(fileURLToPath(import.meta.url));

/** Empties dist/ and copies the page that loads /env.js and then app.js. */
function page() {
  return {
    name: 'example-page',
    buildStart() {
      rmSync(join(root, 'dist'), { recursive: true, force: true });
      this.addWatchFile(join(root, 'index.html'));
    },
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'index.html',
        source: readFileSync(join(root, 'index.html'), 'utf8'),
      });
    },
  };
}

/** @type {import('rollup').RollupOptions} */
export default {
  input: { app: join(root, 'src/main.tsx') },
  output: {
    dir: join(root, 'dist'),
    format: 'es',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
  },
  plugins: [
    page(),
    replace({
      preventAssignment: true,
      values: {
        'process.env.NODE_ENV': JSON.stringify('production'),
        // Where the app looks when the page has no /env.js (a static deployment of this example).
        __RB_PROJECT_URL__: JSON.stringify(process.env.RB_PROJECT_URL || 'http://127.0.0.1:54321'),
        __RB_ANON_KEY__: JSON.stringify(process.env.RB_ANON_KEY || ''),
      },
    }),
    nodeResolve({ browser: true, extensions: ['.mjs', '.js', '.json', '.ts', '.tsx'] }),
    commonjs(),
    esbuild({
      include: /\.[jt]sx?$/,
      target: 'es2022',
      jsx: 'automatic',
      tsconfig: join(root, 'tsconfig.json'),
    }),
    terser({ format: { comments: false } }),
  ],
  onwarn(warning, warn) {
    // Lit's and React's builds: `this` at module level and directives rollup drops; harmless.
    const inDependency = (warning.id ?? warning.ids?.[0] ?? '').includes('node_modules');
    if (warning.code === 'THIS_IS_UNDEFINED') return;
    if (inDependency && ['MODULE_LEVEL_DIRECTIVE', 'INVALID_ANNOTATION'].includes(warning.code))
      return;
    warn(warning);
  },
};
