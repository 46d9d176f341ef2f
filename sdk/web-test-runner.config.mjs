import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { a11ySnapshotPlugin } from '@web/test-runner-commands/plugins';
import { buildSync } from 'esbuild';
import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import { fileURLToPath } from 'node:url';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';
import { contractsForDevServer } from '../scripts/contracts.mjs';

// React is CommonJS. For the wrapper test, esbuild bundles react and react-dom/client once (one
// copy of React) into /__shim/all.js; bare 'react' and 'react-dom/client' resolve to shims that
// re-export their members by name.
const root = fileURLToPath(new URL('..', import.meta.url));
const SHIMS = { react: 'React', 'react-dom/client': 'ReactDOMClient' };
let bundle;
const reactShims = {
  name: 'react-shims',
  resolveImport({ source }) {
    if (source in SHIMS) return '/__shim/' + source + '.js';
  },
  serve(context) {
    // The CDN loader as the CDN serves it: one classic script (an IIFE), bundled like rollup does.
    if (context.path === '/__cdn/reaction.js')
      return {
        body: buildSync({
          entryPoints: [fileURLToPath(new URL('./src/cdn/loader.ts', import.meta.url))],
          bundle: true,
          format: 'iife',
          target: 'es2020',
          write: false,
        }).outputFiles[0].text,
        type: 'js',
      };
    if (context.path === '/__shim/all.js') {
      bundle ??= buildSync({
        stdin: {
          contents:
            "import * as React from 'react'; import * as ReactDOMClient from 'react-dom/client'; export { React, ReactDOMClient };",
          resolveDir: root,
        },
        bundle: true,
        format: 'esm',
        write: false,
        define: { 'process.env.NODE_ENV': '"development"' },
      }).outputFiles[0].text;
      return { body: bundle, type: 'js' };
    }
    const m = /^\/__shim\/(.+)\.js$/.exec(context.path);
    const name = m && SHIMS[m[1]];
    if (!name) return;
    const members = Object.keys(name === 'React' ? React : ReactDOMClient).filter(
      (k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== 'default',
    );
    return {
      body: `import { ${name} as M } from '/__shim/all.js';\nexport default M;\nexport const { ${members.join(', ')} } = M;\n`,
      type: 'js',
    };
  },
};

/**
 * A module's request held on a test's word, for the tests of a chunk that arrives late
 * (*.late.test.ts, in a browser of their own: another page's copy in the cache would be taken
 * without asking; one that fails to load is tested on the built CDN files, whose
 * imports retry, in e2e/stack.e2e.ts). Requests are told apart by the test page's cookie `rb-page`
 * (the storage-blocked group runs beside the others and sends none):
 * `executeServerCommand('hold-request', { page, path })` holds that page's next request for
 * `path` until 'release-request' (or 'release-all', every hold of the page); 'requested' says how
 * many requests for `path` the page made.
 */
const held = new Map();
const seen = new Map();
const requestControl = {
  name: 'request-control',
  executeCommand({ command, payload }) {
    const at = payload && `${payload.page} ${payload.path}`;
    if (command === 'hold-request') {
      let release;
      held.set(at, { wait: new Promise((r) => (release = r)), release });
      return true;
    }
    if (command === 'release-request') {
      held.get(at)?.release();
      held.delete(at);
      return true;
    }
    if (command === 'requested') return seen.get(at) ?? 0;
    // after each late test, pass or fail: a hold a failed test left would stall the next one
    if (command === 'release-all') {
      for (const [key, hold] of held)
        if (key.startsWith(`${payload.page} `)) {
          hold.release();
          held.delete(key);
        }
      return true;
    }
  },
};
const requestControlMiddleware = async (ctx, next) => {
  const page = ctx.cookies.get('rb-page');
  const at = `${page} ${ctx.path}`;
  if (page) seen.set(at, (seen.get(at) ?? 0) + 1);
  await held.get(at)?.wait;
  return next();
};

/**
 * A Chromium profile that blocks site data (Settings > Privacy > "Block all cookies", which also
 * blocks localStorage, sessionStorage and IndexedDB: every access throws SecurityError), for the
 * tests of the elements without storage (*.blocked.test.ts).
 */
function blockedStorageProfile() {
  const dir = mkdtempSync(join(tmpdir(), 'rb-wtr-blocked-'));
  mkdirSync(join(dir, 'Default'));
  writeFileSync(
    join(dir, 'Default', 'Preferences'),
    JSON.stringify({ profile: { default_content_setting_values: { cookies: 2 } } }),
  );
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export default {
  rootDir: fileURLToPath(new URL('..', import.meta.url)),
  files: [
    fileURLToPath(new URL('./src/**/*.test.ts', import.meta.url)),
    '!' + fileURLToPath(new URL('./src/**/*.blocked.test.ts', import.meta.url)),
    '!' + fileURLToPath(new URL('./src/**/*.late.test.ts', import.meta.url)),
  ],
  groups: [
    {
      name: 'first-interaction',
      files: fileURLToPath(new URL('./src/**/*.late.test.ts', import.meta.url)),
      browsers: [
        chromeLauncher({
          launchOptions: chromiumLaunchOptions,
          // The pages of the group share the browser, whose HTTP cache would give one test file a
          // module an earlier file loaded (the test runner serves them for a year) without a
          // request to hold: each page asks for its own.
          createPage: async ({ context }) => {
            const page = await context.newPage();
            await page.setCacheEnabled(false);
            return page;
          },
        }),
      ],
    },
    {
      name: 'storage-blocked',
      files: fileURLToPath(new URL('./src/**/*.blocked.test.ts', import.meta.url)),
      browsers: [
        chromeLauncher({
          launchOptions: { ...chromiumLaunchOptions, userDataDir: blockedStorageProfile() },
          // the profile's own context, whose settings block storage
          createBrowserContext: ({ browser }) => browser.defaultBrowserContext(),
        }),
      ],
    },
  ],
  nodeResolve: true,
  // One page at a time: test pages share one origin, so they would share localStorage.
  concurrency: 1,
  // A bound on a hung test, not a measure: every test waits for states. axe's checks ('is
  // accessible') took over 5 s at load 25-38 on two cores (three helpers saw them time out).
  testFramework: { config: { timeout: 20000 } },
  // A bound on a hung test file, above the sum of its tests' own bounds: a late-arrival file
  // (writer.late, three tests of up to 60 s each) at the suite's busy start must not be cut
  // short while each of its tests is still inside its bound.
  testsFinishTimeout: 240000,
  middleware: [requestControlMiddleware],
  plugins: [
    requestControl,
    // a11ySnapshot(): the accessibility tree as a screen reader gets it (names and descriptions)
    a11ySnapshotPlugin(),
    reactShims,
    contractsForDevServer(root),
    esbuildPlugin({
      ts: true,
      target: 'es2022',
      tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)),
    }),
  ],
  browsers: [
    chromeLauncher({
      launchOptions: chromiumLaunchOptions,
    }),
  ],
};
