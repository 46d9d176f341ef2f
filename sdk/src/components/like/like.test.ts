import { expect, fixture, html } from '@open-wc/testing';
import './like.js';
import type ReactionLike from './like.component.js';
import {
  B1,
  ApiError,
  KEY,
  PROJECT,
  block,
  idOf,
  mockApi,
  mockApiPerTest,
  onSend,
  reset,
  until,
  withSession,
} from '../../test/mock-api.js';
import { mountReady } from '../../test/mount.js';
import { onPagesOf, ownUiLeftToRight } from '../../test/page-dir.js';
import { setProfile } from '../../core/identity.js';
import { flush, PROFILE_KEY, SEALED } from '../../core/storage.js';
import { seal } from '../../core/vault.js';
import { newPage } from '../../test/mock-api.js';

async function mount(view: Parameters<typeof mockApi>[0]['get_block_view'], extra = {}) {
  const api = mockApi({
    get_block_view: view,
    toggle_block_like: () => ({ liked: true, like_count: 8 }),
    ...extra,
  });
  const el = await fixture<ReactionLike>(
    html`<reaction-like block-id=${B1} project-url=${PROJECT} anon-key=${KEY}></reaction-like>`,
  );
  await until(() => el['_status'] === 'ready' || el['_status'] === 'error');
  await el.updateComplete;
  return { el, api };
}

describe('reaction-like', () => {
  let api: ReturnType<typeof mockApi> | undefined;
  mockApiPerTest();

  it('is accessible', async () => {
    const m = await mount(() => ({ block: block({ like_count: 7 }), me: { liked: false } }));
    api = m.api;
    await expect(m.el).to.be.accessible();
  });

  it('renders the count with one cacheable GET and no sign-up on view', async () => {
    const m = await mount(() => ({ block: block({ like_count: 1 }), me: { liked: true } }));
    api = m.api;
    const btn = m.el.shadowRoot!.querySelector('button')!;
    expect(btn.textContent!.trim()).to.equal('1 Like');
    // no session: nothing of the visitor's own to ask for
    expect(btn.getAttribute('aria-pressed')).to.equal('false');
    expect(m.api.calls.map((c) => [c.method, c.name])).to.deep.equal([['GET', 'get_block_public']]);
    expect(m.api.calls[0]!.auth).to.equal('Bearer ' + KEY);
    expect(m.api.calls[0]!.body).to.deep.equal({ p_block_id: B1 });
  });

  it('shows its heart before its count on a right-to-left page, as in English', async () => {
    // the page's dir was inherited: "Likes 1" with the heart after it, at the right
    await onPagesOf(['rtl'], async () => {
      const m = await mount(() => ({ block: block({ like_count: 1 }) }));
      api = m.api;
      ownUiLeftToRight(m.el);
      const btn = m.el.shadowRoot!.querySelector('button')!;
      const heart = btn.querySelector('svg')!.getBoundingClientRect();
      expect(heart.left - btn.getBoundingClientRect().left).to.be.below(btn.clientWidth / 2);
    });
  });

  it("asks for the visitor's own like only when they have a session, with that session", async () => {
    const token = withSession('visitor-1');
    const m = await mount(() => ({ block: block({ like_count: 1 }), me: { liked: true } }), {
      // the public copy may be cached from before the visitor's like: the count comes fresh
      get_block_me: () => ({ me: { liked: true }, block: block({ like_count: 2 }) }),
    });
    api = m.api;
    const btn = m.el.shadowRoot!.querySelector('button')!;
    expect(btn.getAttribute('aria-pressed')).to.equal('true');
    expect(btn.textContent!.trim()).to.equal('2 Likes');
    expect(m.api.calls.map((c) => [c.method, c.name])).to.deep.equal([
      ['GET', 'get_block_public'],
      ['POST', 'get_block_me'],
    ]);
    // the public part is the same request for everyone: the anon key, never the session
    expect(m.api.calls[0]!.auth).to.equal('Bearer ' + KEY);
    expect(m.api.calls[1]!.auth).to.equal('Bearer ' + token);
  });

  it('toggles at once, signs up anonymously on first write, then takes the server count', async () => {
    let answer = () => {};
    const answered = new Promise<void>((r) => (answer = r));
    const m = await mount(() => ({ block: block({ like_count: 7 }), me: { liked: false } }), {
      toggle_block_like: async () => {
        await answered;
        return { liked: true, like_count: 8 };
      },
    });
    api = m.api;
    const events: boolean[] = [];
    m.el.addEventListener('reaction-like', (e) => events.push(e.detail.liked));
    const btn = m.el.shadowRoot!.querySelector('button')!;
    expect(btn.getAttribute('aria-busy')).to.equal('false');
    btn.click();
    await m.el.updateComplete;
    expect(btn.textContent!.trim()).to.equal('8 Likes');
    expect(btn.getAttribute('aria-pressed')).to.equal('true');
    // busy until the server answered: a page left before then may lose the like
    await until(() => m.api.calls.some((c) => c.name === 'toggle_block_like'));
    expect(btn.getAttribute('aria-busy')).to.equal('true');
    answer();
    await until(() => events.length === 1);
    await m.el.updateComplete;
    expect(btn.getAttribute('aria-busy')).to.equal('false');
    expect(m.api.calls.map((c) => c.name)).to.deep.equal([
      'get_block_public',
      '/auth/v1/signup',
      'toggle_block_like',
    ]);
    const write = m.api.calls[2]!;
    expect(write.auth).to.match(/^Bearer .+\..+\./);
    expect(write.body.p_block_id).to.equal('b1');
    expect(String(write.body.p_creator_name).length).to.be.greaterThan(0);
    expect(write.body.p_color).to.match(/^#[0-9a-f]{6}$/i);
  });

  it("is the visitor's like after a reload as it is sent: the first like and one on another block", async () => {
    // the server's likes, by block
    const liked = new Set<string>();
    const name = (id: unknown) => (id === idOf('b2') || id === 'b2' ? 'b2' : 'b1');
    api = mockApi({
      get_block_view: (b) => ({
        block: block({ id: name(b.p_block_id), like_count: liked.has(name(b.p_block_id)) ? 1 : 0 }),
        me: { liked: liked.has(name(b.p_block_id)) },
      }),
      toggle_block_like: (b) => (liked.add(name(b.p_block_id)), { liked: true, like_count: 1 }),
    });
    // the visitor leaves the moment a like is sent (newPage: what was still on its way into
    // storage is lost, as on a reload); it reaches the server all the same. What storage held
    // then: the session and the list of blocks written to (core/marks.ts)
    const kept = () =>
      ['session', 'mine'].map((k) => localStorage.getItem(`reaction-blocks.${k}:${PROJECT}`));
    const sent: Array<Array<string | null>> = [];
    onSend('toggle_block_like', () => {
      sent.push(kept());
      newPage();
    });
    for (const id of [B1, idOf('b2')]) {
      const el = await mountReady<ReactionLike>('reaction-like', { 'block-id': id });
      const [, before] = kept();
      el.shadowRoot!.querySelector('button')!.click();
      await until(() => liked.has(name(id)));
      const [session, mine] = sent.at(-1)!;
      expect(session?.slice(0, 4), 'the session in storage as the like is sent').to.equal('rb1.');
      expect(mine?.slice(0, 4), 'the like noted in storage as it is sent').to.equal('rb1.');
      expect(mine).not.to.equal(before);
      // the reload: the same visitor, whose like it is (get_block_me asked, with their session)
      const again = await mountReady<ReactionLike>('reaction-like', { 'block-id': id });
      expect(again.shadowRoot!.querySelector('button')!.getAttribute('aria-pressed')).to.equal(
        'true',
      );
    }
    expect(api.calls.filter((c) => c.name === '/auth/v1/signup')).to.have.length(1);
  });

  it('reverts and shows the server message when the write fails', async () => {
    const m = await mount(() => ({ block: block({ like_count: 3 }), me: { liked: false } }), {
      toggle_block_like: () => {
        throw new ApiError(400, 'block is deactivated');
      },
    });
    api = m.api;
    m.el.shadowRoot!.querySelector('button')!.click();
    await until(() => m.el.shadowRoot!.querySelector('[role=alert]'));
    expect(m.el.shadowRoot!.querySelector('[role=alert]')!.textContent).to.equal(
      'block is deactivated',
    );
    expect(m.el.shadowRoot!.querySelector('button')!.textContent!.trim()).to.equal('3 Likes');
  });

  it('says "going too fast" for a 429, from the database or from the sign-up (en, ko)', async () => {
    for (const [lang, text] of [
      ['en', "You're going too fast, try again in a few seconds."],
      ['ko', '너무 빠릅니다. 몇 초 후에 다시 시도해 주세요.'],
    ] as const) {
      const m = await mount(
        () => ({ block: block({ like_count: 3, language: lang }), me: { liked: false } }),
        {
          toggle_block_like: () => {
            throw new ApiError(429, 'too fast', 'PT429', 'rate_limit');
          },
        },
      );
      api = m.api;
      await until(() => m.el.shadowRoot!.querySelector('button')!.textContent!.includes('3'));
      m.el.shadowRoot!.querySelector('button')!.click();
      await until(() => m.el.shadowRoot!.querySelector('[role=alert]')?.textContent === text);
      expect(m.el.shadowRoot!.querySelector('button')!.textContent!.trim()).to.contain('3');
      api.restore();
      reset();
    }
    // the anonymous sign-up refused by Supabase Auth's per-address limit
    const m = await mount(() => ({ block: block({ like_count: 3 }), me: { liked: false } }), {
      '/auth/v1/signup': () => {
        throw new ApiError(429, 'Request rate limit reached', 'over_request_rate_limit');
      },
    });
    api = m.api;
    m.el.shadowRoot!.querySelector('button')!.click();
    await until(
      () =>
        m.el.shadowRoot!.querySelector('[role=alert]')?.textContent ===
        "You're going too fast, try again in a few seconds.",
    );
    expect(m.api.calls.some((c) => c.name === 'toggle_block_like')).to.equal(false);
  });

  it('takes a refusal that names its wait away once the wait has passed (a burst of clicks)', async () => {
    const said = "You're liking too fast. You can like again in 1 second.";
    const m = await mount(() => ({ block: block({ like_count: 3 }), me: { liked: false } }), {
      toggle_block_like: () => {
        throw new ApiError(
          429,
          said,
          'PT429',
          'rate_limit',
          JSON.stringify({ retry_after: 1, action: 'like', scope: 'visitor' }),
        );
      },
    });
    api = m.api;
    const alert = () => m.el.shadowRoot!.querySelector('[role=alert]')?.textContent ?? '';
    m.el.shadowRoot!.querySelector('button')!.click();
    await until(() => alert() === said);
    // no click after it: the second passes and the sentence goes (bounded only against a hang)
    await until(() => alert() === '', 10000);
    expect(m.el.shadowRoot!.querySelector('button')!.textContent!.trim()).to.equal('3 Likes');
  });

  // its bidi isolates taken out (the server refuses them: a name that reads as another's)
  it("likes under a returning writer's stored name, opened by the write (not before the count)", async () => {
    setProfile({ name: 'Stored \u2066Swan\u2069', color: '#123456' });
    await flush(PROFILE_KEY);
    newPage(); // the profile is sealed in localStorage, not open on this page
    const m = await mount(() => ({ block: block({ like_count: 3 }), me: { liked: false } }));
    api = m.api;
    m.el.shadowRoot!.querySelector('button')!.click();
    await until(() => m.api.calls.some((c) => c.name === 'toggle_block_like'));
    const write = m.api.calls.find((c) => c.name === 'toggle_block_like')!;
    expect(write.body).to.include({ p_creator_name: 'Stored Swan', p_color: '#123456' });
  });

  // Two tabs of a new visitor: the other kept its own new profile while this one's first like
  // signed up, after the like took its name: the like goes under the one kept (rev-break D7)
  it('likes under the profile another tab kept while its first write signed up', async () => {
    const other = { name: 'Tab A Zebra', color: '#123456' };
    const sealed = SEALED + (await seal(PROFILE_KEY, JSON.stringify(other)));
    const m = await mount(() => ({ block: block({ like_count: 3 }), me: { liked: false } }));
    api = m.api;
    const fetched = window.fetch;
    window.fetch = (input, init) => {
      if (String(input).includes('/auth/v1/signup')) localStorage.setItem(PROFILE_KEY, sealed);
      return fetched(input, init);
    };
    m.el.shadowRoot!.querySelector('button')!.click();
    await until(() => m.api.calls.some((c) => c.name === 'toggle_block_like'));
    const write = m.api.calls.find((c) => c.name === 'toggle_block_like')!;
    expect(write.body).to.include({ p_creator_name: other.name, p_color: other.color });
  });

  it('writes nothing in dummy mode', async () => {
    const m = await mount(() => ({ block: block({ like_count: 0 }), me: { liked: false } }));
    api = m.api;
    m.el.dummy = true;
    m.el.shadowRoot!.querySelector('button')!.click();
    await m.el.updateComplete;
    expect(m.el.shadowRoot!.querySelector('button')!.textContent!.trim()).to.equal('1 Like');
    expect(m.api.calls.length).to.equal(1);
  });

  it('renders dark theme, custom colours and Korean', async () => {
    withSession('visitor-1');
    const m = await mount(() => ({
      block: block({
        like_count: 2,
        theme: 'custom',
        language: 'ko',
        custom_color: { '--PRIMARY': '#ff0000', '--BAD': 'x;y', '--SECONDARY': 'url(x)' },
      }),
      me: { liked: true },
    }));
    api = m.api;
    await until(() => m.el.shadowRoot!.querySelector('button')!.textContent!.includes('좋아요'));
    expect(m.el.dataset.theme).to.equal('custom');
    const base = m.el.shadowRoot!.querySelector('[part=base]')!;
    expect(base.getAttribute('style')).to.equal('--PRIMARY:#ff0000');
    expect(getComputedStyle(m.el.shadowRoot!.querySelector('button')!).backgroundColor).to.equal(
      'rgb(255, 0, 0)',
    );
    m.el.theme = 'dark';
    m.el.lang = 'en';
    await m.el.updateComplete;
    expect(m.el.dataset.theme).to.equal('dark');
    expect(m.el.shadowRoot!.querySelector('button')!.textContent!.trim()).to.equal('2 Likes');
    await expect(m.el).to.be.accessible();
  });

  it('aligns as the block says and shows the load error', async () => {
    const m = await mount(() => ({ block: block({ align: 'right' }), me: {} }));
    api = m.api;
    expect(getComputedStyle(m.el.shadowRoot!.querySelector('[part=row]')!).justifyContent).to.equal(
      'flex-end',
    );
    api.restore();
    const m2 = await mount(() => {
      throw new ApiError(500, 'canceling statement due to statement timeout', '57014');
    });
    api = m2.api;
    expect(m2.el['_status']).to.equal('error');
    expect(m2.el.shadowRoot!.textContent).to.contain('Failed to load');
  });

  it('keeps the likes of one page with page-key: its view, its like and its count', async () => {
    const token = withSession('visitor-2');
    api = mockApi({
      get_block_public: (b) => ({
        block: block({ like_count: 3, page_key: b.p_page_key as string }),
      }),
      get_block_me: () => ({
        me: { liked: false },
        block: block({ like_count: 3, page_key: 'p:7' }),
      }),
      toggle_block_like: () => ({ liked: true, like_count: 4 }),
    });
    const el = await mountReady<ReactionLike>('reaction-like', { 'page-key': 'p:7' });
    const [pub, me] = api.rpcCalls();
    // one cache entry per page: the key is part of the GET's address
    expect([pub!.method, pub!.body]).to.deep.equal(['GET', { p_block_id: B1, p_page_key: 'p:7' }]);
    expect(me!.body).to.deep.equal({ p_block_id: 'b1', p_page_key: 'p:7' });
    expect(me!.auth).to.equal('Bearer ' + token);
    el.shadowRoot!.querySelector('button')!.click();
    await until(() => api!.rpcNames().includes('toggle_block_like'));
    await until(() => el.shadowRoot!.querySelector('button')!.textContent!.includes('4'));
    const write = api.rpcCalls().find((c) => c.name === 'toggle_block_like')!;
    expect(write.body).to.include({ p_block_id: 'b1', p_page_key: 'p:7', p_liked: true });
  });
});
