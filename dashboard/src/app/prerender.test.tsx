// The prerendered landing pages hydrate without a mismatch: the build's prerender step renders
// every route in Node (a child process, as in the build: no window, React's production build),
// the markup goes into #root, and the app the browser runs hydrates it. React reports a mismatch
// through onRecoverableError (text, structure) or console.error (attributes, in development).
import { act, waitFor } from '@testing-library/react';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  inlineStylesheet,
  pageHtml,
  routePreloads,
  type ChunkManifest,
} from '../../scripts/prerender';
import { PRERENDERED_ROUTES } from '../../scripts/prerender-routes';
import { App } from './app';
import { env } from '../lib/env';

const dashboard = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let pages: Record<string, string> = {};

beforeAll(() => {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/prerender.tsx', '--markup'],
    {
      cwd: dashboard,
      encoding: 'utf8',
      env: {
        ...process.env,
        NODE_ENV: 'production',
        TSX_TSCONFIG_PATH: join(dashboard, 'scripts/tsconfig.json'),
      },
    },
  );
  if (run.status !== 0) throw new Error(`prerender --markup failed:\n${run.stderr}`);
  pages = JSON.parse(run.stdout) as Record<string, string>;
}, 120_000);

vi.mock('../lib/supabase', () => ({
  supabase: {
    auth: {
      onAuthStateChange: () => ({ data: { subscription: { unsubscribe() {} } } }),
      getSession: async () => ({ data: { session: null } }),
    },
  },
}));

/** React attaches its fiber to a DOM node once it has hydrated it. */
function isHydrated(node: Element | null) {
  return !!node && Object.keys(node).some((key) => key.startsWith('__reactFiber'));
}

let root: Root | null = null;
const buildEnv = { ...env };

beforeEach(() => {
  vi.spyOn(console, 'error');
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
  Object.assign(env, buildEnv);
  window.history.replaceState(null, '', '/');
});

async function hydrateAt(path: string, url = path) {
  const markup = pages[path]!;
  // /env.js gives the browser other values than the build machine had.
  Object.assign(env, { anonKey: 'runtime-anon-key', supabaseUrl: 'https://runtime.example' });
  window.history.replaceState(null, '', url);
  document.body.innerHTML = `<div id="root">${markup}</div>`;
  const container = document.getElementById('root')!;
  const errors: unknown[] = [];
  await act(async () => {
    root = hydrateRoot(
      container,
      <StrictMode>
        <App />
      </StrictMode>,
      { onRecoverableError: (error) => errors.push(error) },
    );
  });
  await waitFor(() => expect(isHydrated(container.querySelector('h1'))).toBe(true));
  return { container, markup, errors };
}

describe('prerendered landing pages', () => {
  it.each(Object.keys(PRERENDERED_ROUTES))('%s hydrates without a mismatch', async (path) => {
    const { container, markup, errors } = await hydrateAt(path);
    expect(markup).toContain('<h1');
    expect(errors).toEqual([]);
    expect(console.error).not.toHaveBeenCalled();
    expect(container.querySelector('h1')?.textContent).toBeTruthy();
  });

  it('renders the default tab at build time and the focus tab after hydrating', async () => {
    const { container, markup, errors } = await hydrateAt('/reaction', '/reaction?focus=button');
    expect(markup).toContain('id="reaction-tab-comment"');
    expect(markup).not.toContain('anon-key');
    expect(errors).toEqual([]);
    expect(console.error).not.toHaveBeenCalled();
    await waitFor(() =>
      expect(container.querySelector('[role=tab][aria-selected=true]')?.textContent).toBe('Button'),
    );
    const demo = container.querySelector('reaction-button');
    expect(demo?.getAttribute('anon-key')).toBe('runtime-anon-key');
    expect(demo?.getAttribute('project-url')).toBe('https://runtime.example');
  });
});

describe('prerendered page files', () => {
  const manifest: ChunkManifest = {
    entry: 'assets/main.js',
    chunks: [
      { fileName: 'assets/main.js', facadeModuleId: 'src/main.tsx', imports: ['assets/react.js'] },
      { fileName: 'assets/react.js', facadeModuleId: null, imports: [] },
      {
        fileName: 'assets/landing.js',
        facadeModuleId: 'src/app/routes/landing.tsx',
        imports: ['assets/logo.js', 'assets/react.js'],
      },
      { fileName: 'assets/logo.js', facadeModuleId: null, imports: ['assets/react.js'] },
    ],
  };
  const shell = [
    '<html lang="en"><head><link rel="modulepreload" href="/assets/react.js" />',
    '<script type="module" src="/assets/main.js"></script></head>',
    '<body><div id="root"></div></body></html>',
  ].join('');

  it("preload the route's chunk and its imports, not what the shell already loads", () => {
    expect(routePreloads(manifest, 'src/app/routes/landing.tsx')).toEqual([
      'assets/landing.js',
      'assets/logo.js',
    ]);
    expect(() => routePreloads(manifest, 'src/app/routes/missing.tsx')).toThrow(/no chunk/);
  });

  it('carry the markup, the path and language, and the preloads before the app script', () => {
    const html = pageHtml(shell, '/pricing', '<h1>Pricing</h1>', ['assets/landing.js']);
    expect(html).toContain('<html lang="en" data-route="/pricing" data-lang="en">');
    expect(html).toContain('<div id="root"><h1>Pricing</h1></div>');
    expect(html).toMatch(
      /<link rel="modulepreload" href="\/assets\/landing.js" \/>\s*<script type="module"/,
    );
    expect(() => pageHtml('<html><body></body></html>', '/', '', [])).toThrow(/app shell/);
  });

  it('inline the stylesheet', () => {
    const page = '<head><link rel="stylesheet" href="/assets/app-1.css" /></head>';
    const read = (file: string) => (file === 'assets/app-1.css' ? 'a{color:red}$&' : '');
    expect(inlineStylesheet(page, read)).toBe('<head><style>a{color:red}$&</style></head>');
    expect(() => inlineStylesheet(page, () => 'a{}</style><script>')).toThrow(/cannot be inlined/);
    expect(() => inlineStylesheet('<head></head>', read)).toThrow(/no stylesheet/);
  });
});
