// End-to-end journey of the dashboard in Chromium against a throwaway local stack:
// landing (no signed-in code loaded), focus=button, sign-in through the local Google page,
// consent, create, duplicate, tag, block link, delete, profile save in ko, sign-out, and an axe
// check (no serious or critical violations) of the landing, login and dashboard.
// Run: npm run build -w @reaction-blocks/dashboard && npm run e2e -w @reaction-blocks/dashboard
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Page } from 'playwright-core';
import { DEFAULT_JWT_SECRET, freePorts } from '../../supabase/local/config.ts';
import { startStack } from '../../supabase/local/stack.ts';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';

async function axe(page: Page, label: string) {
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  for (const v of serious) console.error(`axe ${label}: ${v.id} ${v.help}`, v.nodes[0]?.target);
  assert.equal(serious.length, 0, `${label}: serious accessibility violations`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'rb-dashboard-e2e-'));
const stack = await startStack({
  ports: await freePorts(),
  dataDir,
  jwtSecret: DEFAULT_JWT_SECRET,
  web: true,
});
const base = stack.webUrl.replace(/\/$/, '');
const browser = await chromium.launch(chromiumLaunchOptions);

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });

  // Landing: the signed-in app's chunks are not loaded.
  await page.goto(`${base}/`);
  await page.getByRole('heading', { level: 1, name: 'Reactions for every page' }).waitFor();
  assert.ok(scripts.includes('/env.js'));
  for (const chunk of ['signed-in', 'dashboard', 'profile']) {
    assert.ok(!scripts.some((s) => s.startsWith(`/assets/${chunk}-`)), `landing loaded ${chunk}`);
  }
  await axe(page, 'landing');

  // Tablet width: the hamburger replaces the links and opens Reaction, Send, Pricing, Start.
  await page.setViewportSize({ width: 768, height: 900 });
  assert.equal(await page.getByRole('link', { name: 'Showcase' }).isVisible(), false);
  await page.getByRole('button', { name: 'Open menu' }).focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await page.locator('.nav-mobile a').allTextContents(), [
    'Reaction',
    'Send',
    'Pricing',
    'Start',
  ]);
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/tablet.png` });
  await page.setViewportSize({ width: 1280, height: 900 });

  // focus=button preselects Button and the SDK defines the live demo element.
  await page.goto(`${base}/reaction?focus=button`);
  assert.equal(await page.locator('[role=tab][aria-selected=true]').textContent(), 'Button');
  await page.waitForFunction(() => !!customElements.get('reaction-button'), null, {
    timeout: 10000,
  });

  // Sign in through the local Google stand-in page.
  await page.goto(`${base}/login`);
  await axe(page, 'login');
  // Cancelling on the provider page comes back with a visible error.
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForURL(/\/dashboard\/reaction\?error=/);
  assert.equal(
    await page.getByRole('alert').textContent(),
    'Sign-in failed: Google sign-in was cancelled',
  );
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await page.locator('#email').fill('e2e-owner@example.com');
  await page.locator('#name').fill('E2E Owner');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/dashboard\/reaction/);

  // Consent: Agree is enabled only when ticked.
  const consent = page.getByRole('dialog', { name: 'Terms of Service' });
  await consent.waitFor();
  assert.equal(await page.getByRole('button', { name: 'Agree' }).isDisabled(), true);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Agree' }).click();
  await consent.waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('remaining').textContent(), '3 blocks left');
  await page.getByText('No blocks yet. Create your first block.').waitFor();
  await axe(page, 'dashboard');

  // Mobile width: the not-supported message shows, the tag bar hides, Profile leaves the menu.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByText('Block management is not supported on mobile.').waitFor();
  await page.getByRole('button', { name: 'Account menu' }).click();
  assert.deepEqual(await page.getByRole('menuitem').allTextContents(), ['Logout']);
  await page.keyboard.press('Escape');
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/mobile.png` });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Create a like block; the app goes to /work/{id}.
  await page.getByRole('button', { name: 'Create block' }).click();
  await page.getByRole('button', { name: 'Like' }).click();
  await page.waitForURL(/\/work\/[0-9a-f-]{36}/);
  await page.goto(`${base}/dashboard/reaction`);
  await page.getByTestId('block-card').first().waitFor();
  assert.equal(await page.getByTestId('remaining').textContent(), '2 blocks left');

  // Duplicate.
  await page.getByRole('button', { name: 'Block menu for Untitled' }).click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  await page.getByText('Untitled Copy').waitFor();
  assert.equal(await page.getByTestId('block-card').count(), 2);

  // Tag the copy and filter by the chip.
  await page.getByRole('button', { name: 'Block menu for Untitled Copy' }).click();
  await page.getByRole('menuitem', { name: 'Change tag' }).click();
  await page.getByLabel('New tag').fill('news');
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('checkbox', { name: 'news' }).waitFor();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('#news', { exact: true }).first().waitFor();
  await page.getByRole('button', { name: '#news', exact: true }).click();
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid=block-card]').length === 1,
  );
  await page.getByRole('button', { name: '#news', exact: true }).click();

  // Block link: the embed snippet names the element and the block.
  await page.getByRole('button', { name: 'Block menu for Untitled Copy' }).click();
  await page.getByRole('menuitem', { name: 'Block link' }).click();
  const snippet = await page.locator('textarea.code').inputValue();
  assert.match(snippet, /<script src="[^"]+\/sdk\/cdn\/reaction\.js" defer><\/script>/);
  assert.match(
    snippet,
    /<reaction-like project-url="[^"]+" anon-key="[^"]+" owner-id="[0-9a-f-]{36}" block-id="[0-9a-f-]{36}"><\/reaction-like>/,
  );
  await page.keyboard.press('Escape');

  // Delete the copy.
  await page.getByRole('button', { name: 'Block menu for Untitled Copy' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid=block-card]').length === 1,
  );

  // Profile: save in Korean.
  await page.goto(`${base}/profile`);
  await page.getByLabel('Name').fill('Renamed Owner');
  await page.getByLabel('Language').selectOption('ko');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: '계정' }).waitFor();

  // Sign out in Korean.
  await page.goto(`${base}/dashboard/reaction`);
  await page.getByRole('button', { name: '계정 메뉴' }).click();
  await page.getByRole('menuitem', { name: '로그아웃' }).click();
  await page.waitForURL(`${base}/`);

  assert.deepEqual(errors, []);
  console.log('dashboard e2e journey: ok');
} finally {
  await browser.close();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
