// The block workspace of each type: the mode tabs, renaming, one setting per type, Save, and
// that a reload shows what was saved; the leave guard (the back link; the browser's Back, here
// and in the letter workspace); the preview mode with the theme switch; and the block link dialog
// (public URL, QR code, copied embed snippet).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { card } from './blocks.ts';
import { type BlockType, type Journey, waitForValue } from './support.ts';

/** The modes each type has (spec: workspace section 2; the moderation mode of issue 9). */
export const MODES: Record<BlockType, string[]> = {
  comment: ['Edit', 'Comments'],
  qna: ['Edit', 'Questions'],
  like: ['Edit', 'Result'],
  button: ['Edit', 'Preview', 'Result'],
  ab: ['Edit', 'Preview', 'Result'],
  form: ['Edit', 'Preview', 'Result'],
};

/** The names the journey gives the blocks. */
export const NAMES: Record<BlockType, string> = {
  comment: 'E2E Comment',
  qna: 'E2E Q&A',
  like: 'E2E Like',
  button: 'E2E Button',
  ab: 'E2E A/B',
  form: 'E2E Form',
};

export async function openWorkspace(page: Page, { base }: Journey, id: string, mode = '') {
  await page.goto(`${base}/work/${id}${mode ? `/${mode}` : ''}`);
  await page.getByRole('navigation', { name: 'Workspace modes' }).waitFor();
}

export async function expectModes(page: Page, type: BlockType, current: string) {
  const nav = page.getByRole('navigation', { name: 'Workspace modes' });
  assert.deepEqual(await nav.getByRole('link').allTextContents(), MODES[type], `${type} modes`);
  assert.equal(await nav.locator('[aria-current=page]').textContent(), current);
}

/** Saves and waits for the saved state: Save gone, Block link back. */
export async function save(page: Page) {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: 'Block link' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Save', exact: true }).count(), 0);
  await page
    .getByRole('status')
    .filter({ hasText: /^Saved$/ })
    .waitFor();
}

/** The shadow DOM text of the first element matching `selector` (waits until it has some). */
export async function shadowText(page: Page, selector: string, contains: string) {
  await page.waitForFunction(
    ([sel, text]) => {
      const el = document.querySelector(sel);
      return !!el?.shadowRoot && (el.shadowRoot.textContent ?? '').includes(text);
    },
    [selector, contains] as const,
    { timeout: 10000 },
  );
}

interface SimpleEdit {
  /** Changes one setting of the type (the name is changed for every type). */
  change: (page: Page) => Promise<void>;
  /** After the reload: the setting is what was saved. */
  check: (page: Page) => Promise<void>;
}

const EDITS: Record<Exclude<BlockType, 'form'>, SimpleEdit> = {
  comment: {
    change: (page) => page.getByLabel('Welcome message').fill('Welcome, visitors!'),
    check: (page) => waitForValue(page.getByLabel('Welcome message'), 'Welcome, visitors!'),
  },
  qna: {
    change: (page) => page.getByLabel('Q&A subject').fill('Ask me anything'),
    check: (page) => waitForValue(page.getByLabel('Q&A subject'), 'Ask me anything'),
  },
  like: {
    // Position is paid: the owner pays by now.
    change: async (page) => {
      await page.getByLabel('Position').selectOption('right');
    },
    check: (page) => waitForValue(page.getByLabel('Position'), 'right'),
  },
  button: {
    change: async (page) => {
      await page.getByLabel('Button text').fill('Visit us');
      await page.getByLabel('URL to open').fill('https://example.com/visit');
    },
    check: async (page) => {
      await waitForValue(page.getByLabel('Button text'), 'Visit us');
      await waitForValue(page.getByLabel('URL to open'), 'https://example.com/visit');
    },
  },
  ab: {
    change: async (page) => {
      await page.getByLabel('Question title').fill('Cats or dogs?');
      await page.getByLabel('Option 1', { exact: true }).fill('Cats');
      await page.getByLabel('Option 2', { exact: true }).fill('Dogs');
    },
    check: async (page) => {
      await waitForValue(page.getByLabel('Question title'), 'Cats or dogs?');
      await waitForValue(page.getByLabel('Option 1', { exact: true }), 'Cats');
      await waitForValue(page.getByLabel('Option 2', { exact: true }), 'Dogs');
    },
  },
};

/** Modes, rename, one setting, Save, reload: everything is as saved. */
export async function editBlock(
  page: Page,
  journey: Journey,
  type: Exclude<BlockType, 'form'>,
  id: string,
) {
  await openWorkspace(page, journey, id);
  await expectModes(page, type, 'Edit');
  const name = page.getByRole('textbox', { name: 'Block name' });
  await name.fill(NAMES[type]);
  await page.getByRole('status').filter({ hasText: 'Unsaved changes' }).waitFor();
  await EDITS[type].change(page);
  await save(page);
  await page.reload();
  await waitForValue(page.getByRole('textbox', { name: 'Block name' }), NAMES[type]);
  await EDITS[type].check(page);
  assert.equal(await page.getByRole('button', { name: 'Save', exact: true }).count(), 0);
}

/** Unsaved changes: the back link asks first; Stay keeps the page and the draft. */
export async function leaveGuard(page: Page, journey: Journey, id: string) {
  await openWorkspace(page, journey, id);
  const name = page.getByRole('textbox', { name: 'Block name' });
  const saved = await name.inputValue();
  await name.fill(`${saved} (draft)`);
  await page.getByRole('link', { name: 'Back to dashboard' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Leave without saving?' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.match(page.url(), new RegExp(`/work/${id}$`));
  assert.equal(await name.inputValue(), `${saved} (draft)`);
  // Typing the saved name back is no change at all.
  await name.fill(saved);
  await page.getByRole('button', { name: 'Block link' }).waitFor();
}

/** What the browser's Back is checked on: a workspace and the dashboard list it is opened from. */
export interface BackCheck {
  /** The dashboard list (`/dashboard/reaction`, `/dashboard/send`). */
  list: string;
  /** The block's name on its card; the check leaves it so. */
  name: string;
  /** The accessible name of the workspace's mode tabs, its Edit mode's, and one other mode's. */
  modes: string;
  edit: string;
  mode: string;
}

/**
 * The browser's Back with unsaved changes (lib/use-leave-guard.ts), in a workspace opened from
 * its card so that Back has a page to go to: moving to another mode and back does not ask, nor
 * does Back to a mode opened before the change; two Backs at once ask and keep the draft; Back
 * from the workspace asks; Stay keeps the address and the draft; Back again and Leave goes to the
 * list. Once saved, Back goes to the list without asking (twice: the second restores the name).
 */
export async function browserBackAsks(page: Page, { base }: Journey, check: BackCheck) {
  const list = new RegExp(`${check.list}$`);
  const backOnList = () => page.waitForURL(list);
  const dialog = page.getByRole('alertdialog', { name: 'Leave without saving?' });
  const nameField = page.getByRole('textbox', { name: 'Block name' });
  const openFromList = async (name: string) => {
    await page.goto(`${base}${check.list}`);
    const main = card(page, name).locator('.block-card-main');
    await main.click(); // selects
    await main.click(); // opens
    await page.waitForURL(/\/work\/[0-9a-f-]{36}$/);
    await waitForValue(nameField, name);
    return page.url();
  };
  const draft = `${check.name} (draft)`;

  const here = await openFromList(check.name);
  const modes = page.getByRole('navigation', { name: check.modes });
  const inMode = () => modes.locator('[aria-current=page]', { hasText: check.mode }).waitFor();
  // to the mode and to Edit by their links, then the change: Back is the mode, Back again is
  // Edit, nothing asks (the page below the change's is the workspace's own)
  await modes.getByRole('link', { name: check.mode, exact: true }).click();
  await inMode();
  const there = page.url();
  /** Back from Edit to the mode, and Back to Edit, the first mode: nothing asks. */
  const backToModeAndEdit = async (after: string) => {
    await page.goBack();
    await inMode();
    assert.equal(page.url(), there);
    assert.equal(await dialog.count(), 0, `Back between modes asked (${after})`);
    await page.goBack();
    await waitForValue(nameField, draft);
    assert.equal(page.url(), here);
    assert.equal(await dialog.count(), 0, `Back to the first mode asked (${after})`);
  };
  await modes.getByRole('link', { name: check.edit, exact: true }).click();
  await waitForValue(nameField, check.name);
  await nameField.fill(draft);
  await page.getByRole('status').filter({ hasText: 'Unsaved changes' }).waitFor();
  await backToModeAndEdit('changed after the mode');
  // two Backs in one go (Chromium sends the second below the workspace before the page has
  // handled the first): asks, the address and the draft kept; Stay
  await page.evaluate(() => {
    window.history.back();
    window.history.back();
  });
  await dialog.waitFor();
  assert.equal(page.url(), here);
  assert.equal(await nameField.inputValue(), draft);
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal(page.url(), here);
  // another mode and Back to Edit: the draft goes along, nothing asks
  await modes.getByRole('link', { name: check.mode, exact: true }).click();
  await inMode();
  assert.notEqual(page.url(), here);
  await page.goBack();
  await waitForValue(nameField, draft);
  assert.equal(page.url(), here);
  assert.equal(await dialog.count(), 0, 'moving between modes asked');
  // to the mode and to Edit by their links, then Back: to the mode, nothing asks
  await modes.getByRole('link', { name: check.mode, exact: true }).click();
  await inMode();
  assert.equal(page.url(), there);
  await modes.getByRole('link', { name: check.edit, exact: true }).click();
  await waitForValue(nameField, draft);
  await backToModeAndEdit('changed before the mode');

  // Back from the workspace asks; Stay keeps the address and the draft
  await page.goBack();
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal(page.url(), here);
  assert.equal(await nameField.inputValue(), draft);
  // asked again on the next Back, and a Back while asking only asks again: the draft kept
  await page.goBack();
  await dialog.waitFor();
  await page.goBack();
  await dialog.waitFor();
  assert.equal(page.url(), here);
  assert.equal(await nameField.inputValue(), draft);
  // Forward (nothing forward: the question stays), then Leave goes to the list, the draft dropped
  await page.goForward();
  await dialog.waitFor();
  assert.equal(page.url(), here);
  await dialog.getByRole('button', { name: 'Leave' }).click();
  await backOnList();
  await card(page, check.name).waitFor();
  // Forward opens the workspace as saved; Forward again steps onto the guard entry left forward
  // (the same page, nothing happens), and Back from there is the list
  await page.goForward();
  await waitForValue(nameField, check.name);
  assert.equal(page.url(), here);
  await page.goForward();
  await page.goBack();
  await page
    .waitForURL(list, { timeout: 5000 })
    .catch(() => assert.fail('Forward, Forward, Back after leaving: not the list'));
  await card(page, check.name).waitFor();

  // saved: Back goes to the list at once
  for (const [from, to] of [
    [check.name, draft],
    [draft, check.name],
  ] as const) {
    await openFromList(from);
    await nameField.fill(to);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    await page.goBack();
    await backOnList();
    await card(page, to).waitFor();
    assert.equal(await dialog.count(), 0, 'Back asked after saving');
  }
}

/**
 * Preview mode: the real element with the draft, and the theme switch (Light, Dark, Custom —
 * Custom is enabled for a paying owner); the chosen theme is saved with the block.
 */
export async function previewMode(
  page: Page,
  journey: Journey,
  type: 'button' | 'ab' | 'form',
  id: string,
  shows: string,
) {
  await openWorkspace(page, journey, id, 'preview');
  await expectModes(page, type, 'Preview');
  const tag = `reaction-${type}`;
  const element = page.locator(`.workspace-full-preview-frame ${tag}`);
  await shadowText(page, `.workspace-full-preview-frame ${tag}`, shows);
  const theme = page.getByRole('group', { name: 'Theme' });
  assert.equal(await theme.getByRole('radio', { name: 'Light' }).isChecked(), true);
  assert.equal(await theme.getByRole('radio', { name: 'Custom' }).isEnabled(), true);
  await theme.getByRole('radio', { name: 'Dark' }).check();
  await page.waitForFunction(
    (sel) => document.querySelector(sel)?.getAttribute('data-theme') === 'dark',
    `.workspace-full-preview-frame ${tag}`,
  );
  await theme.getByRole('radio', { name: 'Custom' }).check();
  await page.waitForFunction(
    (sel) => document.querySelector(sel)?.getAttribute('data-theme') === 'custom',
    `.workspace-full-preview-frame ${tag}`,
  );
  await theme.getByRole('radio', { name: 'Dark' }).check();
  await save(page);
  await page.reload();
  await page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: 'Dark' }).waitFor();
  assert.equal(
    await page
      .getByRole('group', { name: 'Theme' })
      .getByRole('radio', { name: 'Dark' })
      .isChecked(),
    true,
  );
  // the element sets its theme attribute once it has upgraded and rendered
  await page
    .waitForFunction(
      (sel) => document.querySelector(sel)?.getAttribute('data-theme') === 'dark',
      `.workspace-full-preview-frame ${tag}`,
      { timeout: 5000 },
    )
    .catch(async () => assert.equal(await element.getAttribute('data-theme'), 'dark'));
}

/**
 * The workspace's Block link dialog: the public URL, the QR code (and its PNG download), and
 * the embed snippet through the clipboard. Returns the snippet.
 */
export async function blockLinkDialog(
  page: Page,
  journey: Journey,
  ownerId: string,
  id: string,
  name: string,
): Promise<string> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: journey.base,
  });
  await page.getByRole('button', { name: 'Block link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Block link' });
  await dialog.waitFor();
  assert.equal(
    await dialog.getByLabel('Public link').inputValue(),
    `${journey.base}/block/?id=${ownerId}&block_id=${id}`,
  );
  const qr = dialog.getByRole('img', { name: `QR code of the public link of ${name}` });
  await qr.waitFor();
  assert.match((await qr.getAttribute('src')) ?? '', /^data:image\/png;base64,/);
  const [png] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download QR code' }).click(),
  ]);
  assert.equal(png.suggestedFilename(), `qrcode_${name}.png`);
  const bytes = await readFile((await png.path())!);
  assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');

  // Copy embed code (Copy link is the public link's).
  const snippetField = dialog.getByLabel('Embed code');
  const shown = await snippetField.inputValue();
  await dialog.getByRole('button', { name: 'Copy embed code' }).click();
  await dialog.getByRole('button', { name: 'Copied' }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, shown);
  assert.ok(copied.includes(`<script src="${journey.base}/sdk/cdn/reaction.js"></script>`));
  assert.ok(copied.includes(`owner-id="${ownerId}" block-id="${id}"`));
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });
  return copied;
}
