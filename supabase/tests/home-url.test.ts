// The writer's home URL: one table of cases through the element's rule (sdk/src/core/home-url.ts
// homeUrl: what the comment box sends) and the server's (private.check_visitor_fields and
// check_visitor_urls, which post_message runs). The element never sends what the server refuses,
// and takes every address the server takes unless it says otherwise here.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { homeUrl } from '../../sdk/src/core/home-url.ts';
import { newGuest, newUser, sql, type TestUser } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';

/** [typed, what the element makes of it (null: refused, said at once)] */
const CASES: [string, string | null][] = [
  ['https://example.com', 'https://example.com'],
  ['http://example.com/path?x=1#top', 'http://example.com/path?x=1#top'],
  ['HTTPS://EXAMPLE.COM/Me', 'HTTPS://EXAMPLE.COM/Me'],
  ['example.com', 'https://example.com'],
  ['  example.com/me  ', 'https://example.com/me'],
  ['//example.com/me', 'https://example.com/me'],
  ['https://例え.jp/', 'https://例え.jp/'],
  ['https://example.com:8443/x', 'https://example.com:8443/x'],
  ['https://example.com/@me', 'https://example.com/@me'],
  ['https://example.com/' + 'a'.repeat(480), 'https://example.com/' + 'a'.repeat(480)],
  ['', ''],
  ['javascript:alert(1)', null],
  ['JavaScript:alert(1)', null],
  ['data:text/html,<script>alert(1)</script>', null],
  ['vbscript:msgbox(1)', null],
  ['ftp://example.com', null],
  ['mailto:me@example.com', null],
  ['https://user@example.com/', null],
  ['https://user:pw@example.com/', null],
  ['https://example.com@evil.example/', null],
  ['https://exa mple.com', null],
  ['https://example.com/a b', null],
  ['https://example.com/\u0007', null],
  ['https://example.com/\u0085', null],
  ['https://example.com/\tx', null],
  ['https://example.com/\t', 'https://example.com/'],
  ['https://', null],
  ['https:///path', null],
  ['https://?x', null],
  ['https://example.com/' + 'a'.repeat(481), null],
  // a bidi override or isolate (contracts BIDI_CONTROL_RE) reads the link's end reversed
  ['https://example.com/\u202egnp.exe', null],
  ['https://example.com/\u2066x\u2069', null],
  // an internal address is taken: it is only a link shown to the owner and readers (security.md)
  ['http://127.0.0.1:54322/', 'http://127.0.0.1:54322/'],
];

/** The server's answer for a home URL: null when taken, else its message. */
async function server(url: string): Promise<string | null> {
  try {
    await sql(
      `select private.check_visitor_fields('Writer', '#1565c0', null, $1, 'UTC'),
              private.check_visitor_urls(null, $1)`,
      [url],
    );
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** What the element would have sent before its own check: the typed text with a scheme. */
const candidate = (typed: string) => {
  const s = typed.trim();
  return /^[a-z][\w+.-]*:/i.test(s) ? s : 'https://' + s.replace(/^\/+/, '');
};

describe('home URL: the element and the server agree', () => {
  it.each(CASES)('%j', async (typed, expected) => {
    const mine = homeUrl(typed);
    expect(mine).toBe(expected);
    if (mine) expect(await server(mine)).toBeNull();
    else if (mine === null) expect(await server(candidate(typed))).not.toBeNull();
  });
});

describe('home URL through post_message', () => {
  let visitor: TestUser;
  let blockId: string;
  beforeAll(async () => {
    const owner = await newUser('home-url');
    visitor = await newGuest();
    blockId = await createBlock(owner, 'comment');
  });

  const post = (url: string | null) =>
    visitor.client.rpc('post_message', {
      p_block_id: blockId,
      p_content: `hello ${randomUUID()}`,
      p_creator_name: 'Quiet Otter',
      p_home_url: url,
    });

  it('keeps what the element sends, and refuses what it would never send', async () => {
    const ok = await post(homeUrl('otter.example/me'));
    expect(ok.error).toBeNull();
    expect((ok.data as { home_url: string }).home_url).toBe('https://otter.example/me');
    for (const bad of ['javascript:alert(1)', 'https://user@evil.example/']) {
      expect(homeUrl(bad)).toBeNull();
      const { error } = await post(bad);
      expect(error?.message).toBe('Invalid home URL');
    }
  });
});
