// @vitest-environment node
// The lint rule that every dashboard read takes its query's abort signal (eslint.config.js
// querySignal): a load, queryFn or fetchPage written without it is an error, and so is one whose
// signal goes nowhere (no-unused-vars); the forms the features use pass. Run on the repository's
// own configuration, as `npm run lint` runs it, on a feature's file.
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

const head = `
declare function useQuery(...args: unknown[]): unknown;
declare function usePagedQuery(options: unknown): unknown;
declare function queryOptions(options: unknown): unknown;
declare function read(...args: unknown[]): Promise<unknown>;
declare const api: { load(signal: AbortSignal): Promise<unknown> };
`;

/** The rules `code` breaks, as a feature's file of the dashboard. */
async function broken(code: string): Promise<string[]> {
  // in a hook of the feature's, where the hooks are called
  const [result] = await eslint.lintText(`${head}export function useExample() {\n${code}\n}\n`, {
    filePath: `${root}dashboard/src/features/example/api/example.ts`,
  });
  return result!.messages.map((m) => m.ruleId ?? m.message);
}

describe('the query signal lint rule', () => {
  // the first lint loads the configuration and its plugins: seconds, more on a busy machine
  beforeAll(() => broken(''), 120_000);

  it.each([
    ['a load without the signal', `useQuery(['k'], () => read());`],
    ['a load given by name', `useQuery(['k'], read);`],
    ['a method given by name', `useQuery(['k'], api.load);`],
    ['a TanStack queryFn without it', `useQuery({ queryKey: ['k'], queryFn: () => read() });`],
    ['a queryFn given by name', `queryOptions({ queryKey: ['k'], queryFn: read });`],
    [
      "a queryFn that takes the context's key but not its signal",
      `useQuery({ queryKey: ['k'], queryFn: ({ queryKey }) => read(queryKey) });`,
    ],
    ['a page read without it', `usePagedQuery({ fetchPage: (page) => read(page) });`],
  ])('refuses %s', async (_what, code) => {
    expect(await broken(code)).toContain('no-restricted-syntax');
  });

  it.each([
    ['a load', `useQuery(['k'], (signal) => read());`],
    ['a queryFn', `useQuery({ queryKey: ['k'], queryFn: ({ signal }) => read() });`],
    ['a page read', `usePagedQuery({ fetchPage: (page, signal) => read(page) });`],
  ])('refuses %s whose signal goes nowhere', async (_what, code) => {
    expect(await broken(code)).toContain('@typescript-eslint/no-unused-vars');
  });

  it('takes the reads that pass it on', async () => {
    expect(
      await broken(
        `useQuery(['k'], (signal) => read(signal));
useQuery(['k'], (signal) => api.load(signal));
useQuery({ queryKey: ['k'], queryFn: ({ signal }) => read(signal) });
queryOptions({ queryKey: ['k'], queryFn: async ({ queryKey, signal }) => read(queryKey, signal) });
usePagedQuery({ fetchPage: (page, signal) => read(page, signal) });
`,
      ),
    ).toEqual([]);
  });
});
