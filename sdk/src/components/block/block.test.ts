import { expect, fixture, html } from '@open-wc/testing';
import './block.js';
import type ReactionBlock from './block.component.js';
import { KEY, PROJECT, block, mockApi, reset, until } from '../../test/mock-api.js';

describe('reaction-block', () => {
  let api: ReturnType<typeof mockApi>;
  beforeEach(reset);
  afterEach(() => api.restore());

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
        block-id="b1"
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

  for (const type of ['comment', 'qna', 'like', 'button', 'ab', 'form'])
    it(`renders a ${type} block with one API call and passes the theme override`, async () => {
      const el = await mount(type);
      const inner = el.shadowRoot!.querySelector('reaction-' + type) as HTMLElement & {
        updateComplete: Promise<unknown>;
      };
      expect(inner, type).to.not.equal(null);
      await inner.updateComplete;
      expect(inner.dataset.theme).to.equal('dark');
      expect(inner.shadowRoot!.querySelector('[part=base]')).to.not.equal(null);
      expect(api.rpcCalls().map((c) => c.name)).to.deep.equal(['get_block_view']);
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

  const question = (type: string) => ({
    id: 'q1',
    type,
    title: 'Which one?',
    index: 0,
    required: false,
    options: [
      { id: 'o1', value: 'A', index: 0, response_count: 1 },
      { id: 'o2', value: 'B', index: 1, response_count: 0 },
    ],
  });
  for (const type of ['comment', 'qna', 'like', 'button', 'ab', 'form'])
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

  it('says Not valid type for letters and unknown types, and hides deactivated blocks', async () => {
    let el = await mount('notion_letter');
    expect(el.shadowRoot!.textContent).to.contain('Not valid type');
    api.restore();
    el = await mount('like', { deactivated: true });
    expect(el.shadowRoot!.querySelector('reaction-like')).to.equal(null);
    expect(el.shadowRoot!.textContent).to.contain('This block is not available.');
  });

  it('takes the ids from the public URL when it has no block-id', async () => {
    api = mockApi({
      get_block_view: () => ({ block: block({ type: 'like', owner_id: 'u1' }), me: {} }),
    });
    const before = location.href;
    history.replaceState(null, '', location.pathname + '?id=u1&block_id=from-url');
    try {
      const el = await fixture<ReactionBlock>(
        html`<reaction-block project-url=${PROJECT} anon-key=${KEY}></reaction-block>`,
      );
      await until(() => el['_status'] === 'ready');
      expect(el.blockId).to.equal('from-url');
      expect(el.ownerId).to.equal('u1');
      expect(api.rpcCalls()[0]!.body).to.deep.equal({ p_block_id: 'from-url' });
    } finally {
      history.replaceState(null, '', before);
    }
  });

  it('never throws into the page when the project is not configured', async () => {
    api = mockApi({});
    const el = await fixture<ReactionBlock>(html`<reaction-block block-id="b1"></reaction-block>`);
    await until(() => el['_status'] === 'error');
    expect(el.shadowRoot!.textContent).to.contain('Failed to load');
  });
});
