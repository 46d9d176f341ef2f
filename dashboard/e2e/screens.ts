// Screenshots of every landing and dashboard screen as their users see them: the landing pages, the
// demo owner (the seed) signed in, and a new owner's empty screens, at 1440 and 375 px, in English
// and Korean (the list is screens-shots.ts); the public pages as a visitor sees them
// (screens-public.ts); then one contact sheet per area (contact-<area>.png, contact-sheet.ts).
// For looking, not asserting: read the PNGs; axe's findings on every picture's page are printed
// and written to axe-checks.json.
//   npm run screens -w @reaction-blocks/dashboard -- [out-dir]      (its own throwaway stack)
//   SCREENS_BASE=http://127.0.0.1:54323 SCREENS_DB=postgresql://... npm run screens ...
//                                                                  (a running `npm start`)
// Build the SDK and the dashboard first. Korean needs a CJK font (Debian: fonts-noto-cjk), and
// emoji (in owners' and visitors' texts) a colour emoji font, or they are boxes (Debian:
// fonts-noto-color-emoji). Only these pictures need them; CI does not.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import pg from 'pg';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { DEFAULT_JWT_SECRET } from '../../supabase/local/config.ts';
import { fillDemoLetters } from '../../supabase/local/demo-letters.ts';
import { startThrowawayStack } from '../../supabase/local/throwaway.ts';
import { contactSheet } from './contact-sheet.ts';
import {
  block,
  DEMO,
  DEMO_ID,
  EMPTY_SHOTS,
  LOCALES,
  type Shot,
  SHOTS,
  WIDTHS,
  workspace,
} from './screens-shots.ts';
import {
  axeFindings,
  type Check,
  PUBLIC_SHOTS,
  shootPublic,
  tokenSigner,
} from './screens-public.ts';

/**
 * Connects the demo owner to the Notion fake as a person would (the popup, the local authorise
 * page), links the form to the "Feedback" database in its workspace, and leaves two notes of the
 * kinds the jobs worker writes: a column that cannot take a value, and a write Notion never
 * answered (it may have been written).
 */
async function connectNotion(page: Page, base: string, db: pg.Client) {
  const { rows } = await db.query('select 1 from public.integrations where user_id = $1', [
    DEMO_ID,
  ]);
  if (rows.length === 0) {
    await page.goto(`${base}/profile/integration?locale=en`);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Connect Notion' }).click(),
    ]);
    await popup.getByLabel('Name of a new workspace').fill('Demo workspace');
    const closed = popup.waitForEvent('close');
    await popup.getByRole('button', { name: 'Allow access' }).click();
    await closed;
    // the Notion card's own state (not the Cafe24 card's beside it)
    await page.getByRole('listitem', { name: 'Notion' }).locator('.status-verified').waitFor();
    await page.goto(`${base}/work/${block('06')}?locale=en`);
    await workspace(page);
    await page.getByRole('button', { name: 'Integration' }).click();
    const target = page.getByRole('combobox', { name: 'Notion database' });
    await target.locator('option', { hasText: 'Feedback' }).waitFor({ state: 'attached' });
    await target.selectOption({ label: 'Feedback' });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Block link' }).waitFor();
  }
  await db.query(
    `insert into public.integration_notes (user_id, block_id, code, property, detail, count)
     values ($1, $2, 'column_type', 'Done', '{"column_type":"checkbox","field":"Done","value_kind":"text","reason":"type"}', 3),
            ($1, $2, 'write_uncertain', '', '{"message":"Notion is unavailable, please try again later."}', 1)
     on conflict (user_id, block_id, code, property) do nothing`,
    [DEMO_ID, block('06')],
  );
}

/**
 * Letters need a verified sender (the platform's domain is verified in the SES fake) and, for
 * the history and the public page, a saved and sent letter: made through the API as the owner.
 */
async function prepareLetters(db: pg.Client) {
  await db.query(
    `insert into public.sender_emails (user_id, email, status, spf_verified, dkim_verified, confirmed_at)
     values ($1, 'demo@reaction-blocks.local', 'verified', true, true, now()) on conflict do nothing`,
    [DEMO_ID],
  );
}

const NEW_OWNER = { email: 'screens-new-owner@example.com', name: 'New Owner' };

/** Which contact sheet a shot belongs to, by its name. */
function areaOf(name: string): string {
  if (/^(home|reaction|send|showcase|pricing|help|terms|cookies|login)/.test(name))
    return 'landing';
  if (name.startsWith('empty-')) return 'empty';
  if (/letter|^history-|^dashboard-send/.test(name)) return 'letters';
  if (name.startsWith('audience')) return 'audience';
  if (name.startsWith('result-')) return 'results';
  if (/^(moderation-|work-comment-trust)/.test(name)) return 'moderation';
  if (/integration/.test(name)) return 'integrations';
  if (/^(plan|profile)/.test(name)) return 'account';
  if (name.startsWith('work-')) return 'workspace';
  return 'dashboard';
}

/** The shots grouped by area, in the order taken. */
function byArea(files: string[]): Map<string, string[]> {
  const areas = new Map<string, string[]>();
  for (const file of files) {
    const area = areaOf(basename(file).replace(/-(en|ko)-(1440|375)\.png$/, ''));
    areas.set(area, [...(areas.get(area) ?? []), file]);
  }
  return areas;
}

async function newOwnerScreens(
  base: string,
  db: pg.Client,
  browser: Browser,
  shoot: (page: Page, shot: Shot, locale: string) => Promise<void>,
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${base}/login?locale=en`);
    await page.getByRole('button', { name: /Google/ }).click();
    await page.locator('#email').fill(NEW_OWNER.email);
    await page.locator('#name').fill(NEW_OWNER.name);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/dashboard\/reaction/);
    const terms = page.getByRole('dialog', { name: 'Terms of Service' });
    await terms.waitFor();
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Agree' }).click();
    await terms.waitFor({ state: 'detached' });
    for (const locale of LOCALES) {
      await db.query('update public.profiles set language = $1 where email = $2', [
        locale,
        NEW_OWNER.email,
      ]);
      for (const shot of EMPTY_SHOTS) await shoot(page, shot, locale);
    }
  } finally {
    await context.close();
  }
}

async function run(base: string, db: pg.Client, browser: Browser, out: string) {
  const only = process.env.SCREENS_ONLY?.split(',');
  const token = await tokenSigner(process.env.SCREENS_JWT_SECRET ?? DEFAULT_JWT_SECRET);
  const publicFiles: string[] = [];
  const files: string[] = [];
  const axeChecks: { shot: string; axe: string[] }[] = [];
  const shootAt = async (page: Page, shot: Shot, locale: string) => {
    if (only && !only.includes(shot.name)) return;
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 800 ? 900 : 812 });
      await page.goto(`${base}${shot.path}${shot.path.includes('?') ? '&' : '?'}locale=${locale}`);
      await shot.prepare?.(page).catch(async (error: unknown) => {
        await page.screenshot({ path: join(out, `${shot.name}-${locale}-${width}-FAILED.png`) });
        throw error;
      });
      const file = join(out, `${shot.name}-${locale}-${width}.png`);
      // a whole page from its top: a page scrolled by its own focus move (the letter after Load
      // sample) drew its sticky bar in the middle of the picture, over a blank band
      if (shot.fullPage) {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.waitForTimeout(100);
      }
      await page.screenshot({ path: file, fullPage: shot.fullPage ?? false });
      files.push(file);
      const axe = await axeFindings(page, shot.name);
      axeChecks.push({ shot: basename(file, '.png'), axe });
      console.log(`${file}: axe ${axe.length ? axe.join(', ') : 'clean'}`);
    }
  };
  const publicChecks: Check[] = [];
  await prepareLetters(db);
  for (const locale of LOCALES) {
    await db.query('update public.profiles set language = $1 where id = $2', [locale, DEMO_ID]);
    const context = await browser.newContext({ locale: locale === 'ko' ? 'ko-KR' : 'en-US' });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    const shoot = (shot: Shot) => shootAt(page, shot, locale);
    for (const shot of SHOTS.filter((s) => s.public)) await shoot(shot);
    if (!only || PUBLIC_SHOTS.some((shot) => only.includes(shot.name))) {
      const { files: shots, checks } = await shootPublic(
        browser,
        base,
        { db, locale, token },
        async (tab, name, width, fullPage) => {
          const file = join(out, `${name}-${locale}-${width}.png`);
          await tab.screenshot({ path: file, fullPage });
          console.log(file);
          return file;
        },
        WIDTHS,
        only,
      );
      publicFiles.push(...shots);
      publicChecks.push(...checks);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${base}/login?locale=${locale}`);
    await page.getByRole('button', { name: /Google/ }).click();
    await page.locator('#email').fill(DEMO.email);
    await page.locator('#name').fill(DEMO.name);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/dashboard\/reaction/);
    // the code exchange finishes after the redirect: wait for the signed-in screen
    await page.getByTestId('block-card').first().waitFor();
    if (!only || only.some((name) => name.includes('integration')))
      await connectNotion(page, base, db);
    for (const shot of SHOTS.filter((s) => !s.public)) await shoot(shot);
    await context.close();
  }
  await db.query("update public.profiles set language = 'en' where id = $1", [DEMO_ID]);
  if (publicFiles.length) {
    const login = LOCALES.flatMap((l) => WIDTHS.map((w) => join(out, `login-${l}-${w}.png`)));
    const sheet = await contactSheet(
      browser,
      [...publicFiles, ...login.filter((f) => existsSync(f))],
      out,
      'Public pages',
    );
    console.log(sheet);
    writeFileSync(join(out, 'public-checks.json'), `${JSON.stringify(publicChecks, null, 2)}\n`);
    const worst = Math.max(...publicChecks.map((c) => c.cls));
    const failing = publicChecks.filter((c) => c.axe.length);
    console.log(
      `public pages: ${publicChecks.length} checked, worst CLS ${worst.toFixed(4)}, axe ${failing.length ? failing.map((c) => `${c.shot}: ${c.axe.join(', ')}`).join('; ') : 'clean on every one'}`,
    );
  }
  await newOwnerScreens(base, db, browser, shootAt);
  writeFileSync(join(out, 'axe-checks.json'), `${JSON.stringify(axeChecks, null, 2)}\n`);
  const failing = axeChecks.filter((c) => c.axe.length);
  console.log(
    `landing and dashboard: axe on ${axeChecks.length} pictures, ${failing.length ? failing.map((c) => `${c.shot}: ${c.axe.join(', ')}`).join('; ') : 'clean on every one'}`,
  );
  for (const [area, shots] of byArea(files))
    console.log(await contactSheet(browser, shots, out, area));
}

const out = resolve(process.argv[2] ?? join(tmpdir(), 'rb-screens'));
mkdirSync(out, { recursive: true });
const browser = await chromium.launch(chromiumLaunchOptions);
let stop = async () => {};
let base = process.env.SCREENS_BASE;
let dbUrl = process.env.SCREENS_DB;
if (!base || !dbUrl) {
  const stack = await startThrowawayStack('screens');
  base = stack.webUrl.replace(/\/$/, '');
  dbUrl = stack.dbUrl;
  // the demo's letters, made from the fixture pages as `npm start` makes them
  await fillDemoLetters(stack);
  stop = () => stack.stop();
}
const db = new pg.Client({ connectionString: dbUrl });
await db.connect();
try {
  await run(base, db, browser, out);
} finally {
  await db.end().catch(() => {});
  await browser.close();
  await stop();
}
