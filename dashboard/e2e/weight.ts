// The dashboard's weight (issue 22): the gzip JS the landing, /login and the signed-in block
// dashboard load, measured as `npm run bench:dashboard` measures them, against the budgets of
// scripts/bench/budgets.ts. Each page loads with an empty cache; the landing and /login in a new
// context (no session), the dashboard in the signed-in owner's context (terms accepted) and in
// the seeded demo owner's (15 blocks, a paid plan), signed in in a context of its own.
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { describeWeight, overBudget, type BudgetedPage } from '../scripts/bench/budgets.ts';
import { recordColdLoad, type Transfer } from '../scripts/bench/transfer.ts';
import { signInWithGoogle } from './owner.ts';
import type { Journey } from './support.ts';

const DEMO = { email: 'demo@reaction-blocks.local', name: 'Demo Owner' };

async function inNewContext(
  { browser, base }: Journey,
  path: string,
  ready: (p: Page) => Promise<void>,
): Promise<Transfer> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    return await recordColdLoad(await context.newPage(), base, path, ready);
  } finally {
    await context.close();
  }
}

/** /dashboard/reaction for the seeded demo owner, cold, right after signing in. */
async function demoOwnerDashboard({ browser, base }: Journey): Promise<Transfer> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await signInWithGoogle(page, 'Sign in with Google', DEMO);
    return await recordColdLoad(page, base, '/dashboard/reaction', (p) =>
      p.getByTestId('block-card').first().waitFor(),
    );
  } finally {
    await context.close();
  }
}

/** Measures the four pages and fails, naming each page's chunks, when one is over budget. */
export async function pageWeights(owner: BrowserContext, journey: Journey) {
  const weights: Record<BudgetedPage, Transfer> = {
    landing: await inNewContext(journey, '/', (p) =>
      p.getByRole('heading', { level: 1 }).first().waitFor(),
    ),
    login: await inNewContext(journey, '/login', (p) =>
      p.getByRole('button', { name: 'Sign in with Google' }).waitFor(),
    ),
    dashboard: await (async () => {
      const page = await owner.newPage();
      try {
        return await recordColdLoad(page, journey.base, '/dashboard/reaction', (p) =>
          p.getByTestId('remaining').waitFor(),
        );
      } finally {
        await page.close();
      }
    })(),
    demoDashboard: await demoOwnerDashboard(journey),
  };
  for (const [page, transfer] of Object.entries(weights))
    console.log(`    ${describeWeight(page as BudgetedPage, transfer)}`);
  assert.deepEqual(overBudget(weights), [], 'pages over their gzip JS budget');
}
