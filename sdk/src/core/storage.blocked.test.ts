// The elements in a browser that blocks storage (this file runs in the "storage-blocked" group of
// web-test-runner.config.mjs: a Chromium profile with site data blocked, where localStorage,
// sessionStorage and IndexedDB throw). They render, read and write; the visitor's session and
// profile live for the page only; nothing throws into the page.
import { expect, fixture, html } from '@open-wc/testing';
import '../components/like/like.js';
import '../components/comment/comment.js';
import '../components/count/count.js';
import type ReactionComment from '../components/comment/comment.component.js';
import type ReactionLike from '../components/like/like.component.js';
import { $, $$, KEY, PROJECT, block, mockApi, type, until } from '../test/mock-api.js';
import { mountReady } from '../test/mount.js';
import { storageKey } from './vault.js';

const errors: unknown[] = [];
window.addEventListener('error', (e) => errors.push(e.error ?? e.message));
window.addEventListener('unhandledrejection', (e) => errors.push(e.reason));

describe('storage blocked', () => {
  let api: ReturnType<typeof mockApi> | undefined;
  afterEach(() => api?.restore());

  it('is really blocked in this browser', async () => {
    expect(() => localStorage.getItem('x')).to.throw();
    expect(() => sessionStorage.getItem('x')).to.throw();
    const idb = await new Promise<string>((ok) => {
      try {
        const open = indexedDB.open('probe');
        open.onsuccess = () => ok('opened');
        open.onerror = () => ok('refused');
      } catch {
        ok('threw');
      }
    });
    expect(idb).not.to.equal('opened');
    // no key can be kept, so nothing is sealed (and nothing written in plain)
    expect(await storageKey()).to.equal(null);
  });

  it("a like block reads and writes; the anonymous session is the page's and used again", async () => {
    api = mockApi({
      get_block_view: () => ({
        block: block({ type: 'like', like_count: 3 }),
        me: { liked: false },
      }),
      toggle_block_like: (b) => ({ liked: b.p_liked, like_count: b.p_liked ? 4 : 3 }),
    });
    const el = await mountReady<ReactionLike>('reaction-like');
    $(el, '[part=button]').click();
    await until(() => api!.rpcNames().includes('toggle_block_like'));
    await until(() => !el['_busy']);
    $(el, '[part=button]').click();
    await until(() => api!.rpcNames().filter((n) => n === 'toggle_block_like').length === 2);
    expect(api.calls.filter((c) => c.name === '/auth/v1/signup')).to.have.length(1);
    const [first, second] = api.calls.filter((c) => c.name === 'toggle_block_like');
    expect(second!.auth).to.equal(first!.auth);
    expect(first!.auth).not.to.equal('Bearer ' + KEY);
    expect(errors).to.deep.equal([]);
  });

  it('a comment block posts twice with that session, keeping the name and website for the page', async () => {
    let n = 0;
    api = mockApi({
      get_block_view: () => ({ block: block({ type: 'comment' }), messages: [], me: {} }),
      post_message: (b) => ({
        id: 'p' + ++n,
        block_id: 'b1',
        parent_id: null,
        creator_id: 'anon-user-x',
        creator_name: b.p_creator_name,
        home_url: b.p_home_url,
        content: b.p_content,
        created_at: new Date().toISOString(),
      }),
    });
    const el = await mountReady<ReactionComment>('reaction-comment');
    type($<HTMLInputElement>(el, '[part=name]'), 'Blocked Badger');
    type($<HTMLInputElement>(el, '[part=home]'), 'badger.example');
    for (const [i, text] of ['first', 'second'].entries()) {
      type($<HTMLTextAreaElement>(el, '[part=composer] textarea'), text);
      await el.updateComplete;
      $<HTMLButtonElement>(el, '[part=composer] [part=submit]').click();
      await until(() => $$(el, '[part=list] > [part=message]').length === i + 1);
      el['lastSent'] = 0; // past the message term
    }
    const posts = api.calls.filter((c) => c.name === 'post_message');
    expect(posts.map((c) => [c.body.p_creator_name, c.body.p_home_url])).to.deep.equal([
      ['Blocked Badger', 'https://badger.example'],
      ['Blocked Badger', 'https://badger.example'],
    ]);
    // the like above signed up already: the page's session is used, no second sign-up
    expect(api.calls.filter((c) => c.name === '/auth/v1/signup')).to.have.length(0);
    // a second element on the page has the same profile
    const other = await mountReady<ReactionComment>('reaction-comment');
    expect($<HTMLInputElement>(other, '[part=name]').value).to.equal('Blocked Badger');
    expect(errors).to.deep.equal([]);
  });

  it('counts show', async () => {
    const id = '0b0b0b0b-0000-4000-8000-000000000001';
    api = mockApi({
      get_block_counts: () => [{ id, type: 'comment', comments: 2, likes: null, responses: null }],
    });
    const el = await fixture(
      html`<reaction-count block-id=${id} project-url=${PROJECT} anon-key=${KEY}></reaction-count>`,
    );
    await until(() => el.shadowRoot!.textContent === '2 comments');
    expect(errors).to.deep.equal([]);
  });
});
