import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import './form.js';
import type ReactionForm from './form.component.js';
import { pickEnding } from './endings.js';
import type { BlockView, Question } from '../../core/types.js';
import {
  $,
  $$,
  ApiError,
  block,
  mockApi,
  mockApiPerTest,
  type,
  until,
  wait,
} from '../../test/mock-api.js';
import { mountReady } from '../../test/mount.js';
import {
  direction,
  hiddenInPlace,
  onPagesOf,
  ownUiLeftToRight,
  textDirection,
} from '../../test/page-dir.js';

const questions: Question[] = [
  {
    id: 'poll',
    type: 'poll',
    title: 'Pick',
    index: 0,
    required: true,
    options: [
      { id: 'a', value: 'Apple', index: 0 },
      { id: 'b', value: 'Banana', index: 1 },
    ],
  },
  { id: 'short', type: 'short_text', title: 'Short', index: 1, required: false },
  { id: 'long', type: 'long_text', title: 'Long', index: 2, required: false },
  { id: 'num', type: 'number', title: 'Number', index: 3, required: false },
  { id: 'phone', type: 'phone', title: 'Phone', index: 4, required: false },
  { id: 'mail', type: 'mail', title: 'Mail', index: 5, required: false },
  {
    id: 'desc',
    type: 'description',
    title: 'About',
    index: 6,
    content:
      '<p>Hi <b>there</b><script>window.__x=1</script><a href="javascript:alert(1)">bad</a> <img src=x onerror="window.__x=1"></p>',
  },
  {
    id: 'img',
    type: 'image',
    title: 'A picture',
    index: 7,
    image_src: location.origin + '/no-such-image.png',
  },
];
/** A required checkbox group: the poll with several choices allowed. */
const boxes: Question = {
  ...questions[0]!,
  id: 'boxes',
  title: 'Toppings',
  index: 1,
  allow_multi_select: true,
};
const view = (over: Partial<BlockView> = {}): BlockView => ({
  block: block({ type: 'form', name: 'Survey', submit_button_text: 'Send it' }),
  questions,
  endings: [
    { id: 'e0', is_default: true, index: 0, title: 'Thanks!', closing_text: '<p>Bye</p>' },
    {
      id: 'e1',
      index: 1,
      title: 'Banana fan',
      conditions: [{ index: 0, question_id: 'poll', type: 'equal', value: 'b' }],
      block_submit_another: true,
      open_url: 'example.com',
      open_link_type: 'button',
      open_url_text: 'Go',
    },
  ],
  ...over,
});

describe('reaction-form', () => {
  let api: ReturnType<typeof mockApi>;
  mockApiPerTest();

  async function mount(
    submit: (b: Record<string, unknown>) => unknown = () => ({ id: 'r1' }),
    v = view(),
  ) {
    api = mockApi({ get_block_view: () => v, submit_response: submit });
    return mountReady<ReactionForm>('reaction-form');
  }
  const input = (el: ReactionForm, id: string) => $<HTMLInputElement>(el, '#q-' + id);
  const errorOf = (el: ReactionForm, id: string) => $(el, `#q-${id}-err`)?.textContent;
  /** Picks the first choice, types `short` in the short answer (when given) and submits. */
  const pickAndSubmit = (el: ReactionForm, short?: string) => {
    $$<HTMLInputElement>(el, 'input[type=radio]')[0]!.click();
    if (short !== undefined) type(input(el, 'short'), short);
    $(el, '[part=submit]').click();
  };

  it('is accessible', async () => {
    await expect(await mount()).to.be.accessible();
  });

  it('renders every question type, sanitised HTML and the submit text', async () => {
    const el = await mount();
    expect($$(el, '[part~=question]').length).to.equal(8);
    expect($$(el, 'input[type=radio]').length).to.equal(2);
    expect($(el, 'textarea#q-long')).to.not.equal(null);
    const desc = $(el, '[part=description]');
    expect(desc.innerHTML).to.contain('<b>there</b>');
    expect(desc.querySelector('script,img,[onerror]')).to.equal(null);
    // the javascript: link is unwrapped, its text kept (the server's allow-list: contracts/html.ts)
    expect(desc.querySelector('a')).to.equal(null);
    expect(desc.textContent).to.contain('bad');
    expect((window as { __x?: number }).__x).to.equal(undefined);
    expect($(el, '[part=submit]').textContent!.trim()).to.equal('Send it');
    await until(() => $<HTMLImageElement>(el, '[part=image]').src.startsWith('data:'));
  });

  it("keeps a description's nodes while the form is drawn again, and shows it again after Submit again", async () => {
    const el = await mount();
    const bold = $(el, '[part=description] b');
    expect(bold.textContent).to.equal('there');
    type(input(el, 'short'), 'typing draws the form again');
    await el.updateComplete;
    expect($(el, '[part=description] b'), 'the same node').to.equal(bold);
    pickAndSubmit(el);
    await until(() => el['_ending']);
    await el.updateComplete;
    expect($(el, '[part=ending] [part=description] p').textContent).to.equal('Bye');
    $(el, '[part=resubmit]').click();
    await el.updateComplete;
    expect($(el, '[part=description]').innerHTML).to.contain('<b>there</b>');
    expect($(el, '[part=description] b')).to.equal(bold);
  });

  it('shows Required and Please check response on an empty required answer, and clears the note on change', async () => {
    const el = await mount();
    $(el, '[part=submit]').click();
    await el.updateComplete;
    expect(errorOf(el, 'poll')).to.equal('Required');
    expect($(el, '[part=invalid]').textContent).to.equal('Please check response');
    expect(api.rpcCalls().filter((c) => c.name === 'submit_response')).to.have.length(0);
    $<HTMLInputElement>(el, 'input[type=radio]').click();
    await el.updateComplete;
    expect($(el, '[part=invalid]')).to.equal(null);
    expect(errorOf(el, 'poll')).to.equal(undefined);
  });

  it('checks patterns after the 500 ms pause', async () => {
    const el = await mount();
    type(input(el, 'mail'), 'not-an-email');
    await wait(250);
    expect(errorOf(el, 'mail')).to.equal(undefined);
    await wait(350);
    await el.updateComplete;
    expect(errorOf(el, 'mail')).to.equal('Please enter a valid email address');
    expect(input(el, 'mail').getAttribute('aria-invalid')).to.equal('true');
    type(input(el, 'phone'), '010-12a');
    type(input(el, 'num'), '1.5');
    type(input(el, 'short'), 'x'.repeat(301));
    await wait(600);
    await el.updateComplete;
    expect(errorOf(el, 'phone')).to.equal(
      'Use digits, spaces and hyphens only (up to 20 characters)',
    );
    expect(errorOf(el, 'num')).to.equal('Please enter a whole number (up to 18 digits)');
    expect(errorOf(el, 'short')).to.equal('Please enter up to 300 characters');
    type(input(el, 'phone'), '010 1234-5678');
    type(input(el, 'mail'), 'a'.repeat(45) + '@x.com');
    await wait(600);
    await el.updateComplete;
    expect(errorOf(el, 'phone')).to.equal(undefined);
    expect(errorOf(el, 'mail')).to.equal('Please enter up to 50 characters');
  });

  it("shows the placeholder image when an image question's image does not load", async () => {
    const broken = location.origin + '/no-such-image.png';
    const el = await mount(
      undefined,
      view({ questions: [{ ...questions[7]!, image_src: broken }] }),
    );
    const img = $<HTMLImageElement>(el, '[part=image]');
    await until(() => img.src.startsWith('data:image/svg+xml'));
    expect(img.alt).to.equal('A picture');
  });

  it('checks long text after 200 ms and grows it up to 360 px', async () => {
    const el = await mount();
    const ta = $<HTMLTextAreaElement>(el, '#q-long');
    type(ta, 'x'.repeat(1001));
    await wait(260);
    await el.updateComplete;
    expect(errorOf(el, 'long')).to.equal('Please enter up to 1000 characters');
    type(ta, 'line\n'.repeat(200));
    expect(parseInt(ta.style.height)).to.equal(360);
  });

  it('submits, shows the default ending, and Submit again returns to answering', async () => {
    const el = await mount();
    pickAndSubmit(el, '  hello ');
    await until(() => el['_ending']);
    await el.updateComplete;
    const call = api.rpcCalls().find((c) => c.name === 'submit_response')!;
    expect(call.body.p_answers).to.deep.equal({ poll: ['a'], short: 'hello' });
    expect(call.body.p_timezone).to.be.a('string');
    expect($(el, '[part=ending-title]').textContent).to.equal('Thanks!');
    $(el, '[part=resubmit]').click();
    await el.updateComplete;
    expect(el['_ending']).to.equal(null);
    expect($<HTMLInputElement>(el, 'input[type=radio]').checked).to.equal(false);
  });

  it('moves focus for a keyboard user: to the ending after a submit, to the first field after Submit again', async () => {
    const el = await mount();
    const focused = () => el.shadowRoot!.activeElement;
    $$<HTMLInputElement>(el, 'input[type=radio]')[0]!.click();
    $(el, '[part=submit]').focus();
    await sendKeys({ press: 'Enter' });
    await until(() => el['_ending'] && focused() !== $(el, '[part=submit]'));
    // the ending's title (the form and its button are gone; not the page's <body>)
    expect(focused(), 'after the submit').to.equal($(el, '[part=ending-title]'));
    expect($(el, '[part=ending-title]').getAttribute('tabindex')).to.equal('-1');
    $(el, '[part=resubmit]').focus();
    await sendKeys({ press: 'Enter' });
    await until(() => !el['_ending'] && focused());
    expect(focused(), 'after Submit again').to.equal($$(el, 'input[type=radio]')[0]);
    api.restore();
    // an ending without a title: the ending itself (role=status) takes focus
    const untitled = await mount(
      undefined,
      view({ endings: [{ id: 'd', is_default: true, index: 0, closing_text: '<p>Bye</p>' }] }),
    );
    pickAndSubmit(untitled);
    await until(() => untitled.shadowRoot!.activeElement);
    expect(untitled.shadowRoot!.activeElement).to.equal($(untitled, '[part=ending]'));
  });

  it('focuses the first invalid question whatever its kind: a choice group goes to its first option', async () => {
    const short: Question = { id: 'short', type: 'short_text', title: 'Name', index: 0 };
    const el = await mount(undefined, view({ questions: [short, boxes] }));
    // only the required checkbox group is invalid
    $(el, '[part=submit]').focus();
    await sendKeys({ press: 'Enter' });
    await until(() => el['_invalid']);
    await until(() => el.shadowRoot!.activeElement !== $(el, '[part=submit]'));
    expect(el.shadowRoot!.activeElement).to.equal($$(el, 'input[type=checkbox]')[0]);
    api.restore();
    // a text field that is invalid before the group: the text field
    const mail: Question = { id: 'mail', type: 'mail', title: 'Mail', index: 0 };
    const both = await mount(undefined, view({ questions: [mail, boxes] }));
    type(input(both, 'mail'), 'nope');
    $(both, '[part=submit]').click();
    await until(() => both.shadowRoot!.activeElement);
    expect(both.shadowRoot!.activeElement).to.equal(input(both, 'mail'));
  });

  it('says a required checkbox group is required in its legend (en, ko); text fields say aria-required', async () => {
    const name: Question = {
      id: 'name',
      type: 'short_text',
      title: 'Name',
      index: 1,
      required: true,
    };
    for (const [language, said] of [
      ['en', 'Required'],
      ['ko', '필수 항목입니다'],
    ] as const) {
      const v = view({ questions: [boxes, name] });
      v.block.language = language;
      const el = await mount(undefined, v);
      await until(() => $(el, 'fieldset legend .sr')?.textContent === said);
      const group = $(el, 'fieldset');
      expect(group.getAttribute('role')).to.equal('group');
      // role=group may not carry aria-required; the '*' is aria-hidden
      expect(group.hasAttribute('aria-required')).to.equal(false);
      expect($(el, 'fieldset legend .req').getAttribute('aria-hidden')).to.equal('true');
      expect(input(el, 'name').getAttribute('aria-required')).to.equal('true');
      // what a screen reader hears of the group's legend: its title, then the hidden word
      const heard = $(el, 'fieldset legend').cloneNode(true) as HTMLElement;
      heard.querySelectorAll('[aria-hidden=true]').forEach((n) => n.remove());
      expect(heard.textContent!.replace(/\s+/g, ' ').trim()).to.equal('Toppings ' + said);
      await expect(el).to.be.accessible();
      api.restore();
    }
    // an optional group says nothing of the kind
    const el = await mount(undefined, view({ questions: [{ ...boxes, required: false }] }));
    expect($(el, 'fieldset legend .sr')).to.equal(null);
  });

  it('says at the ending that a held response was received and waits for approval, in en and ko', async () => {
    const el = await mount(() => ({ id: 'r1', held: true, response_count: 0, options: [] }));
    pickAndSubmit(el);
    await until(() => el['_ending']);
    await el.updateComplete;
    expect($(el, '[part=ending]').getAttribute('role')).to.equal('status');
    expect($(el, '[part=held]').textContent).to.equal(
      "We received your response. It is waiting for the owner's approval.",
    );
    await expect(el).to.be.accessible();
    // Submit again, then a counted response: no such note
    $(el, '[part=resubmit]').click();
    await el.updateComplete;
    api.restore();
    const v = view();
    v.block.language = 'ko';
    const ko = await mount(() => ({ id: 'r2', held: true }), v);
    $$<HTMLInputElement>(ko, 'input[type=radio]')[0]!.click();
    $(ko, '[part=submit]').click();
    await until(() => ko['_ending']);
    await until(
      () =>
        $(ko, '[part=held]')?.textContent ===
        '응답을 받았습니다. 소유자의 승인을 기다리고 있습니다.',
    );
    api.restore();
    const counted = await mount(() => ({ id: 'r3', held: false }));
    $$<HTMLInputElement>(counted, 'input[type=radio]')[0]!.click();
    $(counted, '[part=submit]').click();
    await until(() => counted['_ending']);
    await counted.updateComplete;
    expect(counted.shadowRoot!.querySelector('[part=held]')).to.equal(null);
  });

  it('says "Thank you" once at the default ending: the closing text, or the title fallback when there is none', async () => {
    const thanks = (closing_text: string, title: string | null = null) =>
      view({ endings: [{ id: 'd', is_default: true, index: 0, title, closing_text }] });
    // The database creates the default ending with the closing text 'Thank you' and no title.
    for (const [v, shown] of [
      [thanks('Thank you'), 'Thank you'],
      [thanks('<p>Thank you</p>'), 'Thank you'],
      [thanks(''), 'Thank you'],
      [thanks('<p>See you</p>', 'Done'), 'Done See you'],
    ] as const) {
      const el = await mount(undefined, v);
      pickAndSubmit(el);
      await until(() => el['_ending']);
      await el.updateComplete;
      const text = $(el, '[part=ending]').textContent!.replace(/Submit again/, '');
      expect(text.replace(/\s+/g, ' ').trim()).to.equal(shown);
      api.restore();
    }
  });

  it('shows the ending whose conditions hold, with its link button and no Submit again', async () => {
    const el = await mount();
    $$<HTMLInputElement>(el, 'input[type=radio]')[1]!.click();
    $(el, '[part=submit]').click();
    await until(() => el['_ending']);
    await el.updateComplete;
    expect($(el, '[part=ending-title]').textContent).to.equal('Banana fan');
    expect($<HTMLAnchorElement>(el, '[part=open-link]').href).to.equal('https://example.com/');
    expect($(el, '[part=resubmit]')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('keeps the answers and shows the server message when submit fails', async () => {
    const el = await mount(() => {
      throw new ApiError(400, 'Required: Pick');
    });
    pickAndSubmit(el, 'keep me');
    await until(() => el['_error']);
    await el.updateComplete;
    expect($(el, '[part=error]').textContent).to.equal('Required: Pick');
    expect(el['_ending']).to.equal(null);
    expect(input(el, 'short').value).to.equal('keep me');
  });

  it('carries a honeypot people never see or reach, and sends its value with the submit', async () => {
    const el = await mount();
    const trap = $(el, '[part=form] .hp');
    expect(trap.getAttribute('aria-hidden')).to.equal('true');
    expect(trap.hasAttribute('inert')).to.equal(true);
    expect(hiddenInPlace(trap), 'nothing of it shows').to.equal(true);
    await expect(el).to.be.accessible();
    pickAndSubmit(el);
    await until(() => el['_ending']);
    expect(api.rpcCalls().find((c) => c.name === 'submit_response')!.body.p_honeypot).to.equal('');
  });

  it('keeps its honeypot out of sight without widening the page, and its UI left to right, on a right-to-left page', async () => {
    // off screen to the left, a right-to-left page scrolled sideways over 10,000 px to reach it;
    // past the line's start, it did so again once the element's own UI was made left to right
    const hebrew: Question = { id: 'he', type: 'short_text', title: 'שמך', index: 8 };
    await onPagesOf(['rtl', 'ltr'], async (dir) => {
      const el = await mount(undefined, view({ questions: [...questions, hebrew] }));
      ownUiLeftToRight(el);
      // an owner's question in Hebrew reads right to left, English ones left to right
      const title = (id: string) => direction($(el, `label[for=q-${id}]`));
      expect([title('he'), title('short')], dir).to.deep.equal(['rtl', 'ltr']);
      expect(hiddenInPlace($(el, '[part=form] .hp')), dir).to.equal(true);
      // the radio before its option, as the form reads in English (it was after it, at the right)
      const choice = $(el, '[part=choice]');
      const radio = choice.querySelector('input')!.getBoundingClientRect();
      expect(radio.left - choice.getBoundingClientRect().left, dir).to.be.below(
        choice.clientWidth / 2,
      );
      // an answer typed in Hebrew reads right to left; empty, the field follows the form
      const short = input(el, 'short');
      expect(direction(short), dir).to.equal('ltr');
      type(short, 'שלום');
      expect(direction(short), dir).to.equal('rtl');
      el.remove();
    });
  });

  it("reads an owner's Arabic choice right to left, its radio still before it", async () => {
    const arabic = 'تفاح أحمر';
    const poll: Question = {
      ...questions[0]!,
      options: [
        { id: 'a', value: arabic, index: 0 },
        { id: 'b', value: 'Banana', index: 1 },
      ],
    };
    await onPagesOf(['rtl', 'ltr'], async (dir) => {
      const el = await mount(undefined, view({ questions: [poll] }));
      ownUiLeftToRight(el);
      // before: both left to right, the Arabic in the element's ltr ("أحمر" read first)
      expect([textDirection(el, arabic), textDirection(el, 'Banana')], dir).to.deep.equal([
        'rtl',
        'ltr',
      ]);
      for (const choice of $$(el, '[part=choice]')) {
        // the radio at the choice's start, its text right after it, in either language
        const box = choice.getBoundingClientRect();
        const radio = choice.querySelector('input')!.getBoundingClientRect();
        const words = choice.querySelector('bdi')!.getBoundingClientRect();
        expect(radio.left - box.left, dir).to.be.below(box.width / 4);
        expect(words.left - radio.right, dir).to.be.within(0, 16);
      }
      el.remove();
    });
  });

  it('a trapped submit says why in plain words, keeping the answers', async () => {
    const el = await mount(() => {
      throw new ApiError(400, 'This was not sent: it looked automated.', 'P0001', 'honeypot');
    });
    pickAndSubmit(el, 'keep');
    await until(() => el['_error']);
    await el.updateComplete;
    expect($(el, '[part=error]').textContent).to.equal('This was not sent: it looked automated.');
    expect(input(el, 'short').value).to.equal('keep');
  });

  it("says so in the block's language when the owner's monthly responses are used up", async () => {
    const v = view();
    v.block.language = 'ko';
    const el = await mount(() => {
      throw new ApiError(429, 'Monthly response limit reached', 'PT429', 'quota');
    }, v);
    pickAndSubmit(el, 'keep');
    await until(() => el['_error']);
    await el.updateComplete;
    await until(
      () => $(el, '[part=error]').textContent === '이번 달에는 더 이상 응답을 받지 않습니다.',
    );
    expect(input(el, 'short').value).to.equal('keep');
  });

  it('a form sent too often says when it can be sent again; a full month says when it opens', async () => {
    // English is the server's own message; Korean says the same with the wait in its words
    const again = "You've sent this form several times. You can send it again in 20 minutes.";
    const full = 'Monthly response limit reached. This form takes responses again in 5 days.';
    const wait = { retry_after: 1190, action: 'submit', scope: 'visitor' };
    const month = { retry_after: 5 * 86_400 - 10, action: 'submit', scope: 'owner' };
    for (const [lang, details, hint, said, text] of [
      ['en', 'rate_limit', wait, again, again],
      [
        'ko',
        'rate_limit',
        wait,
        again,
        '이 양식을 여러 번 보냈습니다. 20분 후 다시 보낼 수 있습니다.',
      ],
      ['en', 'quota', month, full, full],
      [
        'ko',
        'quota',
        month,
        full,
        '이번 달에는 더 이상 응답을 받지 않습니다. 5일 후 다시 받습니다.',
      ],
    ] as const) {
      const v = view();
      v.block.language = lang;
      const el = await mount(() => {
        throw new ApiError(429, said, 'PT429', details, JSON.stringify(hint));
      }, v);
      pickAndSubmit(el, 'keep');
      await until(() => $(el, '[part=error]')?.textContent === text);
      expect(input(el, 'short').value).to.equal('keep');
      api.restore();
    }
  });

  it('writes nothing in dummy mode and speaks Korean', async () => {
    const v = view();
    v.block.language = 'ko';
    const el = await mount(undefined, v);
    el.dummy = true;
    await until(() => $(el, '[part=submit]').textContent!.includes('Send it'));
    $(el, '[part=submit]').click();
    await el.updateComplete;
    expect(errorOf(el, 'poll')).to.equal('필수 항목입니다');
    expect($(el, '[part=invalid]').textContent).to.equal('응답을 확인해 주세요');
    pickAndSubmit(el);
    await until(() => el['_ending']);
    expect(api.rpcCalls().map((c) => c.name)).to.deep.equal(['get_block_public']);
  });

  it('shows the ending the dashboard preview picks (dummy mode, mode ending), never when published', async () => {
    const preview = (mode: string | null, ending_mode: string | null): BlockView => ({
      ...view(),
      block: { ...view().block, mode, ending_mode },
    });
    const el = await fixture<ReactionForm>(html`<reaction-form dummy></reaction-form>`);
    el.view = preview('ending', '1');
    await el.updateComplete;
    expect($(el, '[part=ending-title]').textContent).to.equal('Banana fan');
    el.view = preview('ending', '0');
    await el.updateComplete;
    expect($(el, '[part=ending-title]').textContent).to.equal('Thanks!');
    el.view = preview(null, null);
    await el.updateComplete;
    expect($(el, '[part=ending]')).to.equal(null);
    expect($(el, '[part=form]')).to.not.equal(null);

    const live = await fixture<ReactionForm>(html`<reaction-form></reaction-form>`);
    live.view = preview('ending', '1');
    await live.updateComplete;
    expect($(live, '[part=ending]')).to.equal(null);
  });

  it('evaluates conditions: equal, include, empty, not_empty', () => {
    const qs = questions;
    const e = (
      type: 'equal' | 'include' | 'empty' | 'not_empty',
      question_id: string,
      value?: string,
    ) => [
      { id: 'd', is_default: true, index: 0 },
      { id: 'x', index: 1, conditions: [{ index: 0, question_id, type, value }] },
    ];
    expect(pickEnding(e('equal', 'poll', 'Banana'), qs, { poll: ['b'] }).id).to.equal('x');
    expect(pickEnding(e('equal', 'poll', 'b'), qs, { poll: ['a', 'b'] }).id).to.equal('d');
    expect(pickEnding(e('include', 'poll', 'b'), qs, { poll: ['a', 'b'] }).id).to.equal('x');
    expect(pickEnding(e('include', 'short', 'ell'), qs, { short: 'hello' }).id).to.equal('x');
    expect(pickEnding(e('empty', 'short'), qs, {}).id).to.equal('x');
    expect(pickEnding(e('not_empty', 'short'), qs, {}).id).to.equal('d');
    expect(pickEnding([], qs, {}).title).to.equal(undefined);
  });
});
