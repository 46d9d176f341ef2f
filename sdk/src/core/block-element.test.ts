// What every block element inherits from BlockElement: which block it shows when its ids change,
// and when the page path puts it in dummy mode. Exercised through <reaction-like>, the smallest.
import { expect, fixture, html } from '@open-wc/testing';
import '../components/like/like.js';
import type ReactionLike from '../components/like/like.component.js';
import { isWorkPath } from './base.js';
import { isLoaded } from './i18n.js';
import type { BlockView } from './types.js';
import {
  ApiError,
  KEY,
  PROJECT,
  block,
  mockApi,
  newPage,
  reset,
  until,
  wait,
  withSession,
} from '../test/mock-api.js';
import { mountReady } from '../test/mount.js';
import '../components/block/block.js';

/** A view per block id, so what the element shows tells which block it loaded. */
const viewOf = (id: string, likes = 0): BlockView => ({
  block: block({ id, like_count: likes, owner_id: 'owner-' + id }),
  me: { liked: false },
});
const text = (el: ReactionLike) => el.shadowRoot!.querySelector('button')?.textContent?.trim();

describe('block elements: loading', () => {
  let api: ReturnType<typeof mockApi>;
  beforeEach(reset);
  afterEach(() => api.restore());

  async function mount(blockId = 'b1') {
    return mountReady<ReactionLike>('reaction-like', { 'block-id': blockId });
  }

  it('loads the other block when block-id changes', async () => {
    api = mockApi({
      get_block_view: (b) => viewOf(String(b.p_block_id), b.p_block_id === 'b2' ? 2 : 1),
    });
    const el = await mount();
    expect(text(el)).to.equal('1 Like');
    const loads: string[] = [];
    el.addEventListener('reaction-load', (e) => loads.push(e.detail.view.block.id));
    el.setAttribute('block-id', 'b2');
    await until(() => el.view?.block.id === 'b2' && el['_status'] === 'ready');
    await el.updateComplete;
    expect(text(el)).to.equal('2 Likes');
    expect(loads).to.deep.equal(['b2']);
    expect(api.rpcCalls().map((c) => c.body.p_block_id)).to.deep.equal(['b1', 'b2']);
  });

  it('loads again when owner-id changes', async () => {
    api = mockApi({ get_block_view: (b) => viewOf(String(b.p_block_id)) });
    const el = await mount();
    el.ownerId = 'owner-b1';
    await until(() => api.rpcCalls().length === 2);
    await until(() => el['_status'] === 'ready');
    expect(api.rpcCalls()[1]!.body).to.deep.equal({ p_block_id: 'b1' });
  });

  it('shows the newest block when an older answer arrives last', async () => {
    // b1 answers after b2 was asked for: its late answer must not replace b2.
    let releaseB1!: () => void;
    const b1 = new Promise<void>((r) => (releaseB1 = r));
    api = mockApi({
      get_block_view: async (b) => {
        if (b.p_block_id === 'slow') await b1;
        return viewOf(String(b.p_block_id), b.p_block_id === 'slow' ? 1 : 2);
      },
    });
    const el = await fixture<ReactionLike>(
      html`<reaction-like block-id="slow" project-url=${PROJECT} anon-key=${KEY}></reaction-like>`,
    );
    await until(() => api.rpcCalls().length === 1);
    el.blockId = 'fast';
    await until(() => el.view?.block.id === 'fast');
    releaseB1();
    await wait(30);
    await el.updateComplete;
    expect(el.view!.block.id).to.equal('fast');
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
      html`<reaction-like block-id="b1" project-url=${PROJECT} anon-key=${KEY}></reaction-like>`,
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

describe('block elements: dummy mode from the page path', () => {
  let api: ReturnType<typeof mockApi> | undefined;
  const before = location.href;
  beforeEach(reset);
  afterEach(() => {
    history.replaceState(null, '', before);
    api?.restore();
  });

  const at = (path: string) => {
    history.replaceState(null, '', path);
    return isWorkPath();
  };

  it('is on only when the first path segment is exactly "work"', () => {
    expect(at('/work/b1')).to.equal(true);
    expect(at('/work')).to.equal(true);
    expect(at('/work/')).to.equal(true);
    expect(at('/network/')).to.equal(false);
    expect(at('/homework')).to.equal(false);
    expect(at('/workshop/x')).to.equal(false);
    expect(at('/blog/work/x')).to.equal(false);
    expect(at('/')).to.equal(false);
  });

  async function clickLike(path: string) {
    history.replaceState(null, '', path);
    api = mockApi({
      get_block_view: () => viewOf('b1'),
      toggle_block_like: () => ({ liked: true, like_count: 1 }),
    });
    const el = await mountReady<ReactionLike>('reaction-like');
    const liked = new Promise((r) => el.addEventListener('reaction-like', r, { once: true }));
    el.shadowRoot!.querySelector('button')!.click();
    await liked;
    const writes = api.rpcCalls().filter((c) => c.name === 'toggle_block_like').length;
    api.restore();
    api = undefined;
    return { el, writes };
  }

  it('writes on host pages whose path merely contains "work"', async () => {
    for (const path of ['/network/', '/homework'])
      expect((await clickLike(path)).writes, path).to.equal(1);
  });

  it('writes nothing on the dashboard path /work/{id}', async () => {
    const { el, writes } = await clickLike('/work/x');
    expect(el['isDummy']).to.equal(true);
    expect(writes).to.equal(0);
  });
});

describe('block elements: a block that is not there', () => {
  let api: ReturnType<typeof mockApi>;
  beforeEach(reset);
  afterEach(() => api.restore());

  const shown = async (tag: 'reaction-like' | 'reaction-block', lang = '') => {
    const el = await fixture<ReactionLike>(
      lang
        ? html`<reaction-like
            block-id="b1"
            lang=${lang}
            project-url=${PROJECT}
            anon-key=${KEY}
          ></reaction-like>`
        : tag === 'reaction-like'
          ? html`<reaction-like
              block-id="b1"
              project-url=${PROJECT}
              anon-key=${KEY}
            ></reaction-like>`
          : html`<reaction-block
              block-id="b1"
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

  it('a block that failed to load offers to try again, and loads when asked', async () => {
    let fail = true;
    api = mockApi({
      get_block_view: () => {
        if (fail) throw new ApiError(500, 'internal error', 'XX000');
        return { block: block({ type: 'like', like_count: 4 }), me: {} };
      },
    });
    const el = await fixture<HTMLElement & { updateComplete: Promise<unknown> }>(
      html`<reaction-like block-id="b1" project-url=${PROJECT} anon-key=${KEY}></reaction-like>`,
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
    const el = await mountReady<ReactionLike>('reaction-like', { 'block-id': blockId });
    el.remove();
    return api.rpcNames().slice(from);
  }

  async function like(blockId: string): Promise<void> {
    const el = await mountReady<ReactionLike>('reaction-like', { 'block-id': blockId });
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
