// How much gzip JS each dashboard page may load (issue 22), in KB of 1024 bytes as the benchmark
// reports them. The dashboard's e2e journey (part of npm test) measures the pages as
// `npm run bench:dashboard` does (scripts/bench/transfer.ts: every JS file the page requested
// until the network went quiet, gzip -9) and fails when one is over: the dashboard's weight does
// not grow with its looks. Sizes only, never times.
import { chunkName, type Transfer } from './transfer.ts';

export const JS_BUDGETS_KB = {
  /**
   * The landing's home page, /, the page every visitor opens first. 111 for a part on
   * 2026-11-28 (the sign-in return's finisher in the main chunk, 110.2); back to 110 once it
   * loaded only when a return is pending (lib/sign-in-return.ts).
   */
  landing: 110,
  /** /login. */
  login: 165,
  /** /dashboard/reaction, signed in, with the terms accepted. */
  dashboard: 200,
  /**
   * The same page for the seeded demo owner (supabase/seed/: a paid plan, 15 blocks, the 12
   * reaction blocks on this list, tags), right after signing in: the list's worst realistic case
   * beside a new owner's empty one, under the same budget (200.4 KB, over it and unchecked,
   * before zod left the first load on 2026-11-29).
   */
  demoDashboard: 200,
} as const;

export type BudgetedPage = keyof typeof JS_BUDGETS_KB;

/** One line per page: its JS, its budget, and its chunks, largest first. */
export function describeWeight(page: BudgetedPage, transfer: Transfer): string {
  const chunks = transfer.assets
    .filter((a) => a.kind === 'js')
    .sort((a, b) => b.gzip - a.gzip)
    .map((a) => `${chunkName(a.path)} ${(a.gzip / 1024).toFixed(1)}`)
    .join(', ');
  const js = (transfer.bytes.js / 1024).toFixed(1);
  return `${page}: ${js} KB gzip JS (budget ${JS_BUDGETS_KB[page]} KB): ${chunks}`;
}

/** The pages over their budget, each described. */
export function overBudget(weights: Partial<Record<BudgetedPage, Transfer>>): string[] {
  return (Object.entries(weights) as [BudgetedPage, Transfer][])
    .filter(([page, transfer]) => transfer.bytes.js > JS_BUDGETS_KB[page] * 1024)
    .map(([page, transfer]) => describeWeight(page, transfer));
}
