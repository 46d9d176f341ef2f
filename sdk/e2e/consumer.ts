// The package as a developer gets it: `npm pack` of the sdk workspace, installed from the tarball
// into a fresh app in the system's temp folder (outside the workspace, so nothing resolves through
// the workspace's node_modules or its link), with React, TypeScript and esbuild from the npm
// registry (the versions the workspace has, so npm's cache answers), and rollup to measure the
// element as a Vite or rollup app bundles it. The app imports one element
// the npm way (element.ts) and one React wrapper (react.tsx); it must type-check strictly, build,
// stay within the size budgets, and bundle no element but the one it imports. stack.e2e.ts serves
// the built pages and renders them in Chromium against its stack.
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { APP_BUDGETS } from '../scripts/budgets.mjs';

const run = promisify(execFile);
const sdk = resolve(import.meta.dirname, '..');
const require = createRequire(join(sdk, 'package.json'));
/**
 * The version the workspace has of a package: its package.json, or for one that does not export
 * it (the rollup plugins), the nearest package.json of that name above its entry.
 */
function versionOf(name: string): string {
  const read = (file: string) =>
    JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
  try {
    return read(require.resolve(`${name}/package.json`)).version;
  } catch {
    for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
      const file = join(dir, 'package.json');
      if (existsSync(file) && read(file).name === name) return read(file).version;
    }
    throw new Error(`no package.json of ${name}`);
  }
}

/** The tags of the elements: an app that imports one must bundle none of the others. */
const TAGS = ['comment', 'qna', 'like', 'button', 'ab', 'form', 'block'];

export interface ConsumerApp {
  /** The folder with element.html, react.html and their scripts. */
  dir: string;
  /** What was measured, for the e2e's log. */
  sizes: Record<string, number>;
  remove(): void;
}

const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

/** The entry's file and every chunk it imports statically (what loads before the element runs). */
function initial(dir: string, file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const src = readFileSync(join(dir, file), 'utf8');
  for (const m of src.matchAll(/(?:from|import)\s*["']\.\/([^"']+\.js)["']/g))
    initial(dir, m[1]!, seen);
  return seen;
}

export async function buildConsumerApp(): Promise<ConsumerApp> {
  const app = mkdtempSync(join(tmpdir(), 'rb-consumer-'));
  const remove = () => rmSync(app, { recursive: true, force: true });
  try {
    const packed = await run('npm', ['pack', '--pack-destination', app, '--json'], { cwd: sdk });
    const [tarball] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
    if (!tarball) throw new Error(`npm pack named no tarball: ${packed.stdout}`);
    const { filename } = tarball;
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({
        name: 'rb-consumer',
        private: true,
        type: 'module',
        dependencies: {
          '@reaction-blocks/sdk': `file:./${filename}`,
          react: versionOf('react'),
          'react-dom': versionOf('react-dom'),
        },
        devDependencies: {
          '@types/react': versionOf('@types/react'),
          '@types/react-dom': versionOf('@types/react-dom'),
          esbuild: versionOf('esbuild'),
          rollup: versionOf('rollup'),
          '@rollup/plugin-node-resolve': versionOf('@rollup/plugin-node-resolve'),
          '@rollup/plugin-terser': versionOf('@rollup/plugin-terser'),
          typescript: versionOf('typescript'),
        },
      }),
    );
    const install = await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'],
      { cwd: app },
    );
    const warnings = install.stdout + install.stderr;
    if (/EBADENGINE/.test(warnings)) throw new Error(`engine warnings at install:\n${warnings}`);

    mkdirSync(join(app, 'src'));
    writeFileSync(
      join(app, 'src/element.ts'),
      `import '@reaction-blocks/sdk/like';
import type { ReactionLike } from '@reaction-blocks/sdk';

const q = new URLSearchParams(location.search);
const like: ReactionLike = document.createElement('reaction-like');
like.projectUrl = q.get('project') ?? '';
like.anonKey = q.get('key') ?? '';
like.blockId = q.get('block') ?? '';
like.addEventListener('reaction-like', (e) => {
  const liked: boolean = e.detail.liked;
  document.title = liked ? 'liked' : 'not liked';
});
document.body.append(like);
`,
    );
    writeFileSync(
      join(app, 'src/react.tsx'),
      `import { createRoot } from 'react-dom/client';
import { Like } from '@reaction-blocks/sdk/react/like';

const q = new URLSearchParams(location.search);
createRoot(document.getElementById('root')!).render(
  <Like
    projectUrl={q.get('project') ?? ''}
    anonKey={q.get('key') ?? ''}
    blockId={q.get('block') ?? ''}
    onReactionLike={(e) => {
      const count: number = e.detail.likeCount;
      document.title = String(count);
    }}
  />,
);
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'esnext',
          moduleResolution: 'bundler',
          jsx: 'react-jsx',
          lib: ['es2022', 'dom', 'dom.iterable'],
          strict: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          skipLibCheck: false,
          noEmit: true,
          types: [],
        },
        include: ['src'],
      }),
    );
    const bin = (name: string) => join(app, 'node_modules/.bin', name);
    await run(bin('tsc'), ['-p', '.'], { cwd: app }).catch((e: { stdout?: string }) => {
      throw new Error(`the strict type check failed:\n${e.stdout ?? e}`);
    });

    // The sizes: each entry with the chunks it imports statically, the SDK's budgets. The React
    // page is measured without React (the app's, not ours) and may add @lit/react's wrapper.
    const out = join(app, 'dist');
    const sizes: Record<string, number> = {};
    for (const [name, external] of [
      ['element', []],
      ['react', ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime']],
    ] as const) {
      const measured = join(app, `measure-${name}`);
      await run(
        bin('esbuild'),
        [
          `src/${name}.${name === 'react' ? 'tsx' : 'ts'}`,
          '--bundle',
          '--splitting',
          '--format=esm',
          '--minify',
          '--log-level=warning',
          `--outdir=${measured}`,
          ...external.map((e) => `--external:${e}`),
        ],
        { cwd: app },
      );
      const files = initial(measured, `${name}.js`);
      sizes[name] = [...files].reduce((n, f) => n + gz(join(measured, f)), 0);
      const code = readdirSync(measured)
        .map((f) => readFileSync(join(measured, f), 'utf8'))
        .join('\n');
      for (const t of TAGS.filter((t) => t !== 'like'))
        if (code.includes(`'reaction-${t}'`) || code.includes(`"reaction-${t}"`))
          throw new Error(
            `${name}: the app imports <reaction-like> only, its bundle defines <reaction-${t}>`,
          );
    }
    // The element alone (the app's own lines aside) as rollup bundles it (Vite's production
    // build is rollup's): node-resolve and terser's defaults, code split
    writeFileSync(join(app, 'src/like-only.js'), `import '@reaction-blocks/sdk/like';\n`);
    writeFileSync(
      join(app, 'rollup.config.mjs'),
      `import resolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
export default {
  input: 'src/like-only.js',
  output: { dir: 'measure-rollup', format: 'es' },
  plugins: [resolve({ browser: true }), terser()],
};
`,
    );
    await run(bin('rollup'), ['-c', '--silent'], { cwd: app });
    const rolled = join(app, 'measure-rollup');
    sizes.rollup = [...initial(rolled, 'like-only.js')].reduce(
      (n, f) => n + gz(join(rolled, f)),
      0,
    );
    if (sizes.rollup > APP_BUDGETS.likeRollup)
      throw new Error(
        `the like element bundles (rollup) to ${sizes.rollup} B gzip, over ${APP_BUDGETS.likeRollup}`,
      );
    if (sizes.element! > APP_BUDGETS.like)
      throw new Error(
        `the like element bundles to ${sizes.element} B gzip, over ${APP_BUDGETS.like}`,
      );
    if (sizes.react! > APP_BUDGETS.reactLike)
      throw new Error(
        `the Like wrapper bundles to ${sizes.react} B gzip, over ${APP_BUDGETS.reactLike}`,
      );

    // The pages the e2e opens: each script with React bundled in, as an app ships it.
    await run(
      bin('esbuild'),
      [
        'src/element.ts',
        'src/react.tsx',
        '--bundle',
        '--splitting',
        '--format=esm',
        '--minify',
        '--log-level=warning',
        `--outdir=${out}`,
      ],
      { cwd: app },
    );
    writeFileSync(
      join(out, 'element.html'),
      '<!doctype html><html lang="en"><head><title>element</title><script type="module" src="element.js"></script></head><body></body></html>',
    );
    writeFileSync(
      join(out, 'react.html'),
      '<!doctype html><html lang="en"><head><title>react</title><script type="module" src="react.js"></script></head><body><div id="root"></div></body></html>',
    );
    return { dir: out, sizes, remove };
  } catch (e) {
    remove();
    throw e;
  }
}
