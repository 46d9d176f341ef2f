import { resolveProject } from '../../core/config.js';
import { countOf } from '../../core/counts.js';
import { loadLang, normalizeLang, translator } from '../../core/i18n.js';
import { count as texts } from '../../core/locales/en.js';

/** Which count to show: comments (comment, Q&A), likes (like) or responses (button, A/B, form). */
export type CountKind = 'comments' | 'likes' | 'responses';
const KINDS: readonly string[] = ['comments', 'likes', 'responses'];
const KIND_OF: Record<string, CountKind> = { comment: 'comments', qna: 'comments', like: 'likes' };

// Imported on a server (server-side rendering) there is no HTMLElement: the class then extends a
// stand-in and is never defined, as Lit's elements are there.
const HTMLElementOrStandIn = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

/**
 * The element's shadow root, one span (part "base") holding the count's text node, which it
 * answers. Outside the class: written in the constructor, `root.innerHTML = ...` was read by the
 * manifest's analyzer as a public field `innerHTML` of the element.
 */
function shadowText(host: HTMLElement): Text {
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = '<span part="base"></span>';
  return root.firstChild!.appendChild(document.createTextNode(''));
}

/**
 * @tag reaction-count
 *
 * @summary A block's count as text ("12 comments"), for a page that lists many posts: every
 * `<reaction-count>` of the page is read in one cacheable request.
 *
 * @attr lang - Language of the text: en or ko. Defaults to the nearest `lang` of the page.
 *
 * @csspart base - The count's text.
 */
// No Lit: on a blog's index page this is the only element, and it needs none of Lit's templating
// (about 6 KB gzip); a define() as repeat-safe as the other elements' is enough.
export default class ReactionCount extends HTMLElementOrStandIn {
  static get observedAttributes(): string[] {
    return ['block-id', 'kind', 'number', 'lang', 'project-url', 'anon-key'];
  }

  /** Defines the tag once; a second definition (script loaded twice) is a no-op. */
  static define(tag: string): void {
    if (typeof customElements !== 'undefined' && !customElements.get(tag))
      customElements.define(tag, this);
  }

  /** The block id, as in the public URL `&block_id=`. */
  get blockId(): string {
    return this.getAttribute('block-id') || '';
  }
  set blockId(v: string) {
    this.setAttribute('block-id', v);
  }

  /**
   * Which count: `comments`, `likes` or `responses`. Defaults to the block type's own: comments for
   * comment and Q&A blocks, likes for like blocks, responses for button, A/B and form blocks.
   */
  get kind(): CountKind | '' {
    const k = this.getAttribute('kind') || '';
    return KINDS.includes(k) ? (k as CountKind) : '';
  }
  set kind(v: CountKind | '') {
    this.setAttribute('kind', v);
  }

  /** Shows the number alone ("12") instead of the phrase ("12 comments"). */
  get number(): boolean {
    return this.hasAttribute('number');
  }
  set number(v: boolean) {
    this.toggleAttribute('number', !!v);
  }

  /** Supabase project URL; defaults to window.ReactionBlocks or the build default. */
  get projectUrl(): string {
    return this.getAttribute('project-url') || '';
  }
  set projectUrl(v: string) {
    this.setAttribute('project-url', v);
  }

  /** Supabase anon key; defaults to window.ReactionBlocks or the build default. */
  get anonKey(): string {
    return this.getAttribute('anon-key') || '';
  }
  set anonKey(v: string) {
    this.setAttribute('anon-key', v);
  }

  private text: Text;
  private seq = 0;

  constructor() {
    super();
    this.text = shadowText(this);
  }

  connectedCallback(): void {
    void this.show();
  }

  attributeChangedCallback(): void {
    if (this.isConnected) void this.show();
  }

  /**
   * Reads the count (shared with every other count of the page) and shows it in the page's or
   * the `lang` attribute's language; nothing for a block without one. The host gets
   * `data-count`, so a page can style or hide a zero: `reaction-count[data-count='0']`.
   */
  private async show(): Promise<void> {
    const seq = ++this.seq;
    // attributes set one after another in the same task (a React wrapper sets each property in
    // turn, after the element was connected) are one change: read once they are all there
    await null;
    if (seq !== this.seq) return;
    const c = await countOf(resolveProject(this.projectUrl, this.anonKey), this.blockId);
    const kind = this.kind || KIND_OF[c?.type || ''] || 'responses';
    const n = c?.[kind];
    const lang = normalizeLang(this.closest('[lang]')?.getAttribute('lang'));
    await loadLang(lang);
    if (seq !== this.seq) return;
    if (n == null) {
      this.text.data = '';
      delete this.dataset.count;
      return;
    }
    this.dataset.count = String(n);
    this.text.data = this.number ? String(n) : translator(lang, texts)(kind, { count: n });
  }
}
