// End-to-end: the built React example against a fresh local stack, in Chromium. The page is
// served by the stack's own web server at /examples/react/, exactly as `npm start` serves it, and
// its bundle uses @reaction-blocks/sdk through the package's exports (sdk/dist), as a customer's
// app would. Run: npm run build && npm run e2e -w @reaction-blocks/example-react
// Starts its own stack on free ports with a throwaway data directory (the seeded demo blocks).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { chromium, type Page } from 'playwright-core';
import { startThrowawayStack } from '../../supabase/local/throwaway.ts';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { journeySteps } from '../../scripts/journey-steps.ts';
import { watchConsole } from '../../scripts/console-watch.ts';
import { REACTION_BLOCK_TYPES } from '@reaction-blocks/contracts/enums';

const here = import.meta.dirname;
for (const built of [join(here, 'dist/index.html'), resolve(here, '../../sdk/dist/react')])
  if (!existsSync(built)) {
    console.error(`${built} is missing: run npm run build first.`);
    process.exit(1);
  }

const LIKE_BLOCK = '00000000-0000-4000-8000-000000000103';
const TAGS = REACTION_BLOCK_TYPES;
const { step, fail, finish } = journeySteps();

/** The text of the app's event log entries for one event name (the React handlers wrote them). */
const logged = (page: Page, name: string) =>
  page.locator(`[role=log] li[data-event="${name}"]`).allTextContents();

const stack = await startThrowawayStack('react-e2e');
const browser = await chromium.launch(chromiumLaunchOptions);

/** The demo like block's count, as a visitor's element reads it. */
async function likeCount(): Promise<number> {
  const view = await fetch(`${stack.apiUrl}/rest/v1/rpc/get_block_view`, {
    method: 'POST',
    headers: {
      apikey: stack.anonKey,
      authorization: `Bearer ${stack.anonKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ p_block_id: LIKE_BLOCK }),
  });
  return ((await view.json()) as { block: { like_count: number } }).block.like_count;
}
try {
  const page = await (await browser.newContext()).newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  // The SDK reports every problem on the console ([reaction-blocks] ...) instead of throwing
  // into the page; any console error or warning fails the journey (scripts/console-watch.ts).
  watchConsole(page, problems, 'react example');
  // Without the trailing slash the server redirects, so the app's relative scripts resolve.
  // The seed gives the demo like block its likes (supabase/seed/02-demo-history.sql): counts
  // are relative to them.
  const seededLikes = await likeCount();
  await page.goto(stack.webUrl + '/examples/react');

  await step('the six wrappers render the seeded demo blocks', async () => {
    await page.getByRole('heading', { level: 1, name: 'Reaction Blocks in React' }).waitFor();
    for (const tag of TAGS)
      await page.locator(`reaction-${tag} [part~=base]`).first().waitFor({ timeout: 15000 });
    await page.locator('reaction-comment [part=content]').first().waitFor();
    await page
      .locator('reaction-qna [part=subject]', { hasText: 'Ask me anything about Reaction Blocks' })
      .waitFor();
    await page
      .locator('reaction-like [part=count]', { hasText: new RegExp(`^${seededLikes} Likes?$`) })
      .waitFor();
    await page.locator('reaction-button [part=button]', { hasText: 'Read the docs' }).waitFor();
    // both options, once the block's view has arrived (counting at once raced the render)
    await page.locator('reaction-ab [part=option]').nth(1).waitFor();
    assert.equal(await page.locator('reaction-ab [part=option]').count(), 2);
    await page.locator('reaction-form [part=submit]', { hasText: 'Send feedback' }).waitFor();
  });

  await step('like: written once, and the React onReactionLike handler sees it', async () => {
    const written = page.waitForResponse((r) => r.url().endsWith('/rpc/toggle_block_like'));
    await page.locator('reaction-like [part=button]').click();
    assert.equal((await written).status(), 200);
    await page
      .locator('reaction-like [part=count]', { hasText: new RegExp(`^${seededLikes + 1} Likes?$`) })
      .waitFor();
    // React state set by the handler, rendered by React outside the element
    await page
      .locator('[data-like-seen="true"]', { hasText: `liked, ${seededLikes + 1} in total` })
      .waitFor();
    assert.deepEqual(await logged(page, 'reaction-like'), [
      `reaction-like {"liked":true,"likeCount":${seededLikes + 1}}`,
    ]);
    // and the server agrees
    assert.equal(await likeCount(), seededLikes + 1);
  });

  await step('comment: a post reaches the onReactionMessage handler', async () => {
    await page.locator('reaction-comment [part=composer] textarea').fill('Hello from React');
    await page.locator('reaction-comment [part=composer] [part=submit]').click();
    await page
      .locator('reaction-comment [part=content]', { hasText: 'Hello from React' })
      .waitFor();
    await page.locator('[role=log] li[data-event="reaction-message"]').waitFor();
    const [entry] = await logged(page, 'reaction-message');
    assert.match(entry ?? '', /"action":"post"/);
  });

  await step('React state passed as properties: theme and language', async () => {
    await page.getByLabel('Theme').selectOption('dark');
    await page.waitForFunction(
      (tags) =>
        tags.every(
          (t) => document.querySelector(`reaction-${t}`)?.getAttribute('data-theme') === 'dark',
        ),
      TAGS,
    );
    await page.getByLabel('Language').selectOption('ko');
    await page.getByRole('heading', { level: 1, name: 'React에서 쓰는 Reaction Blocks' }).waitFor();
    await page
      .locator('reaction-like [part=count]', { hasText: `좋아요 ${seededLikes + 1}` })
      .waitFor();
    await page.locator('reaction-comment [part=submit]', { hasText: '보내기' }).first().waitFor();
  });

  await step('no reaction-error events, page errors, or console errors and warnings', async () => {
    assert.deepEqual(await logged(page, 'reaction-error'), []);
    for (const line of problems) console.error(`  ${line}`);
    assert.deepEqual(problems, []);
  });
  // E2E_SCREENSHOT=file.png keeps a picture of the page, for a look at the styling.
  if (process.env.E2E_SCREENSHOT)
    await page.screenshot({ path: process.env.E2E_SCREENSHOT, fullPage: true });
} catch (e) {
  fail('e2e setup failed', e);
} finally {
  await browser.close();
  await stack.stop();
}
finish();
