// Draws public/og-default.jpg (1200 x 630), the preview image of a shared block link whose owner
// set none, with Chromium from an HTML card. Run after changing the card:
//   npx tsx dashboard/scripts/og-image.ts
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'og-default.jpg');

const html = `<!doctype html><html><head><meta charset="utf-8"><style>
  html, body { margin: 0; }
  body { width: 1200px; height: 630px; display: flex; flex-direction: column; justify-content: center;
    padding: 0 96px; box-sizing: border-box; color: #fff;
    background: linear-gradient(135deg, #3b5bdb 0%, #2f4ac0 60%, #1f2f8a 100%);
    font-family: 'Noto Sans', 'Noto Sans CJK KR', system-ui, sans-serif; }
  .mark { width: 120px; height: 120px; margin-bottom: 40px; }
  h1 { font-size: 76px; margin: 0 0 20px; letter-spacing: -1px; }
  p { font-size: 38px; margin: 0; opacity: .92; line-height: 1.35; }
  .chips { display: flex; gap: 16px; margin-top: 44px; }
  .chips span { border: 2px solid rgba(255,255,255,.6); border-radius: 999px; padding: 8px 22px; font-size: 28px; }
</style></head><body>
  <svg class="mark" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#fff"/><path d="M9 11h14v9H15l-4 4v-4H9z" fill="#3b5bdb"/></svg>
  <h1>Reaction Blocks</h1>
  <p>Comments, likes, polls and forms for any web page.</p>
  <div class="chips"><span>Comment</span><span>Q&amp;A</span><span>Like</span><span>A/B</span><span>Form</span></div>
</body></html>`;

const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.setContent(html);
  writeFileSync(out, await page.screenshot({ type: 'jpeg', quality: 88 }));
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
