import { expect, fixture, html } from '@open-wc/testing';
import { REACTION_BLOCK_TYPES } from '@reaction-blocks/contracts/enums';
import './block.js';
import type ReactionBlock from './block.component.js';
import type ReactionComment from '../comment/comment.component.js';
import type { Message } from '../../core/types.js';
import {
  B1,
  KEY,
  PROJECT,
  block,
  fakeJwt,
  idOf,
  mockApi,
  mockApiPerTest,
  until,
  withSession,
} from '../../test/mock-api.js';
import { mountReady } from '../../test/mount.js';
import { onPagesOf, ownUiLeftToRight } from '../../test/page-dir.js';
import { message, whichOne } from '../../test/fixtures.js';

describe('reaction-block', () => {
  let api: ReturnType<typeof mockApi>;
  mockApiPerTest();

  async function mount(type: string, over = {}, questions: unknown[] = []) {
    api = mockApi({
      get_block_view: () => ({
        block: block({ type, ...over }),
        questions,
        endings: [],
        messages: [],
        me: {},
      }),
    });
    const el = await fixture<ReactionBlock>(
      html`<reaction-block
        block-id=${B1}
        project-url=${PROJECT}
        anon-key=${KEY}
        theme="dark"
      ></reaction-block>`,
    );
    await until(() => el['_status'] === 'ready' || el['_status'] === 'error');
    await el.updateComplete;
    return el;
  }

  it('is accessible', async () => {
    await expect(await mount('like')).to.be.accessible();
  });

  for (const type of REACTION_BLOCK_TYPES)
    it(`renders a ${type} block with one API call and passes the theme override`, async () => {
      const el = await mount(type);
      const inner = el.shadowRoot!.querySelector('reaction-' + type) as HTMLElement & {
        updateComplete: Promise<unknown>;
      };
      expect(inner, type).to.not.equal(null);
      await inner.updateComplete;
      expect(inner.dataset.theme).to.equal('dark');
      expect(inner.shadowRoot!.querySelector('[part=base]')).to.not.equal(null);
      expect(api.rpcCalls().map((c) => c.name)).to.deep.equal(['get_block_public']);
    });

  it('reads and writes the page it is given: the page key goes to the view and the element', async () => {
    api = mockApi({
      get_block_view: () => ({
        block: block({ type: 'comment' }),
        questions: [],
        endings: [],
        messages: [],
        me: {},
      }),
    });
    const el = await mountReady<ReactionBlock>('reaction-block', { 'page-key': 'shop:product:12' });
    const inner = el.shadowRoot!.querySelector('reaction-comment') as ReactionComment;
    expect(inner.pageKey).to.equal('shop:product:12');
    expect(api.rpcCalls()[0]).to.deep.include({ name: 'get_block_public' });
    expect(api.rpcCalls()[0]!.body).to.deep.include({ p_page_key: 'shop:product:12' });
  });

  it("forwards the rendered element's parts under their own names", async () => {
    const style = document.createElement('style');
    style.textContent = `reaction-block::part(button) { letter-spacing: 3px }
      reaction-block::part(submit) { word-spacing: 7px }`;
    document.head.append(style);
    try {
      const like = await mount('like');
      const button = like
        .shadowRoot!.querySelector('reaction-like')!
        .shadowRoot!.querySelector('[part~=button]')!;
      expect(getComputedStyle(button).letterSpacing).to.equal('3px');
      api.restore();
      const comment = await mount('comment');
      const send = comment
        .shadowRoot!.querySelector('reaction-comment')!
        .shadowRoot!.querySelector('[part~=submit]')!;
      expect(getComputedStyle(send).wordSpacing).to.equal('7px');
    } finally {
      style.remove();
    }
  });

  const question = (type: 'ab' | 'poll') =>
    whichOne(type, [
      ['A', 1],
      ['B', 0],
    ]);
  for (const type of REACTION_BLOCK_TYPES)
    it(`forwards every part a ${type} block renders`, async () => {
      const el = await mount(type, { show_count: true }, [question(type === 'ab' ? 'ab' : 'poll')]);
      const inner = el.shadowRoot!.querySelector('reaction-' + type)!;
      const forwarded = inner.getAttribute('exportparts')!.split(/,\s*/);
      const rendered = [...inner.shadowRoot!.querySelectorAll('[part]')].flatMap((p) =>
        p.getAttribute('part')!.split(/\s+/),
      );
      expect(rendered.length, type).to.be.greaterThan(1);
      expect(rendered.filter((p) => !forwarded.includes(p))).to.deep.equal([]);
    });

  it('says Not valid type for unknown types, and hides deactivated blocks', async () => {
    // in English's direction on a right-to-left page too (not ".This block is not available")
    await onPagesOf(['rtl'], async () => {
      let el = await mount('poll');
      expect(el.shadowRoot!.textContent).to.contain('Not valid type');
      ownUiLeftToRight(el);
      api.restore();
      el = await mount('like', { deactivated: true });
      expect(el.shadowRoot!.querySelector('reaction-like')).to.equal(null);
      expect(el.shadowRoot!.textContent).to.contain('This block is not available.');
      ownUiLeftToRight(el);
    });
  });

  /** A letter block of this type whose letter is `letterHtml` (null: not saved yet). */
  const letterApi = (
    type: 'notion_letter' | 'brunch_letter',
    title: string,
    letterHtml: string | null,
  ) =>
    mockApi({
      get_block_view: () => ({ block: block({ type }), me: {} }),
      get_letter_view: () => ({ title, html: letterHtml }),
    });

  it('shows a letter as a web page in a frame that runs no script', async () => {
    api = letterApi(
      'notion_letter',
      'Weekly letter',
      '<table width="600"><tr><td style="padding:0 32px"><h1 style="font-size:26px">Weekly letter</h1><p style="margin:0">Hello</p></td></tr></table>',
    );
    const el = await fixture<ReactionBlock>(
      html`<reaction-block block-id=${B1} project-url=${PROJECT} anon-key=${KEY}></reaction-block>`,
    );
    await until(() => el.shadowRoot!.querySelector('iframe'));
    const frame = el.shadowRoot!.querySelector('iframe')!;
    expect(frame.getAttribute('part')).to.equal('letter');
    expect(frame.getAttribute('title')).to.equal('Weekly letter');
    expect(frame.getAttribute('sandbox')).to.not.contain('allow-scripts');
    expect(frame.getAttribute('srcdoc')).to.contain("default-src 'none'");
    await until(() => frame.contentDocument?.querySelector('h1'));
    expect(frame.contentDocument!.querySelector('h1')!.textContent).to.equal('Weekly letter');
    await until(() => parseInt(frame.style.height || '0', 10) > 100);
    await expect(el).to.be.accessible();
  });

  it("drops the letter rows' mail padding at the sides in a frame as narrow as a phone's", async () => {
    api = letterApi(
      'notion_letter',
      'Weekly letter',
      '<table width="600" style="width:100%;max-width:600px"><tr><td style="padding:0 32px"><p style="margin:0">Hello</p><table><tr><td style="padding:0 8px">a cell of its own</td></tr></table></td></tr></table>',
    );
    const sides = async (width: number) => {
      const el = await fixture<ReactionBlock>(
        html`<reaction-block
          style="width:${width}px"
          block-id=${B1}
          project-url=${PROJECT}
          anon-key=${KEY}
        ></reaction-block>`,
      );
      await until(() =>
        el.shadowRoot!.querySelector('iframe')?.contentDocument?.querySelector('p'),
      );
      const doc = el.shadowRoot!.querySelector('iframe')!.contentDocument!;
      const [row, inner] = [...doc.querySelectorAll('td td, td td td')].map(
        (td) => doc.defaultView!.getComputedStyle(td).paddingLeft,
      );
      return [row, inner];
    };
    // a row of the letter; a table inside a row keeps its own padding
    expect(await sides(340)).to.deep.equal(['0px', '8px']);
    expect(await sides(700)).to.deep.equal(['32px', '8px']);
  });

  it('says so when a letter has not been saved yet (left to right on a right-to-left page)', async () => {
    await onPagesOf(['rtl'], async () => {
      api = letterApi('brunch_letter', 'Untitled', null);
      const el = await mountReady<ReactionBlock>('reaction-block');
      await until(() => el.shadowRoot!.textContent!.includes('This block is not available.'));
      ownUiLeftToRight(el);
    });
  });

  it('takes the ids from the public URL when it has no block-id', async () => {
    const FROM_URL = idOf('url');
    api = mockApi({
      get_block_view: () => ({ block: block({ type: 'like', owner_id: 'u1' }), me: {} }),
    });
    const before = location.href;
    history.replaceState(null, '', location.pathname + '?id=u1&block_id=' + FROM_URL);
    try {
      const el = await fixture<ReactionBlock>(
        html`<reaction-block project-url=${PROJECT} anon-key=${KEY}></reaction-block>`,
      );
      await until(() => el['_status'] === 'ready');
      expect(el.blockId).to.equal(FROM_URL);
      expect(el.ownerId).to.equal('u1');
      expect(api.rpcCalls()[0]!.body).to.deep.equal({ p_block_id: FROM_URL });
    } finally {
      history.replaceState(null, '', before);
    }
  });

  it('never throws into the page when the project is not configured', async () => {
    api = mockApi({});
    const el = await fixture<ReactionBlock>(html`<reaction-block block-id=${B1}></reaction-block>`);
    await until(() => el['_status'] === 'error');
    expect(el.shadowRoot!.textContent).to.contain('Failed to load');
  });

  it('keeps the messages that came live or by Load more when the visitor signs in and logs out (public page)', async function (this: {
    timeout(ms: number): void;
  }) {
    // the write paths, the sign-in and the list's reading again each load chunks of their own:
    // on a busy machine (load 25-30) one took more than the 2 s `until` waits by default
    this.timeout(60000);
    const WAIT = 10000;
    // The server's threads, newest first; which ones the caller liked depends on the caller.
    let clock = Date.parse('2024-05-06T10:00:00Z');
    const msg = (id: string): Message =>
      message(id, { created_at: new Date((clock -= 60000)).toISOString() });
    const server = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'].map(msg);
    // one token for the whole test: fakeJwt puts the current second in its expiry, so a token
    // made again at check time differs from the one signed in once a second has passed
    const token = fakeJwt('signed-1');
    const signedIn = (auth: string) => auth.includes(token);
    const threads = (auth: string, list: Message[]) =>
      list.map((m) => ({ ...m, liked: signedIn(auth) && m.id === 'm7' }));
    const views: string[] = [];
    api = mockApi({
      get_block_view: () => {
        const auth = api.calls.at(-1)!.auth;
        views.push(signedIn(auth) ? 'signed' : 'anon');
        return {
          block: block({ type: 'comment' }),
          messages: threads(auth, server.slice(0, 5)),
          me: { liked_message_ids: signedIn(auth) ? ['m7'] : [] },
        };
      },
      list_messages: (b) => {
        const before = String(b.p_before);
        return threads(
          api.calls.at(-1)!.auth,
          server.filter((m) => m.created_at < before).slice(0, Number(b.p_limit)),
        );
      },
    });
    const el = await mountReady<ReactionBlock>('reaction-block');
    const inner = el.shadowRoot!.querySelector('reaction-comment') as ReactionComment;
    await inner.updateComplete;
    const ids = () =>
      [...inner.shadowRoot!.querySelectorAll('[part=list] > [part=message]')].map((m) => m.id);
    const menu = async (text: string) => {
      const button = inner.shadowRoot!.querySelector('[part=menu-button]') as HTMLElement;
      if (button.getAttribute('aria-expanded') !== 'true') button.click();
      // the menu comes with the write paths (comment.writer.ts), loaded on the first click
      await until(() => inner.shadowRoot!.querySelector('[part=menu]'), WAIT);
      [...inner.shadowRoot!.querySelectorAll<HTMLElement>('[part=menu] button')]
        .find((b) => b.textContent!.trim() === text)!
        .click();
    };

    // Load more brings m6 and m7; a new message arrives live.
    (inner.shadowRoot!.querySelector('[part=load-more]') as HTMLElement).click();
    await until(() => ids().includes('m-m7'), WAIT);
    const live = {
      ...msg('live'),
      created_at: new Date(Date.parse('2024-05-06T10:01:00Z')).toISOString(),
    };
    server.unshift(live);
    inner['applyChange']({ type: 'INSERT', row: live });
    await inner.updateComplete;
    const all = ['m-live', 'm-m1', 'm-m2', 'm-m3', 'm-m4', 'm-m5', 'm-m6', 'm-m7'];
    expect(ids()).to.deep.equal(all);

    // Sign in through the popup handshake: the popup stores the session and posts back.
    // The popup opens empty in the click and goes to Auth once the sign-in code has loaded; it
    // answers after that (a real one: after the visitor signs in, seconds later).
    const open = window.open;
    const popup = { closed: false, location: { href: '' } };
    window.open = (() => popup) as unknown as typeof window.open;
    try {
      await menu('Sign in with Google');
      await until(
        () => popup.location.href.startsWith(PROJECT + '/auth/v1/authorize?provider=google'),
        WAIT,
      );
      withSession('signed-1', false, { user_metadata: { full_name: 'Sam' } }, token);
      window.postMessage({ type: 'reaction-blocks:auth' }, location.origin);
      await until(() => views.includes('signed'), WAIT);
      await until(() => inner.shadowRoot!.querySelector('#m-m7 [aria-pressed=true]'), WAIT);
    } finally {
      window.open = open;
    }
    expect(ids(), 'after sign-in').to.deep.equal(all);

    await menu('Log out');
    await until(() => views.filter((v) => v === 'anon').length === 2, WAIT);
    await until(() => !inner.shadowRoot!.querySelector('#m-m7 [aria-pressed=true]'), WAIT);
    expect(ids(), 'after log out').to.deep.equal(all);
  });
});
