// A shared block link (/block/?id=&block_id=) as a chat app's crawler fetches it: no JavaScript,
// so the Open Graph and Twitter tags must be in the HTML the local web server sends
// (supabase/local/web.ts with @reaction-blocks/contracts/open-graph), read from the block through the
// API as anon. Owner settings with markup are escaped; a block without settings falls back to
// its name and the default image; deactivated and unknown blocks get the site's preview.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../local/config.ts';
import { paths } from '../local/paths.ts';
import { startWeb } from '../local/web.ts';
import { newUser, paidOwner, sql, stack, type TestUser } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import { sendRaw, sendRawText } from './support/fuzz.ts';

const CRAWLERS = [
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Twitterbot/1.0',
  'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
];

interface Parsed {
  title: string;
  meta: Record<string, string>;
  scripts: string[];
}

type Node = {
  nodeName: string;
  attrs?: Array<{ name: string; value: string }>;
  childNodes?: Node[];
  value?: string;
};

/** The page as a browser parses it: the title, each meta tag's content, the script sources. */
function parsePage(html: string): Parsed {
  const out: Parsed = { title: '', meta: {}, scripts: [] };
  const walk = (node: Node) => {
    const attr = (name: string) => node.attrs?.find((a) => a.name === name)?.value;
    if (node.nodeName === 'title')
      out.title = node.childNodes?.map((c) => c.value ?? '').join('') ?? '';
    if (node.nodeName === 'meta') {
      const key = attr('property') ?? attr('name');
      if (key) out.meta[key] = attr('content') ?? '';
    }
    if (node.nodeName === 'script') out.scripts.push(attr('src') ?? 'inline');
    for (const child of node.childNodes ?? []) walk(child);
  };
  walk(parse(html) as unknown as Node);
  return out;
}

let web: Server;
let webUrl: string;
let dist: string;
let owner: TestUser;
const blocks: Record<string, string> = {};

beforeAll(async () => {
  // the built page as the dashboard's build writes it (comments stripped, SDK URL filled in)
  dist = mkdtempSync(join(tmpdir(), 'rb-og-'));
  mkdirSync(join(dist, 'block'));
  writeFileSync(
    join(dist, 'block', 'index.html'),
    readFileSync(join(paths.root, 'dashboard', 'viewer', 'index.html'), 'utf8')
      .replace('%SDK_URL%', '/sdk/cdn/reaction.js')
      .replace(/<!--[\s\S]*?-->\s*/g, ''),
  );
  const port = (await freePorts()).web;
  web = await startWeb({
    port,
    apiUrl: stack().apiUrl,
    anonKey: stack().anonKey,
    dashboardDist: dist,
  });
  webUrl = `http://127.0.0.1:${port}`;

  owner = await paidOwner('og');
  for (const type of ['form', 'comment', 'like']) {
    blocks[type] = await createBlock(owner, type);
  }
  // Open Graph settings with markup, through the owner's save path
  const { error } = await owner.client.functions.invoke('save-block', {
    body: {
      blockId: blocks.form,
      settings: {
        name: 'Survey <2026>',
        open_graph: {
          title: 'Tell us "everything" </title><script>alert(1)</script>',
          description: "Five questions & a prize — 5분이면 끝나요 <img src=x onerror=alert('x')>",
          image_url: 'https://cdn.example.com/og/survey.png?size=large&v=2',
        },
      },
    },
  });
  expect(error).toBeNull();
  const named = await owner.client.functions.invoke('save-block', {
    body: { blockId: blocks.comment, settings: { name: 'Guestbook "2026"', language: 'ko' } },
  });
  expect(named.error).toBeNull();
  await sql('update public.blocks set deactivated = true where id = $1', [blocks.like]);
});

afterAll(async () => {
  await new Promise<void>((resolve) => web?.close(() => resolve()));
  rmSync(dist, { recursive: true, force: true });
});

const link = (blockId: string, ownerId = owner.id) =>
  `${webUrl}/block/?id=${ownerId}&block_id=${blockId}`;

async function crawl(url: string, ua = CRAWLERS[0]!) {
  const res = await fetch(url, { headers: { 'user-agent': ua, accept: 'text/html' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  return {
    html: await res.text(),
    page: parsePage(await (await fetch(url, { headers: { 'user-agent': ua } })).text()),
  };
}

describe('Open Graph tags of a shared block link', () => {
  it.each(CRAWLERS)('%s gets the owner’s settings, escaped', async (ua) => {
    const { html, page } = await crawl(link(blocks.form!), ua);
    expect(page.meta['og:title']).toBe('Tell us "everything" </title><script>alert(1)</script>');
    expect(page.meta['og:description']).toBe(
      "Five questions & a prize — 5분이면 끝나요 <img src=x onerror=alert('x')>",
    );
    expect(page.meta['og:image']).toBe('https://cdn.example.com/og/survey.png?size=large&v=2');
    expect(page.meta['og:url']).toBe(link(blocks.form!));
    expect(page.meta['og:type']).toBe('website');
    expect(page.meta['twitter:card']).toBe('summary_large_image');
    expect(page.meta['twitter:title']).toBe(page.meta['og:title']);
    expect(page.meta['twitter:image']).toBe(page.meta['og:image']);
    expect(page.title).toBe(
      'Tell us "everything" </title><script>alert(1)</script> · Reaction Blocks',
    );
    // nothing the owner typed became markup: the only scripts are the page's own (the env
    // bridge, the SDK's loader, and the page's chrome at the end of the body, viewer/page.ts)
    expect(page.scripts).toEqual(['/env.js', 'inline', '/sdk/cdn/reaction.js', 'inline']);
    // the visible page has the block's type from the same read (its heading: fillBlockPage)
    expect(html).toContain('data-block-type="form"');
    expect(html).not.toMatch(/<script>alert|<img src=x/);
    expect(html).toContain('<reaction-block>');
  });

  it('a block without settings falls back to its name, a sentence in its language and the default image', async () => {
    const { page, html } = await crawl(link(blocks.comment!));
    expect(page.meta['og:title']).toBe('Guestbook "2026"');
    // the page itself in the block's language, its name as the heading (escaped)
    expect(html).toMatch(/<html lang="ko" data-block-type="comment" data-block-lang="ko"/);
    expect(html).toMatch(/<h1 id="block-title"[^>]*>Guestbook &quot;2026&quot;<\/h1>/);
    expect(page.meta['og:description']).toBe('댓글을 읽고 의견을 남겨 주세요.');
    expect(page.meta['og:locale']).toBe('ko_KR');
    expect(page.meta['og:image']).toBe(`${webUrl}/og-default.jpg`);
    expect(page.meta['og:image:width']).toBe('1200');
    expect(page.meta['og:image:height']).toBe('630');
  });

  it('deactivated, unknown, mismatched and malformed links get the site preview', async () => {
    const other = await newUser('og-other');
    for (const url of [
      link(blocks.like!),
      link('00000000-0000-4000-8000-00000000dead'),
      link(blocks.form!, other.id),
      `${webUrl}/block/?id=x&block_id=${blocks.form}'"><script>`,
      `${webUrl}/block/`,
    ]) {
      const { html, page } = await crawl(url);
      expect(page.meta['og:title'], url).toBe('Reaction Blocks');
      expect(page.meta['og:description']).toBe(
        'Comments, likes, polls and forms for any web page.',
      );
      expect(page.meta['og:image']).toBe(`${webUrl}/og-default.jpg`);
      expect(page.meta['og:url']).toBe(`${webUrl}/block/`);
      expect(page.title).toBe('Reaction Blocks');
      expect(html).not.toContain('<script>"');
    }
  });

  it('get_block_card: a GET a shared cache may keep, the preview fields of published blocks only', async () => {
    const card = (ownerId: string, blockId: string) =>
      fetch(
        `${stack().apiUrl}/rest/v1/rpc/get_block_card?p_owner_id=${ownerId}&p_block_id=${blockId}`,
        { headers: { apikey: stack().anonKey } },
      );
    const res = await card(owner.id, blocks.form!);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=300');
    const rows = (await res.json()) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!).sort()).toEqual(
      ['id', 'language', 'name', 'open_graph', 'owner_id', 'title', 'type'].sort(),
    );
    expect(rows[0]!.title).toBe('Survey <2026>');
    // a letter's card is titled by the letter (as get_letter_view), never more of the letter
    const letter = await createBlock(owner, 'typedream_letter');
    await sql(
      `update public.block_private set mail_title = 'Product notes', mail_html = '<p>secret body</p>'
       where block_id = $1`,
      [letter],
    );
    const letterRows = (await (await card(owner.id, letter)).json()) as Array<
      Record<string, unknown>
    >;
    expect(letterRows[0]!.title).toBe('Product notes');
    expect(JSON.stringify(letterRows)).not.toContain('secret body');
    const page = await fetch(`${webUrl}/block/?id=${owner.id}&block_id=${letter}`);
    const html = await page.text();
    expect(/<h1 id="block-title"[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]).toBe('Product notes');
    expect(parsePage(html).meta['og:title']).toBe('Product notes');
    // deactivated, another owner's id in the link: nothing
    for (const [o, b] of [
      [owner.id, blocks.like!],
      ['00000000-0000-4000-8000-000000000001', blocks.form!],
    ] as const) {
      const other = await card(o, b);
      expect(other.status).toBe(200);
      expect(await other.json()).toEqual([]);
    }
    // the table itself stays the owner's: anon holds nothing on it and is refused outright
    const table = await fetch(`${stack().apiUrl}/rest/v1/blocks?select=id,tags`, {
      headers: { apikey: stack().anonKey },
    });
    expect(table.status).toBe(401);
    expect(((await table.json()) as { code: string }).code).toBe('42501');
  });

  it('the owner’s change shows on the next fetch (no stale copy locally)', async () => {
    const { error } = await owner.client.functions.invoke('save-block', {
      body: { blockId: blocks.form, settings: { open_graph: { title: 'New title' } } },
    });
    expect(error).toBeNull();
    const { page } = await crawl(link(blocks.form!));
    expect(page.meta['og:title']).toBe('New title');
    // no description set any more: the block type's sentence
    expect(page.meta['og:description']).toBe('Answer a few questions.');
    expect(page.meta['og:image']).toBe(`${webUrl}/og-default.jpg`);
  });

  it('a hostile Host or path is refused or ignored, and the server keeps serving (issue 17: `Host: x<y` used to stop npm start)', async () => {
    const port = Number(new URL(webUrl).port);
    for (const host of ['x<y', 'a b', '[::1', '"><script>', '']) {
      const status = await sendRaw(
        port,
        `GET /block/?id=${owner.id}&block_id=${blocks.form} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      expect(status, host).toBeGreaterThanOrEqual(200);
      expect(status, host).toBeLessThan(500);
    }
    for (const path of [
      '/%zz',
      '/block/%E0%A4%A',
      '/examples/%00',
      '/sdk/..%2f..%2fpackage.json',
    ]) {
      const status = await sendRaw(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      expect([400, 404], path).toContain(status);
    }
    // og:url never carries a Host the server did not accept
    const res = await sendRawText(
      port,
      `GET /block/?id=${owner.id}&block_id=${blocks.form} HTTP/1.1\r\nHost: x<y\r\nConnection: close\r\n\r\n`,
    );
    expect(res).not.toContain('x<y');
    const { page } = await crawl(link(blocks.form!));
    expect(page.meta['og:title']).toBeTruthy();
  });
});
