import { html } from 'lit/html.js';
import { BlockElement, bone } from '../../core/base.js';
import { state } from '../../core/element.js';
import { baseStyles } from '../../core/theme.js';
import { safeUrl } from '../../core/text.js';
import styles from './button.styles.js';
import { button } from '../../core/locales/en.js';

/**
 * @tag reaction-button
 *
 * @summary A call-to-action button: opens the block's link in a new tab and records the click.
 *
 * @event reaction-click - The visitor clicked; detail { url }.
 * @event reaction-load - The block view loaded; detail { view }.
 * @event reaction-error - A load or write failed; detail { message, code }.
 *
 * @csspart base - The themed wrapper.
 * @csspart skeleton - The grey placeholder in the block's shape while it loads (also `base`).
 * @csspart row - The aligned row.
 * @csspart button - The button (a link when the block has a URL).
 * @csspart count - Click count (when the block shows counts).
 * @csspart captcha - The check a visitor who went too fast may pass to go on (blocks with the captcha on).
 *
 * @cssproperty --reaction-primary - Button colour (custom theme: --PRIMARY).
 * @cssproperty --reaction-on-primary - Button text colour (custom theme: --SECONDARY, unset black or white, whichever reads on primary).
 * @cssproperty --reaction-radius - Corner radius.
 */
export default class ReactionButton extends BlockElement {
  static override texts = button;
  static override styles = [baseStyles, styles];
  static override properties = { _count: state };

  declare private _count: number;

  constructor() {
    super();
    this._count = 0;
  }

  protected override viewChanged(): void {
    this._count = this.view?.block.response_count ?? 0;
  }

  private async click_(e?: Event): Promise<void> {
    const b = this.view?.block;
    if (!b) return;
    const url = safeUrl(b.url_to_open, true);
    if (!this.emit('reaction-click', { url })) e?.preventDefault();
    if (this.isDummy) return;
    this._count++;
    try {
      const r = await this.write<{ response_count: number }>('record_button_click', {
        p_block_id: b.id,
        ...(await this.writer()),
      });
      this._count = r.response_count;
    } catch (err) {
      this.fail(err);
    }
  }

  protected override renderSkeleton() {
    return html`<div class="sk-row" style="justify-content:center">${bone(36, '120px')}</div>`;
  }

  protected override renderBlock() {
    const b = this.view!.block;
    const url = safeUrl(b.url_to_open, true);
    // the owner's text reads in its own direction (Arabic right to left); the button stays put
    const text = html`<bdi>${b.button_text || this.t('button')}</bdi>`;
    return html`<div
      part="row"
      style="--reaction-align:${({ left: 'flex-start', right: 'flex-end' } as Record<string, string>)[b.align || ''] || 'center'}"
    >
      ${
        url
          ? html`<a
              part="button"
              class="btn"
              href=${url}
              target="_blank"
              rel="noopener noreferrer"
              @click=${this.click_}
              >${text}</a
            >`
          : html`<button part="button" class="btn" @click=${this.click_}>${text}</button>`
      }
      ${b.show_count ? html`<span part="count" class="muted">${this._count}</span>` : ''}
    </div>`;
  }
}
