// npm run screens -w @reaction-blocks/sdk -- [out-dir]: screenshots of the six elements on the
// three host pages of examples/hosts/ (a serif blog, a dark product site, a Notion-like page), in
// the light, dark and custom themes, in English and Korean, at 1440 and 375 px, and of their states
// (liked, voted with the result bars, the form's validation and ending). One contact sheet per area
// (a PNG grid: <area>-sheet.png), and axe's findings on every host page. For looking, not asserting. Needs `npm run build` first; starts
// its own throwaway stack. Korean needs a CJK font (Debian: fonts-noto-cjk) and emoji a colour
// emoji font, or they are boxes (Debian: fonts-noto-color-emoji); only these pictures need them.
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { startThrowawayStack } from '../../supabase/local/throwaway.ts';
import { examplePageReady } from '../e2e/layout-shift.ts';

const out = resolve(process.argv[2] || join(import.meta.dirname, '../../tmp/screens/elements'));
const HOSTS = ['blog', 'product', 'notion'] as const;
const THEMES = ['light', 'dark', 'custom'] as const;
const LANGS = ['en', 'ko'] as const;
const WIDTHS = [1440, 375] as const;
const ONLY = process.env.SCREENS_ONLY; // e.g. "blog" or "states": one area
let axeRuns = 0;
let axeFailures = 0;

interface Picture {
  file: string;
  label: string;
}

async function settle(page: Page): Promise<void> {
  await examplePageReady(page);
  await page.evaluate(() => document.fonts.ready);
  // late chunks (Korean texts, the realtime client) and images
  await page.waitForLoadState('networkidle').catch(() => {});
}

/** The hosts in every theme and language at both widths. */
async function hosts(browser: Browser, base: string): Promise<Record<string, Picture[]>> {
  const sheets: Record<string, Picture[]> = {};
  for (const host of HOSTS) {
    if (ONLY && ONLY !== host) continue;
    const pictures: Picture[] = (sheets[host] = []);
    for (const theme of THEMES)
      for (const lang of LANGS)
        for (const width of WIDTHS) {
          const ctx = await browser.newContext({ viewport: { width, height: 900 } });
          const page = await ctx.newPage();
          const file = join(out, `${host}-${theme}-${lang}-${width}.png`);
          try {
            await page.goto(`${base}/examples/hosts/${host}.html?theme=${theme}&lang=${lang}`);
            await settle(page);
            await page.screenshot({ path: file, fullPage: true });
            // axe on the whole page as a reader gets it (the elements' shadow trees included)
            const { violations } = await new AxeBuilder({ page }).analyze();
            for (const v of violations)
              console.error(
                `[screens] axe ${host} ${theme} ${lang} ${width}: ${v.impact} ${v.id} ${v.help}`,
                v.nodes.map((n) => n.target.join(' ')).slice(0, 3),
              );
            axeRuns++;
            axeFailures += violations.length;
            pictures.push({ file, label: `${host} ${theme} ${lang} ${width}` });
          } catch (e) {
            console.error(`[screens] ${host} ${theme} ${lang} ${width}:`, (e as Error).message);
          } finally {
            await ctx.close();
          }
        }
    console.log(`[screens] ${host}: ${pictures.length} pictures`);
  }
  return sheets;
}

/** A block's element, cut out with a margin. */
async function shootElement(page: Page, selector: string, file: string): Promise<void> {
  const el = page.locator(selector).first();
  await el.scrollIntoViewIfNeeded();
  await el.screenshot({ path: file });
}

/** States that need a visitor: liked, voted (result bars), the form's validation and ending. */
async function states(browser: Browser, base: string): Promise<Picture[]> {
  const pictures: Picture[] = [];
  for (const theme of THEMES)
    for (const lang of LANGS)
      for (const width of WIDTHS) {
        const ctx = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await ctx.newPage();
        const tag = `${theme}-${lang}-${width}`;
        const shot = async (name: string, selector: string) => {
          const file = join(out, `states-${name}-${tag}.png`);
          await shootElement(page, selector, file);
          pictures.push({ file, label: `${name} ${theme} ${lang} ${width}` });
        };
        try {
          await page.goto(`${base}/examples/hosts/blog.html?theme=${theme}&lang=${lang}`);
          await settle(page);
          await page.locator('reaction-like [part~=button]').click();
          await page.locator('reaction-like [part~=button][aria-pressed=true]').waitFor();
          await shot('liked', 'reaction-like');
          await page.locator('reaction-ab [part~=option]').first().click();
          await page.locator('reaction-ab [part~=result]').first().waitFor();
          await page.waitForTimeout(600); // the bars grow
          await shot('voted', 'reaction-ab');
          await page.locator('reaction-form [part~=submit]').click();
          await page.waitForTimeout(300);
          await shot('form-invalid', 'reaction-form');
          const form = page.locator('reaction-form');
          const inputs = form.locator('input[part~=input], textarea[part~=input]');
          for (let i = 0; i < (await inputs.count()); i++) {
            const input = inputs.nth(i);
            const type = await input.getAttribute('type');
            await input.fill(
              type === 'email'
                ? 'mina@example.com'
                : (await input.getAttribute('inputmode')) === 'numeric'
                  ? '3'
                  : 'Mina',
            );
          }
          const choice = form.locator('[part~=choice] input');
          if (await choice.count()) await choice.first().check();
          await form.locator('[part~=submit]').click();
          await form.locator('[part~=ending]').waitFor({ timeout: 10000 });
          await shot('form-ending', 'reaction-form');
        } catch (e) {
          console.error(`[screens] states ${tag}:`, (e as Error).message);
          await page.screenshot({ path: join(out, `states-${tag}-FAILED.png`), fullPage: true });
        } finally {
          await ctx.close();
        }
      }
  console.log(`[screens] states: ${pictures.length} pictures`);
  return pictures;
}

/** One PNG with every picture of an area in a grid, each under its label. */
async function sheet(browser: Browser, name: string, pictures: Picture[]): Promise<void> {
  if (!pictures.length) return;
  const cell = (p: Picture) => {
    const narrow = /\b375\b/.test(p.label);
    const src = 'data:image/png;base64,' + readFileSync(p.file).toString('base64');
    return `<figure class="${narrow ? 'n' : 'w'}"><img src="${src}"><figcaption>${p.label}</figcaption></figure>`;
  };
  const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  await page.setContent(`<!doctype html><style>
    body{margin:0;padding:16px;background:#e9e9ec;font:13px system-ui,sans-serif;display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
    figure{margin:0;background:#fff;padding:6px;border-radius:6px}
    figure.w img{width:480px} figure.n img{width:125px}
    img{display:block;max-height:1400px;object-fit:cover;object-position:top}
    figcaption{padding-top:4px;color:#444}
  </style>${pictures.map(cell).join('')}`);
  await page.evaluate(() => Promise.all([...document.images].map((i) => i.decode())));
  await page.screenshot({ path: join(out, `${name}-sheet.png`), fullPage: true });
  await page.close();
  console.log(`[screens] ${join(out, `${name}-sheet.png`)}`);
}

mkdirSync(out, { recursive: true });
const stack = await startThrowawayStack('screens');
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const sheets = await hosts(browser, stack.webUrl);
  if (!ONLY || ONLY === 'states') sheets.states = await states(browser, stack.webUrl);
  for (const [name, pictures] of Object.entries(sheets)) await sheet(browser, name, pictures);
  console.log(`[screens] axe: ${axeRuns} pages, ${axeFailures} violations`);
} finally {
  await browser.close();
  await stack.stop();
}
