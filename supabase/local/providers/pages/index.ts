// Fixture pages for the letter pipeline (`/pages`): the pages and APIs the functions fetch when
// an owner turns a page into a letter, served offline. The functions get
// PAGES_ORIGIN_OVERRIDE=<providers>/pages, so after every check of the SSRF guard a request for
// https://<host>/<path> is sent here as /pages/<host>/<path>, and NOTION_API_BASE_URL=
// <providers>/pages/www.notion.so/api/v3 for notion-client. The fixture hosts' addresses are
// A records in the local DNS zone (some of them private, for the guard's tests).
//   POST /pages/www.notion.so/api/v3/loadPageChunk | syncRecordValuesMain | getSignedFileUrls
//   GET  /pages/<host>/<path>   a fixture page or image (README: the list)
//   GET  /pages/_control/state  how many times each of the long mail page's images was asked for
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeContext, ProviderFake } from '../fake.ts';
import { escapeHtml, HttpError, newest, readJson, sendJson } from '../http.ts';
import {
  BIG_IMAGE_HTML,
  BRUNCH_ARTICLE_HTML,
  BRUNCH_PROFILE_HTML,
  HOSTILE_HTML,
  LONG_MAIL_IMAGE,
  NOTION_IMAGE_SOURCE,
  allNotionBlocks,
  NOTION_LATE_BLOCK,
  PAGE_HOST_ADDRESSES,
  png,
  TYPEDREAM_HTML,
  TYPEDREAM_LONG_MAIL_HTML,
  TYPEDREAM_TABLES_HTML,
} from './fixtures.ts';
import { DEMO_IMAGES, DEMO_PAGES } from './demo-pages.ts';

const html = (res: ServerResponse, body: string, status = 200) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
};
/** `count` copies of `piece` without a Content-Length, as long as the reader stays. */
const stream = (res: ServerResponse, type: string, piece: string | Buffer, count: number) => {
  res.writeHead(200, { 'content-type': type });
  for (let i = 0; i < count && !res.destroyed; i++) res.write(piece);
  res.end();
};
const image = (res: ServerResponse, body: Buffer) => {
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length });
  res.end(body);
};
const redirect = (res: ServerResponse, location: string) => {
  res.writeHead(302, { location });
  res.end();
};

/** What the hosts the local DNS puts at private addresses would show, if the guard let it. */
const INTERNAL_HTML =
  '<!doctype html><title>internal</title><main><p>SECRET internal page</p></main>';
/** The fixture pages and images by `<host><path>` (the demo owner's are in demo-pages.ts). */
const FIXTURE_PAGES: Record<string, string> = {
  'brunch.co.kr/@letterwriter': BRUNCH_PROFILE_HTML,
  'brunch.co.kr/@letterwriter/12': BRUNCH_ARTICLE_HTML,
  'brunch.co.kr/@someoneelse':
    '<!doctype html><title>someone</title><p class="profile_desc">no address here</p>',
  'reaction-demo.typedream.app/': TYPEDREAM_HTML,
  'reaction-demo.typedream.app/prices': TYPEDREAM_TABLES_HTML,
  'hostile.typedream.app/': HOSTILE_HTML,
  'big-image.typedream.app/': BIG_IMAGE_HTML,
  'long-mail.typedream.app/': TYPEDREAM_LONG_MAIL_HTML,
  'internal.typedream.app/': INTERNAL_HTML,
  'private.typedream.app/': INTERNAL_HTML,
  'metadata.typedream.app/': INTERNAL_HTML,
};
const FIXTURE_IMAGES: Record<string, () => Buffer> = {
  'file.notion.so/f/f/7f1c2d3e/9a8b7c6d/letter-cover.png': () => png(600, 300, [70, 110, 160]),
  'img1.daumcdn.net/thumb/R1280x0/': () => png(640, 360, [120, 170, 90]),
  'api.typedream.com/v0/document/public/notes-cover.png': () => png(600, 240, [200, 120, 60]),
};

export function createPagesFake(ctx: FakeContext): ProviderFake {
  const seedDns = () => {
    for (const [name, value] of PAGE_HOST_ADDRESSES) ctx.zone.add({ name, type: 'A', value });
  };
  seedDns();
  /** The images made so far, by address. */
  const images = new Map<string, Buffer>();
  const held = new Set<ServerResponse>();
  const requests: string[] = [];
  /** Requests for the long mail page's images, by address (what a test of the cut counts). */
  const longMailImages = new Map<string, number>();

  async function notionApi(req: IncomingMessage, res: ServerResponse, endpoint: string) {
    const body = await readJson(req);
    const blocks = allNotionBlocks();
    if (endpoint === 'loadPageChunk') {
      // As Notion: the page and its blocks in reading order (children after their parent, a
      // sub-page's own blocks not), at most `limit`, and a cursor when more remain. The fixture
      // page's #13 is never in a chunk (read after, by id).
      const page = blocks[String(body.pageId)]?.value;
      if (page?.type !== 'page' || page.parent_table !== 'space')
        return sendJson(res, 200, { recordMap: {}, cursor: { stack: [] } });
      const order: string[] = [];
      const visit = (id: string, root: boolean) => {
        const value = blocks[id]?.value;
        if (!value || id === NOTION_LATE_BLOCK) return;
        order.push(id);
        if (!root && value.type === 'page') return;
        for (const child of (value.content as string[] | undefined) ?? []) visit(child, false);
      };
      visit(page.id as string, true);
      const limit = Math.max(1, Math.min(Number(body.limit) || 100, 100));
      const chunk = Object.fromEntries(order.slice(0, limit).map((id) => [id, blocks[id]!]));
      const more = order.length > limit;
      return sendJson(res, 200, {
        recordMap: { block: chunk },
        cursor: { stack: more ? [[{ table: 'block', id: page.id, index: limit }]] : [] },
      });
    }
    if (endpoint === 'syncRecordValuesMain' || endpoint === 'syncRecordValues') {
      const wanted = Array.isArray(body.requests) ? (body.requests as Array<{ id?: string }>) : [];
      const found = Object.fromEntries(
        wanted.filter((r) => r.id && blocks[r.id]).map((r) => [r.id!, blocks[r.id!]!]),
      );
      return sendJson(res, 200, { recordMap: { block: found } });
    }
    if (endpoint === 'getSignedFileUrls') {
      const urls = Array.isArray(body.urls)
        ? (body.urls as Array<{ url?: string; permissionRecord?: { id?: string } }>)
        : [];
      const expires = Date.now() + 3_600_000;
      return sendJson(res, 200, {
        signedUrls: urls.map((u) =>
          u.url === NOTION_IMAGE_SOURCE
            ? `https://file.notion.so/f/f/7f1c2d3e/9a8b7c6d/letter-cover.png?table=block&id=${u.permissionRecord?.id ?? ''}&expirationTimestamp=${expires}&signature=local-fake`
            : null,
        ),
      });
    }
    return sendJson(res, 400, {
      errorId: 'fake',
      name: 'ValidationError',
      message: `unknown endpoint ${endpoint}`,
    });
  }

  return {
    prefix: '/pages',
    title: 'Pages (letter sources)',
    async handle(req, res, path) {
      const [, host = '', ...rest] = path.split('/');
      const rel = `/${rest.join('/')}`;
      requests.push(`${req.method} ${host}${rel}`);
      if (requests.length > 200) requests.shift();
      if (host === 'www.notion.so' && rel.startsWith('/api/v3/') && req.method === 'POST') {
        return notionApi(req, res, rel.slice('/api/v3/'.length));
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'GET only');
      const address = `${host}${rel}`;
      const page = DEMO_PAGES[address] ?? FIXTURE_PAGES[address];
      if (page) return html(res, page);
      if (
        address.startsWith(LONG_MAIL_IMAGE) &&
        /^\d+\.png$/.test(address.slice(LONG_MAIL_IMAGE.length))
      ) {
        longMailImages.set(address, (longMailImages.get(address) ?? 0) + 1);
        return image(res, png(40, 20, [90, 90, 160]));
      }
      const makeImage = DEMO_IMAGES[address] ?? FIXTURE_IMAGES[address];
      if (makeImage) {
        if (!images.has(address)) images.set(address, makeImage());
        return image(res, images.get(address)!);
      }
      switch (address) {
        case 'api.typedream.com/v0/document/public/huge.png':
          // over the 5 MB image limit, without a Content-Length: the guard stops reading
          return stream(res, 'image/png', Buffer.alloc(256 * 1024, 1), 24);
        case 'huge.typedream.app/':
          return stream(res, 'text/html; charset=utf-8', `<p>${'x'.repeat(64 * 1024)}</p>`, 80);
        case 'slow.typedream.app/':
          // never answers: the guard's time limit ends it (the stack's close ends this)
          held.add(res);
          res.on('close', () => held.delete(res));
          return;
        case 'redirect.typedream.app/':
          return redirect(res, 'https://127.0.0.1/admin');
        case 'rebind.typedream.app/':
          return redirect(res, 'https://internal.typedream.app/');
        case 'outside.typedream.app/':
          return redirect(res, 'https://example.com/');
      }
      throw new HttpError(404, `no fixture page ${host}${rel}`);
    },
    control(req, res, path) {
      if (req.method === 'GET' && path === '/state') {
        return sendJson(res, 200, { longMailImages: Object.fromEntries(longMailImages) });
      }
      throw new HttpError(404, 'no such control endpoint');
    },
    section() {
      const list = [
        [
          'Notion page (page-chunk API)',
          'https://reaction-demo.notion.site/Weekly-letter-5e0f0c1e9d2a4b7c8e3f1a2b3c4d5e6f',
        ],
        ['Brunch profile', 'https://brunch.co.kr/@letterwriter'],
        ['Brunch article', 'https://brunch.co.kr/@letterwriter/12'],
        ['Typedream page', 'https://reaction-demo.typedream.app/'],
        ['Typedream page with a table and a toggle', 'https://reaction-demo.typedream.app/prices'],
        [
          'Long Notion page (a table, toggles, synced blocks, 600 paragraphs)',
          'https://reaction-demo.notion.site/Long-letter-5e0f0c1e9d2a4b7c8e3f1a2b3c4d5e70',
        ],
        ['Demo Typedream newsletter', 'https://reaction-demo.typedream.app/newsletter'],
        ['Demo Brunch article', 'https://brunch.co.kr/@letterwriter/13'],
        ['Hostile page', 'https://hostile.typedream.app/'],
      ]
        .map(([label, url]) => `<li>${escapeHtml(label!)}: <code>${escapeHtml(url!)}</code></li>`)
        .join('');
      const recent = newest(requests, 10)
        .map((r) => `<li><code>${escapeHtml(r)}</code></li>`)
        .join('');
      return `<p class="muted">Pages the letter functions load, served here through PAGES_ORIGIN_OVERRIDE.</p><ul>${list}</ul><p>Last requests:</p><ul>${recent || '<li>none</li>'}</ul>`;
    },
    reset() {
      requests.length = 0;
      longMailImages.clear();
      seedDns();
    },
    close() {
      for (const res of held) res.destroy();
    },
  };
}
