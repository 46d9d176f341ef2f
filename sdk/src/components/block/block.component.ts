import { html, nothing } from 'lit/html.js';
import { css, state, type PropertyValues } from '../../core/element.js';
import { literal, html as staticHtml, type StaticValue } from 'lit/static-html.js';
import { isLetterType } from '@reaction-blocks/contracts/enums';
import { rpc } from '../../core/api.js';
import { BlockElement } from '../../core/base.js';
import { mineWithMessages } from '../../core/mine.js';
import { openProfile } from '../../core/profile.js';
import { log } from '../../core/log.js';
import { baseStyles } from '../../core/theme.js';
import type { BlockView } from '../../core/types.js';

/**
 * Every part of the six elements this one may render, forwarded under the same name (exportparts),
 * so `reaction-block::part(submit)` styles what `reaction-comment::part(submit)` does. One list for
 * all types: a name the rendered element lacks matches nothing. `npm run docs -- --check` fails
 * when it differs from the parts those elements document. One string, as exportparts takes it
 * (comma-separated): an array of names joined at run time weighed more in block.js.
 */
const FORWARDED_PARTS =
  'actions,author,avatar,bar,bar-fill,base,button,captcha,choice,composer,content,count,' +
  'date,description,email,empty,ending,ending-title,error,field-error,form,header,held,' +
  'home,icon,image,input,invalid,label,list,load-more,menu,menu-button,message,' +
  'message-header,name,new-pill,notice,open-link,option,options,overlay,owner,question,' +
  'question-title,replies,result,resubmit,row,skeleton,subject,submit,textarea,title,' +
  'toolbar,welcome';

/**
 * The element each block type renders as (one template serves all six), and its module: only the
 * type shown is loaded. (The CDN's block.js, src/cdn/block.ts, holds all six, since the loader
 * gives a page with several block types that one file.)
 */
const ELEMENTS = new Map<string, [StaticValue, () => Promise<unknown>]>([
  ['comment', [literal`reaction-comment`, () => import('../comment/comment.js')]],
  ['qna', [literal`reaction-qna`, () => import('../qna/qna.js')]],
  ['like', [literal`reaction-like`, () => import('../like/like.js')]],
  ['button', [literal`reaction-button`, () => import('../button/button.js')]],
  ['ab', [literal`reaction-ab`, () => import('../ab/ab.js')]],
  ['form', [literal`reaction-form`, () => import('../form/form.js')]],
]);

/** Loads the element of a block type (nothing for a letter or an unknown type); never throws. */
const defineType = (type: string): Promise<unknown> | undefined =>
  ELEMENTS.get(type)?.[1]().catch((e: unknown) => log('could not load', type, e));

/** A letter as its public page shows it (get_letter_view). */
interface LetterView {
  title: string;
  html: string | null;
}

/**
 * The frame's document: the stored letter (sanitised on the server) in a shell of ours. The frame
 * is sandboxed without allow-scripts, and its CSP allows no script either: whatever the HTML
 * holds, nothing in it runs. Links open in a new tab. No background or margin of its own: the
 * letter sits on whatever page shows it (the /block/ page's sheet), as a post in an archive does.
 * In a frame as narrow as a phone's, the letter's rows lose the 32 px at their sides that a mail
 * client needs (render.ts's cells): the page's sheet already has its own, and both took a fifth
 * of a 375 px screen. The rows are found by their place (the letter's table in ours), as a
 * letter stored before keeps its inline padding and no class.
 */
function letterDocument(letter: LetterView): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https: http:; style-src 'unsafe-inline'"><base target="_blank"><style>body{margin:0;background:transparent}@media (max-width:520px){body>table>tbody>tr>td>table>tbody>tr>td{padding-inline:0!important}}</style></head><body><table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">${letter.html ?? ''}</td></tr></table></body></html>`;
}

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
 * @csspart letter - The frame showing a letter block's letter.
 * @csspart block - The rendered element (comment, qna, like, button, ab or form).
 * @csspart skeleton - The grey placeholder shown while the block loads (also `base`).
 * @csspart captcha - The check a visitor who went too fast may pass to go on (blocks with the captcha on).
 */
export default class ReactionBlock extends BlockElement {
  /** Any type may show: the messages-aware join (it gives like and A/B blocks their `me` too). */
  protected override mine = mineWithMessages;
  static override styles = [
    baseStyles,
    css`
      iframe[part='letter'] {
        display: block;
        width: 100%;
        min-height: 200px;
        border: 0;
      }
    `,
  ];

  static override properties = { _letter: state };

  /** The letter of a letter block: null before it loads, 'error' when it could not. */
  declare private _letter: LetterView | 'error' | null;
  private letterFor = '';

  constructor() {
    super();
    this._letter = null;
  }

  private loadLetter(blockId: string): void {
    this.letterFor = blockId;
    rpc<LetterView>(this.project, 'get_letter_view', { p_block_id: blockId })
      .then((letter) => {
        if (this.letterFor === blockId) this._letter = letter;
      })
      .catch((e: unknown) => {
        log('letter load failed', e);
        if (this.letterFor === blockId) this._letter = 'error';
      });
  }

  /** Sizes the frame to its letter (readable: same origin, and nothing in it runs). */
  private fit = (event: Event): void => {
    const frame = event.target as HTMLIFrameElement;
    try {
      const height = frame.contentDocument?.documentElement.scrollHeight;
      if (height) frame.style.height = `${height}px`;
    } catch (e) {
      log('letter frame', e);
    }
  };

  /**
   * The view, once the element of its type is defined: it renders at once, upgraded; a stored
   * profile opens beside the request, for a comment's composer (core/profile.ts).
   */
  protected override async fetchView(blockId: string): Promise<BlockView> {
    const [view] = await Promise.all([super.fetchView(blockId), openProfile()]);
    if (view?.block) await defineType(view.block.type);
    return view;
  }

  /**
   * What the element of the view's type needs before it shows (a form's sanitiser for its
   * description): the viewer keeps its skeleton until then, as that element does on its own page,
   * so the description does not arrive after the rest and push it down.
   */
  protected override prepare(view: BlockView): unknown {
    const type = customElements.get('reaction-' + view.block.type);
    return type?.prototype instanceof BlockElement
      ? (type.prototype as BlockElement)['prepare'](view)
      : undefined;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const v = this.view;
    // a view given from outside: its element upgrades when its module arrives
    if (changed.has('view') && v?.block) void defineType(v.block.type);
    if (v && isLetterType(v.block.type) && this.letterFor !== v.block.id) {
      this._letter = null;
      this.loadLetter(v.block.id);
    }
  }

  private renderLetter(): unknown {
    const letter = this._letter;
    if (letter === null) return super.render();
    if (letter === 'error' || !letter.html)
      return html`<div part="base" dir="ltr" class="muted">
        ${this.t(letter === 'error' ? 'failed' : 'unavailable')}
      </div>`;
    return html`<iframe
      part="letter"
      title=${letter.title}
      sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
      referrerpolicy="no-referrer"
      srcdoc=${letterDocument(letter)}
      @load=${this.fit}
    ></iframe>`;
  }

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
      if (isLetterType(v.block.type)) return this.renderLetter();
      const tag = ELEMENTS.get(v.block.type)?.[0];
      if (!tag)
        return html`<div part="base" dir="ltr" class="muted">${this.t('notValidType')}</div>`;
      return staticHtml`<${tag}
        part="block"
        exportparts=${FORWARDED_PARTS}
        .view=${v}
        project-url=${p.url}
        anon-key=${p.key}
        page-key=${this.pageKey || nothing}
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
