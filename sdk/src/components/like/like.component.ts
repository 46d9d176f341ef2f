import { html, svg } from 'lit/html.js';
import { pageOf } from '../../core/api.js';
import { BlockElement, bone, meOnly } from '../../core/base.js';
import { state } from '../../core/element.js';
import { baseStyles } from '../../core/theme.js';
import styles from './like.styles.js';
import { like } from '../../core/locales/en.js';

export const heart = (filled: boolean) =>
  svg`<svg part="icon" viewBox="0 0 24 24" aria-hidden="true"><path fill=${filled ? 'currentColor' : 'none'} stroke="currentColor" stroke-width="2" d="M12 21s-7-4.4-9.3-9A5.3 5.3 0 0 1 12 6a5.3 5.3 0 0 1 9.3 6c-2.3 4.6-9.3 9-9.3 9z"/></svg>`;

/**
 * @tag reaction-like
 *
 * @summary A like toggle with its count ("n Like" / "n Likes"), aligned as the block says.
 *
 * @event reaction-like - The visitor liked or unliked; detail { liked, likeCount }.
 * @event reaction-load - The block view loaded; detail { view }.
 * @event reaction-error - A load or write failed; detail { message, code }.
 *
 * @csspart base - The themed wrapper.
 * @csspart skeleton - The grey placeholder in the block's shape while it loads (also `base`).
 * @csspart row - The aligned row.
 * @csspart button - The toggle button.
 * @csspart icon - The heart icon.
 * @csspart count - The count text.
 * @csspart error - The error message.
 * @csspart captcha - The check a visitor who went too fast may pass to go on (blocks with the captcha on).
 *
 * @cssproperty --reaction-primary - Main colour (liked button, focus ring).
 * @cssproperty --reaction-border - The button's edge before a like (default: 55% of the text colour over the background).
 * @cssproperty --reaction-background - Background.
 * @cssproperty --reaction-text - Text colour.
 * @cssproperty --reaction-radius - Corner radius.
 * @cssproperty --reaction-font - Font family (default: the page's font).
 */
export default class ReactionLike extends BlockElement {
  static override texts = like;
  protected override mine = meOnly;

  static override styles = [baseStyles, styles];
  static override properties = { _liked: state, _count: state, _error: state, _busy: state };

  declare private _liked: boolean;
  declare private _count: number;
  declare private _error: string;
  /** A write is on its way: the button says so (aria-busy) until the server answered. */
  declare private _busy: boolean;

  constructor() {
    super();
    this._liked = false;
    this._count = 0;
    this._error = '';
    this._busy = false;
  }

  protected override viewChanged(): void {
    this._liked = !!this.view?.me?.liked;
    this._count = this.view?.block.like_count ?? 0;
  }

  /** Toggles the like; the screen updates at once and is corrected by the server's answer. */
  async toggle(): Promise<void> {
    if (this._busy || !this.view) return;
    const was = { liked: this._liked, count: this._count };
    this._liked = !was.liked;
    this._count = Math.max(0, was.count + (this._liked ? 1 : -1));
    this._error = '';
    if (!this.isDummy) {
      this._busy = true;
      try {
        const r = await this.write<{ liked: boolean; like_count: number }>('toggle_block_like', {
          p_block_id: this.view.block.id,
          ...pageOf(this.view.block),
          ...(await this.writer()),
          // The wanted state, not a toggle: a repeated request cannot flip it back.
          p_liked: this._liked,
        });
        this._liked = r.liked;
        this._count = r.like_count;
      } catch (e) {
        this._liked = was.liked;
        this._count = was.count;
        this._error = this.fail(e);
        return;
      } finally {
        this._busy = false;
      }
    }
    this.emit('reaction-like', { liked: this._liked, likeCount: this._count });
  }

  protected override renderSkeleton() {
    return html`<div class="sk-row" style="justify-content:center">
      ${bone(36, '96px', 'border-radius:999px')}
    </div>`;
  }

  protected override renderBlock() {
    const align = { left: 'flex-start', center: 'center', right: 'flex-end' }[
      this.view?.block.align || 'left'
    ];
    return html`<div part="row" style="--reaction-align:${align}">
        <button
          part="button"
          class="btn"
          aria-pressed=${this._liked}
          aria-busy=${this._busy}
          @click=${this.toggle}
        >
          ${heart(this._liked)}<span part="count">${this.t('like', { count: this._count })}</span>
        </button>
      </div>
      ${this._error ? html`<p part="error" class="err" role="alert">${this._error}</p>` : ''}`;
  }
}
