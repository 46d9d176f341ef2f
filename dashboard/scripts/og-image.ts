// Draws public/og-default.jpg (1200 x 630), the preview image of a shared block link whose owner
// set none, with Chromium from an HTML card in the brand (docs/design.md, Brand): the logo's mark
// is public/favicon.svg itself (the same drawing as components/ui/logo.tsx), so the preview
// cannot keep an old logo once the mark changes; the wordmark, the tagline and the block types in
// their tile colours (components/ui/block-type-icon.tsx) on the public pages' dotted paper.
// Nothing is downloaded: system fonts only. Run after changing the mark or the card:
//   npx tsx dashboard/scripts/og-image.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';

const pub = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
const out = join(pub, 'og-default.jpg');
const mark = readFileSync(join(pub, 'favicon.svg'), 'utf8').replace(
  '<svg ',
  '<svg class="mark" aria-hidden="true" ',
);

/** The six block types a visitor meets, each in its tile's colour. */
const TYPES: Array<[string, string]> = [
  ['Comment', '#3b5bdb'],
  ['Q&amp;A', '#0b7285'],
  ['Like', '#c2255c'],
  ['Button', '#c2410c'],
  ['A/B vote', '#6741d9'],
  ['Form', '#2b7a3b'],
];

const html = `<!doctype html><html><head><meta charset="utf-8"><style>
  html, body { margin: 0; }
  body { width: 1200px; height: 630px; box-sizing: border-box; padding: 40px;
    background-color: #f6f7f9; background-image: radial-gradient(#d5d9e1 1.5px, transparent 1.5px);
    background-size: 24px 24px; color: #1f2328;
    font-family: system-ui, 'Noto Sans', 'Noto Sans CJK KR', sans-serif; }
  .sheet { height: 100%; box-sizing: border-box; padding: 64px 72px; display: flex;
    flex-direction: column; justify-content: center; background: #fff; border: 2px solid #e3e6eb;
    border-radius: 32px; box-shadow: 0 2px 4px rgba(20,30,60,.05), 0 24px 64px rgba(20,30,60,.10); }
  .brand { display: flex; align-items: center; gap: 28px; }
  .mark { width: 120px; height: 120px; flex: none; }
  h1 { margin: 0; font-size: 84px; font-weight: 800; letter-spacing: -2px; line-height: 1; }
  h1 span { color: #3b5bdb; }
  p { margin: 36px 0 0; font-size: 36px; line-height: 1.3; color: #5c636e; }
  .types { display: flex; flex-wrap: wrap; gap: 10px; margin-top: 48px; }
  .types span { display: inline-flex; align-items: center; gap: 10px; padding: 8px 18px 8px 14px;
    border: 2px solid #e3e6eb; border-radius: 999px; font-size: 24px; font-weight: 600; }
  .types i { width: 16px; height: 16px; border-radius: 5px; }
</style></head><body><div class="sheet">
  <div class="brand">${mark}<h1>Reaction <span>Blocks</span></h1></div>
  <p>Comments, likes, polls and forms for any web page.</p>
  <div class="types">${TYPES.map(([name, colour]) => `<span><i style="background:${colour}"></i>${name}</span>`).join('')}</div>
</div></body></html>`;

const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.setContent(html);
  await page.evaluate(() => document.fonts.ready);
  writeFileSync(out, await page.screenshot({ type: 'jpeg', quality: 88 }));
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
