import { html } from 'lit/html.js';
import { bone, line } from '../../core/base.js';
import ReactionComment from '../comment/comment.component.js';
import { AVATAR_PLACEHOLDER, fallBackTo } from '../../core/placeholder.js';
import { fill, safeUrl } from '../../core/text.js';

/**
 * @tag reaction-qna
 *
 * @summary Q&A: the comment list with a header (owner profile and subject); the owner resolves
 * and unresolves top-level questions.
 *
 * @event reaction-message - A question or answer was posted, edited, deleted, liked or resolved; detail { action, id }.
 * @event reaction-sign-in - The visitor signed in or out; detail { userId }.
 * @event reaction-load - The block view loaded; detail { view }.
 * @event reaction-error - A load or write failed; detail { message, code }.
 *
 * @csspart base - The themed wrapper.
 * @csspart skeleton - The grey placeholder in the block's shape while it loads (also `base`).
 * @csspart header - Owner profile and subject.
 * @csspart owner - Owner name.
 * @csspart subject - The Q&A subject.
 * @csspart composer - The question form.
 * @csspart list - Scrollable question list.
 * @csspart message - One question or answer.
 * @csspart notice - What happened to the visitor's question (waiting for the owner's approval).
 * @csspart captcha - The check a visitor who went too fast may pass to go on (blocks with the captcha on).
 *
 * @cssproperty --reaction-primary - Main colour.
 * @cssproperty --reaction-height - The panel's fixed height (default 640px): the list scrolls in what the composer leaves.
 */
export default class ReactionQna extends ReactionComment {
  constructor() {
    super();
    this.qna = true;
  }

  protected override renderHeaderSkeleton() {
    // owner (12px/1.5) over the subject (16px/1.5), 12px above the toolbar
    return html`<div style="margin-bottom:4px">${line('30%', 18)}${bone(24, '60%')}</div>`;
  }

  protected override renderHeader() {
    const b = this.view!.block;
    const photo = safeUrl(b.owner_photo_url);
    return html`<header part="header">
      ${photo ? html`<img part="avatar" src=${photo} alt="" @error=${fallBackTo(AVATAR_PLACEHOLDER)} />` : ''}
      <div>
        <div part="owner" class="muted">${b.owner_name || ''}</div>
        <h2 part="subject" dir="auto">${fill(b.qna_subject, this.responseCount) || b.name}</h2>
      </div>
    </header>`;
  }
}
