// An IndexedDB whose open() never answers (Safari 14.1's first open, some in-app browsers): the
// storage key (core/vault.ts) is given up after its bound, so a new visitor's first write goes
// out and the page works with storage for the page only (before: the write waited for good, the
// breaker's D6). A file of its own: the stub replaces indexedDB.open for the whole page.
import { expect } from '@open-wc/testing';
import '../components/comment/comment.js';
import type ReactionComment from '../components/comment/comment.component.js';
import { $, $$, commentView, mockApi, type, until } from '../test/mock-api.js';
import { mountReady } from '../test/mount.js';
import { message } from '../test/fixtures.js';
import { storageKey } from './vault.js';

// a request that never fires onsuccess, onerror or onblocked
let opened = 0;
(indexedDB as unknown as { open: () => IDBOpenDBRequest }).open = () => {
  opened++;
  return {} as IDBOpenDBRequest;
};

/** A bound on a hung test, not a measure: the write waits at most vault.ts's 3 s. */
const HUNG = 15_000;

describe('storage that never answers', () => {
  it("a new visitor's first comment goes out, under the name the field shows", async () => {
    const api = mockApi({
      get_block_view: () => commentView({ type: 'comment' }),
      post_message: (b) =>
        message('new', { creator_id: 'u', creator_name: b.p_creator_name as string }),
    });
    try {
      const el = await mountReady<ReactionComment>('reaction-comment');
      const name = () => $<HTMLInputElement>(el, '[part=name]').value;
      // the visitor comes to the composer: the animal name they will write under is shown
      $(el, '[part=composer] textarea').dispatchEvent(
        new FocusEvent('focusin', { bubbles: true, composed: true }),
      );
      await until(() => name() !== '', HUNG);
      const shown = name();
      type($<HTMLTextAreaElement>(el, '[part=composer] textarea'), 'hello');
      await el.updateComplete;
      $<HTMLButtonElement>(el, '[part=composer] [part=submit]').click();
      await until(() => api.rpcNames().includes('post_message'), HUNG);
      const [post] = api.calls.filter((c) => c.name === 'post_message');
      expect(post!.body.p_content).to.equal('hello');
      expect(post!.body.p_creator_name).to.equal(shown);
      await until(() => $$(el, '[part=list] > [part=message]').length === 1, HUNG);
      expect(name()).to.equal(shown);
      expect(opened).to.be.greaterThan(0);
      // the page goes on without a key: nothing is kept, and nothing waits again
      expect(await storageKey()).to.equal(null);
    } finally {
      api.restore();
    }
  });
});
