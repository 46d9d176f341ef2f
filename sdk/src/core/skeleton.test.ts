// While a block loads it shows a skeleton of its known shape, at the height the CDN loader also
// reserves for the tag before its code arrives (SKELETON_HEIGHTS), so the page does not move when
// the code arrives, nor, for a block of that shape, when the data does.
import { expect, fixture } from '@open-wc/testing';
import { html as staticHtml, unsafeStatic } from 'lit/static-html.js';
import '../components/comment/comment.js';
import '../components/qna/qna.js';
import '../components/like/like.js';
import '../components/button/button.js';
import '../components/ab/ab.js';
import '../components/form/form.js';
import '../components/block/block.js';
import { SKELETON_HEIGHTS } from './skeleton-heights.js';
import type { BlockView, Message, Question } from './types.js';
import { B1, $, KEY, PROJECT, block, mockApi, mockApiPerTest, until } from '../test/mock-api.js';
import { catsOrDogs, message } from '../test/fixtures.js';

type Kind = keyof typeof SKELETON_HEIGHTS;
const height = (el: Element) => el.getBoundingClientRect().height;

const msg = (id: string): Message =>
  message(id, { color: '#1565c0', content: 'A one-line message' });
const short = (i: number): Question => ({
  id: 'q' + i,
  type: 'short_text',
  title: 'Question ' + i,
  index: i,
});

/** A block of the shape each skeleton stands for. */
const TYPICAL: Record<Exclude<Kind, 'block'>, BlockView> = {
  like: { block: block({ type: 'like', align: 'center' }), me: {} },
  button: { block: block({ type: 'button', button_text: 'Visit', align: 'center' }), me: {} },
  ab: {
    block: block({ type: 'ab' }),
    questions: [catsOrDogs()],
    me: {},
  },
  form: { block: block({ type: 'form' }), questions: [short(0), short(1), short(2)], me: {} },
  comment: {
    block: block({ type: 'comment', welcome_message: 'Say hi' }),
    messages: [msg('m1'), msg('m2'), msg('m3')],
    me: {},
  },
  qna: {
    block: block({
      type: 'qna',
      owner_name: 'Olivia',
      qna_subject: 'Ask me',
      welcome_message: 'Ask anything',
    }),
    messages: [msg('m1'), msg('m2'), msg('m3')],
    me: {},
  },
};

describe('loading skeletons', () => {
  mockApiPerTest();

  const mount = (tag: string, theme = '') =>
    fixture<HTMLElement>(
      staticHtml`<${unsafeStatic('reaction-' + tag)}
        block-id=${B1}
        project-url=${PROJECT}
        anon-key=${KEY}
        theme=${theme}
        style="width: 600px"
      ></${unsafeStatic('reaction-' + tag)}>`,
    );

  for (const kind of Object.keys(SKELETON_HEIGHTS) as Kind[])
    it(`reaction-${kind}: a skeleton of ${SKELETON_HEIGHTS[kind]}px that says "Loading…"`, async () => {
      mockApi({ get_block_view: () => new Promise(() => {}) });
      const el = await mount(kind);
      const skeleton = $(el, '[part~=skeleton]');
      expect(skeleton, 'skeleton').to.not.equal(null);
      expect(skeleton.getAttribute('aria-busy')).to.equal('true');
      expect(skeleton.textContent!.trim()).to.equal('Loading…');
      expect(height(el)).to.equal(SKELETON_HEIGHTS[kind]);
      await expect(el).to.be.accessible();
    });

  for (const kind of Object.keys(TYPICAL) as Exclude<Kind, 'block'>[])
    it(`reaction-${kind}: a block of the skeleton's shape takes its height exactly`, async () => {
      let answer!: (v: BlockView) => void;
      mockApi({ get_block_view: () => new Promise<BlockView>((r) => (answer = r)) });
      const el = await mount(kind);
      const before = height(el);
      await until(() => answer);
      answer(TYPICAL[kind]);
      await until(() => $(el, '[part~=base]:not([aria-busy])'));
      await (el as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      expect(height(el)).to.equal(before);
    });

  // A form longer than three short questions: the page says its height (--reaction-form-height)
  // and the skeleton holds it, so nothing under the form moves when the questions arrive; a
  // shorter form keeps that height too (60 px of padding and Submit, 82 px a short question).
  for (const count of [6, 2])
    it(`reaction-form with --reaction-form-height: ${count} questions keep the height held`, async () => {
      let answer!: (v: BlockView) => void;
      mockApi({ get_block_view: () => new Promise<BlockView>((r) => (answer = r)) });
      const el = await fixture<HTMLElement>(
        staticHtml`<reaction-form block-id=${B1} project-url=${PROJECT} anon-key=${KEY}
          style="width: 600px; --reaction-form-height: 552px"></reaction-form>`,
      );
      expect(height(el)).to.equal(552);
      expect($(el, '[part~=skeleton]').querySelectorAll('.bone').length).to.be.greaterThan(12);
      await until(() => answer);
      answer({
        block: block({ type: 'form' }),
        questions: Array.from({ length: count }, (_, i) => short(i)),
        me: {},
      });
      await until(() => $(el, '[part~=form]'));
      await (el as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      expect(height(el)).to.equal(552);
    });

  it('the skeleton follows the theme attribute (dark)', async () => {
    mockApi({ get_block_view: () => new Promise(() => {}) });
    const el = await mount('comment', 'dark');
    expect(getComputedStyle($(el, '[part~=skeleton]')).backgroundColor).to.equal('rgb(21, 21, 24)');
  });
});
