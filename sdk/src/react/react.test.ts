import { expect } from '@open-wc/testing';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { Like } from './index.js';
import { KEY, PROJECT, block, mockApi, reset, until } from '../test/mock-api.js';
import type ReactionLike from '../components/like/like.component.js';

describe('react wrappers', () => {
  beforeEach(reset);

  it('renders the element with properties and maps events to onReaction* props', async () => {
    const api = mockApi({
      get_block_view: () => ({ block: block({ like_count: 1 }), me: { liked: false } }),
      toggle_block_like: () => ({ liked: true, like_count: 2 }),
    });
    const host = document.createElement('div');
    document.body.append(host);
    const liked: boolean[] = [];
    const root = createRoot(host);
    root.render(
      createElement(Like, {
        blockId: 'b1',
        projectUrl: PROJECT,
        anonKey: KEY,
        onReactionLike: (e: CustomEvent<{ liked: boolean }>) => liked.push(e.detail.liked),
      }),
    );
    await until(
      () => (host.querySelector('reaction-like') as ReactionLike | null)?.status === 'ready',
    );
    const el = host.querySelector('reaction-like') as ReactionLike;
    expect(el.blockId).to.equal('b1');
    await el.updateComplete;
    el.shadowRoot!.querySelector('button')!.click();
    await until(() => liked.length === 1);
    expect(liked).to.deep.equal([true]);
    root.unmount();
    host.remove();
    api.restore();
  });
});
