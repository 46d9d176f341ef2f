import { html, nothing, type TemplateResult } from 'lit/html.js';
import { UUID_RE } from '@reaction-blocks/contracts/ids';
import { ReactiveElement, type PropertyDeclaration, type PropertyValues } from './element.js';
import { rpc } from './api.js';
import { getSession, isAuthReturn, loadSession, onAuthChange, type Session } from './session.js';
import { resolveProject, type Project } from './config.js';
import { isLoaded, loadLang, normalizeLang, translator, type Translate } from './i18n.js';
import type { Texts } from './locales/en.js';
import { log } from './log.js';
import { customStyle } from './theme.js';
import { ApiError } from './errors.js';
import { loadChunk } from './chunk.js';
import type { BlockView, Theme } from './types.js';
import type { Mine, MinePart } from './view.js';

export type { Mine, MinePart };

/** Detail of every reaction-* event. */
export interface ReactionEventMap {
  'reaction-load': { view: BlockView };
  'reaction-error': { message: string; code?: string };
  'reaction-like': { liked: boolean; likeCount: number };
  'reaction-click': { url: string };
  'reaction-submit': { answers: Record<string, string | string[]>; response?: unknown };
  'reaction-message': {
    action: 'post' | 'edit' | 'delete' | 'resolve' | 'like' | 'report';
    id: string;
  };
  'reaction-sign-in': { userId: string | null };
}

declare global {
  interface GlobalEventHandlersEventMap {
    'reaction-load': CustomEvent<ReactionEventMap['reaction-load']>;
    'reaction-error': CustomEvent<ReactionEventMap['reaction-error']>;
    'reaction-like': CustomEvent<ReactionEventMap['reaction-like']>;
    'reaction-click': CustomEvent<ReactionEventMap['reaction-click']>;
    'reaction-submit': CustomEvent<ReactionEventMap['reaction-submit']>;
    'reaction-message': CustomEvent<ReactionEventMap['reaction-message']>;
    'reaction-sign-in': CustomEvent<ReactionEventMap['reaction-sign-in']>;
  }
}

/** A grey bar of a loading skeleton: `h` px high, `w` wide (CSS), with more inline style. */
export const bone = (h: number, w = '100%', more = '') =>
  html`<i class="bone" style="height:${h}px;width:${w};${more}"></i>`;

/** A line of text in a skeleton: 21 px (14px/1.5) with a thinner bar in it. */
export const line = (w: string, h = 21) => bone(h, w, 'padding:4px 0;background-clip:content-box');

/** Base of every element: a repeat-safe define() and a typed emit(). */
export class ReactionElement extends ReactiveElement {
  /** Defines the tag once; a second definition (script loaded twice) is a no-op. */
  static define(tag: string): void {
    try {
      this.finalize();
      // a server (server-side rendering) has no registry: nothing to define there
      if (typeof customElements !== 'undefined' && !customElements.get(tag))
        customElements.define(tag, this);
    } catch (e) {
      log('could not define', tag, e);
    }
  }

  protected emit<K extends keyof ReactionEventMap>(name: K, detail: ReactionEventMap[K]): boolean {
    return this.dispatchEvent(
      new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: true }),
    );
  }
}

/**
 * Which blocks the visitor wrote to, and asking for their own part of one (core/marks.ts): a
 * chunk loaded only with a session.
 */
const marks = () => import('./marks.js');

/** The visitor's own part of a block without messages (like, A/B: core/marks.ts meOnly). */
export const meOnly = () => marks().then((m) => m.meOnly);

/**
 * The writer's code (core/writer.ts), loaded on the visitor's first interaction with a block or
 * by the first write; a failed load is tried again by the next (core/chunk.ts).
 */
export const loadWriter = loadChunk(() => import('./writer.js').then((m) => (writerCode = m)));
/** The custom theme's derived colours (core/custom-theme.ts): only custom-theme blocks load them. */
const customTheme = loadChunk(() => import('./custom-theme.js').then((m) => m.default));
/** The writer's code once here: what a refused write says, the captcha panel (when one is open). */
let writerCode: typeof import('./writer.js') | undefined;
/** The events that start loading the writer's code: the visitor is about to act. */
const INTENT = ['pointerdown', 'focusin', 'keydown'];

/** Properties that name the block to load: a change reloads it. */
const SOURCE_PROPS = ['blockId', 'ownerId', 'projectUrl', 'anonKey', 'pageKey'] as const;

/**
 * A block element: loads the block view (core/view.ts: the public part with a cacheable GET, the
 * visitor's own part only when they have a session) and renders it with the block's theme and
 * language. Subclasses implement renderBlock().
 */
export class BlockElement extends ReactionElement {
  /** The English text groups this element speaks besides `core` (core/locales/en.ts). */
  static texts?: Partial<Texts>;

  static override properties: Record<string, PropertyDeclaration> = {
    ownerId: { attribute: 'owner-id' },
    blockId: { attribute: 'block-id' },
    pageKey: { attribute: 'page-key' },
    projectUrl: { attribute: 'project-url' },
    anonKey: { attribute: 'anon-key' },
    theme: {},
    lang: {},
    dummy: { type: Boolean },
    view: { attribute: false },
    _status: { state: true },
    _session: { state: true },
  };

  /** Owner's user id, as in the public URL `?id=`; checked against the block. */
  declare ownerId: string;
  /** The block id, as in the public URL `&block_id=`. */
  declare blockId: string;
  /**
   * The page this block's thread belongs to, for a comment, Q&A or like block shown on many pages
   * (a product page, a blog post): each page key has its own messages, likes and counts. Up to
   * 100 of A-Z a-z 0-9 . _ : / ~ -; empty for the block's one thread.
   */
  declare pageKey: string;
  /** Supabase project URL; defaults to window.ReactionBlocks or the build default. */
  declare projectUrl: string;
  /** Supabase anon key; defaults to window.ReactionBlocks or the build default. */
  declare anonKey: string;
  /** Theme override: light, dark or custom. Defaults to the block's theme. */
  declare theme: Theme | '';
  /** Language override: en or ko. Defaults to the block's language. */
  declare lang: string;
  /**
   * Dummy mode: nothing is written, and the page's session is not the element's (it shows what a
   * visitor without one sees; no one is signed in or out). Only this property turns it on (the
   * dashboard's preview sets it): no page path does, a host page at /work/... writes as any other.
   */
  declare dummy: boolean;
  /**
   * The block view (what get_block_view returns: the public part with the visitor's own `me`). Set it to render without a fetch, e.g. a
   * preview or a view the page already holds.
   */
  declare view: BlockView | null;
  /** `unavailable`: the server's "block doesn't exists" (missing or deactivated). */
  declare protected _status: 'idle' | 'loading' | 'ready' | 'error' | 'unavailable';
  declare protected _session: Session | null;

  private ownView = false;
  /** Bumped by every load and every view set from outside; a load whose number is stale is dropped. */
  private loadSeq = 0;
  private offAuth?: () => void;

  constructor() {
    super();
    this.ownerId = this.blockId = this.projectUrl = this.anonKey = this.theme = this.pageKey = '';
    this.dummy = false;
    this.view = null;
    this._status = 'idle';
    this._session = null;
  }

  protected get project(): Project {
    return resolveProject(this.projectUrl, this.anonKey);
  }

  protected get isDummy(): boolean {
    return this.dummy;
  }

  protected get language(): string {
    return normalizeLang(this.lang || this.view?.block.language);
  }

  protected get t(): Translate {
    return translator(this.language, (this.constructor as typeof BlockElement).texts);
  }

  /**
   * Name and colour sent with every write, from the writer's profile (core/identity.ts: loaded
   * with the writer's code).
   */
  protected async writer(): Promise<{ p_creator_name: string; p_color: string }> {
    return (await loadWriter()).writer(this._session);
  }

  /**
   * Calls a write RPC (the caller skips it in dummy mode) through the writer's code, loaded now
   * if the visitor's first interaction has not started it yet (core/writer.ts): the session is
   * made on the first write, and the captcha shown when the block offers it and the visitor went
   * too fast. `body` may be made from the writer's profile as kept when the write goes
   * (core/writer.ts Body).
   */
  protected async write<T>(name: string, body: object): Promise<T> {
    return (await loadWriter()).write<T>(this, name, body);
  }

  /** Starts loading the writer's code once the visitor is about to act (see INTENT). */
  private readonly intent = () => {
    for (const type of INTENT) this.removeEventListener(type, this.intent);
    this.startWriting();
  };

  /** Loads the writer's code ahead of the first write; elements add their own write paths. */
  protected startWriting(): void {
    loadWriter().catch(() => {});
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // none in dummy mode: a preview shows what a visitor without a session sees, never the
    // session of the page it is on (the dashboard's owner: their name is no visitor's, and a log
    // out there would be theirs); willUpdate drops one read before `dummy` reached the element
    const sync = () => (this._session = this.isDummy ? null : getSession(this.project));
    sync();
    this.offAuth = onAuthChange(sync);
    for (const type of INTENT) this.addEventListener(type, this.intent);
    // the sign-in popup come back: it keeps the session and closes (core/auth.ts)
    if (isAuthReturn())
      void import('./auth.js').then((m) => m.handleAuthReturn(this.project)).catch(log);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.offAuth?.();
    for (const type of INTENT) this.removeEventListener(type, this.intent);
  }

  protected override willUpdate(changed: PropertyValues): void {
    // a property set before the element was defined reaches it only at its first update, after
    // connectedCallback read the page's session (the dashboard's preview on a first workspace)
    if (changed.has('dummy') && this.dummy) this._session = null;
    const viewFromOutside = changed.has('view') && !!this.view && !this.ownView;
    if (viewFromOutside) {
      this.loadSeq++; // a load still in flight must not replace the view just given
      this._status = 'ready';
      this.viewChanged();
    }
    // Another block (or project) reloads, so a React prop change shows the new block; a view
    // given in the same update wins, so `.view=${v} block-id=${id}` never fetches.
    if (SOURCE_PROPS.some((k) => changed.has(k)) && this.blockId && !viewFromOutside)
      void this.load();
    const lang = this.language;
    // once loaded, render in it; a chunk that failed (offline, or refused by its integrity) leaves
    // the English texts, without asking again on every update (that spun the page's thread)
    if (!isLoaded(lang)) void loadLang(lang).then(() => isLoaded(lang) && this.requestUpdate());
  }

  /** (Re)loads the block view. */
  async load(): Promise<void> {
    const seq = ++this.loadSeq;
    const stale = () => seq !== this.loadSeq;
    this._status = 'loading';
    // A known non-English page starts its texts' chunk alongside the API call, not after it.
    void loadLang(normalizeLang(this.lang || document.documentElement.lang));
    try {
      // a mistyped block-id (not a uuid, the contracts' id) is never asked for: the server would
      // refuse it as a bad request, a failure to load. It is no such block, said once a load.
      const view = UUID_RE.test(this.blockId) && (await this.fetchView(this.blockId));
      if (stale()) return;
      if (!view || !view.block) throw new ApiError('unknown block-id', 'PT404');
      if (this.ownerId && view.block.owner_id !== this.ownerId)
        log('owner-id does not match the block', this.blockId);
      await Promise.all([
        loadLang(normalizeLang(this.lang || view.block.language)),
        this.prepare(view),
        // the custom theme's colours; without them (a chunk that failed) the light text
        (this.theme || view.block.theme) === 'custom' && customTheme().catch(String),
      ]);
      if (stale()) return;
      this.ownView = true;
      this.view = view;
      this._status = 'ready';
      this.viewChanged();
      await this.updateComplete;
      this.ownView = false;
      this.emit('reaction-load', { view });
    } catch (e) {
      if (stale()) return;
      this.fail(e);
      // A missing or deactivated block is the visitor RPCs' PT404 "block doesn't exists" (HTTP
      // 404); anything else (network, server, configuration) is a failure to load.
      this._status = (e as ApiError).code === 'PT404' ? 'unavailable' : 'error';
    }
  }

  /**
   * The visitor's own part, for elements that have one (see MinePart): a function, so that one
   * with messages (core/view.ts) loads only for a visitor with a session.
   */
  protected mine?: () => MinePart | Promise<MinePart>;

  /**
   * Fetches the block view: the public part with a cacheable GET (get_block_public: the same
   * request for every visitor, answered by a CDN when there is one), then, only when the visitor
   * already has a session and the element has a part of its own, get_block_me with that session.
   */
  protected async fetchView(blockId: string): Promise<BlockView> {
    const p = this.project;
    // a stored session is opened while the public part is on its way, and with one, the code
    // that asks for the visitor's own part (core/marks.ts)
    const session = loadSession(p);
    const own = this.mine && session.then((s) => s && marks());
    if (own) own.catch(() => {});
    const view = await rpc<BlockView>(
      p,
      'get_block_public',
      { p_block_id: blockId, ...(this.pageKey ? { p_page_key: this.pageKey } : {}) },
      true,
    );
    const s = own && view?.block && (await session);
    return s ? (await own)!.withOwnPart(p, s, view, this.mine!) : view;
  }

  /**
   * Logs and announces an error; returns its message for display: a refused write in the block's
   * language (core/writer.ts said: a write's failure comes after its code loaded), a failure to
   * reach the server (offline, or the writer's code could not load) as one to try again.
   */
  protected fail(e: unknown): string {
    const code = (e as ApiError | null)?.code;
    const message =
      writerCode?.said(e as ApiError | null, this.language, this) ||
      (code === 'network' || code === 'chunk'
        ? this.t('unreachable')
        : e instanceof Error
          ? e.message
          : String(e));
    log(message);
    this.emit('reaction-error', { message, code });
    return message;
  }

  /**
   * What the element needs before it shows a fetched view (a chunk its content needs); its
   * failure is the load's, which the Try again button loads again.
   */
  protected prepare(_view: BlockView): unknown {
    return undefined;
  }

  /** Called when a new view arrives (fetched or set). */
  protected viewChanged(): void {}

  protected override updated(): void {
    const theme = this.theme || this.view?.block.theme || 'light';
    if (this.dataset.theme !== theme) this.dataset.theme = theme;
    // the custom theme's sheet after the element's own styles (here at once when load() waited),
    // and its colour scheme
    if (theme === 'custom')
      // could not load (logged): the light theme's text
      void customTheme().then((adopt) => adopt(this.renderRoot as ShadowRoot), String);
  }

  /**
   * Every base is dir="ltr": the UI's languages (en, ko) read left to right, on a right-to-left
   * host page too (an element inherits the page's dir); what visitors write is dir="auto" where it
   * shows and where it is typed, so Arabic or Hebrew still reads right to left.
   */
  protected override render(): unknown {
    try {
      if (this._status === 'loading')
        return html`<div
          part="base skeleton"
          dir="ltr"
          aria-busy="true"
          class=${this.theme || 'light'}
        >
          <span class="sr">${this.t('loading')}</span>
          <div class="sk" aria-hidden="true">${this.renderSkeleton()}</div>
        </div>`;
      // a failure to load says so and offers to try again (a load fails only with a block id: one
      // that is not is no such block)
      if (this._status === 'error')
        return html`<div part="base" dir="ltr" class="err state">
          <span role="alert">${this.t('failed')}</span>
          <button class="btn ghost" @click=${() => void this.load()}>${this.t('retry')}</button>
        </div>`;
      const block = this.view?.block;
      if (this._status === 'unavailable' || block?.deactivated)
        return html`<div part="base" dir="ltr" role="status" class="muted">
          ${this.t('unavailable')}
        </div>`;
      if (!block) return nothing;
      const theme = (this.theme || block.theme || 'light') as Theme;
      return html`<div
        part="base"
        dir="ltr"
        class=${theme}
        lang=${this.language}
        style=${customStyle(block, theme)}
      >
        ${this.renderBlock()} ${writerCode?.captchaPanel(this)}
      </div>`;
    } catch (e) {
      log('render failed', e);
      return nothing;
    }
  }

  protected renderBlock(): TemplateResult | typeof nothing {
    return nothing;
  }

  /**
   * The loading skeleton: the block's usual shape in grey bars, exactly SKELETON_HEIGHTS[kind]
   * high with the base's padding (checked by core/skeleton.test.ts). This one stands for a block
   * whose type is not known yet.
   */
  protected renderSkeleton(): unknown {
    return html`${line('40%', 24)}${bone(39)}${bone(36, '96px')}`;
  }
}
