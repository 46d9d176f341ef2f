// What every block element inherits from BlockElement: which block it shows when its ids change,
// and that only the `dummy` property (the dashboard's preview), never the page path, puts it in dummy mode. Exercised through <reaction-like>, the smallest.
import { expect, fixture, html } from '@open-wc/testing';
import '../components/like/like.js';
import '../components/ab/ab.js';
import '../components/button/button.js';
import type ReactionLike from '../components/like/like.component.js';
import { isLoaded } from './i18n.js';
import type { BlockView } from './types.js';
import {
  B1,
  ApiError,
  KEY,
  PROJECT,
  block,
  fakeJwt,
  idOf,
  mockApi,
  mockApiPerTest,
  newPage,
  reset,
  until,
  wait,
  withSession,
} from '../test/mock-api.js';
import { eventually } from '../../../scripts/poll.js';
import { mountReady } from '../test/mount.js';
import { captcha, whichOne } from '../test/fixtures.js';
import { saveSession } from './auth.js';
import { getSession, key, loadSession } from './session.js';
import '../components/block/block.js';

/** A view per block id, so what the element shows tells which block it loaded. */
const viewOf = (id: string, likes = 0): BlockView => ({
  block: block({ id, like_count: likes, owner_id: 'owner-' + id }),
  me: { liked: false },
});
const [B2, SLOW, FAST] = [idOf('b2'), idOf('slow'), idOf('fast')];
const text = (el: ReactionLike) => el.shadowRoot!.querySelector('button')?.textContent?.trim();

describe('block elements: loading', () => {
  let api: ReturnType<typeof mockApi>;
  mockApiPerTest();

  async function mount(blockId = B1) {
    return mountReady<ReactionLike>('reaction-like', { 'block-id': blockId });
  }

  it('loads the other block when block-id changes', async () => {
    api = mockApi({
      get_block_view: (b) => viewOf(String(b.p_block_id), b.p_block_id === B2 ? 2 : 1),
    });
    const el = await mount();
    expect(text(el)).to.equal('1 Like');
    const loads: string[] = [];
    el.addEventListener('reaction-load', (e) => loads.push(e.detail.view.block.id));
    el.setAttribute('block-id', B2);
    await until(() => el.view?.block.id === B2 && el['_status'] === 'ready');
    await el.updateComplete;
    expect(text(el)).to.equal('2 Likes');
    expect(loads).to.deep.equal([B2]);
    expect(api.rpcCalls().map((c) => c.body.p_block_id)).to.deep.equal([B1, B2]);
  });

  it('loads again when owner-id changes', async () => {
    api = mockApi({ get_block_view: (b) => viewOf(String(b.p_block_id)) });
    const el = await mount();
    el.ownerId = 'owner-b1';
    await until(() => api.rpcCalls().length === 2);
    await until(() => el['_status'] === 'ready');
    expect(api.rpcCalls()[1]!.body).to.deep.equal({ p_block_id: B1 });
  });

  it('shows the newest block when an older answer arrives last', async () => {
    // b1 answers after b2 was asked for: its late answer must not replace b2.
    let releaseB1!: () => void;
    const b1 = new Promise<void>((r) => (releaseB1 = r));
    api = mockApi({
      get_block_view: async (b) => {
        if (b.p_block_id === SLOW) await b1;
        return viewOf(String(b.p_block_id), b.p_block_id === SLOW ? 1 : 2);
      },
    });
    const el = await fixture<ReactionLike>(
      html`<reaction-like block-id=${SLOW} project-url=${PROJECT} anon-key=${KEY}></reaction-like>`,
    );
    await until(() => api.rpcCalls().length === 1);
    el.blockId = FAST;
    await until(() => el.view?.block.id === FAST);
    releaseB1();
    await wait(30);
    await el.updateComplete;
    expect(el.view!.block.id).to.equal(FAST);
    expect(el['_status']).to.equal('ready');
    expect(text(el)).to.equal('2 Likes');
  });

  it('renders a view given with block-id in the same update without fetching', async () => {
    api = mockApi({ get_block_view: (b) => viewOf(String(b.p_block_id), 9) });
    const given = viewOf('given', 4);
    const el = await fixture<ReactionLike>(
      html`<reaction-like
        .view=${given}
        block-id="given"
        project-url=${PROJECT}
        anon-key=${KEY}
      ></reaction-like>`,
    );
    expect(el['_status']).to.equal('ready');
    expect(text(el)).to.equal('4 Likes');
    // Both change together (as React props do): still no fetch, the new view shows.
    el.view = viewOf('other', 5);
    el.blockId = 'other';
    await el.updateComplete;
    expect(text(el)).to.equal('5 Likes');
    await wait(20);
    expect(api.rpcCalls()).to.have.length(0);
  });

  it('keeps a view given while a load is in flight', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    api = mockApi({
      get_block_view: async (b) => {
        await gate;
        return viewOf(String(b.p_block_id), 1);
      },
    });
    const el = await fixture<ReactionLike>(
      html`<reaction-like block-id=${B1} project-url=${PROJECT} anon-key=${KEY}></reaction-like>`,
    );
    await until(() => api.rpcCalls().length === 1);
    el.view = viewOf('preview', 3);
    await el.updateComplete;
    release();
    await wait(30);
    await el.updateComplete;
    expect(el.view!.block.id).to.equal('preview');
    expect(text(el)).to.equal('3 Likes');
  });
});

describe('block elements: dummy mode only when the dashboard preview asks (never from the path)', () => {
  let api: ReturnType<typeof mockApi> | undefined;
  const before = location.href;
  beforeEach(reset);
  afterEach(() => {
    history.replaceState(null, '', before);
    api?.restore();
  });

  async function clickLike(path: string, dummy = false) {
    history.replaceState(null, '', path);
    api = mockApi({
      get_block_view: () => viewOf('b1'),
      toggle_block_like: () => ({ liked: true, like_count: 1 }),
    });
    const el = await mountReady<ReactionLike>('reaction-like');
    el.dummy = dummy;
    await el.updateComplete;
    const liked = new Promise((r) => el.addEventListener('reaction-like', r, { once: true }));
    el.shadowRoot!.querySelector('button')!.click();
    await liked;
    const writes = api.rpcCalls().filter((c) => c.name === 'toggle_block_like').length;
    api.restore();
    api = undefined;
    return { el, writes };
  }

  it('writes on every host page, /work/... included (a portfolio section is not the dashboard)', async () => {
    for (const path of ['/work/our-projects', '/work/x', '/work', '/network/', '/homework']) {
      const { el, writes } = await clickLike(path);
      expect(el['isDummy'], path).to.equal(false);
      expect(writes, path).to.equal(1);
    }
  });

  it("writes nothing in the dashboard's preview (dummy set), whatever the path", async () => {
    for (const path of ['/work/x', '/blog/post-1']) {
      const { el, writes } = await clickLike(path, true);
      expect(el['isDummy'], path).to.equal(true);
      expect(writes, path).to.equal(0);
    }
  });
});

describe('block elements: a block that is not there', () => {
  let api: ReturnType<typeof mockApi>;
  mockApiPerTest();

  const shown = async (tag: 'reaction-like' | 'reaction-block', lang = '', id = B1) => {
    const el = await fixture<ReactionLike>(
      lang
        ? html`<reaction-like
            block-id=${id}
            lang=${lang}
            project-url=${PROJECT}
            anon-key=${KEY}
          ></reaction-like>`
        : tag === 'reaction-like'
          ? html`<reaction-like
              block-id=${id}
              project-url=${PROJECT}
              anon-key=${KEY}
            ></reaction-like>`
          : html`<reaction-block
              block-id=${id}
              project-url=${PROJECT}
              anon-key=${KEY}
            ></reaction-block>`,
    );
    await until(() => ['error', 'unavailable'].includes(el['_status']));
    await el.updateComplete;
    // the Korean texts load (a chunk of their own), then the element renders again
    if (lang) await until(() => isLoaded(lang));
    await el.updateComplete;
    const base = el.shadowRoot!.querySelector('[part=base]')!;
    return (base.querySelector('[role=alert]') ?? base).textContent!.trim();
  };
  // What the visitor RPCs answer for a missing or deactivated block (PostgREST: 404, code PT404).
  const missing = () => {
    throw new ApiError(404, "block doesn't exists", 'PT404');
  };

  it('a missing or deactivated block (the server\'s "block doesn\'t exists") is not available, in en and ko', async () => {
    api = mockApi({ get_block_view: missing });
    expect(await shown('reaction-like')).to.equal('This block is not available.');
    expect(await shown('reaction-block')).to.equal('This block is not available.');
    expect(await shown('reaction-like', 'ko')).to.equal('사용할 수 없는 블록입니다.');
  });

  // A mistyped block-id (not a uuid) would be a bad request, shown as a failure to load: it is
  // never sent, said once (a load) in the console with the attribute's name, and shown as no such
  // block.
  it('a block-id that is not a block id asks nothing, says so once, and is not available, in en and ko', async () => {
    api = mockApi({ get_block_view: () => ({ block: block({ type: 'like' }), me: {} }) });
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warned.push(args.join(' '));
    try {
      expect(await shown('reaction-like', '', 'b1')).to.equal('This block is not available.');
      expect(await shown('reaction-block', '', 'b1')).to.equal('This block is not available.');
      expect(await shown('reaction-like', 'ko', 'b1 ')).to.equal('사용할 수 없는 블록입니다.');
    } finally {
      console.warn = warn;
    }
    expect(api.calls, 'no request').to.have.length(0);
    expect(
      warned.filter((w) => w.includes('block-id')),
      'once an element',
    ).to.have.length(3);
  });

  it('a block that failed to load offers to try again, and loads when asked', async () => {
    let fail = true;
    api = mockApi({
      get_block_view: () => {
        if (fail) throw new ApiError(500, 'internal error', 'XX000');
        return { block: block({ type: 'like', like_count: 4 }), me: {} };
      },
    });
    const el = await fixture<HTMLElement & { updateComplete: Promise<unknown> }>(
      html`<reaction-like block-id=${B1} project-url=${PROJECT} anon-key=${KEY}></reaction-like>`,
    );
    await until(() => el.shadowRoot!.querySelector('[role=alert]'));
    await expect(el).to.be.accessible();
    const again = el.shadowRoot!.querySelector<HTMLButtonElement>('[part=base] button')!;
    expect(again.textContent!.trim()).to.equal('Try again');
    fail = false;
    again.click();
    await until(() => el.shadowRoot!.querySelector('[part~=count]'));
    expect(el.shadowRoot!.querySelector('[part~=count]')!.textContent).to.equal('4 Likes');
  });

  it('server and network failures still say "Failed to load"', async () => {
    api = mockApi({
      get_block_view: () => {
        throw new ApiError(500, 'internal error', 'XX000');
      },
    });
    expect(await shown('reaction-like')).to.equal('Failed to load');
    api.restore();
    // PostgREST's 404 for an unknown function is a server problem, not a missing block.
    api = mockApi({});
    expect(await shown('reaction-block')).to.equal('Failed to load');
    expect(await shown('reaction-like', 'ko')).to.equal('불러오지 못했습니다');
    api.restore();
    const real = window.fetch;
    window.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    api = { restore: () => (window.fetch = real) } as ReturnType<typeof mockApi>;
    expect(await shown('reaction-like')).to.equal('Failed to load');
  });
});

describe("block elements: the visitor's own part only where it can differ from nothing", () => {
  let api: ReturnType<typeof mockApi>;
  beforeEach(() => {
    reset();
    api = mockApi({
      get_block_view: (b) => viewOf(String(b.p_block_id)),
      toggle_block_like: () => ({ liked: true, like_count: 1 }),
    });
  });
  afterEach(() => api.restore());

  /** A page view of one block: what the element asked. */
  async function view(blockId: string): Promise<string[]> {
    newPage();
    const from = api.rpcCalls().length;
    const el = await mountReady<ReactionLike>('reaction-like', { 'block-id': idOf(blockId) });
    el.remove();
    return api.rpcNames().slice(from);
  }

  async function like(blockId: string): Promise<void> {
    const el = await mountReady<ReactionLike>('reaction-like', { 'block-id': idOf(blockId) });
    const liked = new Promise((r) => el.addEventListener('reaction-like', r, { once: true }));
    el.shadowRoot!.querySelector('button')!.click();
    await liked;
    el.remove();
  }

  it('reads get_block_me only on the blocks a new visitor wrote to', async () => {
    expect(await view('b1')).to.deep.equal(['get_block_public']);
    await like('b1'); // the first write makes the anonymous user and starts the list
    expect(api.calls.filter((c) => c.name === '/auth/v1/signup')).to.have.length(1);
    await like('b3');
    expect(await view('b2')).to.deep.equal(['get_block_public']);
    expect(await view('b1')).to.deep.equal(['get_block_public', 'get_block_me']);
    expect(await view('b3')).to.deep.equal(['get_block_public', 'get_block_me']);
    // kept sealed, like the session: no block id in plain
    const raw = localStorage.getItem('reaction-blocks.mine:' + PROJECT)!;
    expect(raw.startsWith('rb1.')).to.equal(true);
    expect(raw).not.to.contain(`"`); // not JSON: nothing in plain
  });

  it('reads it on every view for a visitor whose first writes it did not see, or signed in', async () => {
    withSession('from-an-older-sdk');
    expect(await view('b2')).to.deep.equal(['get_block_public', 'get_block_me']);
    reset();
    withSession('signed-in', false);
    await like('b1');
    expect(await view('b2')).to.deep.equal(['get_block_public', 'get_block_me']);
  });

  it("never uses another visitor's list", async () => {
    await like('b1');
    expect(await view('b2')).to.deep.equal(['get_block_public']);
    withSession('someone-else'); // another anonymous user in this browser
    expect(await view('b2')).to.deep.equal(['get_block_public', 'get_block_me']);
  });
});

// A signed-in visitor whose session the auth server refuses when they write (revoked, or signed
// out where this page did not hear it) is shown signed out (the session forgotten) and the write
// says so: it is not sent as a new anonymous visitor's, in any element (as comment.writer.ts
// posts nothing), nor after a captcha.
describe("block elements: a signed-in visitor's session refused at a write", () => {
  let api: ReturnType<typeof mockApi>;
  mockApiPerTest();

  const p = { url: PROJECT, key: KEY } as never;
  const refused = () => Response.json({ error: 'invalid_grant' }, { status: 400 });
  const writes = {
    like: ['toggle_block_like', 'button'],
    ab: ['submit_response', '[part=option]'],
    button: ['record_button_click', 'a[part=button]'],
  } as const;

  for (const [type, [rpc, control]] of Object.entries(writes))
    for (const checked of type === 'like' ? [false, true] : [false])
      it(`${type}: nothing is sent, no anonymous sign-up, the visitor signed out${checked ? ' (after a captcha)' : ''}`, async () => {
        let tripped = !checked;
        api = mockApi({
          get_block_view: () => ({
            block: block({ type, url_to_open: 'https://example.com/x', captcha }),
            questions: [
              whichOne(
                'ab',
                [
                  ['Good', 1],
                  ['Bad', 1],
                ],
                true,
              ),
            ],
            me: {},
          }),
          [rpc]: () => {
            if (tripped) return { liked: true, like_count: 1, response_count: 1 };
            tripped = true;
            throw new ApiError(429, 'too fast', 'PT429', 'captcha');
          },
          '/functions/v1/verify-captcha': () => ({ data: { passed: true } }),
          '/auth/v1/token': refused,
        });
        withSession('owner-1', false, { user_metadata: { full_name: 'New Owner' } });
        const el = await mountReady<ReactionLike>('reaction-' + type);
        const errors: string[] = [];
        el.addEventListener('reaction-error', (e) =>
          errors.push(e.detail.code + ' ' + e.detail.message),
        );
        el.addEventListener('reaction-click', (e) => e.preventDefault()); // keep the test page
        const stale = () => saveSession(p, { ...getSession(p)!, expires_at: 1 });
        if (!checked) stale();
        el.shadowRoot!.querySelector<HTMLElement>(control)!.click();
        if (checked) {
          await until(() => el.querySelector('[slot=captcha] button'));
          stale();
          el.querySelector<HTMLButtonElement>('[slot=captcha] button')!.click();
        }
        await until(() => errors.length);
        expect(errors).to.deep.equal([
          'signed_out You were signed out, so this was not sent. Try again to send it.',
        ]);
        const sent = api.calls.map((c) => c.name);
        expect(sent, 'the refresh asked').to.include('/auth/v1/token');
        expect(sent, 'no anonymous sign-up, no pass').to.not.include.any.members([
          '/auth/v1/signup',
          '/functions/v1/verify-captcha',
        ]);
        expect(
          sent.filter((n) => n === rpc),
          'the write',
        ).to.have.length(checked ? 1 : 0);
        expect(getSession(p), 'signed out').to.equal(null);
        await el.updateComplete;
        if (type !== 'button')
          expect(el.shadowRoot!.querySelector('[part~=error]')!.textContent).to.equal(
            'You were signed out, so this was not sent. Try again to send it.',
          );
        // tried again, it is sent, as the text says: by whoever the visitor is now (no one
        // signed in: a new anonymous visitor)
        el.shadowRoot!.querySelector<HTMLElement>(control)!.click();
        const writes = () => api.calls.filter((c) => c.name === rpc);
        await until(() => writes().length === (checked ? 2 : 1));
        expect(api.calls.filter((c) => c.name === '/auth/v1/signup')).to.have.length(1);
        expect(writes().at(-1)!.auth).to.not.equal('Bearer ' + KEY);
        await wait(20);
        expect(errors, 'nothing more said').to.have.length(1);
      });
});

// What a like (every element's write goes the same way, core/writer.ts send) does when the
// signed-in visitor's session changes under it: while the captcha is shown (logged out, or
// another account signed in, in another tab), when the auth server cannot be reached, when the
// server does not take its token at all; and what a retry after the refusal does.
describe("block elements: a signed-in visitor's write and the session under it", () => {
  let api: ReturnType<typeof mockApi>;
  mockApiPerTest();

  const p = { url: PROJECT, key: KEY } as never;
  const likeView = () => ({ block: block({ captcha }), me: {} });
  /** Another account's session, signed in in another tab. */
  const walt = {
    access_token: fakeJwt('walt'),
    refresh_token: 'rw',
    expires_at: Date.now() / 1000 + 3600,
    user: { id: 'walt', is_anonymous: false },
  };
  /** A like block whose first like trips the limit (with the captcha on), the next goes. */
  function serve(more: Record<string, (b: Record<string, unknown>) => unknown> = {}) {
    let tripped = false;
    api = mockApi({
      get_block_view: likeView,
      toggle_block_like: () => {
        if (tripped) return { liked: true, like_count: 1 };
        tripped = true;
        throw new ApiError(429, 'too fast', 'PT429', 'captcha');
      },
      '/functions/v1/verify-captcha': () => ({ data: { passed: true } }),
      ...more,
    });
  }
  async function mountLike() {
    const el = await mountReady<ReactionLike>('reaction-like');
    const errors: string[] = [];
    el.addEventListener('reaction-error', (e) =>
      errors.push(e.detail.code + ' ' + e.detail.message),
    );
    return { el, errors, button: () => el.shadowRoot!.querySelector('button')! };
  }
  const sent = (name: string) => api.calls.filter((c) => c.name === name);

  for (const change of ['logged out', 'another account signed in'] as const)
    it(`${change} while the captcha is shown: no pass asked, nothing sent again, no sign-up`, async () => {
      serve();
      const vera = withSession('vera', false, { user_metadata: { full_name: 'Vera' } });
      const { el, errors, button } = await mountLike();
      button().click();
      await until(() => el.querySelector('[slot=captcha] button'));
      // in another tab: the same storage
      if (change === 'logged out') saveSession(p, null);
      else saveSession(p, walt);
      el.querySelector<HTMLButtonElement>('[slot=captcha] button')!.click();
      await until(() => errors.length);
      expect(errors).to.deep.equal([
        'signed_out You were signed out, so this was not sent. Try again to send it.',
      ]);
      expect(sent('/functions/v1/verify-captcha'), 'no pass').to.have.length(0);
      expect(sent('/auth/v1/signup'), 'no sign-up').to.have.length(0);
      const likes = sent('toggle_block_like');
      expect(likes, 'only the first like').to.have.length(1);
      expect(likes[0]!.auth).to.equal('Bearer ' + vera);
    });

  for (const change of ['logs out', 'another account signs in'] as const)
    it(`a refresh on its way when the visitor ${change} elsewhere saves nothing over it`, async () => {
      let answer!: () => void;
      const held = new Promise<void>((r) => (answer = r));
      api = mockApi({
        get_block_view: likeView,
        '/auth/v1/token': async () => {
          await held;
          return {
            access_token: fakeJwt('vera'),
            refresh_token: 'r2',
            expires_in: 3600,
            user: { id: 'vera', is_anonymous: false },
          };
        },
        '/auth/v1/logout': () => new Response(null, { status: 204 }),
      });
      withSession('vera', false);
      saveSession(p, { ...getSession(p)!, expires_at: 1 });
      const { ensureSession, signOut } = await import('./auth.js');
      const refreshed = ensureSession(p, false);
      await until(() => sent('/auth/v1/token').length);
      // in this tab (the log out clears at once) or another (the same storage)
      const out = change === 'logs out' ? signOut(p) : saveSession(p, walt);
      const now = change === 'logs out' ? null : 'walt';
      answer();
      expect((await refreshed)?.user.id ?? null, 'the session the refresh gives').to.equal(now);
      await out;
      await wait(20);
      newPage();
      expect((await loadSession(p))?.user.id ?? null, 'the session kept').to.equal(now);
      if (!now) expect(localStorage.getItem(key(p)), 'nothing stored').to.equal(null);
    });

  /** Runs `test` with core/auth.ts's waits shortened to `ms`, then puts them back. */
  async function shortWaits(ms: number, test: () => Promise<void>) {
    const { waits } = await import('./auth.js');
    const before = { ...waits };
    Object.assign(waits, { fetch: ms, lock: ms });
    try {
      await test();
    } finally {
      Object.assign(waits, before);
    }
  }

  it('a refresh stalled in another tab holds nothing here past the lock’s wait: the block loads as a signed-out visitor’s, no second refresh', () =>
    shortWaits(300, async () => {
      api = mockApi({ get_block_view: () => ({ block: block({ like_count: 3 }), me: {} }) });
      withSession('vera', false);
      saveSession(p, { ...getSession(p)!, expires_at: 1 });
      // another tab's refresh (the SDK's or the dashboard's client) whose answer does not come
      let release!: () => void;
      const held = navigator.locks.request(
        'lock:' + key(p),
        () => new Promise<void>((r) => (release = r)),
      );
      try {
        const el = await mountReady<ReactionLike>('reaction-like');
        expect(text(el)).to.equal('3 Likes');
        expect(sent('/auth/v1/token'), 'no refresh beside the held one').to.have.length(0);
        expect((await loadSession(p))?.user.id, 'kept for when it lands').to.equal('vera');
        // a log out waits no longer either, and clears
        const { signOut } = await import('./auth.js');
        api = mockApi({ '/auth/v1/logout': () => new Response(null, { status: 204 }) });
        await signOut(p);
        expect(getSession(p)).to.equal(null);
      } finally {
        release();
        await held;
      }
    }));

  it('a refresh whose answer does not come is given up: one for two callers, the session kept for the next try, the lock free once its answer is no longer waited for', () =>
    shortWaits(300, async () => {
      // (until then a refresh of the session joins it and another tab's waits for the lock:
      // auth-refresh.test)
      const { waits } = await import('./auth.js');
      waits.flight = 300;
      let stalled = true;
      api = mockApi({
        '/auth/v1/token': () =>
          stalled
            ? new Promise(() => {})
            : {
                access_token: fakeJwt('vera'),
                refresh_token: 'r2',
                expires_in: 3600,
                user: { id: 'vera', is_anonymous: false },
              },
      });
      withSession('vera', false);
      saveSession(p, { ...getSession(p)!, expires_at: 1 });
      const { ensureSession } = await import('./auth.js');
      expect(await Promise.all([ensureSession(p, false), ensureSession(p, false)])).to.deep.equal([
        null,
        null,
      ]);
      expect(sent('/auth/v1/token')).to.have.length(1);
      expect((await loadSession(p))?.user.id, 'kept').to.equal('vera');
      await eventually(
        () => navigator.locks.request('lock:' + key(p), { ifAvailable: true }, (l) => l !== null),
        2000,
        'the lock free',
        5,
      );
      // the next read tries again, and the server answers now
      stalled = false;
      expect((await ensureSession(p, false))?.refresh_token).to.equal('r2');
      expect(sent('/auth/v1/token').map((c) => c.body.refresh_token)).to.deep.equal(['r', 'r']);
    }));

  /**
   * What the auth server answers to a refresh of vera's session: a new one, `r2`; its token made
   * once (fakeJwt's exp is in whole seconds: one made again at the assertion differed 1 run in 5)
   */
  const r2Token = fakeJwt('vera', { is_anonymous: true, iat: 2 });
  const rotated = () => ({
    access_token: r2Token,
    refresh_token: 'r2',
    expires_in: 3600,
    user: { id: 'vera', is_anonymous: true },
  });

  it("a token expired on the server's clock (a device clock behind): refreshed once, the read goes again with the new one, the visitor kept", async () => {
    const old = withSession('vera');
    api = mockApi({
      get_block_view: () => ({ block: block({ like_count: 3 }), me: {} }),
      // PostgREST's answer to an expired token
      get_block_me: () => {
        if (api.calls.at(-1)!.auth === 'Bearer ' + old)
          throw new ApiError(401, 'JWT expired', 'PGRST303');
        return { me: { liked: true } };
      },
      '/auth/v1/token': rotated,
    });
    const el = await mountReady<ReactionLike>('reaction-like');
    expect(sent('/auth/v1/token').map((c) => c.body.refresh_token)).to.deep.equal(['r']);
    expect(getSession(p)?.refresh_token, 'kept, refreshed').to.equal('r2');
    expect(sent('get_block_me').map((c) => c.auth)).to.deep.equal([
      'Bearer ' + old,
      'Bearer ' + rotated().access_token,
    ]);
    expect(el.shadowRoot!.querySelector('button')?.getAttribute('aria-pressed')).to.equal('true');
  });

  it('a write whose token expired on the server: refreshed once and sent again as the same visitor; the auth server out of reach: kept, not sent', async () => {
    const old = withSession('vera');
    let reachable = true;
    api = mockApi({
      get_block_view: () => ({ block: block(), me: {} }),
      toggle_block_like: () => {
        if (api.calls.at(-1)!.auth === 'Bearer ' + old)
          throw new ApiError(401, 'JWT expired', 'PGRST303');
        return { liked: true, like_count: 1 };
      },
      '/auth/v1/token': () => {
        if (!reachable) throw new TypeError('Failed to fetch');
        return rotated();
      },
    });
    const { errors, button } = await mountLike();
    button().click();
    await until(() => sent('toggle_block_like').length === 2);
    await until(() => button().getAttribute('aria-pressed') === 'true');
    expect(errors).to.deep.equal([]);
    expect(sent('toggle_block_like').map((c) => c.auth)).to.deep.equal([
      'Bearer ' + old,
      'Bearer ' + rotated().access_token,
    ]);
    expect(sent('/auth/v1/signup')).to.have.length(0);
    expect(getSession(p)?.refresh_token).to.equal('r2');

    // the same with the auth server out of reach: nothing sent as anyone else, the session kept
    withSession('vera');
    newPage();
    reachable = false;
    const second = await mountLike();
    second.button().click();
    // a bound on a hang, not a measure: the write may wait for the session lock (auth.ts waits.lock)
    // the first element still on the page holds, which at load took over until's 2 s (CI 04:10)
    await until(() => second.errors.length, 15_000);
    expect(second.errors[0]).to.match(/^network /);
    expect(sent('/auth/v1/signup')).to.have.length(0);
    expect(getSession(p)?.refresh_token, 'kept for the next try').to.equal('r');
  });

  it('a refresh answered after the wait (the server rotated the token) is kept when it comes: no second refresh with the used token', () =>
    shortWaits(300, async () => {
      let answer!: () => void;
      api = mockApi({
        '/auth/v1/token': () =>
          new Promise((r) => (answer = () => r({ ...rotated(), user: { id: 'vera' } }))),
      });
      withSession('vera', false);
      saveSession(p, { ...getSession(p)!, expires_at: 1 });
      const { ensureSession } = await import('./auth.js');
      expect(await ensureSession(p, false), 'given up after the wait').to.equal(null);
      answer();
      await until(() => getSession(p)?.refresh_token === 'r2');
      expect((await ensureSession(p, false))?.refresh_token).to.equal('r2');
      expect(sent('/auth/v1/token')).to.have.length(1);
    }));

  it('a token the server does not take: the session is forgotten, said once, and the block loads as a signed-out visitor', async () => {
    const forged = fakeJwt('vera', { is_anonymous: false }) + 'x';
    api = mockApi({
      get_block_view: () => ({ block: block({ like_count: 3 }), me: {} }),
      // PostgREST's answer to a token it cannot verify; the anon key's read goes
      get_block_me: () => {
        if (api.calls.at(-1)!.auth === 'Bearer ' + forged)
          throw new ApiError(401, 'JWSError JWSInvalidSignature', 'PGRST301');
        return { me: {} };
      },
    });
    const real = api.calls;
    withSession('vera', false, {}, forged);
    const logged: string[] = [];
    const warn = console.warn;
    console.warn = (...a: unknown[]) => logged.push(a.join(' '));
    try {
      const el = await mountReady<ReactionLike>('reaction-like');
      expect(el.shadowRoot!.querySelector('button')?.textContent?.trim()).to.equal('3 Likes');
      expect(getSession(p), 'signed out').to.equal(null);
      expect(
        real.filter((c) => c.name === 'get_block_me').map((c) => c.auth),
        'asked with the token, then without',
      ).to.deep.equal(['Bearer ' + forged, 'Bearer ' + KEY]);
      // a second element on the page (and the next page) reads as a signed-out visitor
      const other = await mountReady<ReactionLike>('reaction-like');
      expect(other.shadowRoot!.querySelector('button')?.textContent?.trim()).to.equal('3 Likes');
      expect(real.filter((c) => c.name === 'get_block_me')).to.have.length(2);
      expect(logged.filter((l) => l.includes('signed out'))).to.have.length(1);
    } finally {
      console.warn = warn;
    }
  });

  it("a write whose token the server does not take: a signed-in visitor's is not sent again as anyone else's", async () => {
    const forged = fakeJwt('vera', { is_anonymous: false }) + 'x';
    api = mockApi({
      get_block_view: () => ({ block: block(), me: {} }),
      toggle_block_like: () => {
        throw new ApiError(401, 'JWSError JWSInvalidSignature', 'PGRST301');
      },
    });
    withSession('vera', false, {}, forged);
    const { errors, button } = await mountLike();
    button().click();
    await until(() => errors.length);
    expect(errors).to.deep.equal([
      'signed_out You were signed out, so this was not sent. Try again to send it.',
    ]);
    expect(sent('toggle_block_like')).to.have.length(1);
    expect(sent('/auth/v1/signup')).to.have.length(0);
    expect(getSession(p)).to.equal(null);
  });

  for (const who of ['signed in', 'anonymous'] as const)
    it(`the auth server unreachable with an expired session (${who}): nothing sent, the element's own words`, async () => {
      api = mockApi({
        get_block_view: () => ({ block: block({ language: 'ko' }), me: {} }),
        toggle_block_like: () => ({ liked: true, like_count: 1 }),
        '/auth/v1/token': () => {
          throw new TypeError('Failed to fetch');
        },
      });
      withSession('vera', who === 'anonymous');
      saveSession(p, { ...getSession(p)!, expires_at: 1 });
      const { el, errors, button } = await mountLike();
      button().click();
      await until(() => errors.length);
      expect(errors).to.deep.equal(['network 서버에 연결하지 못했습니다. 다시 시도해 주세요.']);
      expect(sent('toggle_block_like'), 'nothing sent').to.have.length(0);
      expect(sent('/auth/v1/signup')).to.have.length(0);
      expect(getSession(p)?.user.id, 'kept for the next try').to.equal('vera');
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part~=error]')!.textContent).to.equal(
        '서버에 연결하지 못했습니다. 다시 시도해 주세요.',
      );
    });
});
