import { expect } from '@open-wc/testing';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { Block, Count, Like } from './index.js';
import { B1, KEY, PROJECT, block, idOf, mockApi, reset, until } from '../test/mock-api.js';
import type ReactionBlock from '../components/block/block.component.js';
import type ReactionLike from '../components/like/like.component.js';

const B2 = idOf('b2');

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
        blockId: B1,
        projectUrl: PROJECT,
        anonKey: KEY,
        onReactionLike: (e: CustomEvent<{ liked: boolean }>) => liked.push(e.detail.liked),
      }),
    );
    await until(
      () => (host.querySelector('reaction-like') as ReactionLike | null)?.['_status'] === 'ready',
    );
    const el = host.querySelector('reaction-like') as ReactionLike;
    expect(el.blockId).to.equal(B1);
    await el.updateComplete;
    el.shadowRoot!.querySelector('button')!.click();
    await until(() => liked.length === 1);
    expect(liked).to.deep.equal([true]);
    root.unmount();
    host.remove();
    api.restore();
  });

  it('shows the new block when the blockId prop changes', async () => {
    const api = mockApi({
      get_block_view: (b) => ({
        block: block({ id: String(b.p_block_id), like_count: b.p_block_id === B2 ? 2 : 1 }),
        me: { liked: false },
      }),
    });
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    const render = (blockId: string) =>
      root.render(createElement(Like, { blockId, projectUrl: PROJECT, anonKey: KEY }));
    render(B1);
    const el = () => host.querySelector('reaction-like') as ReactionLike | null;
    await until(() => el()?.['_status'] === 'ready');
    const first = el();
    render(B2);
    await until(() => el()?.view?.block.id === B2 && el()?.['_status'] === 'ready');
    await el()!.updateComplete;
    expect(el(), 'same element, new block').to.equal(first);
    expect(el()!.shadowRoot!.querySelector('button')!.textContent!.trim()).to.equal('2 Likes');
    root.unmount();
    host.remove();
    api.restore();
  });

  it('maps the events that bubble out of <reaction-block>: like and click too', async () => {
    let type = 'like';
    const api = mockApi({
      get_block_view: () => ({
        block: block({ type, button_text: 'Go', url_to_open: 'https://example.com/go' }),
        me: { liked: false },
      }),
      toggle_block_like: () => ({ liked: true, like_count: 1 }),
      record_button_click: () => ({ response_count: 1 }),
    });
    const host = document.createElement('div');
    document.body.append(host);
    const seen: string[] = [];
    const props = {
      blockId: B1,
      projectUrl: PROJECT,
      anonKey: KEY,
      onReactionLoad: () => seen.push('load'),
      onReactionLike: (e: CustomEvent<{ liked: boolean }>) => seen.push('like ' + e.detail.liked),
      onReactionClick: (e: CustomEvent<{ url: string }>) => {
        e.preventDefault(); // keep the test page from opening the link
        seen.push('click ' + e.detail.url);
      },
    };
    const root = createRoot(host);
    const inner = async (tag: string) => {
      await until(
        () => (host.querySelector('reaction-block') as ReactionBlock)?.['_status'] === 'ready',
      );
      const el = host.querySelector('reaction-block')!.shadowRoot!.querySelector(tag) as
        (HTMLElement & { updateComplete: Promise<unknown> }) | null;
      await until(() => el?.shadowRoot?.querySelector('[part~=button]'));
      return el!.shadowRoot!.querySelector('[part~=button]') as HTMLElement;
    };

    root.render(createElement(Block, props));
    (await inner('reaction-like')).click();
    await until(() => seen.includes('like true'));
    root.unmount();

    type = 'button';
    const root2 = createRoot(host);
    root2.render(createElement(Block, props));
    (await inner('reaction-button')).click();
    await until(() => seen.includes('click https://example.com/go'));
    // the click is told before it is recorded: wait for the write, or it reaches the network
    // after api.restore() and its failure is warned during a later test
    await until(() => api.rpcNames().includes('record_button_click'));
    expect(seen).to.deep.equal(['load', 'like true', 'load', 'click https://example.com/go']);
    root2.unmount();
    host.remove();
    api.restore();
  });

  it('a count whose props arrive one by one (as the wrapper sets them) reads once and warns of nothing', async () => {
    const id = (n: number) => `cccccccc-0000-4000-8000-00000000000${n}`;
    const api = mockApi({
      get_block_counts: () =>
        [1, 2].map((n) => ({
          id: id(n),
          type: 'comment',
          comments: n * 10,
          likes: null,
          responses: null,
        })),
    });
    const warned: unknown[][] = [];
    const warn = console.warn;
    // only the count's own warning: on a busy machine an element of an earlier test may still
    // be saying that it could not reach the server
    console.warn = (...args: unknown[]) =>
      void (args.some((a) => String(a).includes('Missing project-url')) && warned.push(args));
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    try {
      // the README's order (the project first) and the block first: the element is connected
      // before either, and each property set is a change of its own
      root.render([
        createElement(Count, { key: 1, projectUrl: PROJECT, anonKey: KEY, blockId: id(1) }),
        createElement(Count, { key: 2, blockId: id(2), projectUrl: PROJECT, anonKey: KEY }),
      ]);
      const texts = () =>
        [...host.querySelectorAll('reaction-count')].map(
          (el) => el.shadowRoot!.querySelector('[part=base]')!.textContent,
        );
      // generous: a busy machine
      await until(() => texts().join() === '10 comments,20 comments', 10_000);
      expect(warned, 'no warning of a missing project').to.deep.equal([]);
      expect(api.calls.filter((c) => c.name === 'get_block_counts')).to.have.length(1);
    } finally {
      console.warn = warn;
      root.unmount();
      host.remove();
      api.restore();
    }
  });
});
