// @vitest-environment node
// (the edge worker runs where Request and AbortSignal are the platform's own, not jsdom's)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { handleRequest } from './edge/block-page-worker';
import {
  blockIdsFrom,
  blockMeta,
  blockPageHtml,
  fillBlockPage,
  renderBlockPage,
  type OgBlock,
} from '@reaction-blocks/contracts/open-graph';

const template = readFileSync(join(__dirname, 'index.html'), 'utf8');
const OWNER = '00000000-0000-4000-8000-000000000001';
const BLOCK = '00000000-0000-4000-8000-000000000106';
const ids = { ownerId: OWNER, blockId: BLOCK };
const origin = 'https://app.example.com';

const block = (over: Partial<OgBlock> = {}): OgBlock => ({
  id: BLOCK,
  owner_id: OWNER,
  type: 'form',
  name: 'Spring survey',
  language: 'en',
  open_graph: null,
  ...over,
});

/** The content of every meta tag, by property or name, decoded as a browser would. */
function metaOf(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)" \/>/g)) {
    out[m[1]!] = m[2]!
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  }
  return out;
}

describe('blockMeta', () => {
  it("uses the block's Open Graph settings", () => {
    const meta = blockMeta(
      block({
        open_graph: {
          title: 'Tell us',
          description: 'Two minutes',
          image_url: 'https://cdn.example.com/a.png',
        },
      }),
      { origin, ids },
    );
    expect(meta).toMatchObject({
      title: 'Tell us',
      description: 'Two minutes',
      image: 'https://cdn.example.com/a.png',
      url: `${origin}/block/?id=${OWNER}&block_id=${BLOCK}`,
      locale: 'en_US',
    });
    expect(meta.imageSize).toBeUndefined();
  });

  it('falls back to the name, a sentence per type in the block language, and the default image', () => {
    const meta = blockMeta(
      block({ type: 'comment', language: 'ko', open_graph: { title: '  ' } }),
      {
        origin: `${origin}/`,
        ids,
      },
    );
    expect(meta.title).toBe('Spring survey');
    expect(meta.description).toBe('댓글을 읽고 의견을 남겨 주세요.');
    expect(meta.image).toBe(`${origin}/og-default.jpg`);
    expect(meta.imageSize).toEqual({ width: 1200, height: 630 });
    expect(meta.locale).toBe('ko_KR');
  });

  it('drops an image URL that is not http(s), and names an unknown block after the site', () => {
    expect(
      blockMeta(block({ open_graph: { image_url: 'javascript:alert(1)' } }), { origin, ids }).image,
    ).toBe(`${origin}/og-default.jpg`);
    const unknown = blockMeta(null, { origin, ids });
    expect(unknown.title).toBe('Reaction Blocks');
    expect(unknown.url).toBe(`${origin}/block/`);
  });

  it('reads only two uuids from the query', () => {
    expect(blockIdsFrom(new URLSearchParams(`id=${OWNER}&block_id=${BLOCK}`))).toEqual(ids);
    expect(blockIdsFrom(new URLSearchParams(`id=${OWNER}&block_id=x`))).toBeNull();
    expect(blockIdsFrom(new URLSearchParams(`block_id=${BLOCK}`))).toBeNull();
  });
});

describe('renderBlockPage', () => {
  it('replaces the title with escaped tags and keeps the rest of the page', () => {
    const nasty = `"><script>alert(1)</script> & <b>'`;
    const html = renderBlockPage(
      template,
      blockMeta(block({ name: nasty, open_graph: { description: nasty } }), { origin, ids }),
    );
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;&#39;');
    expect(metaOf(html)['og:title']).toBe(nasty);
    expect(metaOf(html)['twitter:description']).toBe(nasty);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<reaction-block>');
    // a replacement pattern in a value is not interpreted
    const dollars = renderBlockPage(
      template,
      blockMeta(block({ name: "$' $& $1" }), { origin, ids }),
    );
    expect(metaOf(dollars)['og:title']).toBe("$' $& $1");
  });
});

describe('fillBlockPage', () => {
  const heading = (html: string) => /<h1 id="block-title"[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1];

  it("writes the block's name, type and language into the page, escaped", () => {
    const nasty = `</h1><script>alert(1)</script><h1 x="`;
    const html = fillBlockPage(template, block({ name: nasty, type: 'qna', language: 'ko' }));
    expect(heading(html)).toBe('&lt;/h1&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;h1 x=&quot;');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toMatch(/<html lang="ko" data-block-type="qna" data-block-lang="ko"/);
    // a replacement pattern in the name is not interpreted
    expect(heading(fillBlockPage(template, block({ name: "$' $& $1" })))).toBe('$&#39; $&amp; $1');
  });

  it("heads a letter's page with the letter's title, not the block's name (also its preview)", () => {
    const letter = block({
      type: 'typedream_letter',
      name: 'Weekly letter',
      title: 'Product notes',
    });
    expect(heading(fillBlockPage(template, letter))).toBe('Product notes');
    expect(blockMeta(letter, { origin, ids }).title).toBe('Product notes');
    // the owner's Open Graph title still wins for the preview
    expect(
      blockMeta({ ...letter, open_graph: { title: 'Read this' } }, { origin, ids }).title,
    ).toBe('Read this');
    // a reader without the column (an older edge worker's cache) falls back to the name
    expect(heading(fillBlockPage(template, block({ name: 'Weekly letter' })))).toBe(
      'Weekly letter',
    );
  });

  it('names an unnamed block Untitled in its language, and leaves the page alone for no block', () => {
    expect(heading(fillBlockPage(template, block({ name: '  ' })))).toBe('Untitled');
    expect(heading(fillBlockPage(template, block({ name: null, language: 'ko' })))).toBe(
      '제목 없음',
    );
    expect(fillBlockPage(template, null)).toBe(template);
    // a type that is not a plain word is left out rather than written into an attribute
    expect(fillBlockPage(template, block({ type: 'x" onload="alert(1)' }))).toContain(
      'data-block-type=""',
    );
  });
});

describe('blockPageHtml and the edge worker', () => {
  const api = (rows: unknown[], status = 200) =>
    vi.fn(
      async () =>
        new Response(JSON.stringify(rows), {
          status,
          headers: { 'content-type': 'application/json' },
        }),
    );

  it('reads the block as anon with only its public columns', async () => {
    const fetch = api([block({ open_graph: { title: 'Hi' } })]);
    const html = await blockPageHtml(
      template,
      { url: `${origin}/block/?id=${OWNER}&block_id=${BLOCK}` },
      { url: 'https://ref.supabase.co', anonKey: 'anon', fetch },
    );
    expect(metaOf(html)['og:title']).toBe('Hi');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(
      `https://ref.supabase.co/rest/v1/rpc/get_block_card?select=id,owner_id,type,name,language,open_graph,title&p_owner_id=${OWNER}&p_block_id=${BLOCK}`,
    );
    expect((init.headers as Record<string, string>).apikey).toBe('anon');
  });

  it('falls back to the site preview when the API fails or finds nothing, without calling it for bad ids', async () => {
    for (const fetch of [api([]), api([{ message: 'boom' }], 500)]) {
      const html = await blockPageHtml(
        template,
        { url: `${origin}/block/?id=${OWNER}&block_id=${BLOCK}` },
        { url: 'https://ref.supabase.co', anonKey: 'anon', fetch },
      );
      expect(metaOf(html)['og:title']).toBe('Reaction Blocks');
    }
    const never = api([]);
    await blockPageHtml(
      template,
      { url: `${origin}/block/?id=1&block_id=2` },
      { url: 'https://ref.supabase.co', anonKey: 'anon', fetch: never },
    );
    expect(never).not.toHaveBeenCalled();
  });

  it('the worker answers /block/ with the tags and passes every other path to the origin', async () => {
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.includes('/rest/v1/')) return new Response(JSON.stringify([block()]));
      if (url.endsWith('/block/index.html')) return new Response(template);
      return new Response('static', { headers: { 'content-type': 'text/css' } });
    });
    const env = { SUPABASE_URL: 'https://ref.supabase.co', SUPABASE_ANON_KEY: 'anon' };
    const res = await handleRequest(
      new Request(`${origin}/block/?id=${OWNER}&block_id=${BLOCK}`, {
        headers: { 'user-agent': 'facebookexternalhit/1.1' },
      }),
      env,
      fetch,
    );
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const page = await res.text();
    expect(metaOf(page)['og:title']).toBe('Spring survey');
    expect(page).toContain('data-block-type="form"');
    expect(page).toMatch(/<h1 id="block-title"[^>]*>Spring survey<\/h1>/);
    const other = await handleRequest(new Request(`${origin}/assets/app.css`), env, fetch);
    expect(await other.text()).toBe('static');
  });
});
