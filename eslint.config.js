// One lint configuration for every workspace.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import litA11y from 'eslint-plugin-lit-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import globals from 'globals';

// The dashboard's layers (bulletproof-react's rule): a feature imports no other feature; the
// shared layers (components/, lib/, config/, locales/) import no feature and no app/; only app/
// puts features together. Each feature is a zone closed to every other one.
// Paths from the repository's root, wherever ESLint is started (npm run lint in a workspace too).
const root = dirname(fileURLToPath(import.meta.url));
const dashboard = 'dashboard/src';
const features = readdirSync(`${root}/${dashboard}/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const boundaries = [
  ...features.map((feature) => ({
    target: `${dashboard}/features/${feature}`,
    from: `${dashboard}/features`,
    except: [`./${feature}`],
    message: 'A feature does not import another; move what both need into components/ or lib/.',
  })),
  {
    target: [
      `${dashboard}/components`,
      `${dashboard}/lib`,
      `${dashboard}/config`,
      `${dashboard}/locales`,
    ],
    from: [`${dashboard}/features`, `${dashboard}/app`],
    message: 'Shared code does not depend on features or app/.',
  },
  {
    target: `${dashboard}/features`,
    from: `${dashboard}/app`,
    message: 'Features do not import app/ (app/ imports features).',
  },
];

// Every dashboard read passes its query's abort signal to its requests (2249a58: a read under way
// at sign-out is aborted, and the one it would make next is never sent, as anon). The shared
// hooks hand the signal to the read function; these make a read that takes none an error, so it
// cannot be forgotten: the function is written where the query is, with the signal as its
// parameter, and no-unused-vars fails it when the signal goes nowhere (a function it calls with
// the signal must take it: TypeScript counts the arguments).
const signalTaken =
  'takes the signal: pass it to every request (.abortSignal(signal), invokeFunction(…, signal))';
const querySignal = [
  {
    // lib/use-query.ts: useQuery(key, (signal) => read(…, signal))
    selector:
      'CallExpression[callee.name="useQuery"][arguments.length>1]:not([arguments.1.type="ArrowFunctionExpression"][arguments.1.params.length>0])',
    message: `useQuery's load ${signalTaken}.`,
  },
  {
    // TanStack's queryFn: ({ signal }) => …; lib/use-draft-query.ts's queryFn: (signal) => …
    selector:
      'ObjectExpression > Property[key.name="queryFn"]:not([value.type="ArrowFunctionExpression"][value.params.length>0])',
    message: `A queryFn ${signalTaken}.`,
  },
  {
    selector:
      'ObjectExpression > Property[key.name="queryFn"] > ArrowFunctionExpression > ObjectPattern.params:not(:has(Property[key.name="signal"]))',
    message: `A queryFn ${signalTaken}: ({ signal }).`,
  },
  {
    // lib/use-paged-query.ts: fetchPage: (param, signal) => …
    selector:
      'ObjectExpression > Property[key.name="fetchPage"]:not([value.type="ArrowFunctionExpression"][value.params.length>1])',
    message: `fetchPage ${signalTaken}: (param, signal).`,
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '.tmp/**', 'supabase/types/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['sdk/**/*.ts'],
    plugins: { lit, 'lit-a11y': litA11y },
    rules: { ...lit.configs.recommended.rules, ...litA11y.configs.recommended.rules },
  },
  {
    files: ['dashboard/**/*.{ts,tsx}', 'examples/react/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: [`${dashboard}/**/*.{ts,tsx}`],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: boundaries, basePath: root }] },
  },
  {
    files: [`${dashboard}/**/*.{ts,tsx}`],
    ignores: [`${dashboard}/**/*.test.{ts,tsx}`, `${dashboard}/test/**`],
    rules: { 'no-restricted-syntax': ['error', ...querySignal] },
  },
  {
    files: ['supabase/functions/**/*.ts'],
    languageOptions: { globals: { Deno: 'readonly' } },
  },
);
