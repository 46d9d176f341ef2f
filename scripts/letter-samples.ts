// The landing's /send before and after (issue 18, owner 10): real fixture pages of the providers
// server turned into letters by the real pipeline, at build time. The `/pages` fake answers on a
// throwaway port; loadLetter fetches each page through the SSRF guard (the fixture hosts resolve
// to their public addresses in the local zone, the origin override sends the request here, as
// PAGES_ORIGIN_OVERRIDE does in the stack), copies the images (to files instead of Storage) and
// renderLetter makes the mail; the footer is the one every letter gets.
//   before  the page as its site shows it (its HTML without scripts; the Notion page, which is
//           drawn in the browser by Notion's app, as its records read)
//   after   the letter's whole mail document
// Written to <out>/<letter type>-{before,after}.html and <out>/img/; the dashboard's build
// (rollup.config.mjs) calls it for dist/letter-samples/.
//   node --import tsx scripts/letter-samples.ts <out dir>
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  listTree,
  type TLetterBlock,
  type TLetterMode,
  type TListTree,
  type TSpan,
} from '@reaction-blocks/contracts/letters';
import { escapeHtml } from '../supabase/functions/_shared/notification-mail.ts';
import { loadLetter, type LoadDeps } from '../supabase/functions/_shared/letter/load.ts';
import {
  letterDocument,
  letterFooter,
  renderLetter,
  type LetterLang,
} from '../supabase/functions/_shared/letter/render.ts';
import type { FakeContext } from '../supabase/local/providers/fake.ts';
import { HttpError } from '../supabase/local/providers/http.ts';
import {
  DEMO_BRUNCH_ARTICLE_URL,
  DEMO_IMAGES,
  DEMO_PAGES,
  DEMO_TYPEDREAM_PAGE_URL,
} from '../supabase/local/providers/pages/demo-pages.ts';
import {
  NOTION_PAGE_URL,
  PAGE_HOST_ADDRESSES,
} from '../supabase/local/providers/pages/fixtures.ts';
import { createPagesFake } from '../supabase/local/providers/pages/index.ts';

/** The letter types of the landing's tabs, their source pages and the letter's language. */
export const SAMPLES = [
  { type: 'notion_letter', mode: 'notion', url: NOTION_PAGE_URL, lang: 'en' },
  { type: 'typedream_letter', mode: 'typedream', url: DEMO_TYPEDREAM_PAGE_URL, lang: 'en' },
  { type: 'brunch_letter', mode: 'brunch', url: DEMO_BRUNCH_ARTICLE_URL, lang: 'ko' },
] as const satisfies ReadonlyArray<{
  type: string;
  mode: TLetterMode;
  url: string;
  lang: LetterLang;
}>;

/** Where copied images point while rendering (an https origin the sanitiser keeps); then img/. */
const IMAGE_ORIGIN = 'https://letter-samples.invalid/';
/** Nothing but the sample's own images and inline styles: no script, font or request elsewhere. */
const CSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self'; style-src 'unsafe-inline'">`;

const imageName = (bytes: Uint8Array) =>
  `${createHash('sha256').update(bytes).digest('hex').slice(0, 40)}.png`;

/** The `/pages` fake on a port of its own, as the providers server would route to it. */
async function pagesServer(): Promise<{ origin: string; server: Server }> {
  const ctx = { zone: { add() {} } } as unknown as FakeContext;
  const fake = await createPagesFake(ctx);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    Promise.resolve(fake.handle(req, res, url.pathname.slice(fake.prefix.length), url)).catch(
      (err: unknown) => {
        res.writeHead(err instanceof HttpError ? err.status : 500).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const spanHtml = (spans: TSpan[]) =>
  spans
    .map((s) => {
      let out = escapeHtml(s.text);
      if (s.marks?.includes('b')) out = `<strong>${out}</strong>`;
      if (s.marks?.includes('i')) out = `<em>${out}</em>`;
      if (s.marks?.includes('code')) out = `<code>${out}</code>`;
      return s.href ? `<a href="${escapeHtml(s.href)}">${out}</a>` : out;
    })
    .join('');

/** A list with its nested lists inside their items. */
const listHtml = (list: TListTree): string =>
  `<${list.ordered ? 'ol' : 'ul'}${list.start ? ` start="${list.start}"` : ''}>${list.items
    .map((i) => `<li>${spanHtml(i.spans)}${i.lists.map(listHtml).join('')}</li>`)
    .join('')}</${list.ordered ? 'ol' : 'ul'}>`;

/** The public Notion page as its records read (Notion draws it with its app, not server HTML). */
function notionPage(title: string, blocks: TLetterBlock[]): string {
  const body = blocks
    .map((b) => {
      switch (b.type) {
        case 'heading':
          return `<h${b.level + 1}>${spanHtml(b.spans)}</h${b.level + 1}>`;
        case 'paragraph':
          return `<p>${spanHtml(b.spans)}</p>`;
        case 'list':
          return listHtml(listTree(b));
        case 'quote':
          return `<blockquote>${spanHtml(b.spans)}</blockquote>`;
        case 'callout':
          return `<div class="callout">${escapeHtml(b.icon ?? '')} ${spanHtml(b.spans)}</div>`;
        case 'image':
          return `<figure><img src="${escapeHtml(b.src)}" alt="${escapeHtml(b.alt ?? '')}">${b.caption?.length ? `<figcaption>${spanHtml(b.caption)}</figcaption>` : ''}</figure>`;
        case 'divider':
          return '<hr>';
        case 'code':
          return `<pre>${escapeHtml(b.text)}</pre>`;
      }
    })
    .join('\n');
  const style = `body{margin:0;font-family:ui-sans-serif,-apple-system,'Segoe UI',Helvetica,sans-serif;color:#37352f;background:#fff}
.topbar{padding:10px 16px;font-size:14px;color:#787774;border-bottom:1px solid #ededec}
article{max-width:708px;margin:0 auto;padding:48px 24px 80px}
h1{font-size:40px;font-weight:700;margin:0 0 24px}h2{font-size:30px;margin:32px 0 4px}h3{font-size:24px;margin:24px 0 4px}h4{font-size:20px;margin:20px 0 4px}
p,li{font-size:16px;line-height:1.5}blockquote{border-left:3px solid currentColor;padding-left:14px;margin:8px 0;font-size:18px}
.callout{background:#f1f1ef;border-radius:4px;padding:16px;margin:8px 0}
figure{margin:12px 0}figure img{max-width:100%;border-radius:2px}figcaption{font-size:14px;color:#787774}
pre{background:#f7f6f3;padding:24px 16px;font-size:14px;border-radius:4px;white-space:pre-wrap}hr{border:0;border-top:1px solid #e9e9e7}
a{color:inherit}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${CSP}<title>${escapeHtml(title)}</title><style>${style}</style></head><body><div class="topbar">reaction-demo.notion.site</div><article><h1>${escapeHtml(title)}</h1>\n${body}\n</article></body></html>`;
}

/** The page as its site serves it, without its scripts, its images the copied ones. */
function sitePage(html: string, images: Map<string, string>): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script>/gi, '')
    .replace(/<head>/i, `<head>${CSP}`)
    .replace(/src="(?:https:)?\/\/([^"]+)"/g, (whole, hostPath: string) => {
      const name = images.get(hostPath);
      return name ? `src="img/${name}"` : whole;
    });
}

export interface LetterSample {
  type: (typeof SAMPLES)[number]['type'];
  before: string;
  after: string;
}

/** Renders the samples; `images` receives each copied image's bytes by file name. */
export async function renderLetterSamples(
  images: Map<string, Uint8Array>,
): Promise<LetterSample[]> {
  const addresses = new Map<string, string[]>();
  for (const [host, ip] of PAGE_HOST_ADDRESSES) addresses.set(host, [ip]);
  const { origin, server } = await pagesServer();
  try {
    const deps: LoadDeps = {
      guard: {
        resolve: async (host) => addresses.get(host) ?? [],
        fetch: (input, init) => fetch(input, init),
        originOverride: `${origin}/pages`,
      },
      notionApiBaseUrl: `${origin}/pages/www.notion.so/api/v3`,
      async storeImage(bytes, _type, name) {
        images.set(name, bytes);
        return `${IMAGE_ORIGIN}${name}`;
      },
    };
    // the demo pages' images by host and path, named as the copies are (the same bytes)
    const siteImages = new Map<string, string>();
    for (const [hostPath, make] of Object.entries(DEMO_IMAGES)) {
      siteImages.set(hostPath, imageName(make()));
    }
    const out: LetterSample[] = [];
    for (const sample of SAMPLES) {
      const loaded = await loadLetter(sample.mode, new URL(sample.url), deps);
      if (loaded.warnings.length) throw new Error(`${sample.type}: ${loaded.warnings.join('; ')}`);
      const letter = renderLetter(loaded.title, loaded.model);
      const footer = letterFooter(sample.lang, 'Reaction demo', '#unsubscribe');
      const local = (html: string) => html.split(IMAGE_ORIGIN).join('img/');
      const after = local(
        letterDocument(sample.lang, loaded.title, letter.html, footer.html),
      ).replace('<head>', `<head>${CSP}`);
      const source = DEMO_PAGES[sample.url.replace(/^https:\/\//, '')];
      const before = source
        ? sitePage(source, siteImages)
        : local(notionPage(loaded.title, loaded.model.blocks));
      out.push({ type: sample.type, before, after });
    }
    return out;
  } finally {
    server.close();
  }
}

/** Writes the samples and their images into `dir`. */
export async function writeLetterSamples(dir: string): Promise<void> {
  const images = new Map<string, Uint8Array>();
  const samples = await renderLetterSamples(images);
  mkdirSync(join(dir, 'img'), { recursive: true });
  for (const s of samples) {
    writeFileSync(join(dir, `${s.type}-before.html`), s.before);
    writeFileSync(join(dir, `${s.type}-after.html`), s.after);
  }
  for (const [name, bytes] of images) writeFileSync(join(dir, 'img', name), bytes);
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node --import tsx scripts/letter-samples.ts <out dir>');
    process.exit(2);
  }
  await writeLetterSamples(dir);
}
