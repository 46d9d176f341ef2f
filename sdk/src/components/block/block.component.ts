import { html, nothing } from 'lit';
import { literal, html as staticHtml, type StaticValue } from 'lit/static-html.js';
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
  'captcha',
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
  'notice',
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
  'skeleton',
  'subject',
  'submit',
  'textarea',
  'title',
  'toolbar',
  'welcome',
].join(', ');

/** The element each block type renders as (one template serves all six). */
const ELEMENT_TAGS = new Map<string, StaticValue>([
  ['comment', literal`reaction-comment`],
  ['qna', literal`reaction-qna`],
  ['like', literal`reaction-like`],
  ['button', literal`reaction-button`],
  ['ab', literal`reaction-ab`],
  ['form', literal`reaction-form`],
]);

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
 * @csspart skeleton - The grey placeholder shown while the block loads (also `base`).
 * @csspart captcha - The check a visitor who went too fast may pass to go on (blocks with the captcha on).
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
    if (this._status !== 'ready' || !this.view || this.view.block.deactivated)
      return super.render();
    try {
      const v = this.view;
      const theme = this.theme || nothing;
      const lang = this.lang || nothing;
      const p = this.project;
      const d = this.dummy;
      const tag = ELEMENT_TAGS.get(v.block.type);
      if (!tag) return html`<div part="base" class="muted">${this.t('notValidType')}</div>`;
      return staticHtml`<${tag}
        part="block"
        exportparts=${FORWARDED_PARTS}
        .view=${v}
        project-url=${p.url}
        anon-key=${p.key}
        theme=${theme}
        lang=${lang}
        ?dummy=${d}
      ></${tag}>`;
    } catch (e) {
      log('render failed', e);
      return nothing;
    }
  }
}
