// Fixture pages of the `/pages` fake: a public Notion page (its page-chunk API records), a
// Brunch profile and article, a Typedream page, and hostile pages for the SSRF guard and the
// sanitiser. Hosts are the real providers' names; the fake serves them at /pages/<host>/<path>.
import { crc32, deflateSync } from 'node:zlib';

export const NOTION_PAGE_ID = '5e0f0c1e-9d2a-4b7c-8e3f-1a2b3c4d5e6f';
export const NOTION_PAGE_URL =
  'https://reaction-demo.notion.site/Weekly-letter-5e0f0c1e9d2a4b7c8e3f1a2b3c4d5e6f';
export const NOTION_IMAGE_SOURCE =
  'https://prod-files-secure.s3.us-west-2.amazonaws.com/7f1c2d3e-0000-4000-8000-00000000space/9a8b7c6d-0000-4000-8000-000000000file/letter-cover.png';
export const BRUNCH_PROFILE_URL = 'https://brunch.co.kr/@letterwriter';
export const BRUNCH_ARTICLE_URL = 'https://brunch.co.kr/@letterwriter/12';
/** The address the fixture writer put in their brunch profile (verify-brunch-id). */
export const BRUNCH_WRITER_EMAIL = 'brunch-writer@ses-ready.example';
export const TYPEDREAM_PAGE_URL = 'https://reaction-demo.typedream.app/';

/** Addresses of the fixture hosts in the local DNS zone (public ones are never connected to). */
export const PAGE_HOST_ADDRESSES: Array<[string, string]> = [
  ['reaction-demo.notion.site', '104.18.22.110'],
  ['file.notion.so', '104.18.22.110'],
  ['prod-files-secure.s3.us-west-2.amazonaws.com', '52.92.0.10'],
  ['brunch.co.kr', '211.249.220.24'],
  ['img1.daumcdn.net', '211.231.99.250'],
  ['reaction-demo.typedream.app', '76.76.21.21'],
  ['api.typedream.com', '76.76.21.21'],
  ['hostile.typedream.app', '76.76.21.21'],
  ['huge.typedream.app', '76.76.21.21'],
  ['slow.typedream.app', '76.76.21.21'],
  ['redirect.typedream.app', '76.76.21.21'],
  ['rebind.typedream.app', '76.76.21.21'],
  ['outside.typedream.app', '76.76.21.21'],
  ['big-image.typedream.app', '76.76.21.21'],
  ['long-mail.typedream.app', '76.76.21.21'],
  // names of allowed hosts that lead inside: the guard refuses them by address
  ['internal.typedream.app', '127.0.0.1'],
  ['private.typedream.app', '10.0.0.5'],
  ['metadata.typedream.app', '169.254.169.254'],
];

// ---------------------------------------------------------------------------------------------
// images: small PNGs made here (a solid colour), and one larger than the image limit

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

type Rgb = [number, number, number];

/** A PNG of one colour, or fading from `rgb` at the top to `to` at the bottom. */
export function png(width: number, height: number, rgb: Rgb, to?: Rgb): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rowOf = (colour: Rgb) => {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set(colour, 1 + x * 3);
    return row;
  };
  const solid = rowOf(rgb);
  const raw = Buffer.concat(
    Array.from({ length: height }, (_, y) => {
      if (!to) return solid;
      const f = height > 1 ? y / (height - 1) : 0;
      return rowOf(rgb.map((c, i) => Math.round(c + (to[i]! - c) * f)) as Rgb);
    }),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Notion: the records loadPageChunk and syncRecordValuesMain answer

const id = (n: number) => `5e0f0c1e-0000-4000-8000-${String(n).padStart(12, '0')}`;
type Title = Array<[string, Array<[string, string?]>?]>;

/** The workspace every fixture page is in. */
const SPACE_ID = '7f1c2d3e-0000-4000-8000-00000000space';

function block(n: number, type: string, properties: Record<string, unknown> = {}, extra = {}) {
  return {
    id: id(n),
    version: 1,
    type,
    properties,
    parent_id: NOTION_PAGE_ID,
    parent_table: 'block',
    alive: true,
    space_id: SPACE_ID,
    ...extra,
  };
}

const t = (...parts: Title): { title: Title } => ({ title: parts });

/** A public page's own record: its title and the ids of its top blocks, in order. */
const pageRecord = (id: string, title: string, content: string[]) => ({
  id,
  version: 1,
  type: 'page',
  properties: t([title]),
  content,
  parent_table: 'space',
  alive: true,
  space_id: SPACE_ID,
});

/** Block records of the fixture page; #13 is left out of the first chunk (fetched after). */
export function notionBlocks(): Record<string, { role: string; value: Record<string, unknown> }> {
  const blocks = [
    block(1, 'header', t(['This week at Reaction Blocks'])),
    block(
      2,
      'text',
      t(
        ['We shipped '],
        ['letters', [['b']]],
        [' and fixed '],
        ['the little things', [['i']]],
        [' you told us about. Read '],
        ['the release notes', [['a', 'https://example.com/notes']]],
        ['.'],
      ),
    ),
    block(3, 'sub_header', t(['What changed'])),
    block(4, 'bulleted_list', t(['Send a Notion page as a letter'])),
    block(5, 'bulleted_list', t(['Delivery and open counts', [['b']]])),
    block(6, 'numbered_list', t(['Verify a sender email'])),
    block(7, 'numbered_list', t(['Load the page, then send'])),
    block(8, 'quote', t(['Small letters, read by the right people.'])),
    block(9, 'callout', t(['Reply to this letter: it reaches the writer.']), {
      format: { page_icon: '💡' },
    }),
    block(
      10,
      'image',
      { source: [[NOTION_IMAGE_SOURCE]], caption: [['The new letter editor']] },
      { format: { display_source: NOTION_IMAGE_SOURCE, block_width: 600 } },
    ),
    block(11, 'divider'),
    block(12, 'code', { title: [['npm install && npm start']], language: [['Shell']] }),
    block(13, 'text', t(['Thanks for reading. See you next week!'])),
    block(14, 'to_do', { ...t(['Unsubscribe works from every letter']), checked: [['Yes']] }),
    // a relative link to another Notion page: the text stays, the link goes
    block(15, 'text', t(['More in '], ['our archive', [['a', '/archive-0123']]], ['.'])),
  ];
  const page = pageRecord(
    NOTION_PAGE_ID,
    'Weekly letter',
    blocks.map((b) => b.id),
  );
  const all = [page, ...blocks];
  return Object.fromEntries(all.map((b) => [b.id, { role: 'reader', value: b }]));
}

export const NOTION_LATE_BLOCK = id(13);

/**
 * A second public page, longer than a letter holds (rev-uncov3 D1): a table, a toggle and a
 * toggleable heading with their bodies, a synced block and a copy of it, an indented child, a
 * video, an embed, a sub-page and a database (no mail equivalent), a block Notion does not
 * answer for, then 600 paragraphs.
 */
export const NOTION_LONG_PAGE_ID = '5e0f0c1e-9d2a-4b7c-8e3f-1a2b3c4d5e70';
export const NOTION_LONG_PAGE_URL =
  'https://reaction-demo.notion.site/Long-letter-5e0f0c1e9d2a4b7c8e3f1a2b3c4d5e70';
/** The long page's paragraphs after its first parts ("Para 0" ... "Para 599"). */
export const NOTION_LONG_PARAGRAPHS = 600;

/**
 * A fixture page's blocks, numbered: `at(n, type, properties, extra)` is block n's record in the
 * page `pageId`, `kids(...ns)` gives it those blocks as children, `id(n)` is block n's id (the
 * page's own group of ids, `5e0f0c1e-0000-4000-<group>-<n>`).
 */
function numberedBlocks(pageId: string, group: string) {
  const id = (n: number) => `5e0f0c1e-0000-4000-${group}-${String(n).padStart(12, '0')}`;
  return {
    id,
    at: (n: number, type: string, props: Record<string, unknown> = {}, extra = {}) => ({
      ...block(0, type, props, { parent_id: pageId, ...extra }),
      id: id(n),
    }),
    kids: (...ns: number[]) => ({ content: ns.map(id) }),
  };
}

/** Block records of the long page, as loadPageChunk and syncRecordValuesMain answer them. */
function longPageBlocks() {
  const { id: longId, at, kids } = numberedBlocks(NOTION_LONG_PAGE_ID, '9000');
  const blocks = [
    at(1, 'header', t(['A long letter'])),
    at(
      2,
      'table',
      {},
      {
        ...kids(3, 4, 5),
        format: { table_block_column_order: ['c;N', 'p@ri'], table_block_column_header: true },
      },
    ),
    at(3, 'table_row', { 'c;N': [['Name']], 'p@ri': [['Price']] }),
    at(4, 'table_row', { 'c;N': [['Tea', [['b']]]], 'p@ri': [['3']] }),
    at(5, 'table_row', { 'c;N': [['<script>alert(1)</script>']], 'p@ri': [['4']] }),
    at(6, 'toggle', t(['Toggle summary']), kids(7)),
    at(7, 'text', t(['Inside the toggle'])),
    at(8, 'sub_header', t(['Toggle heading']), { ...kids(9), format: { toggleable: true } }),
    at(9, 'text', t(['Under toggle heading'])),
    at(10, 'transclusion_container', {}, kids(11)),
    at(11, 'text', t(['Synced text'])),
    at(
      12,
      'transclusion_reference',
      {},
      {
        format: {
          transclusion_reference_pointer: { id: longId(10), spaceId: 'space', table: 'block' },
        },
      },
    ),
    at(13, 'text', t(['Indented parent']), kids(14)),
    at(14, 'text', t(['Indented child'])),
    at(15, 'video', { source: [['https://www.youtube.com/watch?v=local']] }),
    at(16, 'embed', { source: [['https://example.com/embed']] }),
    at(17, 'page', t(['A sub-page']), kids(18)),
    at(18, 'text', t(['Inside the sub-page'])),
    at(19, 'collection_view', {}),
    ...Array.from({ length: NOTION_LONG_PARAGRAPHS }, (_, i) =>
      at(100 + i, 'text', t([`Para ${i}`])),
    ),
  ];
  // a block of another workspace's page, which Notion does not answer for, after #16
  const page = pageRecord(NOTION_LONG_PAGE_ID, 'Long letter', [
    ...[1, 2, 6, 8, 10, 12, 13, 15, 16].map(longId),
    longId(99),
    ...[17, 19].map(longId),
    ...Array.from({ length: NOTION_LONG_PARAGRAPHS }, (_, i) => longId(100 + i)),
  ]);
  return [page, ...blocks];
}

/**
 * A third public page, of nested lists (rev N2): bullets with bullets, a numbered list and a
 * to-do inside them, two levels deep, and a numbered list with a nested bullet, as Notion keeps
 * them (an item's children in its `content`).
 */
export const NOTION_LISTS_PAGE_ID = '5e0f0c1e-9d2a-4b7c-8e3f-1a2b3c4d5e71';
export const NOTION_LISTS_PAGE_URL =
  'https://reaction-demo.notion.site/Nested-lists-5e0f0c1e9d2a4b7c8e3f1a2b3c4d5e71';

/** Block records of the lists page. */
export function listsPageBlocks() {
  const { id: listsId, at, kids } = numberedBlocks(NOTION_LISTS_PAGE_ID, 'a000');
  const blocks = [
    at(1, 'bulleted_list', t(['Fruit']), kids(2, 3, 5)),
    at(2, 'bulleted_list', t(['Apples'])),
    at(3, 'bulleted_list', t(['Pears']), kids(4)),
    at(4, 'bulleted_list', t(['Conference'])),
    at(5, 'numbered_list', t(['Peel first'])),
    at(6, 'bulleted_list', t(['Vegetables']), kids(7)),
    at(7, 'to_do', { ...t(['Buy leeks']), checked: [['Yes']] }),
    at(8, 'text', t(['Steps:'])),
    at(9, 'numbered_list', t(['Wash']), kids(10)),
    at(10, 'bulleted_list', t(['in cold water'])),
    at(11, 'numbered_list', t(['Cut'])),
  ];
  const page = pageRecord(NOTION_LISTS_PAGE_ID, 'Nested lists', [1, 6, 8, 9, 11].map(listsId));
  return [page, ...blocks];
}

/**
 * A fourth public page, of list items with more text than one part of a letter holds: a bullet
 * of 250 runs (bold and plain in turn) with a paragraph of 60 runs and a short one under it, the
 * next bullet, a to-do of 300 runs, and a paragraph with one run of 6,000 characters.
 */
export const NOTION_LONG_ITEMS_PAGE_ID = '5e0f0c1e-9d2a-4b7c-8e3f-1a2b3c4d5e72';
export const NOTION_LONG_ITEMS_PAGE_URL =
  'https://reaction-demo.notion.site/Long-items-5e0f0c1e9d2a4b7c8e3f1a2b3c4d5e72';

/** `count` runs named `${name}0 ` ..., every other one bold. */
const notionRuns = (name: string, count: number): Title =>
  Array.from({ length: count }, (_, i) => (i % 2 ? [`${name}${i} `, [['b']]] : [`${name}${i} `]));

/** Block records of the long items page. */
function longItemsPageBlocks() {
  const { id: itemId, at, kids } = numberedBlocks(NOTION_LONG_ITEMS_PAGE_ID, 'b000');
  const blocks = [
    at(1, 'bulleted_list', t(...notionRuns('item', 250)), kids(2, 3)),
    at(2, 'text', t(...notionRuns('under', 60))),
    at(3, 'text', t(['Short note'])),
    at(4, 'bulleted_list', t(['Next item'])),
    at(5, 'to_do', { ...t(...notionRuns('todo', 300)), checked: [['No']] }),
    at(6, 'text', t([`${'x'.repeat(5999)}!`])),
  ];
  const page = pageRecord(NOTION_LONG_ITEMS_PAGE_ID, 'Long items', [1, 4, 5, 6].map(itemId));
  return [page, ...blocks];
}

/**
 * A fifth public page, within a letter's 400 parts but longer than one email holds: 70
 * paragraphs of one 5,000-character run each (350,000 characters of text; the mail's text part
 * holds 300,000).
 */
export const NOTION_LONG_MAIL_PAGE_ID = '5e0f0c1e-9d2a-4b7c-8e3f-1a2b3c4d5e73';
export const NOTION_LONG_MAIL_PAGE_URL =
  'https://reaction-demo.notion.site/Long-mail-5e0f0c1e9d2a4b7c8e3f1a2b3c4d5e73';
export const NOTION_LONG_MAIL_PARAGRAPHS = 70;

/** Block records of the long mail page. */
function longMailPageBlocks() {
  const { id: paragraphId, at } = numberedBlocks(NOTION_LONG_MAIL_PAGE_ID, 'c000');
  const numbers = Array.from({ length: NOTION_LONG_MAIL_PARAGRAPHS }, (_, i) => i + 1);
  const blocks = numbers.map((n) => at(n, 'text', t([`${n} ${'m'.repeat(4990)}`.slice(0, 5000)])));
  return [pageRecord(NOTION_LONG_MAIL_PAGE_ID, 'Long mail', numbers.map(paragraphId)), ...blocks];
}

/** Every block record the fake's page-chunk API knows: the five pages'. */
export function allNotionBlocks(): Record<
  string,
  { role: string; value: Record<string, unknown> }
> {
  return {
    ...notionBlocks(),
    ...Object.fromEntries(
      [
        ...longPageBlocks(),
        ...listsPageBlocks(),
        ...longItemsPageBlocks(),
        ...longMailPageBlocks(),
      ].map((b) => [b.id, { role: 'reader', value: b }]),
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Brunch and Typedream (server-rendered HTML)

export const BRUNCH_PROFILE_HTML = `<!doctype html><html lang="ko"><head><meta charset="utf-8">
<title>레터 작가의 브런치스토리</title>
<meta name="description" content="매주 편지를 씁니다. 연락: ${BRUNCH_WRITER_EMAIL}">
</head><body><div class="wrap_profile"><strong class="tit_blogger">레터 작가</strong>
<p class="profile_desc">매주 편지를 씁니다. 연락: ${BRUNCH_WRITER_EMAIL}</p></div></body></html>`;

export const BRUNCH_ARTICLE_HTML = `<!doctype html><html lang="ko"><head><meta charset="utf-8">
<title>봄의 편지</title><meta property="og:title" content="봄의 편지">
<script>window.__brunch = { track: true };</script>
<style>.wrap_body { color: red }</style></head>
<body><div class="wrap_cover"><h1 class="cover_title">봄의 편지</h1><span class="cover_writer">레터 작가</span></div>
<div class="wrap_body text_align_left">
<h4>첫 번째 이야기</h4>
<p>봄이 왔습니다. <b>창문을 열어</b> 보세요. <i>바람</i>이 다릅니다.</p>
<p>지난 글은 <a href="/@letterwriter/11">여기</a>에서, 원문은 <a href="https://brunch.co.kr/@letterwriter/12">브런치</a>에서 읽을 수 있습니다.</p>
<div class="wrap_item item_type_img"><img src="//img1.daumcdn.net/thumb/R1280x0/?fname=http%3A%2F%2Ft1.daumcdn.net%2Fbrunch%2Fspring.png" alt="봄 사진" onerror="alert(1)"></div>
<blockquote>좋은 편지는 짧습니다.</blockquote>
<p onclick="steal()">끝까지 읽어 주셔서 고맙습니다.</p>
<script>steal()</script>
</div>
<div class="wrap_comment"><form action="/comment"><textarea></textarea></form></div>
</body></html>`;

export const TYPEDREAM_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Product notes — Reaction demo</title><meta property="og:title" content="Product notes">
<script src="/_next/static/chunks/main.js"></script></head>
<body><div id="__next"><nav><a href="/">Home</a><a href="/about">About</a></nav>
<main><h1>Product notes</h1>
<p>Typedream pages are rendered on the server, so the letter reads <strong>the same HTML</strong> visitors get.</p>
<h2>In this issue</h2>
<ul><li>Faster pages</li><li>A <a href="https://reaction-demo.typedream.app/changelog">changelog</a></li></ul>
<figure><img src="https://api.typedream.com/v0/document/public/notes-cover.png" alt="Cover"><figcaption>This month's cover</figcaption></figure>
<hr>
<p>External images stay where they are: <img src="https://images.example.org/outside.png" alt="outside"></p>
</main><footer>Made with Typedream</footer></div></body></html>`;

/** A Typedream page with a table, a toggle (<details>), an embedded frame and a video. */
export const TYPEDREAM_TABLES_URL = 'https://reaction-demo.typedream.app/prices';
export const TYPEDREAM_TABLES_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Price list</title></head><body><main><h1>Price list</h1>
<table><thead><tr><th>Name</th><th>Price</th></tr></thead>
<tbody><tr><td><strong>Tea</strong></td><td>3</td></tr><tr><td>Coffee &lt;b&gt;</td><td>4</td></tr></tbody></table>
<details><summary>Opening hours</summary><p>Every day but Monday.</p></details>
<iframe src="https://www.youtube.com/embed/local"></iframe>
<video src="https://example.com/clip.mp4"></video>
</main></body></html>`;

/** Everything a page should never bring into a letter. */
export const HOSTILE_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>Hostile</title>
<meta http-equiv="refresh" content="0;url=javascript:alert(1)">
<base href="javascript:alert(1)//">
<style>body { background: url(javascript:alert(1)) }</style>
<script>alert('head')</script></head>
<body onload="alert('body')"><main>
<h1 onclick="alert(1)">Hostile page</h1>
<p>Plain text survives. <a href="javascript:alert(1)">js link</a> <a href=" JaVaScRiPt:alert(1)">spaced</a>
<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data link</a> <a href="vbscript:msgbox(1)">vb</a>
<a href="https://example.com/ok" onmouseover="alert(1)" style="background:url(javascript:alert(1))">safe link</a></p>
<script>document.cookie</script>
<iframe src="https://evil.example/"></iframe><iframe srcdoc="<script>alert(1)</script>"></iframe>
<object data="evil.swf"></object><embed src="evil.swf">
<svg onload="alert(1)"><script>alert(1)</script></svg>
<math><mtext><script>alert(1)</script></mtext></math>
<img src="x" onerror="alert(1)"><img src="javascript:alert(1)"><img src="data:image/png;base64,iVBORw0KGgo=">
<form action="https://evil.example/"><input name="q" value="x"><button formaction="javascript:alert(1)">go</button></form>
<p style="color:red;background-image:url('https://evil.example/t.png');behavior:url(x.htc)">styled</p>
<template><script>alert(1)</script></template>
<noscript><img src=x onerror=alert(1)></noscript>
<p><!--<img src=x onerror=alert(1)>-->after a comment</p>
<p>&lt;script&gt;alert('escaped')&lt;/script&gt;</p>
</main></body></html>`;

/**
 * A Typedream page longer than one email: 70 paragraphs of 5,000 characters (the mail's text part
 * holds 300,000), one of the page's own images after every tenth (LONG_MAIL_IMAGE: the fake
 * answers a PNG for any number and counts the requests).
 */
export const TYPEDREAM_LONG_MAIL_URL = 'https://long-mail.typedream.app/';
export const LONG_MAIL_IMAGE = 'api.typedream.com/v0/document/public/long-mail-';
export const TYPEDREAM_LONG_MAIL_HTML = `<!doctype html><html><head><title>Long mail</title></head><body><main>${Array.from(
  { length: 70 },
  (_, i) =>
    `<p>${i + 1} ${'m'.repeat(4990)}</p>` +
    (i % 10 === 9 ? `<img src="https://${LONG_MAIL_IMAGE}${i + 1}.png" alt="">` : ''),
).join('\n')}</main></body></html>`;

/** A page with an image over the image size limit. */
export const BIG_IMAGE_HTML = `<!doctype html><html><head><title>Big image</title></head><body><main>
<p>A page whose image is too large to copy.</p>
<img src="https://api.typedream.com/v0/document/public/huge.png" alt="huge">
</main></body></html>`;
