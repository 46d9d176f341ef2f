import { expect } from '@open-wc/testing';
import './block.js';
import type ReactionBlock from './block.component.js';
import { block, idOf, mockApi, reset, until } from '../../test/mock-api.js';
import { mountReady } from '../../test/mount.js';

// From npm, <reaction-block> loads the element of the type it shows and no other (this file runs
// in a page of its own, so nothing else has defined them).
describe('reaction-block loads only the type it shows', () => {
  beforeEach(reset);

  it('defines like for a like block, not the other five, and comment once a comment block shows', async () => {
    const api = mockApi({
      get_block_view: (body) => ({
        block: block({
          type: (body as { p_block_id: string }).p_block_id === idOf('c1') ? 'comment' : 'like',
        }),
        questions: [],
        endings: [],
        messages: [],
        me: {},
      }),
    });
    try {
      const el = await mountReady<ReactionBlock>('reaction-block', { 'block-id': idOf('l1') });
      // defined before the first render of the view: the inner element shows at once, upgraded
      const like = el.shadowRoot!.querySelector('reaction-like')!;
      expect(customElements.get('reaction-like')).to.equal(like.constructor);
      for (const t of ['comment', 'qna', 'button', 'ab', 'form'])
        expect(customElements.get('reaction-' + t), t).to.equal(undefined);

      el.blockId = idOf('c1');
      await until(() => !!el.shadowRoot!.querySelector('reaction-comment'));
      expect(customElements.get('reaction-comment')).to.not.equal(undefined);
      expect(customElements.get('reaction-qna')).to.equal(undefined);
    } finally {
      api.restore();
    }
  });
});
