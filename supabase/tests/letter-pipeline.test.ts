// The letter pipeline as units (no network): the SSRF guard with a resolver and fetch of our
// own, address classification, the letter sanitiser on the XSS payload table, the sources on the
// providers server's fixture pages, the renderer (inline styles, 600 px, links, images, text
// part); the send box's address rules are send-box.test.ts. letters.test.ts and letter-sends.test.ts run the
// same code through the stack.
import { describe, expect, it } from 'vitest';
import {
  FetchRefused,
  guardedFetch,
  hostRule,
  type GuardDeps,
  type GuardPolicy,
} from '../functions/_shared/letter/fetch-guard.ts';
import { isPublicAddress } from '../functions/_shared/special-addresses.ts';
import {
  brunchProfileText,
  brunchToBlocks,
  typedreamToBlocks,
} from '../functions/_shared/letter/html-source.ts';
import { loadLetter, type LoadDeps } from '../functions/_shared/letter/load.ts';
import { clip, codePieces, pieces } from '../functions/_shared/letter/model.ts';
import { notionToBlocks, type NotionRecordMap } from '../functions/_shared/letter/notion.ts';
import {
  letterDocument,
  letterFitter,
  letterFooter,
  renderLetter,
} from '../functions/_shared/letter/render.ts';
import { cleanStyle, sanitizeLetterHtml } from '../functions/_shared/letter/sanitize-letter.ts';
import {
  checkPageUrl,
  LETTER_LIMITS,
  listTree,
  normalizeBrunchProfile,
  ZLetterModel,
  type TLetterModel,
  type TListTree,
  type TSpan,
} from '@reaction-blocks/contracts/letters';
import {
  BRUNCH_ARTICLE_HTML,
  BRUNCH_PROFILE_HTML,
  BRUNCH_WRITER_EMAIL,
  allNotionBlocks,
  HOSTILE_HTML,
  NOTION_LISTS_PAGE_ID,
  NOTION_PAGE_ID,
  notionBlocks,
  png,
  TYPEDREAM_HTML,
} from '../local/providers/pages/fixtures.ts';
import { XSS_PAYLOADS } from './support/xss-payloads.ts';

const policy = (over: Partial<GuardPolicy> = {}): GuardPolicy => ({
  allowHost: hostRule(['.typedream.app', 'brunch.co.kr']),
  maxBytes: 1000,
  timeoutMs: 500,
  maxRedirects: 2,
  accept: (t) => t === 'text/html',
  ...over,
});

/** A resolver and a fetch of our own: a table of hosts and answers. */
function deps(
  answers: Record<string, () => Response | Promise<Response>>,
  dns: Record<string, string[]> = {},
): GuardDeps & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    resolve: async (host) => dns[host] ?? ['76.76.21.21'],
    fetch: (async (input: string | URL | Request) => {
      const url = String(input);
      seen.push(url);
      const answer = answers[url];
      if (!answer) return new Response('not found', { status: 404 });
      return answer();
    }) as typeof fetch,
  };
}

const page =
  (body: string, headers: Record<string, string> = {}) =>
  () =>
    new Response(body, {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
    });
const moved = (location: string) => () =>
  new Response(null, { status: 302, headers: { location } });

/** A Typedream page's address, and the address of its own images (copied: a mode's host). */
const PAGE = 'https://reaction-demo.typedream.app/';
const OWN = 'https://api.typedream.com/v0/document/public';

/** Load deps that answer `page` for PAGE and a small PNG for any of OWN's images. */
function pageDeps(html: string, longer = '') {
  const stored: string[] = [];
  const guard = deps({});
  const answer = guard.fetch;
  guard.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    if (url === PAGE) return page(html)();
    if (url.startsWith(`${OWN}/`)) {
      guard.seen.push(url);
      return new Response(new Uint8Array(png(4, 4, [1, 2, 3])), {
        headers: { 'content-type': 'image/png' },
      });
    }
    return answer(input, init);
  }) as typeof fetch;
  const loadDeps: LoadDeps & { guard: typeof guard } = {
    guard,
    notionApiBaseUrl: 'https://notion.invalid/api/v3',
    async storeImage(_bytes, _type, name) {
      stored.push(name);
      return `https://storage.example/${longer}${stored.length}/${name}`;
    },
  };
  return { deps: loadDeps, stored };
}

/** The image fetches a pageDeps made. */
const imageFetches = (d: { guard: { seen: string[] } }) =>
  d.guard.seen.filter((u) => u.startsWith(`${OWN}/`));

describe('the SSRF guard', () => {
  it('fetches an allowed https page', async () => {
    const d = deps({ 'https://a.typedream.app/': page('<p>hi</p>') });
    const got = await guardedFetch('https://a.typedream.app/', policy(), d);
    expect(new TextDecoder().decode(got.body)).toBe('<p>hi</p>');
  });

  it.each([
    ['http://a.typedream.app/', 'scheme'],
    ['ftp://a.typedream.app/', 'scheme'],
    ['https://a.typedream.app:8443/', 'port'],
    ['https://user:pw@a.typedream.app/', 'host'],
    ['https://example.com/', 'host'],
    ['https://typedream.app.evil.com/', 'host'],
    ['https://evil-typedream.app/', 'host'],
    ['https://127.0.0.1/', 'host'],
    ['https://[::1]/', 'host'],
    ['https://2130706433/', 'host'],
    ['not a url', 'scheme'],
  ])('refuses %s (%s) before any request', async (url, reason) => {
    const d = deps({});
    await expect(guardedFetch(url, policy(), d)).rejects.toMatchObject({ reason });
    expect(d.seen).toEqual([]);
  });

  it.each([
    ['127.0.0.1'],
    ['10.1.2.3'],
    ['172.16.0.1'],
    ['192.168.1.1'],
    ['169.254.169.254'],
    ['100.64.0.1'],
    ['0.0.0.0'],
    ['::1'],
    ['fd00::1'],
    ['fe80::1'],
    ['::ffff:127.0.0.1'],
    ['::ffff:10.0.0.1'],
  ])('refuses a host that resolves to %s', async (ip) => {
    const d = deps(
      { 'https://a.typedream.app/': page('x') },
      { 'a.typedream.app': ['76.76.21.21', ip] },
    );
    await expect(guardedFetch('https://a.typedream.app/', policy(), d)).rejects.toMatchObject({
      reason: 'address',
    });
    expect(d.seen).toEqual([]);
  });

  it('classifies addresses', () => {
    for (const ip of ['8.8.8.8', '76.76.21.21', '2606:4700::6810:84e5', '::ffff:8.8.8.8'])
      expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of [
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '255.255.255.255',
      '2001:db8::1',
      'ff02::1',
      '64:ff9b::a00:1',
      'nonsense',
    ])
      expect(isPublicAddress(ip), ip).toBe(false);
  });

  it('refuses a host without an address', async () => {
    const d = deps({}, { 'a.typedream.app': [] });
    await expect(guardedFetch('https://a.typedream.app/', policy(), d)).rejects.toMatchObject({
      reason: 'dns',
    });
  });

  it('follows a redirect only to a URL that passes the same checks', async () => {
    const ok = deps({
      'https://a.typedream.app/': moved('/next'),
      'https://a.typedream.app/next': page('done'),
    });
    expect((await guardedFetch('https://a.typedream.app/', policy(), ok)).url).toBe(
      'https://a.typedream.app/next',
    );
    for (const location of [
      'https://127.0.0.1/',
      'http://a.typedream.app/',
      'https://example.com/',
      'https://inside.typedream.app/',
    ]) {
      const d = deps(
        { 'https://a.typedream.app/': moved(location) },
        { 'inside.typedream.app': ['10.0.0.1'] },
      );
      await expect(
        guardedFetch('https://a.typedream.app/', policy(), d),
        location,
      ).rejects.toMatchObject({
        reason: 'redirect',
      });
      expect(d.seen).toEqual(['https://a.typedream.app/']);
    }
    const loop = deps({ 'https://a.typedream.app/': moved('/') });
    await expect(guardedFetch('https://a.typedream.app/', policy(), loop)).rejects.toMatchObject({
      reason: 'redirect',
    });
    expect(loop.seen).toHaveLength(3);
  });

  it('stops reading past the size limit, declared or not', async () => {
    const declared = deps({
      'https://a.typedream.app/': page('x'.repeat(10), { 'content-length': '5000' }),
    });
    await expect(
      guardedFetch('https://a.typedream.app/', policy(), declared),
    ).rejects.toMatchObject({ reason: 'size' });
    const streamed = deps({
      'https://a.typedream.app/': () =>
        new Response(
          new ReadableStream({
            pull(c) {
              c.enqueue(new Uint8Array(400));
            },
          }),
          { headers: { 'content-type': 'text/html' } },
        ),
    });
    await expect(
      guardedFetch('https://a.typedream.app/', policy(), streamed),
    ).rejects.toMatchObject({ reason: 'size' });
  });

  it('gives up after the time limit', async () => {
    const d = deps({});
    d.fetch = ((_: string, init?: RequestInit) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
      })) as typeof fetch;
    await expect(
      guardedFetch('https://a.typedream.app/', policy({ timeoutMs: 50 }), d),
    ).rejects.toMatchObject({
      reason: 'timeout',
    });
  });

  it('refuses other content types and other statuses', async () => {
    const json = deps({
      'https://a.typedream.app/': () =>
        new Response('{}', { headers: { 'content-type': 'application/json' } }),
    });
    await expect(guardedFetch('https://a.typedream.app/', policy(), json)).rejects.toMatchObject({
      reason: 'type',
    });
    const gone = deps({});
    await expect(guardedFetch('https://a.typedream.app/', policy(), gone)).rejects.toBeInstanceOf(
      FetchRefused,
    );
  });

  it('sends the checked request to the origin override', async () => {
    const d = deps({ 'http://127.0.0.1:9/pages/a.typedream.app/x?y=1': page('ok') });
    d.originOverride = 'http://127.0.0.1:9/pages';
    const got = await guardedFetch('https://a.typedream.app/x?y=1', policy(), d);
    expect(got.url).toBe('https://a.typedream.app/x?y=1');
  });
});

describe('the letter sanitiser', () => {
  it.each(XSS_PAYLOADS)('%s: nothing that runs survives', (_name, input) => {
    const out = sanitizeLetterHtml(input);
    expect(out).not.toMatch(
      /<(script|iframe|object|embed|svg|math|form|input|button|style|template|base|meta)\b/i,
    );
    expect(out).not.toMatch(/\son[a-z]+=/i);
    expect(out).not.toMatch(/(javascript|vbscript|data):/i);
    expect(sanitizeLetterHtml(out)).toBe(out);
  });

  it('keeps a mail layout with its inline styles', () => {
    const html =
      '<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width: 100%; max-width: 600px"><tbody><tr><td style="padding: 0 32px; color: #1f1f1f"><h1 style="font-size: 22px">T</h1><p style="margin: 0">a <a href="https://example.com/" target="_blank" rel="noopener noreferrer">b</a></p><img src="https://cdn.example/a.png" alt="" width="536"></td></tr></tbody></table>';
    expect(sanitizeLetterHtml(html)).toBe(html);
  });

  it('allows http images only from the listed origins', () => {
    expect(
      sanitizeLetterHtml('<img src="http://127.0.0.1:54321/storage/v1/object/public/x.png">'),
    ).toBe('');
    expect(
      sanitizeLetterHtml('<img src="http://127.0.0.1:54321/storage/v1/object/public/x.png">', {
        imageOrigins: ['http://127.0.0.1:54321'],
      }),
    ).toBe('<img src="http://127.0.0.1:54321/storage/v1/object/public/x.png">');
  });

  it('filters style declarations', () => {
    expect(
      cleanStyle('color: red; background: url(https://t.example/x); position: fixed; width: 10px'),
    ).toBe('color: red; width: 10px');
    expect(cleanStyle('font-family: "a;b", sans-serif; margin: expression(alert(1))')).toBe(
      'font-family: "a;b", sans-serif',
    );
    expect(cleanStyle('color: red /* */; color: \\72 ed; display: -webkit-box')).toBe('');
  });
});

describe('sources on the fixture pages', () => {
  it('Notion records', () => {
    const { title, blocks } = notionToBlocks({ block: notionBlocks() }, NOTION_PAGE_ID);
    expect(title).toBe('Weekly letter');
    expect(blocks.map((b) => b.type)).toContain('callout');
    expect(
      ZLetterModel.safeParse({ version: 1, source: null, blocks, cta: null, imageButton: null })
        .success,
    ).toBe(true);
  });

  it('Notion nested lists: a child list inside its item’s <li>, the list not split (rev N2)', () => {
    const { blocks } = notionToBlocks({ block: allNotionBlocks() }, NOTION_LISTS_PAGE_ID);
    const letter = { version: 1 as const, source: null, blocks, cta: null, imageButton: null };
    expect(ZLetterModel.safeParse(letter).success).toBe(true);
    // before: Fruit's children were items of its own list (flattened), and the numbered child
    // split it into three lists
    expect(blocks.map((b) => b.type)).toEqual(['list', 'paragraph', 'list']);
    const { html, text } = renderLetter('', letter);
    const bare = html.replace(/ style="[^"]*"/g, '');
    expect(bare).toContain(
      '<ul><li>Fruit<ul><li>Apples</li><li>Pears<ul><li>Conference</li></ul></li></ul>' +
        '<ol><li>Peel first</li></ol></li><li>Vegetables<ul><li>☑ Buy leeks</li></ul></li></ul>',
    );
    expect(bare).toContain('<ol><li>Wash<ul><li>in cold water</li></ul></li><li>Cut</li></ol>');
    // the text part indents the nested items under theirs
    expect(text).toMatch(/\* Fruit\n +\* Apples/);
  });

  it('neighbouring spans of one link are one link: the text part names its address once (BRK-9)', () => {
    const href = 'https://example.com/x';
    const letter = {
      version: 1 as const,
      source: null,
      cta: null,
      imageButton: null,
      blocks: [
        {
          id: 'p',
          type: 'paragraph' as const,
          spans: [
            { text: 'L'.repeat(LETTER_LIMITS.spanText), href },
            { text: 'LLL', href, marks: ['b' as const] },
            { text: ' and ' },
            { text: 'another', href: 'https://example.com/y' },
          ],
        },
      ],
    };
    const { html, text } = renderLetter('', letter);
    // before: `[https://example.com/x]` after each of the two spans, two <a> in the HTML
    expect(text.split(href)).toHaveLength(2);
    expect(html.match(/<a [^>]*href="https:\/\/example\.com\/x"/g)).toHaveLength(1);
    expect(html).toMatch(/<strong>LLL<\/strong><\/a> and <a [^>]*href="https:\/\/example\.com\/y"/);
  });

  it('a Notion heading, quote or callout of more runs than a part holds keeps all of them (BRK-4)', () => {
    const runs: string[][] = Array.from({ length: 400 }, (_, i) =>
      i % 2 ? ([`b${i}`, [['b']]] as unknown as string[]) : [`p${i} `],
    );
    const block = (id: string, type: string, content?: string[]) => ({
      value: { id, type, properties: { title: type === 'page' ? [['Runs']] : runs }, content },
    });
    const record = {
      p: block('p', 'page', ['h', 'q', 'c']),
      h: block('h', 'header'),
      q: block('q', 'quote'),
      c: block('c', 'callout'),
    };
    const { blocks } = notionToBlocks({ block: record }, 'p');
    const letter = { version: 1 as const, source: null, blocks, cta: null, imageButton: null };
    expect(ZLetterModel.safeParse(letter).success).toBe(true);
    // before: each kept its first 300 runs, the rest dropped unsaid
    expect(blocks.map((b) => b.type)).toEqual([
      'heading',
      'heading',
      'quote',
      'quote',
      'callout',
      'callout',
    ]);
    const all = runs.map((r) => r[0]).join('');
    for (const at of [0, 2, 4]) {
      const [one, two] = [blocks[at], blocks[at + 1]] as unknown as Array<{
        spans: Array<{ text: string }>;
      }>;
      expect([...one!.spans, ...two!.spans].map((s) => s.text).join('')).toBe(all);
    }
  });

  it('a long text is cut between characters, never inside one: an emoji across a cut stays whole (BRK-1)', () => {
    // a run one unit longer than a span holds, an emoji (two UTF-16 units) across the cut; the
    // same emoji across the image caption's 500 and the code block's limit
    const run = 'a'.repeat(LETTER_LIMITS.spanText - 1) + '😀' + 'b';
    const block = (id: string, type: string, title: string, content?: string[]) => ({
      value: {
        id,
        type,
        properties: { title: [[title]], caption: [['c'.repeat(499) + '😀']] },
        content,
      },
    });
    const record = {
      p: block('p', 'page', 'Long', ['text', 'code', 'pic']),
      text: block('text', 'text', run),
      code: block('code', 'code', 'x'.repeat(LETTER_LIMITS.code - 1) + '😀'),
      pic: {
        value: {
          ...block('pic', 'image', '').value,
          format: { display_source: 'https://images.example/p.png' },
        },
      },
    };
    const { blocks } = notionToBlocks({ block: record }, 'p');
    const letter = { version: 1 as const, source: null, blocks, cta: null, imageButton: null };
    // before: the first span ended in a lone high surrogate, which jsonb refuses (save 400)
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const strings: string[] = [];
    JSON.stringify(letter, (_key, value: unknown) => {
      if (typeof value === 'string') strings.push(value);
      return value;
    });
    expect(strings.filter((s) => loneSurrogate.test(s)).map((s) => s.slice(-8))).toEqual([]);
    const paragraph = blocks.find((b) => b.type === 'paragraph') as { spans: { text: string }[] };
    expect(paragraph.spans.map((s) => s.text).join('')).toBe(run);
    expect(paragraph.spans[0]!.text).toHaveLength(LETTER_LIMITS.spanText - 1);
    expect(ZLetterModel.safeParse(letter).success).toBe(true);
    expect(clip('ab😀', 3)).toBe('ab');
    expect(clip('ab😀', 4)).toBe('ab😀');
    expect(pieces('😀😀😀', 3)).toEqual(['😀', '😀', '😀']);
  });

  it('Notion: a note or an image under a bullet does not split the list or lift its sub-bullets (B5)', () => {
    const block = (id: string, type: string, title?: string, content?: string[], more = {}) => ({
      value: { id, type, ...(title ? { properties: { title: [[title]] } } : {}), content, ...more },
    });
    const image = { format: { display_source: 'https://images.example/leek.png' } };
    const record = {
      p: block('p', 'page', 'Shop', ['fruit', 'veg', 'after']),
      fruit: block('fruit', 'bulleted_list', 'Fruit', ['note', 'apples', 'pic', 'pears']),
      note: block('note', 'text', 'a note under Fruit'),
      apples: block('apples', 'bulleted_list', 'Apples'),
      pic: block('pic', 'image', undefined, undefined, image),
      pears: block('pears', 'bulleted_list', 'Pears'),
      veg: block('veg', 'bulleted_list', 'Veg'),
      after: block('after', 'text', 'The end'),
    };
    const { blocks } = notionToBlocks({ block: record }, 'p');
    const letter = { version: 1 as const, source: null, blocks, cta: null, imageButton: null };
    expect(ZLetterModel.safeParse(letter).success).toBe(true);
    // before: list[Fruit], paragraph, list[Apples], image, list[Pears, Veg] (Apples, Pears and Veg
    // top-level items); now one list, the note in Fruit's item, the image after the list
    expect(blocks.map((b) => b.type)).toEqual(['list', 'image', 'paragraph']);
    const bare = renderLetter('', letter).html.replace(/ style="[^"]*"/g, '');
    expect(bare).toContain(
      '<ul><li>Fruit<br>a note under Fruit<ul><li>Apples</li><li>Pears</li></ul></li><li>Veg</li></ul>',
    );
  });

  /** A Notion record of a block with a title (and children). */
  const titled = (id: string, type: string, title: unknown, content?: string[]) => ({
    value: { id, type, properties: { title }, content },
  });
  /** 400 runs of changing look (`one0 `, `one1 ` bold, ...): an item holds 300 spans. */
  const longRuns = Array.from({ length: 400 }, (_, i) => [`one${i} `, i % 2 ? [['b']] : []]);
  /** The page `p` of the records as a letter's blocks, and the letter, which must parse. */
  const notionLetter = (record: NotionRecordMap['block']) => {
    const { blocks } = notionToBlocks({ block: record }, 'p');
    const letter = { version: 1 as const, source: null, blocks, cta: null, imageButton: null };
    expect(ZLetterModel.safeParse(letter).success).toBe(true);
    return { blocks, letter };
  };

  it('Notion: the rest of a long item follows the item, and its list goes on after it, numbered on (BRK-6)', () => {
    const [block, runs] = [titled, longRuns];
    const record = {
      p: block('p', 'page', [['Steps']], ['one', 'two', 'three', 'dot', 'after']),
      one: block('one', 'numbered_list', runs),
      two: block('two', 'numbered_list', [['two']], ['note']),
      // a paragraph its item has no room for is the item's tail too
      note: block('note', 'text', runs.slice(0, 299)),
      three: block('three', 'numbered_list', [['three']]),
      dot: block('dot', 'bulleted_list', [['dot']]),
      after: block('after', 'text', [['after']]),
    };
    const { blocks, letter } = notionLetter(record);
    // before: list[one (300 runs), two, three], list[dot], paragraph(one300..), paragraph(note),
    // paragraph(after): the mail's 1. stopped mid-sentence and went on after 3. three
    const first = (spans: TSpan[]) => spans[0]!.text;
    expect(
      blocks.map((b) =>
        b.type === 'list'
          ? [b.start ?? 1, ...b.items.map((i) => first(Array.isArray(i) ? i : i.spans))]
          : b.type === 'paragraph'
            ? first(b.spans)
            : b.type,
      ),
    ).toEqual([[1, 'one0 '], 'one300 ', [2, 'two'], 'one0 ', [3, 'three'], [1, 'dot'], 'after']);
    const { html, text } = renderLetter('', letter);
    const rows = html.replace(/ style="[^"]*"/g, '').replace(/<\/td><\/tr><tr><td>/g, '');
    expect(rows).toMatch(
      /one399 <\/strong><\/p><ol start="2"><li>two<\/li><\/ol><p>one0 .*<ol start="3"><li>three<\/li><\/ol><ul><li>dot/,
    );
    // the text part numbers on
    expect(text).toMatch(/one399\s+2\. two\s+one0 [^]*one298\s+3\. three\s+\* dot\s+after$/);
    expect(sanitizeLetterHtml(html)).toBe(html);
  });

  it("Notion: a long item's child items, read after its tail, stay nested at their depth", () => {
    const [block, runs] = [titled, longRuns];
    const record = {
      p: block('p', 'page', [['Steps']], ['one', 'two']),
      one: block('one', 'numbered_list', runs, ['a', 'b']),
      a: block('a', 'bulleted_list', [['a']], ['a1']),
      a1: block('a1', 'numbered_list', [['a1']]),
      b: block('b', 'bulleted_list', [['b']]),
      two: block('two', 'numbered_list', [['two']]),
    };
    const { blocks, letter } = notionLetter(record);
    expect(blocks.map((b) => b.type)).toEqual(['list', 'paragraph', 'list', 'list']);
    // before: the children's list was a list of the page (a and b drawn where 1. and 2. are)
    const children = blocks[2]!.type === 'list' ? listTree(blocks[2]!) : null;
    const texts = (tree: TListTree | undefined): unknown[] =>
      (tree?.items ?? []).map((i) => [i.spans[0]!.text, ...i.lists.map(texts)]);
    expect(children).toMatchObject({ ordered: false, indent: 1 });
    expect(texts(children!)).toEqual([['a', [['a1']]], ['b']]);
    const { html } = renderLetter('', letter);
    const rows = html.replace(/ style="[^"]*"/g, '').replace(/<\/td><\/tr><tr><td>/g, '');
    expect(rows).toContain(
      'one399 </strong></p><ul><li>a<ol><li>a1</li></ol></li><li>b</li></ul><ol start="2"><li>two',
    );
    // the mail draws it as far in as a sublist of the item (24 px more than a list of the page)
    expect(html).toMatch(/<ul style="[^"]*padding-left: ?48px[^"]*"><li/);
    expect(sanitizeLetterHtml(html)).toBe(html);
  });

  it('a code block longer than one holds goes on in more, cut at line ends; a caption or table cut at its limit is said', () => {
    // 45,000 characters of 30-character lines, the first line a long one with an emoji across
    // the limit, in Notion runs of changing look (more runs than a part holds)
    const long = `${'a'.repeat(LETTER_LIMITS.code - 1)}😀${'b'.repeat(10)}`;
    const lines = Array.from(
      { length: 1500 },
      (_, i) => `line ${String(i).padStart(4, '0')} ${'c'.repeat(19)}`,
    );
    const source = [long, ...lines].join('\n');
    const runs = source.match(/[^]{1,100}/g)!.map((text, i) => [text, i % 2 ? [['b']] : []]);
    expect(runs.length).toBeGreaterThan(LETTER_LIMITS.spansPerBlock);
    const cell = (n: number) =>
      Array.from({ length: n }, (_, i) => [`w${i} `, i % 2 ? [['i']] : []]);
    const block = (id: string, type: string, more: object) => ({ value: { id, type, ...more } });
    const record = {
      p: block('p', 'page', { properties: { title: [['Code']] }, content: ['code', 'img', 'tbl'] }),
      code: block('code', 'code', { properties: { title: runs, language: [['TypeScript']] } }),
      img: block('img', 'image', {
        properties: { caption: cell(400) },
        format: { display_source: 'https://images.example/a.png' },
      }),
      tbl: block('tbl', 'table', { content: ['r1'], format: { table_block_column_order: ['a'] } }),
      r1: block('r1', 'table_row', { properties: { a: cell(301) } }),
    };
    const { blocks, leftOut } = notionToBlocks({ block: record }, 'p');
    const code = blocks.flatMap((b) => (b.type === 'code' ? [b] : []));
    // before: one code block of the first 300 runs' text, cut at 20,000 characters
    // the long line goes on in the next block as it is; every other cut is a line end
    const rejoined = (texts: string[]) => texts[0]! + texts.slice(1).join('\n');
    expect(rejoined(code.map((b) => b.text))).toBe(source);
    expect(
      code.every((b) => b.text.length <= LETTER_LIMITS.code && b.language === 'TypeScript'),
    ).toBe(true);
    // the long line is cut before the emoji, the rest at line ends
    expect(code[0]!.text).toBe('a'.repeat(LETTER_LIMITS.code - 1));
    expect(code.slice(2).every((b) => b.text.startsWith('line '))).toBe(true);
    expect(codePieces('x\n'.repeat(5), 4)).toEqual(['x\nx', 'x\nx', 'x\n']);
    // the caption and the cell keep their first 300 spans, and the workspace is told (before,
    // nothing was said)
    expect(leftOut).toEqual({ kinds: {}, cutAt: null, shortened: 2 });
    const letter = { version: 1 as const, source: null, blocks, cta: null, imageButton: null };
    expect(ZLetterModel.safeParse(letter).success).toBe(true);
    // the web sources: a <pre> as long, and a table of more rows than a letter's table holds
    const pre = `<pre>${source.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</pre>`;
    const rows = '<tr><td>r</td></tr>'.repeat(LETTER_LIMITS.tableRows + 1);
    const web = typedreamToBlocks(
      `<html><body><main>${pre}<table>${rows}</table></main></body></html>`,
      new URL('https://reaction-demo.typedream.app/'),
    );
    expect(rejoined(web.blocks.flatMap((b) => (b.type === 'code' ? [b.text] : [])))).toBe(source);
    expect(web.leftOut.shortened).toBe(1);
  });

  it('a page whose mail would be longer than one email keeps its first parts that fit, and says so', () => {
    // 80 paragraphs of 5,000 characters: within the model's limit, past the text part's; before,
    // web-to-template handed it over and every Save was refused (BRK-3's reason)
    const text = 'x'.repeat(LETTER_LIMITS.spanText);
    const blocks = Array.from({ length: 80 }, (_, i) => ({
      id: `p${i}`,
      type: 'paragraph' as const,
      spans: [{ text }],
    }));
    const model: TLetterModel = { version: 1, source: null, blocks, cta: null, imageButton: null };
    expect(renderLetter('Long', model).text.length).toBeGreaterThan(LETTER_LIMITS.mailText);
    const fitted = letterFitter('Long')(model);
    expect(fitted.cutAt).toBeGreaterThan(0);
    expect(fitted.model.blocks).toEqual(blocks.slice(0, fitted.cutAt!));
    expect(fitted.rendered).toEqual(renderLetter('Long', fitted.model));
    // one more block would not fit; what it keeps saves even with the longest subject, call to
    // action and image button the owner may add
    const url = `https://${'y'.repeat(LETTER_LIMITS.url - 8)}`;
    const most = {
      ...fitted.model,
      cta: { text: 'y'.repeat(LETTER_LIMITS.ctaText), link: url },
      imageButton: { src: url, link: url },
    };
    const mail = renderLetter('y'.repeat(LETTER_LIMITS.title), most);
    expect(mail.text.length).toBeLessThanOrEqual(LETTER_LIMITS.mailText);
    expect(mail.html.length).toBeLessThanOrEqual(LETTER_LIMITS.mailHtml);
    expect(ZLetterModel.safeParse(most).success).toBe(true);
    const more = { ...model, blocks: blocks.slice(0, fitted.cutAt! + 1) };
    expect(letterFitter('Long')(more).cutAt).toBe(fitted.cutAt);
    // a letter within the limits is left whole
    const short = { ...model, blocks: blocks.slice(0, 3) };
    expect(letterFitter('Long')(short)).toEqual({
      model: short,
      rendered: renderLetter('Long', short),
      cutAt: null,
    });
  });

  it('a page cut for size has only its kept parts’ images copied', async () => {
    // 70 paragraphs of 5,000 characters (past the text part's limit), one of the page's own
    // images after every tenth: before, all 7 were fetched and stored, then the cut dropped some
    const html = `<html><head><title>Long</title></head><body><main>${Array.from(
      { length: 70 },
      (_, i) =>
        `<p>${i} ${'x'.repeat(4990)}</p>` + (i % 10 === 9 ? `<img src="${OWN}/i${i}.png">` : ''),
    ).join('')}</main></body></html>`;
    const { deps, stored } = pageDeps(html);
    const l = await loadLetter('typedream', new URL(PAGE), deps);
    const kept = l.model.blocks.length;
    expect(l.leftOut.cutAt).toBe(kept);
    const keptImages = l.model.blocks.filter((b) => b.type === 'image').length;
    expect(keptImages).toBeGreaterThan(0);
    expect(keptImages).toBeLessThan(7);
    expect(imageFetches(deps)).toHaveLength(keptImages);
    expect(stored).toHaveLength(keptImages);
    expect(l.rendered).toEqual(renderLetter('Long', l.model));
  });

  it('a kept image whose copy’s address is longer than its source’s: the copied letter is checked again and fits', async () => {
    // 40 of the page's own images (short addresses), then paragraphs of code marks, each mark
    // about 150 characters of mail HTML for one of text: the HTML is what runs out. The copies'
    // addresses are 1,900 characters longer, 76,000 more of HTML and model in all
    const codes = `<p>${'<code>c</code> '.repeat(150)}</p>`.repeat(60);
    const images = Array.from({ length: 40 }, (_, i) => `<img src="${OWN}/i${i}.png">`).join('');
    const html = `<html><head><title>Long</title></head><body><main>${images}${codes}</main></body></html>`;
    const { deps, stored } = pageDeps(html, 'l'.repeat(1900));
    const l = await loadLetter('typedream', new URL(PAGE), deps);
    const source = typedreamToBlocks(html, new URL(PAGE)).blocks;
    const before = letterFitter('Long')({ ...l.model, blocks: source });
    expect(before.cutAt).toBeGreaterThan(40);
    // cut before the copies were made: all 40 images kept and copied once
    expect(stored).toHaveLength(40);
    expect(imageFetches(deps)).toHaveLength(40);
    // with the copies' addresses the first cut no longer fits, so the letter ends earlier
    expect(l.leftOut.cutAt).toBe(l.model.blocks.length);
    expect(l.model.blocks.length).toBeLessThan(before.cutAt!);
    const most = {
      ...l.model,
      cta: { text: 'y'.repeat(LETTER_LIMITS.ctaText), link: `https://${'y'.repeat(1992)}` },
      imageButton: { src: `https://${'y'.repeat(1992)}`, link: `https://${'y'.repeat(1992)}` },
    };
    const mail = renderLetter('y'.repeat(LETTER_LIMITS.title), most);
    expect(mail.html.length).toBeLessThanOrEqual(LETTER_LIMITS.mailHtml);
    expect(ZLetterModel.safeParse(most).success).toBe(true);
    expect(l.rendered).toEqual(renderLetter('Long', l.model));
  });

  it('a long page’s cut is found on one render of its first parts and confirmed by one more', () => {
    // 400 paragraphs of 5,000 characters: before, the whole letter and every step of a binary
    // search were renders (11 with the room's two); now the room's two, the first parts as far
    // as their JSON goes past the text part's limit, and the parts kept
    const text = 'x'.repeat(LETTER_LIMITS.spanText);
    const blocks = Array.from({ length: LETTER_LIMITS.blocks }, (_, i) => ({
      id: `p${i}`,
      type: 'paragraph' as const,
      spans: [{ text }],
    }));
    const model: TLetterModel = { version: 1, source: null, blocks, cta: null, imageButton: null };
    const counted = (measure: boolean) => {
      let renders = 0;
      const render: typeof renderLetter = (...args) => {
        renders++;
        return renderLetter(...args);
      };
      return { fitted: letterFitter('Long', {}, { render, measure })(model), renders };
    };
    const now = counted(true);
    const before = counted(false);
    expect(before.renders).toBe(11);
    expect(now.renders).toBe(4);
    expect(now.fitted).toEqual(before.fitted);
    expect(now.fitted.cutAt).toBe(59);
  });

  it('the measured cut is the one renders find, whichever limit runs out first', () => {
    const spans = (count: number, mark: 'b' | 'code', href?: string) =>
      Array.from({ length: count }, (_, i) => ({
        text: i % 2 ? ' and <more> ' : `w${i}`,
        ...(i % 3 ? {} : { marks: [mark] }),
        ...(href && i % 5 === 0 ? { href: `${href}${i}` } : {}),
      }));
    const mixed = (i: number): TLetterModel['blocks'] => [
      { id: `h${i}`, type: 'heading', level: 2, spans: [{ text: `Part ${i} & more` }] },
      { id: `p${i}`, type: 'paragraph', spans: spans(120, 'b', 'https://example.com/a?b=') },
      { id: `x${i}`, type: 'paragraph', spans: [{ text: `${i} ${'x'.repeat(4990)}` }] },
      {
        id: `l${i}`,
        type: 'list',
        ordered: true,
        start: i + 1,
        items: [
          [{ text: 'one' }],
          { spans: [{ text: 'deeper' }], level: 1, ordered: false },
          [{ text: 'two', marks: ['code'] }],
        ],
      },
      { id: `i${i}`, type: 'image', src: `https://cdn.example/${i}.png`, alt: 'an "image"' },
      { id: `q${i}`, type: 'quote', spans: spans(40, 'code') },
      { id: `c${i}`, type: 'code', text: `if (a < ${i}) {}\n`.repeat(30) },
      {
        id: `t${i}`,
        type: 'table',
        header: true,
        rows: [
          [[{ text: 'Name' }], [{ text: 'Price' }]],
          [[{ text: 'Tea <b>', marks: ['b'] }], [{ text: String(i) }]],
        ],
      },
      { id: `d${i}`, type: 'divider' },
    ];
    const pages: Record<string, TLetterModel['blocks']> = {
      // the text part runs out
      mixed: Array.from({ length: 44 }, (_, i) => mixed(i)).flat(),
      // the HTML: code marks, each ~150 characters of it for 2 of text
      html: Array.from({ length: 60 }, (_, i) => ({
        id: `c${i}`,
        type: 'paragraph' as const,
        spans: Array.from({ length: 300 }, (_, s) =>
          s % 2 ? { text: ' ' } : { text: 'c', marks: ['code' as const] },
        ),
      })),
      // the model: bold one-letter spans, more JSON than HTML or text
      model: Array.from({ length: 150 }, (_, i) => ({
        id: `b${i}`,
        type: 'paragraph' as const,
        spans: Array.from({ length: 300 }, (_, s) => ({
          text: 'w',
          ...(s % 2 ? { marks: ['b' as const] } : { marks: ['i' as const] }),
        })),
      })),
    };
    for (const [name, blocks] of Object.entries(pages)) {
      const model: TLetterModel = {
        version: 1,
        source: null,
        blocks,
        cta: null,
        imageButton: null,
      };
      const now = letterFitter('A title', { imageOrigins: [] })(model);
      const before = letterFitter('A title', { imageOrigins: [] }, { measure: false })(model);
      expect(now.cutAt, name).toBeGreaterThan(0);
      expect(now.cutAt, name).toBe(before.cutAt);
      expect(now.model, name).toEqual(before.model);
      expect(now.rendered, name).toEqual(before.rendered);
    }
    // a render the rows do not predict (here one that adds a space for an odd count of blocks)
    // falls back to the search by renders, and finds the same cut
    const odd: typeof renderLetter = (...args) => {
      const out = renderLetter(...args);
      return args[1].blocks.length % 2 ? { ...out, html: `${out.html} ` } : out;
    };
    const model: TLetterModel = {
      version: 1,
      source: null,
      blocks: pages.mixed!,
      cta: null,
      imageButton: null,
    };
    expect(letterFitter('A title', {}, { render: odd })(model)).toEqual(
      letterFitter('A title', {}, { render: odd, measure: false })(model),
    );
  });

  it('the same nesting from a page’s HTML (Typedream, Brunch): a <ul> in an <li> is not its text', () => {
    const { blocks } = typedreamToBlocks(
      '<html><head><title>Lists</title></head><body><main><ul><li>Fruit<ul><li>Apples</li>' +
        '<li>Pears<ol><li>Conference</li></ol></li></ul></li><li>Vegetables</li></ul></main></body></html>',
      new URL('https://reaction-demo.typedream.app/'),
    );
    const letter = { version: 1 as const, source: null, blocks, cta: null, imageButton: null };
    expect(ZLetterModel.safeParse(letter).success).toBe(true);
    expect(renderLetter('', letter).html.replace(/ style="[^"]*"/g, '')).toContain(
      '<ul><li>Fruit<ul><li>Apples</li><li>Pears<ol><li>Conference</li></ol></li></ul></li><li>Vegetables</li></ul>',
    );
  });

  it('a nested item with nothing above it, or deeper than the item before, nests where it can', () => {
    const letter: TLetterModel = {
      version: 1,
      source: null,
      blocks: [
        {
          id: 'l',
          type: 'list',
          ordered: false,
          items: [
            { spans: [{ text: 'orphan' }], level: 2, ordered: true },
            [{ text: 'a' }],
            { spans: [{ text: 'deep' }], level: 3, ordered: false },
            { spans: [{ text: 'b' }], level: 1, ordered: true },
            [{ text: 'c' }],
          ],
        },
      ],
      cta: null,
      imageButton: null,
    };
    expect(ZLetterModel.safeParse(letter).success).toBe(true);
    expect(renderLetter('', letter).html.replace(/ style="[^"]*"/g, '')).toContain(
      '<ul><li>orphan</li><li>a<ul><li>deep</li></ul><ol><li>b</li></ol></li><li>c</li></ul>',
    );
    // deeper than LETTER_LIMITS.listDepth is refused
    const tooDeep = structuredClone(letter);
    (tooDeep.blocks[0] as { items: unknown[] }).items.push({
      spans: [{ text: 'x' }],
      level: LETTER_LIMITS.listDepth + 1,
      ordered: false,
    });
    expect(ZLetterModel.safeParse(tooDeep).success).toBe(false);
  });

  it('a long paragraph, item or heading of a page’s HTML keeps all its text within the rules (BRK-8)', () => {
    // a run longer than a span holds (an emoji across the cut), a paragraph and an item of more
    // runs than a block holds, a long heading: before, each made a model the save refuses
    const long = 'a'.repeat(4999) + '😀' + 'b'.repeat(3000);
    const runs = Array.from({ length: 400 }, (_, i) => (i % 2 ? `<b>b${i}</b>` : `p${i} `)).join(
      '',
    );
    const { blocks, leftOut } = typedreamToBlocks(
      `<html><head><title>Long</title></head><body><main><p>${long}</p><p>${runs}</p>` +
        `<ul><li>${long}</li><li>${runs}</li></ul><h2>${runs}</h2></main></body></html>`,
      new URL('https://reaction-demo.typedream.app/'),
    );
    const letter = { version: 1 as const, source: null, blocks, cta: null, imageButton: null };
    const checked = ZLetterModel.safeParse(letter);
    expect(checked.success, checked.error?.issues[0]?.message).toBe(true);
    expect(leftOut).toEqual({ kinds: {}, cutAt: null });
    const textOf = (spans: Array<{ text: string }>) => spans.map((s) => s.text).join('');
    const runsText = textOf(
      Array.from({ length: 400 }, (_, i) => ({ text: i % 2 ? `b${i}` : `p${i} ` })),
    ).trim();
    // the long paragraph in spans of at most 5,000, the runs in two paragraphs of 300 and 100
    expect(blocks.map((b) => b.type)).toEqual([
      'paragraph',
      'paragraph',
      'paragraph',
      'list',
      'heading',
      'heading',
    ]);
    const [first, second, third, list] = blocks as unknown as Array<{
      spans: Array<{ text: string }>;
      items: Array<Array<{ text: string }>>;
    }>;
    expect(textOf(first!.spans)).toBe(long);
    expect(first!.spans.map((s) => s.text.length)).toEqual([4999, 3002]);
    expect(second!.spans).toHaveLength(300);
    expect(textOf([...second!.spans, ...third!.spans])).toBe(runsText);
    expect(textOf(list!.items[0]!)).toBe(long);
    expect(list!.items.length).toBe(3);
  });

  it('a Brunch article and profile', () => {
    const { title, blocks } = brunchToBlocks(
      BRUNCH_ARTICLE_HTML,
      new URL('https://brunch.co.kr/@letterwriter/12'),
    );
    expect(title).toBe('봄의 편지');
    const image = blocks.find((b) => b.type === 'image');
    expect(image && image.type === 'image' && image.src).toBe(
      'https://img1.daumcdn.net/thumb/R1280x0/?fname=http%3A%2F%2Ft1.daumcdn.net%2Fbrunch%2Fspring.png',
    );
    expect(JSON.stringify(blocks)).not.toMatch(/steal|__brunch|comment/);
    expect(brunchProfileText(BRUNCH_PROFILE_HTML)).toContain(BRUNCH_WRITER_EMAIL);
  });

  it('a Typedream page and a hostile one', () => {
    // the page's opening H1 is the letter's title, said once: not again as the body's first line
    const { title, blocks } = typedreamToBlocks(
      TYPEDREAM_HTML,
      new URL('https://reaction-demo.typedream.app/'),
    );
    expect(title).toBe('Product notes');
    expect(blocks[0]).toMatchObject({ type: 'paragraph' });
    expect(blocks.filter((b) => b.type === 'heading')).toMatchObject([{ level: 2 }]);
    const html = renderLetter(title, {
      version: 1,
      source: null,
      blocks,
      cta: null,
      imageButton: null,
    }).html;
    expect(html.split('Product notes').length - 1).toBe(1);
    // the start of a longer og:title repeats it too; the og:title stays the title
    const longer = typedreamToBlocks(
      TYPEDREAM_HTML.replace('content="Product notes"', 'content="Product notes: what changed"'),
      new URL('https://reaction-demo.typedream.app/'),
    );
    expect(longer.title).toBe('Product notes: what changed');
    expect(longer.blocks[0]).toMatchObject({ type: 'paragraph' });
    // a page whose H1 comes later keeps it where it is, and its og:title
    const later = typedreamToBlocks(
      TYPEDREAM_HTML.replace('<main><h1>Product notes</h1>', '<main><p>Intro</p><h1>Part one</h1>'),
      new URL('https://reaction-demo.typedream.app/'),
    );
    expect(later.title).toBe('Product notes');
    expect(later.blocks.slice(0, 2)).toMatchObject([
      { type: 'paragraph' },
      { type: 'heading', level: 1 },
    ]);
    const hostile = typedreamToBlocks(HOSTILE_HTML, new URL('https://hostile.typedream.app/'));
    const json = JSON.stringify(hostile.blocks);
    expect(json).not.toMatch(/javascript:|vbscript:|data:|evil\.example|alert\(1\)/);
  });
});

describe('rendering', () => {
  const model: TLetterModel = {
    version: 1,
    source: null,
    blocks: [
      { id: 'a', type: 'heading', level: 2, spans: [{ text: 'Hello <you>' }] },
      {
        id: 'b',
        type: 'paragraph',
        spans: [
          { text: 'bold', marks: ['b', 'i'] },
          { text: ' link', href: 'https://x.example/?a=1&b=2' },
        ],
      },
      {
        id: 'c',
        type: 'list',
        ordered: true,
        items: [[{ text: 'one' }], [{ text: 'two', marks: ['code'] }]],
      },
      { id: 'd', type: 'image', src: 'https://cdn.example/a.png', alt: 'An "image"' },
      { id: 'e', type: 'code', text: 'if (a < b) {}' },
      { id: 'f', type: 'divider' },
      {
        id: 'g',
        type: 'table',
        header: true,
        rows: [
          [[{ text: 'Name' }], [{ text: 'Price' }]],
          [[{ text: 'Tea <b>', marks: ['b'] }], [{ text: '3' }]],
        ],
      },
    ],
    cta: { text: 'Go & see', link: 'https://x.example/go' },
    imageButton: { src: 'https://cdn.example/button.png', link: 'mailto:hi@example.com' },
  };

  it('a 600 px table, every style inline, links and images absolute, a text part', () => {
    const { html, text } = renderLetter('Title', model);
    expect(html.startsWith('<table')).toBe(true);
    expect(html).toContain('width="600"');
    expect(html).not.toMatch(/<style|class=/);
    expect(html).toContain('Hello &lt;you&gt;');
    expect(html).toContain('href="https://x.example/?a=1&amp;b=2"');
    expect(html).toContain('<strong');
    expect(html).toContain('if (a &lt; b) {}');
    expect(html).toContain('Go &amp; see');
    for (const tag of html.match(/<(h2|p|td|th|img|a|ol|li|pre|hr)\b[^>]*>/g) ?? [])
      expect(tag, tag).toMatch(/style="/);
    // a table block: a header row, each cell's text escaped and marked like any span
    expect(html).toMatch(/<th [^>]*>Name<\/th>/);
    expect(html).toMatch(/<td [^>]*><strong[^>]*>Tea &lt;b&gt;<\/strong><\/td>/);
    // juice writes a CSS height as an attribute: `height: auto` would become height="auto",
    // which is no height (Outlook's Word engine reads the attribute)
    expect(html).not.toMatch(/height="auto"/);
    expect(text).toContain('HELLO <YOU>');
    expect(text).toContain('Go & see [https://x.example/go]');
  });

  it('the footer and the document shell escape what they are given', () => {
    const footer = letterFooter('ko', '<b>작가</b>', 'https://site.example/unsubscribe?token=a&b');
    expect(footer.html).toContain('&lt;b&gt;작가&lt;/b&gt;님이 Reaction Blocks로 보낸 레터입니다.');
    expect(footer.html).toContain('href="https://site.example/unsubscribe?token=a&amp;b"');
    expect(footer.text).toContain('수신 거부: https://site.example/unsubscribe?token=a&b');
    expect(letterDocument('en', '</title><script>', '<table></table>', '')).toContain(
      '&lt;/title&gt;&lt;script&gt;',
    );
  });
});

describe('shared rules', () => {
  it('a letter model is bounded as a whole', () => {
    const span = { text: 'x'.repeat(5000) };
    const blocks = Array.from({ length: 400 }, (_, i) => ({
      id: `b${i}`,
      type: 'paragraph' as const,
      spans: [span],
    }));
    const model = { version: 1, source: null, blocks, cta: null, imageButton: null };
    expect(ZLetterModel.safeParse(model).error?.issues[0]?.message).toBe('Too long message');
    expect(ZLetterModel.safeParse({ ...model, blocks: blocks.slice(0, 100) }).success).toBe(true);
  });

  it('page addresses per mode', () => {
    expect(checkPageUrl('notion', 'https://x.notion.site/P-1')).toHaveProperty('url');
    expect(checkPageUrl('notion', 'https://notion.site.evil.com/')).toEqual({
      error: "It's not address of the public Notion page",
    });
    expect(checkPageUrl('notion', 'nope')).toEqual({ error: 'Invalid address.' });
    expect(
      checkPageUrl('brunch', 'https://brunch.co.kr/@me/3', 'https://brunch.co.kr/@me'),
    ).toHaveProperty('url');
    expect(
      checkPageUrl('brunch', 'https://brunch.co.kr/@you/3', 'https://brunch.co.kr/@me'),
    ).toEqual({
      error: "It's not your article",
    });
    expect(normalizeBrunchProfile('https://brunch.co.kr/@me/')).toEqual({
      url: 'https://brunch.co.kr/@me',
    });
    expect(normalizeBrunchProfile('https://brunch.co.kr/me')).toEqual({
      error: 'Invalid brunch profile page',
    });
  });
});

describe("the landing's before and after (scripts/letter-samples.ts)", () => {
  it('renders each source page through the pipeline into a letter with its footer', async () => {
    const { renderLetterSamples } = await import('../../scripts/letter-samples.ts');
    const images = new Map<string, Uint8Array>();
    const samples = await renderLetterSamples(images);
    expect(samples.map((s) => s.type)).toEqual([
      'notion_letter',
      'typedream_letter',
      'brunch_letter',
    ]);
    const byType = Object.fromEntries(samples.map((s) => [s.type, s]));
    // the page's content is in the letter; what a letter leaves out is not
    expect(byType.typedream_letter!.before).toContain('<nav>');
    expect(byType.typedream_letter!.after).toContain('November notes');
    expect(byType.typedream_letter!.after).toContain('Small letters, read by the right people');
    expect(byType.typedream_letter!.after).not.toContain('Subscribe</button>');
    expect(byType.brunch_letter!.after).toContain('편지로 돌려드리기');
    expect(byType.brunch_letter!.after).toContain('수신 거부');
    expect(byType.brunch_letter!.after).not.toContain('textarea');
    expect(byType.notion_letter!.after).toContain('This week at Reaction Blocks');
    expect(byType.notion_letter!.after).toContain('Unsubscribe');
    for (const s of samples) {
      for (const doc of [s.before, s.after]) {
        expect(doc).not.toMatch(/<script/i);
        expect(doc).toContain("default-src 'none'");
        // every image is one of the copies, served beside the samples
        for (const [, src] of doc.matchAll(/<img[^>]*\ssrc="([^"]*)"/g)) {
          expect(src).toMatch(/^img\/[0-9a-f]{40}\.png$/);
          expect(images.has(src!.slice(4))).toBe(true);
        }
      }
      expect(s.after).toMatch(/<img/);
    }
  });
});
