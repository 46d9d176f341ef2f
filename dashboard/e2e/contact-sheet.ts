// One PNG that shows a whole area's screenshots at a glance: a row per screen, its 1440 and
// 375 px pictures in English and Korean side by side (the top of each, as first seen), named.
// Drawn by the same Chromium from a local HTML page: no image package.
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { escapeHtml } from '@reaction-blocks/contracts/escape-html';

/** `<name>-<locale>-<width>.png` files, grouped by name in the order first seen. */
export async function contactSheet(
  browser: Browser,
  files: string[],
  out: string,
  title: string,
): Promise<string> {
  const rows = new Map<string, Map<string, string>>();
  for (const file of files) {
    const m = /^(.*)-(en|ko)-(\d+)\.png$/.exec(basename(file));
    if (!m) continue;
    const [, name, locale, width] = m as unknown as [string, string, string, string];
    if (!rows.has(name)) rows.set(name, new Map());
    rows.get(name)!.set(`${locale}-${width}`, file);
  }
  const cell = (file: string | undefined, wide: boolean) =>
    file
      ? `<figure class="${wide ? 'wide' : 'narrow'}"><img src="${pathToFileURL(file).href}" alt=""></figure>`
      : `<figure class="${wide ? 'wide' : 'narrow'} none"></figure>`;
  const body = [...rows]
    .map(
      ([name, shots]) =>
        `<section><h2>${escapeHtml(name)}</h2><div class="row">${cell(shots.get('en-1440'), true)}${cell(shots.get('en-375'), false)}<span class="gap"></span>${cell(shots.get('ko-1440'), true)}${cell(shots.get('ko-375'), false)}</div></section>`,
    )
    .join('');
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>
    body{margin:0;padding:24px;background:#e9ebef;font:14px system-ui,'Noto Sans CJK KR',sans-serif;color:#1f2328}
    h1{margin:0 0 4px;font-size:22px} .legend{margin:0 0 16px;color:#5c636e}
    section{margin:0 0 18px} h2{margin:0 0 6px;font-size:14px;font-family:ui-monospace,monospace}
    .row{display:flex;gap:10px;align-items:flex-start}
    figure{margin:0;overflow:hidden;background:#fff;border:1px solid #cfd4dc;border-radius:6px}
    figure.wide{width:480px;height:300px} figure.narrow{width:125px;height:271px}
    figure.none{background:repeating-linear-gradient(45deg,#f4f5f7 0 8px,#e9ebef 8px 16px)}
    img{display:block;width:100%} .gap{width:14px}
  </style></head><body><h1>${escapeHtml(title)}</h1><p class="legend">each row: English 1440 px, 375 px · Korean 1440 px, 375 px (the top of each page)</p>${body}</body></html>`;
  const page = join(out, `contact-${title.toLowerCase().replace(/\W+/g, '-')}.html`);
  writeFileSync(page, html);
  const png = page.replace(/\.html$/, '.png');
  const tab = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  try {
    await tab.goto(pathToFileURL(page).href);
    await tab.evaluate(() =>
      Promise.all(
        Array.from(document.images, (img) =>
          img.complete
            ? null
            : new Promise((done) => {
                img.addEventListener('load', done);
                img.addEventListener('error', done);
              }),
        ),
      ),
    );
    await tab.screenshot({ path: png, fullPage: true });
  } finally {
    await tab.close();
  }
  return png;
}
