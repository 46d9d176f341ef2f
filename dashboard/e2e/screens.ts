// Screenshots of every landing and dashboard screen as their users see them: the landing pages, the
// demo owner (the seed) signed in, and a new owner's empty screens, at 1440 and 375 px, in English
// and Korean; the public pages as a visitor sees them (screens-public.ts); then one contact sheet
// per area (contact-<area>.png, contact-sheet.ts). For looking, not asserting: read the PNGs; axe's
// findings on every picture's page are printed and written to axe-checks.json.
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
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { DEFAULT_JWT_SECRET } from '../../supabase/local/config.ts';
import { fillDemoLetters } from '../../supabase/local/demo-letters.ts';
import { startThrowawayStack } from '../../supabase/local/throwaway.ts';
import { contactSheet } from './contact-sheet.ts';
import {
  axeFindings,
  type Check,
  PUBLIC_SHOTS,
  shootPublic,
  tokenSigner,
} from './screens-public.ts';

const DEMO = { email: 'demo@reaction-blocks.local', name: 'Demo Owner' };
const DEMO_ID = '00000000-0000-4000-8000-000000000001';
const block = (nn: string) => `00000000-0000-4000-8000-0000000001${nn}`;
const LONG_NAME = 'Customer feedback for the spring launch campaign 2026';
const LONG_URL = `https://example.com/${'very-long-path-segment-'.repeat(8)}end?utm_source=newsletter`;
const LONG_WORD = 'Supercalifragilisticexpialidocious'.repeat(4);
const WIDTHS = [1440, 375] as const;
const LOCALES = ['en', 'ko'] as const;

/** What to capture: a name, a path, and what to do on the page before the picture. */
interface Shot {
  name: string;
  path: string;
  /** Waits for the page to be ready and sets it up (menus open, a question selected...). */
  prepare?: (page: Page) => Promise<void>;
  fullPage?: boolean;
  /** Taken before signing in (the landing sends a signed-in owner to the dashboard). */
  public?: boolean;
}

/** Waits for what `find` finds, does `then` (opens a dialog...) and lets the page settle. */
const shown =
  (find: (page: Page) => Locator, then?: (page: Page) => Promise<unknown>) =>
  async (page: Page) => {
    await find(page).waitFor();
    await then?.(page);
    await settle(page);
  };
const audienceRow = (page: Page) => page.getByTestId('audience-row').first();
const planCard = (page: Page) => page.locator('.plan-card').first();
const h1 = (page: Page) => page.getByRole('heading', { level: 1 });

const workspace = (page: Page) =>
  page
    .locator('.workspace-top-bar')
    .waitFor({ timeout: 15000 })
    .then(() => settle(page));

/** The letter workspace with the demo sample loaded. */
async function letterSample(page: Page) {
  await workspace(page);
  await page.locator('.letter-load-row button').nth(1).click();
  await page.locator('.letter-row').first().waitFor({ timeout: 30000 });
}

/** The sample saved and the Send letter dialog open. */
async function sendDialog(page: Page) {
  await letterSample(page);
  await page.locator('.workspace-actions .button-primary').first().click();
  await page.getByRole('button', { name: /Send letter|레터 보내기/ }).click();
}

/** /send's two frames have loaded and taken their documents' height. */
const sampleFrames = async (page: Page) => {
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLIFrameElement>('iframe.sample-frame')].every(
      (f) => f.offsetHeight > 300,
    ),
  );
  await settle(page);
};

/**
 * Brings each of the showcase's blocks into view until it has rendered (each loads when it comes
 * near the viewport), then goes back to the top. Scrolling through in fixed steps missed the last
 * two on a busy machine: no frame was drawn while they were in view, so nothing saw them.
 */
async function renderShowcase(page: Page) {
  // found again on every try: hydration may replace the prerendered blocks meanwhile
  for (let i = 0; i < 6; i++)
    await page.waitForFunction(
      (n) => {
        const block = document.querySelectorAll('.showcase-list .demo-block')[n];
        block?.scrollIntoView({ block: 'center' });
        return !!block?.querySelector('.demo-block-fallback');
      },
      i,
      { polling: 250, timeout: 30000 },
    );
  await page.evaluate(() => window.scrollTo(0, 0));
}

const SHOTS: Shot[] = [
  { name: 'home', path: '/', public: true, fullPage: true, prepare: (page) => settle(page) },
  { name: 'reaction', path: '/reaction', public: true, prepare: (page) => settle(page) },
  {
    name: 'showcase',
    path: '/showcase',
    public: true,
    fullPage: true,
    prepare: async (page) => {
      await renderShowcase(page);
      await page.waitForFunction(() => customElements.get('reaction-form') !== undefined);
      await settle(page);
    },
  },
  { name: 'pricing', path: '/pricing', public: true, prepare: (page) => settle(page) },
  { name: 'help', path: '/help', public: true, prepare: (page) => settle(page) },
  { name: 'login', path: '/login', public: true, prepare: (page) => settle(page) },
  { name: 'terms', path: '/terms', public: true, prepare: (page) => settle(page) },
  { name: 'cookies', path: '/cookies', public: true, prepare: (page) => settle(page) },
  // the landing's before and after: fixture pages made into letters at build time
  { name: 'send', path: '/send', public: true, fullPage: true, prepare: sampleFrames },
  {
    name: 'send-brunch',
    path: '/send?focus=brunch',
    public: true,
    fullPage: true,
    prepare: sampleFrames,
  },
  {
    name: 'home-footer',
    path: '/',
    public: true,
    prepare: async (page) => {
      await page.locator('footer').scrollIntoViewIfNeeded();
      await settle(page);
    },
  },
  {
    name: 'dashboard',
    path: '/dashboard/reaction',
    fullPage: true,
    prepare: async (page) => {
      await page.getByTestId('block-card').first().waitFor({ state: 'attached' });
      await page
        .locator('.create-block button')
        .first()
        .click()
        .catch(() => {});
      await settle(page);
    },
  },
  {
    // the mail question: its letter picker (issue 18: a letter the form sends by itself)
    name: 'work-form-mail',
    path: `/work/${block('06')}`,
    fullPage: true,
    prepare: async (page) => {
      await workspace(page);
      await page.locator('.question-list .editor-list-item').nth(2).click();
      await page.locator('.question-editor select').last().waitFor();
      await settle(page);
    },
  },
  { name: 'work-comment', path: `/work/${block('01')}`, prepare: workspace },
  { name: 'work-qna', path: `/work/${block('02')}`, prepare: workspace },
  {
    name: 'work-form',
    path: `/work/${block('06')}`,
    fullPage: true,
    prepare: async (page) => {
      await workspace(page);
      await page.locator('.question-list .editor-list-item').first().click();
      await settle(page);
    },
  },
  {
    // a long word or URL in a setting must not push the top bar or Save off screen
    name: 'work-comment-long',
    path: `/work/${block('01')}`,
    prepare: async (page) => {
      await workspace(page);
      await page.locator('.workspace-name-input').fill(LONG_NAME);
      await page.locator('.workspace-settings textarea').first().fill(LONG_URL);
      await page.locator('.workspace-settings input[type=text]').first().fill(LONG_WORD);
      await settle(page);
    },
  },
  {
    name: 'work-form-long',
    path: `/work/${block('06')}`,
    fullPage: true,
    prepare: async (page) => {
      await workspace(page);
      await page.locator('.question-list .editor-list-item').nth(3).click();
      await page.locator('.question-editor input').first().fill(LONG_WORD);
      await page.locator('.options-editor input').first().fill(LONG_URL);
      await settle(page);
    },
  },
  // letters and audience (issue 11)
  {
    name: 'dashboard-send',
    path: '/dashboard/send',
    prepare: async (page) => {
      await page.getByTestId('block-card').first().waitFor({ state: 'attached' });
      await page.locator('.create-block button').first().click();
      await settle(page);
    },
  },
  {
    name: 'work-letter',
    path: `/work/${block('07')}`,
    fullPage: true,
    prepare: async (page) => {
      await letterSample(page);
      await settle(page);
    },
  },
  {
    name: 'work-letter-send',
    path: `/work/${block('07')}`,
    prepare: async (page) => {
      await sendDialog(page);
      await page
        .locator('.send-addresses')
        .fill('reader@example.com, second@example.com\nnot-an-address');
      await settle(page);
    },
  },
  {
    name: 'work-letter-brunch',
    path: `/work/${block('09')}`,
    prepare: async (page) => {
      await workspace(page);
      // the seed's Brunch writer is verified now (the workspace then names the writer); an
      // unverified one gets the verification dialog in the picture
      const verify = page.getByRole('button', { name: /Verify profile|프로필 인증/ });
      if (await verify.isVisible()) await verify.click();
      await settle(page);
    },
  },
  {
    name: 'history-letter',
    path: `/work/${block('07')}`,
    prepare: async (page) => {
      // a send first: load the sample, save, send to two addresses, then the history
      await sendDialog(page);
      await page.locator('.send-addresses').fill('reader@example.com, second@example.com');
      await page.locator('.send-manual .button-primary').click();
      await page.locator('.send-done').waitFor();
      await page.locator('.send-letter-dialog .dialog-actions .button').last().click();
      await page.locator('.workspace-mode-link').nth(1).click();
      await page.locator('.history-count').first().waitFor();
      await page.waitForTimeout(6000); // the counts follow the delivery events
      await settle(page);
    },
  },
  {
    name: 'history-letter-empty',
    path: `/work/${block('08')}/history`,
    prepare: workspace,
  },
  {
    name: 'audience',
    path: '/audience',
    fullPage: true,
    prepare: shown(audienceRow),
  },
  {
    name: 'audience-edit',
    path: '/audience',
    prepare: shown(audienceRow, (page) => page.locator('.audience-mode .button').nth(1).click()),
  },
  {
    name: 'audience-import',
    path: '/audience',
    prepare: async (page) => {
      await audienceRow(page).waitFor();
      await page.locator('.audience-side-actions .button').nth(1).click();
      await page.locator('input[type=file]').setInputFiles({
        name: 'audience.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          'name,email,group\nMina Kim,mina@example.com,\n,noname@example.com,\nBad,not-an-email,\nAlex,alex@example.com,unknown-group\n',
        ),
      });
      await page.locator('.import-report').waitFor();
      await settle(page);
    },
  },
  {
    name: 'audience-of-block',
    path: `/work/${block('06')}/audience`,
    prepare: shown(audienceRow),
  },
  {
    name: 'letter-public',
    path: `/block/?id=${DEMO_ID}&block_id=${block('07')}`,
    prepare: async (page) => {
      await page.locator('reaction-block iframe').waitFor({ timeout: 15000 });
      await page.waitForTimeout(800);
    },
    fullPage: true,
  },
  {
    // the owner's moderation list of the demo guestbook (issue 9)
    name: 'moderation-comment',
    path: `/work/${block('01')}/comments`,
    prepare: shown((page) => page.locator('.moderation[aria-busy="false"]')),
  },
  {
    // the "Spam and abuse" settings section, opened
    name: 'work-comment-trust',
    path: `/work/${block('01')}`,
    prepare: async (page) => {
      await workspace(page);
      const section = page.locator('.accordion-section').filter({ hasText: /Spam and abuse|스팸/ });
      await section.locator('.accordion-trigger').click();
      await section.scrollIntoViewIfNeeded();
      await settle(page);
    },
  },
  {
    name: 'plan',
    path: '/profile/plan',
    fullPage: true,
    prepare: shown(planCard),
  },
  {
    name: 'plan-coupon',
    path: '/profile/plan',
    prepare: async (page) => {
      await planCard(page).waitFor();
      await page
        .getByRole('button', { name: /coupon|쿠폰/i })
        .first()
        .click();
      await page.getByRole('dialog').waitFor();
      await page.getByRole('dialog').getByRole('textbox').fill('NOT-A-COUPON');
      await page.getByRole('dialog').getByRole('textbox').press('Enter');
      await page.getByRole('dialog').locator('.error-text, [role=alert]').first().waitFor();
      await settle(page);
    },
  },
  {
    name: 'profile-email',
    path: '/profile/email',
    fullPage: true,
    prepare: shown(h1),
  },
  // /purchase sends the demo owner (on a paid plan) to /profile/plan: the plans journey shoots it
  { name: 'profile-account', path: '/profile', fullPage: true, prepare: shown(h1) },
  { name: 'work-ab', path: `/work/${block('05')}`, prepare: workspace },
  { name: 'work-like', path: `/work/${block('03')}`, prepare: workspace },
  { name: 'work-button', path: `/work/${block('04')}`, prepare: workspace },
  { name: 'work-form-preview', path: `/work/${block('06')}/preview`, prepare: workspace },
  { name: 'result-form', path: `/work/${block('06')}/result`, prepare: workspace },
  { name: 'result-ab', path: `/work/${block('05')}/result`, prepare: workspace },
  { name: 'result-like', path: `/work/${block('03')}/result`, prepare: workspace },
  { name: 'result-button', path: `/work/${block('04')}/result`, prepare: workspace },
  {
    name: 'integration',
    path: '/profile/integration',
    prepare: shown((page) =>
      page.locator('.integration-card').filter({ hasText: /Granted|허용됨/ }),
    ),
  },
  {
    // connected to the Notion fake (see connectNotion), the form linked to "Feedback", a note
    name: 'work-form-integration',
    path: `/work/${block('06')}`,
    prepare: async (page) => {
      await workspace(page);
      const section = page
        .locator('.accordion-section')
        .filter({ has: page.locator('.integration-section') });
      await section.locator('.accordion-trigger').click();
      await section
        .locator('select')
        .first()
        .locator('option', { hasText: 'Feedback' })
        .waitFor({ state: 'attached' });
      await section.locator('.integration-notes').waitFor();
      await section.scrollIntoViewIfNeeded();
      await settle(page);
    },
  },
];

/**
 * Connects the demo owner to the Notion fake as a person would (the popup, the local authorise
 * page), links the form to the "Feedback" database in its workspace, and leaves one note of the
 * kind the jobs worker writes when a column cannot take a value.
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
    // the Notion card's own state (the Cafe24 card beside it reads "Not granted" too)
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
     values ($1, $2, 'column_type', 'Done', '{"column_type":"checkbox","field":"Done","value_kind":"text","reason":"type"}', 3)
     on conflict (user_id, block_id, code, property) do nothing`,
    [DEMO_ID, block('06')],
  );
}

async function settle(page: Page) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(400);
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

/** A new owner's screens before they have anything: the empty states (issue 22). */
const EMPTY_SHOTS: Shot[] = [
  { name: 'empty-dashboard', path: '/dashboard/reaction', prepare: (page) => emptyReady(page) },
  { name: 'empty-send', path: '/dashboard/send', prepare: (page) => emptyReady(page) },
  {
    name: 'empty-audience',
    path: '/audience',
    prepare: async (page) => {
      await page.locator('.empty-panel').waitFor();
      await settle(page);
    },
  },
];

async function emptyReady(page: Page) {
  await page.getByTestId('remaining').waitFor();
  await page.locator('.empty-panel').waitFor();
  await settle(page);
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
