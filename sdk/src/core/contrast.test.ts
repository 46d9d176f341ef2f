// Contrast of what the elements draw, in the three themes (WCAG 2.2 AA): every text against the
// colour behind it at 4.5:1 (placeholders too), every control's edge (its border, or its fill when
// that is what sets it apart) at 3:1 against what surrounds it, the focus ring at 3:1, a comment
// avatar's initial at 4.5:1 on every profile colour. Computed from the browser's own computed
// styles, so it checks the tokens as the elements use them (core/theme.ts, docs/design.md).
import { expect, fixture, html } from '@open-wc/testing';
import '../components/comment/comment.js';
import '../components/like/like.js';
import '../components/button/button.js';
import '../components/ab/ab.js';
import '../components/form/form.js';
import { COLORS } from './identity.js';
import { avatarStyle } from '../components/comment/avatar.js';
import type { BlockView, Message, Theme } from './types.js';
import { KEY, PROJECT, block, mockApi, reset, until, withSession } from '../test/mock-api.js';
import { catsOrDogs, message } from '../test/fixtures.js';

type RGBA = [number, number, number, number];

const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;

/**
 * A computed colour: rgb(), rgba() or color(srgb …) (what color-mix() computes to) read as is;
 * anything else (the custom theme's relative lch() colours) as the browser paints it in sRGB.
 */
function parse(c: string): RGBA {
  const srgb = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.]+))?\)$/.exec(c);
  if (srgb) return [+srgb[1]! * 255, +srgb[2]! * 255, +srgb[3]! * 255, srgb[4] ? +srgb[4] : 1];
  const rgb = /^rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)$/.exec(c);
  if (rgb) return [+rgb[1]!, +rgb[2]!, +rgb[3]!, rgb[4] ? +rgb[4] : 1];
  if (!/^(lch|lab|oklch|oklab)\(/.test(c)) throw new Error('unparsed colour ' + c);
  canvas.clearRect(0, 0, 1, 1);
  canvas.fillStyle = c;
  canvas.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = canvas.getImageData(0, 0, 1, 1).data;
  return [r!, g!, b!, a! / 255];
}

const over = (top: RGBA, under: RGBA): RGBA => {
  const a = top[3];
  return [0, 1, 2].map((i) => top[i]! * a + under[i]! * (1 - a)).concat(1) as RGBA;
};

const lum = ([r, g, b]: RGBA) =>
  [r, g, b]
    .map((v) => v / 255)
    .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i]!, 0);

export const ratio = (a: RGBA, b: RGBA) => {
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
};

const parentOf = (el: Element): Element | null =>
  el.parentElement ?? ((el.getRootNode() as ShadowRoot).host || null);

/** The colour behind an element: its ancestors' backgrounds composited, the page white below. */
function behind(el: Element | null): RGBA {
  const layers: RGBA[] = [];
  for (let e = el; e; e = parentOf(e)) layers.push(parse(getComputedStyle(e).backgroundColor));
  return layers.reduceRight((under, top) => over(top, under), [255, 255, 255, 1] as RGBA);
}

const visible = (el: Element) => {
  const r = el.getBoundingClientRect();
  const s = getComputedStyle(el);
  return r.width > 2 && r.height > 2 && s.visibility !== 'hidden' && s.opacity !== '0';
};

const name = (el: Element) =>
  `${el.tagName.toLowerCase()}${el.getAttribute('part') ? `[part=${el.getAttribute('part')}]` : ''}.${el.className}`;

/** Every failure in one element's shadow tree, as readable lines. */
function failures(host: Element): string[] {
  const out: string[] = [];
  const all = [...host.shadowRoot!.querySelectorAll('*')].filter(
    (e) => visible(e) && !e.closest('.hp, [aria-hidden=true], :disabled, [part~=skeleton]'),
  );
  for (const el of all) {
    const s = getComputedStyle(el);
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim());
    if (own) {
      const bg = behind(el);
      const r = ratio(over(parse(s.color), bg), bg);
      if (r < 4.5)
        out.push(`text ${name(el)} "${el.textContent!.trim().slice(0, 20)}" ${r.toFixed(2)}`);
    }
    if ((el as HTMLInputElement).placeholder) {
      const bg = behind(el);
      const r = ratio(over(parse(getComputedStyle(el, '::placeholder').color), bg), bg);
      if (r < 4.5) out.push(`placeholder ${name(el)} ${r.toFixed(2)}`);
    }
    const control =
      /^(BUTTON|INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || el.matches('[part~=choice]');
    const link = el.matches('.btn.link, a');
    if (
      control &&
      !link &&
      (el as HTMLInputElement).type !== 'radio' &&
      (el as HTMLInputElement).type !== 'checkbox'
    ) {
      const outside = behind(parentOf(el));
      const edge = parseFloat(s.borderTopWidth)
        ? ratio(over(parse(s.borderTopColor), outside), outside)
        : 0;
      const fill = ratio(behind(el), outside);
      if (Math.max(edge, fill) < 3)
        out.push(`edge ${name(el)} border ${edge.toFixed(2)} fill ${fill.toFixed(2)}`);
    }
  }
  // the focus ring, as drawn on the first button focused from the keyboard's side (:focus-visible)
  const button = host.shadowRoot!.querySelector<HTMLElement>('button:not(:disabled)');
  if (button) {
    button.focus();
    const f = getComputedStyle(button);
    const outside = behind(parentOf(button));
    const ring =
      f.outlineStyle === 'none' ? 0 : ratio(over(parse(f.outlineColor), outside), outside);
    if (ring < 3) out.push(`focus ring ${name(button)} ${ring.toFixed(2)}`);
    button.blur();
  }
  return out;
}

const msg = (id: string, over: Partial<Message> = {}): Message =>
  message(id, { color: '#1565c0', like_count: 2, reply_count: 0, ...over });

const views = (theme: Theme): Record<string, BlockView> => ({
  comment: {
    block: block({
      type: 'comment',
      theme,
      welcome_message: 'Say hi',
      placeholder: 'Write a comment',
      response_count: 4,
    }),
    messages: [
      msg('m1', { creator_id: 'owner-1', creator_name: 'Owner' }),
      msg('m2', { creator_id: 'me', creator_name: 'Me', is_edited: true }),
      msg('m3', { status: 'held', creator_id: 'me', creator_name: 'Me' }),
      ...COLORS.map((color, i) => msg('c' + i, { color, creator_name: 'Writer ' + i })),
    ],
    me: { liked_message_ids: ['m1'] },
  },
  like: { block: block({ type: 'like', theme, like_count: 3 }), me: {} },
  button: { block: block({ type: 'button', theme, button_text: 'Visit' }), me: {} },
  ab: {
    block: block({ type: 'ab', theme }),
    questions: [catsOrDogs()],
    me: {},
  },
  'ab voted': {
    block: block({ type: 'ab', theme }),
    questions: [catsOrDogs([3, 1])],
    me: { vote: ['a'] },
  },
  form: {
    block: block({ type: 'form', theme }),
    questions: [
      {
        id: 'q1',
        type: 'short_text',
        title: 'Name',
        index: 0,
        required: true,
        placeholder: 'Jane',
      },
      { id: 'q2', type: 'long_text', title: 'Why', index: 1, placeholder: 'Tell us' },
      {
        id: 'q3',
        type: 'poll',
        title: 'Pick',
        index: 2,
        options: [
          { id: 'o1', value: 'One', index: 0 },
          { id: 'o2', value: 'Two', index: 1 },
        ],
      },
    ],
    me: {},
  },
});

async function mount(tag: string, view: BlockView): Promise<HTMLElement> {
  const el = document.createElement('reaction-' + tag) as HTMLElement & {
    view: BlockView;
    updateComplete: Promise<unknown>;
  };
  el.setAttribute('project-url', PROJECT);
  el.setAttribute('anon-key', KEY);
  el.setAttribute('dummy', '');
  el.style.width = '600px';
  el.view = view;
  await fixture(html`<div></div>`).then((d) => d.append(el));
  await el.updateComplete;
  // the custom theme's derived colours come as a sheet of their own (core/custom-theme.ts)
  if (view.block.theme === 'custom')
    await until(() => {
      const base = el.shadowRoot!.querySelector('[part~=base]');
      return base && getComputedStyle(base).getPropertyValue('--_on');
    }, 10_000);
  return el;
}

describe('contrast of the themes (WCAG AA)', () => {
  let api: ReturnType<typeof mockApi>;
  beforeEach(() => {
    reset();
    withSession('me');
    api = mockApi({ get_block_me: () => ({ me: {}, messages: [], replies: [] }) });
  });
  afterEach(() => api.restore());

  for (const theme of ['light', 'dark', 'custom'] as Theme[])
    for (const tag of ['comment', 'like', 'button', 'ab', 'ab voted', 'form'])
      it(`${tag}, ${theme}: text 4.5:1, placeholders 4.5:1, control edges and focus ring 3:1`, async () => {
        const el = await mount(tag.split(' ')[0]!, views(theme)[tag]!);
        expect(el.shadowRoot!.querySelector('[part~=base]')!.className).to.contain(theme);
        expect(failures(el)).to.deep.equal([]);
      });

  // The custom theme with owners' colours: text, muted text, placeholders, control edges, quiet
  // fills, the text on fields and on primary and the focus ring follow from them (theme.ts). The
  // owner's primary against their background is theirs: each palette's stands at 3:1.
  const palettes: Record<string, Record<string, string>> = {
    'navy, only primary and background': { '--PRIMARY': '#7c9cff', '--BACKGROUND': '#161b33' },
    'dark with the dashboard defaults (white fields)': {
      '--PRIMARY': '#3d5afe',
      '--SECONDARY': '#E4E4E4',
      '--TERTIARY': '#FFFFFF',
      '--BACKGROUND': '#12151d',
    },
    'mid grey, just light': { '--PRIMARY': '#1a1a1a', '--BACKGROUND': '#777777' },
    'mid grey, just dark': { '--PRIMARY': '#ffffff', '--BACKGROUND': '#747474' },
    'blue background': { '--PRIMARY': '#ffffff', '--BACKGROUND': '#3d5afe' },
    'cream with an orange primary': { '--PRIMARY': '#e8590c', '--BACKGROUND': '#fff8e1' },
    'pale field on deep green': {
      '--PRIMARY': '#ffd43b',
      '--TERTIARY': '#e6fcf5',
      '--BACKGROUND': '#0b3d2e',
    },
  };
  for (const [palette, custom_color] of Object.entries(palettes))
    for (const tag of ['comment', 'like', 'button', 'ab', 'ab voted', 'form'])
      it(`${tag}, custom (${palette}): text, placeholders, edges and focus ring`, async () => {
        const view = views('custom')[tag]!;
        // the dashboard saves a button's text colour (its secondary) as white
        view.block.custom_color =
          tag === 'button' && custom_color['--SECONDARY']
            ? { ...custom_color, '--SECONDARY': '#FFFFFF' }
            : custom_color;
        const el = await mount(tag.split(' ')[0]!, view);
        expect(failures(el)).to.deep.equal([]);
      });

  // Native controls and scrollbars follow the derived text (custom-theme.ts): a dark background is
  // the dark scheme, so a form's radios and checkboxes are not white boxes on it.
  const darkPalettes = ['navy', 'dark', 'mid grey, just dark', 'blue', 'pale field'];
  for (const [palette, custom_color] of Object.entries(palettes))
    it(`custom (${palette}): the colour scheme of the native controls`, async () => {
      const view = views('custom').form!;
      view.block.custom_color = custom_color;
      const el = await mount('form', view);
      const dark = darkPalettes.some((p) => palette.startsWith(p));
      const base = el.shadowRoot!.querySelector('[part~=base]')!;
      expect(getComputedStyle(base).colorScheme).to.equal(dark ? 'dark' : 'light');
      const radio = el.shadowRoot!.querySelector('input[type=radio], input[type=checkbox]');
      expect(radio, 'a native choice').to.not.equal(null);
      expect(getComputedStyle(radio!).colorScheme).to.equal(dark ? 'dark' : 'light');
    });

  it("an avatar's initial reads at 4.5:1 on every profile colour and on any stored colour", () => {
    for (const color of [...COLORS, '#ffeb3b', '#9e9e9e', '#777', '#000', 'not a colour']) {
      const [bg, ink] = /background:([^;]+);color:(.+)/.exec(avatarStyle(color))!.slice(1);
      const probe = document.createElement('i');
      document.body.append(probe);
      probe.style.cssText = `color:${ink};background:${bg}`;
      const s = getComputedStyle(probe);
      const r = ratio(parse(s.color), parse(s.backgroundColor));
      probe.remove();
      expect(r, color).to.be.at.least(4.5);
      // the profile palette keeps white initials
      if (COLORS.includes(color)) expect(ink, color).to.equal('#fff');
    }
  });
});
