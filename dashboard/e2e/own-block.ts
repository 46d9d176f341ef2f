// The owner on their own public block (issue 18, owner defect 4): signed into the dashboard, the
// /block/ page of the same origin knows them (one session, kept sealed under the SDK's key):
// their reply carries the Admin label and is theirs in the database; signing out in the
// dashboard signs the block out at once, and "Log out" in the block on /block/ signs the dashboard
// out; the workspace's preview (dummy mode) is a visitor's and leaves the owner's session alone.
// A session the dashboard kept in plain JSON before is sealed once and still signs in. And with
// site data blocked: the dashboard says /not_supported, the public block still works.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page, type Response } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { OWNER, openSealed, sessionStorageKey, signInWithGoogle } from './owner.ts';
import { type Journey, watchErrors } from './support.ts';

const block = (page: Page) => page.locator('reaction-block');

/** The menu of the comment block, opened. */
async function menu(page: Page) {
  if ((await block(page).locator('[part=menu]').count()) === 0)
    await block(page).locator('[part=menu-button]').click();
  return block(page).locator('[part=menu]');
}

export async function ownerOnOwnBlock(
  page: Page,
  journey: Journey,
  ownerId: string,
  commentId: string,
  errors: string[],
) {
  const { base, db } = journey;
  await page.goto(`${base}/dashboard/reaction`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  const before = await db.query<{ n: string }>(
    'select count(*) as n from auth.users where is_anonymous',
  );

  // the public page of the block, in another tab of the same browser
  const tab = await page.context().newPage();
  watchErrors(tab, errors, 'owner on /block/');
  await tab.goto(`${base}/block/?id=${ownerId}&block_id=${commentId}`);
  await block(tab).locator('[part=composer]').waitFor();
  // signed in already: the account's name, and the owner's menu (no sign-in buttons)
  await tab.waitForFunction(
    (name) =>
      (
        document
          .querySelector('reaction-block')
          ?.shadowRoot?.querySelector('reaction-comment')
          ?.shadowRoot?.querySelector('[part=name]') as HTMLInputElement | null
      )?.value === name,
    OWNER.name,
  );
  const ownMenu = await menu(tab);
  await ownMenu.getByRole('link', { name: 'To Block setting' }).waitFor();
  assert.equal(await ownMenu.getByRole('button', { name: 'Sign in with Google' }).count(), 0);

  // a reply as the owner: the Admin label, and the owner's in the database
  const text = `The owner answers ${Date.now()}`;
  await block(tab).locator('[part=composer] textarea').fill(text);
  await block(tab).locator('[part=composer] [part=submit]').click();
  const mine = block(tab).locator('[part=message]', { hasText: text });
  await mine.locator('[part~=label]', { hasText: 'Admin' }).waitFor();
  const { rows } = await db.query<{ creator_id: string }>(
    'select creator_id from public.messages where content = $1',
    [text],
  );
  assert.equal(rows[0]?.creator_id, ownerId);
  const after = await db.query<{ n: string }>(
    'select count(*) as n from auth.users where is_anonymous',
  );
  assert.equal(after.rows[0]!.n, before.rows[0]!.n, 'no anonymous user was made for the owner');

  // nothing readable in storage: the SDK's values sealed, and no token or email anywhere else
  for (const p of [page, tab]) {
    const entries = await p.evaluate(() => Object.entries(localStorage));
    for (const [key, value] of entries) {
      if (key.startsWith('reaction-blocks.')) assert.match(value, /^rb1\./, key);
      else assert.doesNotMatch(value, /eyJ|access_token|refresh_token/, key);
      if (!value.startsWith('rb1.')) assert.ok(!value.includes(OWNER.email), `${key}: the email`);
    }
    assert.ok(
      entries.some(([key]) => key === sessionStorageKey(journey)),
      'the shared key',
    );
  }

  // the dashboard signs out: the block knows at once (storage event), no reload
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL(`${base}/`);
  await (await menu(tab)).getByRole('button', { name: 'Sign in with Google' }).waitFor();

  // signed in again in the dashboard: the block follows
  await page.goto(`${base}/login`);
  await signInWithGoogle(page, 'Sign in with Google', OWNER);
  await (await menu(tab)).getByRole('link', { name: 'To Block setting' }).waitFor();

  // "Log out" in the block: the dashboard is signed out too (its session was revoked and removed)
  await (await menu(tab)).getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('button', { name: 'Sign in with Google' }).first().waitFor();
  await tab.close();
  await page.goto(`${base}/login`);
  await signInWithGoogle(page, 'Sign in with Google', OWNER);
  await page.getByRole('button', { name: 'Account menu' }).waitFor();

  // the workspace's preview (the SDK's element in dummy mode on the dashboard's own page) is a
  // visitor's: not the owner's name, no "Log out"; its sign-in says it is a preview, opens no
  // popup and sends nothing; the owner stays signed in with an unsaved change kept
  const refused: string[] = [];
  const auth: string[] = [];
  const onResponse = (r: Response) => {
    if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
    if (/\/auth\/v1\/(logout|authorize)/.test(r.url())) auth.push(r.url());
  };
  const popups: string[] = [];
  const onPopup = (p: Page) => popups.push(p.url());
  page.on('response', onResponse);
  page.on('popup', onPopup);
  await page.goto(`${base}/work/${commentId}`);
  const blockName = page.getByRole('textbox', { name: 'Block name' });
  const saved = await blockName.inputValue();
  await blockName.fill(`${saved} (draft)`);
  await page.getByRole('status').filter({ hasText: 'Unsaved changes' }).waitFor();
  const preview = page.locator('reaction-comment');
  await preview.locator('[part~=name]').waitFor();
  assert.notEqual(await preview.locator('[part~=name]').inputValue(), OWNER.name);
  await preview.locator('[part=menu-button]').click();
  const previewMenu = preview.locator('[part=menu]');
  await previewMenu.getByRole('button', { name: 'Sign in with Google' }).click();
  await preview.getByText('This is a preview: visitors sign in on your page, not here.').waitFor();
  assert.equal(await previewMenu.getByRole('button', { name: 'Log out' }).count(), 0);
  await page.waitForTimeout(500);
  page.off('response', onResponse);
  page.off('popup', onPopup);
  assert.deepEqual(refused, [], 'nothing refused in the preview');
  assert.deepEqual(auth, [], 'the preview signed no one out or in');
  assert.deepEqual(popups, [], 'no sign-in popup');
  assert.equal(await blockName.inputValue(), `${saved} (draft)`, 'the draft kept');
  assert.ok(await openSealed(page, sessionStorageKey(journey)), "the owner's session kept");
  // changed back: nothing unsaved, nothing asks on the way out
  await blockName.fill(saved);
  await page
    .getByRole('status')
    .filter({ hasText: 'Unsaved changes' })
    .waitFor({ state: 'detached' });
  await page.goto(`${base}/dashboard/reaction`);
  await page.getByRole('button', { name: 'Account menu' }).waitFor();

  // a session the dashboard stored in plain JSON before (its old key) still signs in, sealed once
  const session = await openSealed(page, sessionStorageKey(journey));
  assert.ok(session, 'the sealed session opens');
  const old = await journey.browser.newContext();
  await old.addInitScript((json) => {
    if (!localStorage.getItem('reaction-blocks.migrated-test')) {
      localStorage.setItem('reaction.auth', json);
      localStorage.setItem('reaction-blocks.migrated-test', '1');
    }
  }, JSON.stringify(session));
  const oldPage = await old.newPage();
  watchErrors(oldPage, errors, 'old session');
  await oldPage.goto(`${base}/dashboard/reaction`);
  await oldPage.getByRole('button', { name: 'Account menu' }).waitFor();
  assert.equal(await oldPage.evaluate(() => localStorage.getItem('reaction.auth')), null);
  const sealed = await oldPage.evaluate(
    (key) => localStorage.getItem(key),
    sessionStorageKey(journey),
  );
  assert.match(sealed ?? '', /^rb1\./);
  await old.close();
}

/**
 * A browser that blocks site data (cookies, and with them localStorage and IndexedDB): the
 * dashboard goes to /not_supported as the spec says; the public block still reads and writes.
 */
export async function storageBlocked(
  journey: Journey,
  ownerId: string,
  commentId: string,
  errors: string[],
) {
  const profile = mkdtempSync(join(tmpdir(), 'rb-e2e-blocked-'));
  mkdirSync(join(profile, 'Default'));
  writeFileSync(
    join(profile, 'Default', 'Preferences'),
    JSON.stringify({ profile: { default_content_setting_values: { cookies: 2 } } }),
  );
  const context = await chromium.launchPersistentContext(profile, chromiumLaunchOptions);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    watchErrors(page, errors, 'storage blocked');
    await page.goto(`${journey.base}/dashboard/reaction`);
    await page.waitForURL(`${journey.base}/not_supported`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.goto(`${journey.base}/block/?id=${ownerId}&block_id=${commentId}`);
    const text = `Written without storage ${Date.now()}`;
    await block(page).locator('[part=composer] textarea').fill(text);
    await block(page).locator('[part=composer] [part=submit]').click();
    await block(page).locator('[part=content]', { hasText: text }).waitFor();
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
