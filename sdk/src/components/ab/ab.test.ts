import { expect } from '@open-wc/testing';
import './ab.js';
import type ReactionAb from './ab.component.js';
import {
  $$,
  ApiError,
  block,
  idOf,
  mockApi,
  mockApiPerTest,
  until,
  withSession,
} from '../../test/mock-api.js';
import { mountReady } from '../../test/mount.js';
import { whichOne } from '../../test/fixtures.js';
import { onPagesOf, ownUiLeftToRight, textDirection } from '../../test/page-dir.js';

const view = (me: { vote?: string[] | null; vote_held?: boolean } = {}) => ({
  me,
  block: block({ type: 'ab' }),
  questions: [
    whichOne(
      'ab',
      [
        ['Good', 3],
        ['Bad', 1],
      ],
      true,
    ),
  ],
  endings: [],
});

describe('reaction-ab', () => {
  let api: ReturnType<typeof mockApi>;
  mockApiPerTest();

  async function mount(
    submit: (b: Record<string, unknown>) => unknown,
    me: { vote?: string[] | null; vote_held?: boolean } = {},
  ) {
    api = mockApi({ get_block_view: () => view(me), submit_response: submit });
    return mountReady<ReactionAb>('reaction-ab');
  }

  it('is accessible', async () => {
    await expect(await mount(() => ({}))).to.be.accessible();
  });

  it('submits on click with one option and then shows counts', async () => {
    const el = await mount(() => ({
      id: 'r1',
      response_count: 5,
      options: [
        { id: 'o1', response_count: 3 },
        { id: 'o2', response_count: 2 },
      ],
    }));
    const [good, bad] = $$(el, '[part=option]');
    expect(good!.textContent).to.contain('Good');
    // the result holds its room unseen before a vote, so the vote moves nothing
    const result = el.shadowRoot!.querySelector('[part=result]')!;
    expect(getComputedStyle(result).visibility).to.equal('hidden');
    expect(result.textContent!.trim()).to.equal('');
    const before = el.getBoundingClientRect().height;
    bad!.click();
    await until(() => el['_chosen'] === 'o2');
    await el.updateComplete;
    expect(getComputedStyle(result).visibility).to.equal('visible');
    expect(el.getBoundingClientRect().height).to.equal(before);
    const body = api.rpcCalls().find((c) => c.name === 'submit_response')!.body;
    expect(body.p_answers).to.deep.equal({ q1: 'o2' });
    expect(bad!.getAttribute('aria-pressed')).to.equal('true');
    expect(bad!.textContent).to.contain('2 votes · 40%');
    expect(good!.textContent).to.contain('3 votes · 60%');
    good!.click(); // a second vote is not sent
    await el.updateComplete;
    expect(api.rpcCalls().filter((c) => c.name === 'submit_response').length).to.equal(1);
  });

  it('shows the counts on load to a visitor who already voted (me.vote), without the buttons voting again', async () => {
    withSession('visitor-1');
    const el = await mount(() => ({}), { vote: ['o2'] });
    const [good, bad] = $$(el, '[part=option]');
    expect(bad!.getAttribute('aria-pressed')).to.equal('true');
    expect(good!.getAttribute('aria-pressed')).to.equal('false');
    expect(bad!.textContent).to.contain('1 vote · 25%');
    expect(good!.textContent).to.contain('3 votes · 75%');
    good!.click();
    await el.updateComplete;
    expect(api.rpcCalls().map((c) => c.name)).to.deep.equal(['get_block_public', 'get_block_me']);
  });

  it('shows the counts when the server says the visitor already voted (another tab)', async () => {
    let voted = false;
    api = mockApi({
      get_block_view: () => view(voted ? { vote: ['o1'] } : {}),
      submit_response: () => {
        voted = true;
        throw new ApiError(400, 'Already voted');
      },
    });
    const el = await mountReady<ReactionAb>('reaction-ab');
    $$(el, '[part=option]')[1]!.click();
    await until(() => el['_chosen'] === 'o1');
    await el.updateComplete;
    expect($$(el, '[part=option]')[0]!.getAttribute('aria-pressed')).to.equal('true');
    expect($$(el, '[part=result]')).to.have.length(2);
    expect(el.shadowRoot!.querySelector('[role=alert]')).to.equal(null);
  });

  it('says a held vote was received and counts once the owner approves it, in en and ko', async () => {
    const held = () => ({
      id: 'r1',
      held: true,
      options: [
        { id: 'o1', response_count: 3 },
        { id: 'o2', response_count: 1 },
      ],
    });
    const el = await mount(held);
    expect($$(el, '[part=held]')[0]!.textContent).to.equal('');
    $$(el, '[part=option]')[1]!.click();
    await until(() => el['_chosen'] === 'o2');
    await el.updateComplete;
    const note = $$(el, '[part=held]')[0]!;
    expect(note.getAttribute('role')).to.equal('status');
    expect(note.textContent).to.equal(
      'We received your vote. It counts once the owner approves it.',
    );
    // the counts as the server answered them: the held vote is not in them
    expect($$(el, '[part=option]')[1]!.textContent).to.contain('1 vote · 25%');
    await expect(el).to.be.accessible();

    api.restore();
    const ko = view();
    ko.block.language = 'ko';
    api = mockApi({ get_block_view: () => ko, submit_response: held });
    const kel = await mountReady<ReactionAb>('reaction-ab', { 'block-id': idOf('b2') });
    $$(kel, '[part=option]')[0]!.click();
    await until(
      () =>
        $$(kel, '[part=held]')[0]?.textContent ===
        '투표를 받았습니다. 소유자가 승인하면 집계됩니다.',
    );
  });

  it('says a held vote is waiting after a reload too (me.vote_held)', async () => {
    withSession('visitor-1');
    const el = await mount(() => ({}), { vote: ['o1'], vote_held: true });
    expect(el['_chosen']).to.equal('o1');
    expect($$(el, '[part=held]')[0]!.textContent).to.equal(
      'We received your vote. It counts once the owner approves it.',
    );
    api.restore();
    const counted = await mount(() => ({}), { vote: ['o1'] });
    expect($$(counted, '[part=held]')[0]!.textContent).to.equal('');
  });

  it("reads an owner's Arabic option right to left, the options where the element puts them", async () => {
    const arabic = 'نعم بالتأكيد';
    const ab = whichOne(
      'ab',
      [
        [arabic, 3],
        ['Bad', 1],
      ],
      true,
    );
    mockApi({ get_block_view: () => ({ ...view(), questions: [ab] }) });
    await onPagesOf(['rtl', 'ltr'], async (dir) => {
      const el = await mountReady<ReactionAb>('reaction-ab');
      ownUiLeftToRight(el);
      // before: both left to right, the Arabic in the element's ltr
      expect([textDirection(el, arabic), textDirection(el, 'Bad')], dir).to.deep.equal([
        'rtl',
        'ltr',
      ]);
      // the first option on the left, each label in the middle of its option
      const [first, second] = $$(el, '[part=option]');
      expect(first!.getBoundingClientRect().left, dir).to.be.below(
        second!.getBoundingClientRect().left,
      );
      for (const option of [first!, second!]) {
        const label = option.querySelector('.label')!;
        const text = document.createRange();
        text.selectNodeContents(label);
        const [box, words] = [option.getBoundingClientRect(), text.getBoundingClientRect()];
        expect(
          Math.abs(words.left + words.width / 2 - (box.left + box.width / 2)),
          dir,
        ).to.be.below(2);
      }
      el.remove();
    });
  });

  it('shows the server message on failure', async () => {
    const el = await mount(() => {
      throw new ApiError(400, 'monthly response limit reached');
    });
    $$(el, '[part=option]')[0]!.click();
    await until(() => el['_error']);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[role=alert]')!.textContent).to.equal(
      'monthly response limit reached',
    );
    expect(el['_chosen']).to.equal('');
  });
});
