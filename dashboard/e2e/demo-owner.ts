// The seeded demo owner (supabase/seed/), as a new owner first sees the dashboard:
// - the result pages are not empty: rows, the count, Export CSV with every seeded response;
// - arriving in a workspace from a card puts focus on the page heading;
// - the block name is shown whole, and long words or URLs in settings push nothing off screen,
//   at 1280 and 375 px;
// - on a phone (375 px) every block's top bar is two rows, en and ko, with every action in it;
// - on a phone the menu rows that scroll sideways (a section's own links, the profile's) show a
//   link's whole focus ring when Tab reaches it;
// - the form description's rich-text editor: typing, bold, a list and a link by keyboard, Save,
//   the sanitised HTML stored and shown in the preview; stored hostile HTML never runs.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { signInWithGoogle } from './owner.ts';
import { axe, inNewPage, type Journey } from './support.ts';
import { openWorkspace, shadowText } from './workspace.ts';

const DEMO = { email: 'demo@reaction-blocks.local', name: 'Demo Owner' };
const FORM_BLOCK = '00000000-0000-4000-8000-000000000106';
const COMMENT_BLOCK = '00000000-0000-4000-8000-000000000101';
const DESCRIPTION = '00000000-0000-4000-8000-000000000301';
const LONG_URL = `https://example.com/${'a-very-long-path-segment-'.repeat(8)}?utm_source=newsletter`;
const LONG_WORD = 'Supercalifragilisticexpialidocious'.repeat(4);

export async function demoOwner(journey: Journey, errors: string[]) {
  await inNewPage(journey, errors, { label: 'demo owner' }, async (page) => {
    // leaving a workspace with unsaved changes asks the browser; this journey leaves on purpose
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${journey.base}/login`);
    await signInWithGoogle(page, 'Sign in with Google', DEMO);
    await page.getByTestId('block-card').first().waitFor();

    await seededResults(page, journey);
    await arrivingFocusesTheHeading(page, journey);
    await longTexts(page, journey);
    await descriptionEditor(page, journey);
    await phoneTopBars(page, journey);
    await phoneMenuFocusRings(page, journey);
  });
}

/** The form's result page lists the seeded responses, and the CSV has all of them. */
async function seededResults(page: Page, journey: Journey) {
  const { rows } = await journey.db.query<{ n: number }>(
    'select count(*)::int as n from public.responses where block_id = $1',
    [FORM_BLOCK],
  );
  const seeded = rows[0]!.n;
  assert.ok(seeded >= 200, `seeded form responses: ${seeded}`);
  await openWorkspace(page, journey, FORM_BLOCK, 'result');
  await page.getByRole('heading', { name: `${seeded} responses` }).waitFor();
  await page.getByTestId('result-row').nth(9).waitFor();
  await axe(page, 'seeded form results');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const text = await readFile((await download.path())!, 'utf8');
  const parsed = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true });
  assert.deepEqual(parsed.errors, []);
  assert.equal(parsed.data.length, seeded + 1, 'a header and every seeded response');
  // Korean answers come through the CSV unchanged
  assert.ok(
    parsed.data.some((record) => record.some((cell) => /[가-힣]/.test(cell))),
    'Korean answers in the CSV',
  );
}

/** Opening a block from its card moves focus to the workspace's heading, not <body>. */
async function arrivingFocusesTheHeading(page: Page, { base }: Journey) {
  await page.goto(`${base}/dashboard/reaction`);
  const card = page
    .getByTestId('block-card')
    .filter({ hasText: 'Demo comments' })
    .locator('.block-card-main');
  await card.click(); // selects
  await card.click(); // opens
  await page.waitForURL(/\/work\//);
  await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
  assert.equal(
    await page.evaluate(() => document.activeElement?.textContent),
    'Demo comments (Comment block): Edit',
  );
}

async function noHorizontalOverflow(page: Page, label: string) {
  const sizes = await page.evaluate(() => {
    const save = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Save');
    const box = save?.getBoundingClientRect();
    return {
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
      saveRight: box ? box.right : -1,
    };
  });
  assert.ok(sizes.page <= sizes.viewport, `${label}: page ${sizes.page} > ${sizes.viewport} wide`);
  assert.ok(sizes.saveRight > 0 && sizes.saveRight <= sizes.viewport, `${label}: Save off screen`);
}

/**
 * At 375 px the rows of links that scroll sideways (the open section's types or sources, the
 * profile's pages) clip what leaves them, the focus ring too: each link reached by Tab must show
 * its ring whole, above and below (it was cut to two brackets at its sides).
 */
async function phoneMenuFocusRings(page: Page, { base }: Journey) {
  await page.setViewportSize({ width: 375, height: 812 });
  try {
    for (const [path, row] of [
      ['/dashboard/reaction', '.side-sub'],
      ['/dashboard/send', '.side-sub'],
      ['/profile', '.profile-menu > ul'],
    ] as const) {
      await page.goto(`${base}${path}`);
      const links = page.locator(`${row} a`);
      await links.first().waitFor();
      const count = await links.count();
      for (let i = 0; i < count; i++) {
        await links.nth(i).focus();
        const ring = await links.nth(i).evaluate((link, selector) => {
          const style = getComputedStyle(link);
          const out = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
          const box = link.getBoundingClientRect();
          const clip = link.closest(selector)!.getBoundingClientRect();
          return {
            name: link.textContent,
            cut: Math.max(clip.top - (box.top - out), box.bottom + out - clip.bottom),
          };
        }, row);
        assert.ok(
          ring.cut <= 0,
          `${path}: the focus ring of ${ring.name} is cut by ${ring.cut} px`,
        );
      }
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
}

/** The block name is readable whole; long settings wrap instead of widening the page. */
async function longTexts(page: Page, journey: Journey) {
  await openWorkspace(page, journey, FORM_BLOCK);
  const name = page.getByRole('textbox', { name: 'Block name' });
  const clipped = () =>
    name.evaluate((input: HTMLInputElement) => input.scrollWidth > input.clientWidth);
  assert.equal(await name.inputValue(), 'Demo feedback form');
  assert.equal(await clipped(), false, '"Demo feedback form" is not cut');
  assert.equal(await name.getAttribute('title'), 'Demo feedback form');

  await openWorkspace(page, journey, COMMENT_BLOCK);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole('textbox', { name: 'Block name' }).fill('Comments on the spring launch');
    // at 375 px the name shares the bar's first row (phoneTopBars): it scrolls in the input
    // there, and its tooltip and the page's heading hold it whole
    if (width > 375) assert.equal(await clipped(), false, `a longer name at ${width} px`);
    assert.equal(await name.getAttribute('title'), 'Comments on the spring launch');
    await page.getByLabel('Welcome message').fill(LONG_URL);
    await page.getByLabel('Placeholder').fill(LONG_WORD);
    await page.getByLabel('Owner name').fill(LONG_WORD.slice(0, 100));
    await shadowText(page, '.workspace-preview-frame reaction-comment', 'a-very-long-path');
    await noHorizontalOverflow(page, `comment settings at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  // leave without saving
  await page.reload();
}

/**
 * At 375 px a workspace's top bar is two rows (it was four, 203 px, for the form in English):
 * back, type and name; then the mode tabs and the actions. Every block of the demo (the six
 * reaction types and the three letters) on edit with an unsaved change (Save, the widest state),
 * and the form's result (Export CSV), in English and Korean; each tab and button is drawn inside
 * the window, and the save state line is still read out.
 */
async function phoneTopBars(page: Page, journey: Journey) {
  const pages = [...['01', '02', '03', '04', '05', '06', '07', '08', '09'], '06/result'];
  await page.setViewportSize({ width: 375, height: 812 });
  try {
    for (const locale of ['en', 'ko']) {
      await journey.db.query('update public.profiles set language = $1 where email = $2', [
        locale,
        DEMO.email,
      ]);
      for (const path of pages) {
        const label = `${path} (${locale}) at 375 px`;
        await page.goto(
          `${journey.base}/work/00000000-0000-4000-8000-0000000001${path}?locale=${locale}`,
        );
        const bar = page.locator('.workspace-top-bar');
        await bar.getByRole('navigation').waitFor();
        await page.evaluate(() => document.fonts.ready);
        const name = bar.locator('input');
        const editable = (await name.count()) > 0;
        if (editable) {
          await name.press('End');
          await name.pressSequentially('!');
          await bar
            .getByRole('status')
            .filter({ hasText: locale === 'en' ? 'Unsaved changes' : '저장하지 않은' })
            .waitFor();
        } else {
          await bar
            .getByRole('button', { name: locale === 'en' ? 'Export CSV' : 'CSV 내보내기' })
            .waitFor();
        }
        // the bar's parts (those it lays out through display: contents, their own), row by row
        const parts = await bar.evaluate((el) => {
          const queue = [...el.children];
          const boxes: { top: number; bottom: number }[] = [];
          while (queue.length) {
            const part = queue.shift()!;
            if (getComputedStyle(part).display === 'contents') queue.push(...part.children);
            else {
              const box = part.getBoundingClientRect();
              if (box.width && box.height) boxes.push({ top: box.top, bottom: box.bottom });
            }
          }
          return boxes;
        });
        let rows = 0;
        let bottom = -Infinity;
        for (const part of parts.sort((a, b) => a.top - b.top)) {
          if (part.top >= bottom - 1) rows += 1;
          bottom = Math.max(bottom, part.bottom);
        }
        assert.ok(rows <= 2, `${label}: the top bar is ${rows} rows`);
        const controls = await bar.locator('a, button').evaluateAll((els) =>
          els.map((el) => {
            const box = el.getBoundingClientRect();
            return { name: el.textContent, left: box.left, right: box.right, width: box.width };
          }),
        );
        for (const control of controls)
          assert.ok(
            control.width > 20 && control.left >= 0 && control.right <= 375,
            `${label}: ${control.name} drawn at ${control.left}..${control.right}`,
          );
      }
    }
  } finally {
    await journey.db.query("update public.profiles set language = 'en' where email = $1", [
      DEMO.email,
    ]);
    await page.goto(`${journey.base}/dashboard/reaction?locale=en`);
    await page.setViewportSize({ width: 1280, height: 900 });
  }
}

/** The description question: written with the toolbar's shortcuts, saved, sanitised. */
async function descriptionEditor(page: Page, journey: Journey) {
  // Something hostile stored earlier (before the sanitiser, or by hand) must not run here.
  await journey.db.query('update public.questions set content = $2 where id = $1', [
    DESCRIPTION,
    '<p>Old text<img src=x onerror="window.__hacked = 1"><script>window.__hacked = 2</script></p>',
  ]);
  await openWorkspace(page, journey, FORM_BLOCK);
  await page.getByRole('button', { name: /^1\. Tell us what you think/ }).click();
  const box = page.getByRole('textbox', { name: 'Description' });
  await box.waitFor();
  assert.equal(await box.innerHTML(), '<p>Old text</p>');
  assert.equal(await page.evaluate(() => (window as { __hacked?: number }).__hacked), undefined);
  await axe(page, 'workspace edit (description editor)');
  // reached by Tab (from the title, past the toolbar's one stop) it comes whole into view under
  // the top bar: at 900 px high only its first line showed, over the window's bottom edge
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('textbox', { name: 'Question title' }).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.waitForFunction(
    () => {
      const box = document.activeElement;
      const bar = document.querySelector('.workspace-top-bar')?.getBoundingClientRect();
      if (!box?.classList.contains('rich-text-content') || !bar) return false;
      const { top, bottom } = box.getBoundingClientRect();
      return top >= bar.bottom && bottom <= window.innerHeight;
    },
    undefined,
    { timeout: 10_000 },
  );

  const toolbar = page.getByRole('toolbar', { name: 'Description formatting' });
  const bold = toolbar.getByRole('button', { name: 'Bold' });
  await box.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('It takes ');
  await page.keyboard.press('Control+b');
  assert.equal(await bold.getAttribute('aria-pressed'), 'true');
  await page.keyboard.type('one minute');
  await page.keyboard.press('Control+b');
  await page.keyboard.type('.');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+Shift+8');
  await page.keyboard.type('Quick');
  await page.keyboard.press('Enter');
  await page.keyboard.type('안녕하세요');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Read the docs');
  await page.keyboard.press('Shift+Home');
  await page.keyboard.press('Control+k');
  await page.getByRole('textbox', { name: 'Link address' }).fill('example.com/docs');
  await page.keyboard.press('Enter');
  const link = 'target="_blank" rel="noopener noreferrer nofollow"';
  const expected =
    '<p>Old text</p><p>It takes <strong>one minute</strong>.</p><ul><li>Quick</li><li>안녕하세요</li></ul>' +
    `<p><a href="https://example.com/docs" ${link}>Read the docs</a></p>`;
  assert.equal(await box.innerHTML(), expected);
  // the preview shows the draft as the visitor will see it
  await shadowText(page, '.workspace-preview-frame reaction-form', 'Read the docs');
  const previewLink = await page
    .locator('.workspace-preview-frame reaction-form')
    .evaluate((el) => el.shadowRoot?.querySelector('[part=description] a')?.getAttribute('href'));
  assert.equal(previewLink, 'https://example.com/docs');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: 'Block link' }).waitFor();
  const { rows } = await journey.db.query<{ content: string }>(
    'select content from public.questions where id = $1',
    [DESCRIPTION],
  );
  assert.equal(rows[0]?.content, expected, 'stored as the server sanitised it');
  await page.reload();
  await page.getByRole('button', { name: /^1\. Tell us what you think/ }).click();
  assert.equal(await page.getByRole('textbox', { name: 'Description' }).innerHTML(), expected);
  assert.equal(await page.getByRole('button', { name: 'Save', exact: true }).count(), 0);
}
