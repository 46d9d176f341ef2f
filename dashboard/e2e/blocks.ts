// The block dashboard: creating blocks through the type picker up to the free limit (and the
// database refusing one more; plans.ts buys the plan that raises it), and the card menu's
// duplicate, tag, block link and delete.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { accessToken } from './owner.ts';
import { type BlockType, type Journey, TYPE_LABELS, workspaceBlockId } from './support.ts';

/** Creates a block of `type` through the picker; the app opens its workspace. */
export async function createThroughPicker(page: Page, { base }: Journey, type: BlockType) {
  if (!page.url().endsWith('/dashboard/reaction')) await page.goto(`${base}/dashboard/reaction`);
  await page.getByRole('button', { name: 'Create block' }).click();
  await page
    .getByRole('group', { name: 'Choose a block type' })
    .getByRole('button', { name: TYPE_LABELS[type], exact: true })
    .click();
  await page.waitForURL(/\/work\/[0-9a-f-]{36}$/);
  const id = workspaceBlockId(page);
  // Nothing is unsaved in a new block: the back link leaves without asking.
  await page.getByRole('link', { name: 'Back to dashboard' }).click();
  await page.waitForURL(/\/dashboard\/reaction$/);
  return id;
}

/** With no blocks left: the message and the upgrade link, and the database refuses too. */
export async function blockLimitReached(page: Page, journey: Journey, ownerId: string) {
  await page.getByRole('status').filter({ hasText: 'Block limit reached!' }).waitFor();
  const upgrade = page.getByRole('link', { name: 'Upgrade' });
  assert.equal(await upgrade.getAttribute('href'), '/profile/plan');
  assert.equal(await page.getByRole('button', { name: 'Create block' }).count(), 0);

  // Past the screen: the owner's own session calling the database's create_block.
  const token = await accessToken(page, journey);
  const response = await fetch(`${journey.apiUrl}/rest/v1/rpc/create_block`, {
    method: 'POST',
    headers: {
      apikey: journey.anonKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ p_block_type: 'qna' }),
  });
  assert.equal(response.ok, false, 'create_block past the limit succeeded');
  const body = (await response.json()) as { message?: string };
  assert.equal(body.message, 'Block limit reached!');
  const { rows } = await journey.db.query<{ n: number }>(
    'select count(*)::int as n from public.blocks where owner_id = $1',
    [ownerId],
  );
  assert.equal(rows[0]?.n, 3);
}

/** The card of a block, by its shown name. */
export function card(page: Page, name: string) {
  return page.getByTestId('block-card').filter({
    has: page.locator('.block-card-name', { hasText: new RegExp(`^${escape(name)}$`) }),
  });
}

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Duplicate, tag and filter, the block link snippet, and delete, from the card menu. */
export async function cardMenuActions(page: Page, { base }: Journey, name: string) {
  await page.goto(`${base}/dashboard/reaction`);
  await card(page, name).waitFor();
  const before = await page.getByTestId('block-card').count();
  assert.equal(before, 6);
  const copyName = `${name} Copy`;

  await page.getByRole('button', { name: `Block menu for ${name}`, exact: true }).click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  await card(page, copyName).waitFor();
  assert.equal(await page.getByTestId('block-card').count(), before + 1);

  // Tag the copy and filter by the chip.
  await page.getByRole('button', { name: `Block menu for ${copyName}` }).click();
  await page.getByRole('menuitem', { name: 'Change tag' }).click();
  await page.getByLabel('New tag').fill('news');
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('checkbox', { name: 'news' }).waitFor();
  await page.getByRole('button', { name: 'Save' }).click();
  await card(page, copyName).getByText('#news', { exact: true }).waitFor();
  await page.getByRole('button', { name: '#news', exact: true }).click();
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid=block-card]').length === 1,
  );
  await page.getByRole('button', { name: '#news', exact: true }).click();
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid=block-card]').length === n,
    before + 1,
  );

  // Block link: the embed snippet names the element and the block.
  await page.getByRole('button', { name: `Block menu for ${copyName}` }).click();
  await page.getByRole('menuitem', { name: 'Block link' }).click();
  const snippet = await page
    .getByRole('dialog', { name: 'Block link' })
    .locator('textarea')
    .inputValue();
  assert.match(snippet, /<script src="[^"]+\/sdk\/cdn\/reaction\.js"><\/script>/);
  assert.match(
    snippet,
    /<reaction-like project-url="[^"]+" anon-key="[^"]+" owner-id="[0-9a-f-]{36}" block-id="[0-9a-f-]{36}"><\/reaction-like>/,
  );
  await page.keyboard.press('Escape');

  // Delete the copy.
  await page.getByRole('button', { name: `Block menu for ${copyName}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid=block-card]').length === n,
    before,
  );
  assert.equal(await card(page, copyName).count(), 0);
}
