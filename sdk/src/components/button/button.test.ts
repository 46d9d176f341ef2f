import { expect } from '@open-wc/testing';
import './button.js';
import type ReactionButton from './button.component.js';
import { $, PROJECT, block, mockApi, mockApiPerTest, onSend, until } from '../../test/mock-api.js';
import { sessionKey } from '../../core/session-key.js';
import { mountReady } from '../../test/mount.js';
import { onPagesOf, ownUiLeftToRight, textDirection } from '../../test/page-dir.js';

describe('reaction-button', () => {
  let api: ReturnType<typeof mockApi>;
  mockApiPerTest();

  async function mount(over = {}) {
    api = mockApi({
      get_block_view: () => ({
        block: block({
          type: 'button',
          button_text: 'Visit',
          url_to_open: 'example.com/x',
          response_count: 4,
          ...over,
        }),
      }),
      record_button_click: () => ({ response_count: 5 }),
    });
    return mountReady<ReactionButton>('reaction-button');
  }

  it('is accessible', async () => {
    await expect(await mount()).to.be.accessible();
  });

  it("reads an owner's Arabic text right to left, the button where the block aligns it", async () => {
    const arabic = 'زوروا متجرنا';
    await onPagesOf(['rtl', 'ltr'], async (dir) => {
      for (const [text, reads] of [
        [arabic, 'rtl'],
        ['Visit', 'ltr'],
      ] as const) {
        const el = await mount({ button_text: text, align: 'left' });
        ownUiLeftToRight(el);
        // before: the Arabic in the element's ltr
        expect(textDirection(el, text), `${dir}: ${text}`).to.equal(reads);
        const button = $(el, '[part=button]').getBoundingClientRect();
        expect(button.left - $(el, '[part=row]').getBoundingClientRect().left, dir).to.be.below(1);
        el.remove();
      }
    });
  });

  it('links safely to urlToOpen and records the click', async () => {
    const el = await mount({ show_count: true });
    const a = $<HTMLAnchorElement>(el, 'a[part=button]');
    expect(a.textContent!.trim()).to.equal('Visit');
    expect(a.href).to.equal('https://example.com/x');
    expect(a.target).to.equal('_blank');
    expect(a.rel).to.contain('noopener');
    el.addEventListener('reaction-click', (e) => e.preventDefault()); // keep the test page
    a.click();
    await until(() => api.rpcCalls().some((c) => c.name === 'record_button_click'));
    await until(() => $(el, '[part=count]').textContent === '5');
  });

  it("sends the first click once the visitor's new session is in storage", async () => {
    const el = await mount();
    el.addEventListener('reaction-click', (e) => e.preventDefault());
    // what storage holds as the click is sent: a page left then keeps its visitor
    let kept: string | null | undefined;
    onSend('record_button_click', () => (kept = localStorage.getItem(sessionKey(PROJECT))));
    $<HTMLAnchorElement>(el, 'a[part=button]').click();
    await until(() => kept !== undefined);
    expect(kept?.slice(0, 4)).to.equal('rb1.');
  });

  it('uses the default text and refuses javascript: URLs', async () => {
    const el = await mount({ button_text: null, url_to_open: 'javascript:alert(1)' });
    expect($(el, 'a')).to.equal(null);
    expect($(el, 'button[part=button]').textContent!.trim()).to.equal('Button');
  });

  it("writes its text in the custom theme's secondary colour, else what reads on primary", async () => {
    const colour = (el: ReactionButton) => getComputedStyle($(el, '[part=button]'));
    let el = await mount({ theme: 'custom', custom_color: { '--PRIMARY': '#000080' } });
    expect(colour(el).backgroundColor).to.equal('rgb(0, 0, 128)');
    // unset (the dashboard saves #FFFFFF): white on a dark primary, black on a light one
    expect(colour(el).color, 'white on navy').to.equal('lch(100 0 0)');
    api.restore();
    el = await mount({ theme: 'custom', custom_color: { '--PRIMARY': '#ffd43b' } });
    expect(colour(el).color, 'black on yellow').to.equal('lch(0 0 0)');
    api.restore();
    el = await mount({ theme: 'custom', custom_color: { '--SECONDARY': '#ffd700' } });
    expect(colour(el).color, '--SECONDARY').to.equal('rgb(255, 215, 0)');
    expect(colour(el).backgroundColor, 'default primary').to.equal('rgb(76, 76, 76)');
    // Light and dark keep the usual text on primary.
    el.theme = 'dark';
    await el.updateComplete;
    expect(colour(el).color).to.equal('rgb(21, 21, 24)');
  });
});
