import { html, nothing } from 'lit';
import { BlockElement } from '../../core/base.js';
import { log } from '../../core/log.js';
import { baseStyles } from '../../core/theme.js';
import '../comment/comment.js';
import '../qna/qna.js';
import '../like/like.js';
import '../button/button.js';
import '../ab/ab.js';
import '../form/form.js';

/**
 * Every part of the six elements this one may render, forwarded under the same name (exportparts),
 * so `reaction-block::part(submit)` styles what `reaction-comment::part(submit)` does. One list for
 * all types: a name the rendered element lacks matches nothing. `npm run docs -- --check` fails
 * when it differs from the parts those elements document.
 */
const FORWARDED_PARTS = [
  'actions',
  'author',
  'avatar',
  'base',
  'button',
  'choice',
  'composer',
  'content',
  'count',
  'date',
  'description',
  'email',
  'ending',
  'ending-title',
  'error',
  'field-error',
  'form',
  'header',
  'icon',
  'image',
  'input',
  'invalid',
  'label',
  'list',
  'load-more',
  'menu',
  'menu-button',
  'message',
  'message-header',
  'name',
  'open-link',
  'option',
  'options',
  'overlay',
  'owner',
  'question',
  'question-title',
  'replies',
  'result',
  'resubmit',
  'row',
  'subject',
  'submit',
  'textarea',
  'title',
  'toolbar',
  'welcome',
].join(', ');

/**
 * @tag reaction-block
 *
 * @summary The viewer page: loads a block and renders the element for its type
 * (comment, qna, like, button, ab or form). Without `block-id` it reads `block_id` (and `id`, the
 * owner) from the page URL, as in /block/?id={uid}&block_id={blockId}.
 *
 * @event reaction-load - The block view loaded; detail { view }.
 * @event reaction-error - A load or write failed; detail { message, code }.
 *
 * @csspart base - Wrapper for the loading, error and unsupported states (and, forwarded, the
 * rendered element's themed wrapper).
 * @csspart block - The rendered element (comment, qna, like, button, ab or form).
 */
export default class ReactionBlock extends BlockElement {
  static override styles = [baseStyles];

  /** On the viewer page (/block/?id={uid}&block_id={blockId}) the ids may come from the URL. */
  override connectedCallback(): void {
    if (!this.blockId && !this.view) {
      const q = new URLSearchParams(location.search);
      this.ownerId ||= q.get('id') || '';
      this.blockId = q.get('block_id') || '';
    }
    super.connectedCallback();
  }

  protected override render(): unknown {
    if (this.status !== 'ready' || !this.view || this.view.block.deactivated) return super.render();
    try {
      const v = this.view;
      const theme = this.theme || nothing;
      const lang = this.lang || nothing;
      const p = this.project;
      const d = this.dummy;
      switch (v.block.type) {
        case 'comment':
          return html`<reaction-comment
            part="block"
            exportparts=${FORWARDED_PARTS}
            .view=${v}
            project-url=${p.url}
            anon-key=${p.key}
            theme=${theme}
            lang=${lang}
            ?dummy=${d}
          ></reaction-comment>`;
        case 'qna':
          return html`<reaction-qna
            part="block"
            exportparts=${FORWARDED_PARTS}
            .view=${v}
            project-url=${p.url}
            anon-key=${p.key}
            theme=${theme}
            lang=${lang}
            ?dummy=${d}
          ></reaction-qna>`;
        case 'like':
          return html`<reaction-like
            part="block"
            exportparts=${FORWARDED_PARTS}
            .view=${v}
            project-url=${p.url}
            anon-key=${p.key}
            theme=${theme}
            lang=${lang}
            ?dummy=${d}
          ></reaction-like>`;
        case 'button':
          return html`<reaction-button
            part="block"
            exportparts=${FORWARDED_PARTS}
            .view=${v}
            project-url=${p.url}
            anon-key=${p.key}
            theme=${theme}
            lang=${lang}
            ?dummy=${d}
          ></reaction-button>`;
        case 'ab':
          return html`<reaction-ab
            part="block"
            exportparts=${FORWARDED_PARTS}
            .view=${v}
            project-url=${p.url}
            anon-key=${p.key}
            theme=${theme}
            lang=${lang}
            ?dummy=${d}
          ></reaction-ab>`;
        case 'form':
          return html`<reaction-form
            part="block"
            exportparts=${FORWARDED_PARTS}
            .view=${v}
            project-url=${p.url}
            anon-key=${p.key}
            theme=${theme}
            lang=${lang}
            ?dummy=${d}
          ></reaction-form>`;
        default:
          return html`<div part="base" class="muted">${this.t('notValidType')}</div>`;
      }
    } catch (e) {
      log('render failed', e);
      return nothing;
    }
  }
}
