import { html, nothing, type TemplateResult } from 'lit/html.js';
import { state, type PropertyValues } from '../../core/element.js';
import { isSignedIn, openPopup } from '../../core/user.js';
import { BlockElement } from '../../core/base.js';
import { mineWithMessages } from '../../core/mine.js';
import { loadIdentity, openProfile } from '../../core/profile.js';
import { loadChunk } from '../../core/chunk.js';
import { baseStyles } from '../../core/theme.js';
import fieldStyles from '../../core/fields.styles.js';
import type { BlockView, Message } from '../../core/types.js';
import type { Change, Counts } from '../../core/live.js';
import { pinnedFirst, threads } from './model.js';
import { byId, changes, loadChanges, PAGE_SIZE } from './comment.live.js';
import styles from './comment.styles.js';
import { message, skeleton, type Mode } from './comment.templates.js';
import { composer, DEBOUNCE_MS, takeProfile, type ComposerView } from './comment.composer.js';
import { comment, fields, like } from '../../core/locales/en.js';

export { PAGE_SIZE, DEBOUNCE_MS };

type CommentWriter = typeof import('./comment.writer.js');
/** The write paths once here. */
let paths: CommentWriter | undefined;
/**
 * The write paths (comment.writer.ts, with the edit box, reply form, confirmations and menu they
 * draw): a chunk loaded with the writer's code, and with the profile's (core/profile.ts), which
 * the composer then reads, as every element of the page does.
 */
const loadCommentWriter = loadChunk(() =>
  Promise.all([import('./comment.writer.js'), loadChanges(), loadIdentity()]).then(([m]) => {
    // what only they say, in English (Korean has every text in its chunk)
    Object.assign(ReactionComment.texts!, m.texts);
    return (paths = m);
  }),
);
/**
 * Reading the list again and its older pages (comment.read.ts): a chunk loaded on sign-in, log
 * out, a resync or Load more.
 */
const loadReader = loadChunk(() => import('./comment.read.js'));

/**
 * @tag reaction-comment
 *
 * @summary Comments: a composer and a live list of messages with one level of replies.
 *
 * @event reaction-message - A message was posted, edited, deleted, liked, resolved or reported; detail { action, id }.
 * @event reaction-sign-in - The visitor signed in or out; detail { userId }.
 * @event reaction-load - The block view loaded; detail { view }.
 * @event reaction-error - A load or write failed; detail { message, code }.
 *
 * @csspart base - The themed wrapper.
 * @csspart skeleton - The grey placeholder in the block's shape while it loads (also `base`).
 * @csspart toolbar - Count and menu button row.
 * @csspart count - Message count (when the block shows counts).
 * @csspart menu-button - Opens the menu panel.
 * @csspart menu - Menu panel: To Block setting, log out, sign-in.
 * @csspart composer - The new-message form.
 * @csspart welcome - Welcome message.
 * @csspart name - Writer name input.
 * @csspart home - The writer's website input (optional); their name links to it.
 * @csspart textarea - Message inputs.
 * @csspart email - Notification email input.
 * @csspart submit - Send buttons.
 * @csspart overlay - "Please sign in" overlay when anonymous writing is blocked.
 * @csspart list - Scrollable message list, the room the panel's fixed height leaves; more load at 90% scroll.
 * @csspart message - One message.
 * @csspart message-header - Avatar, name, labels and date.
 * @csspart avatar - Writer avatar.
 * @csspart empty - What the list says while it has no messages.
 * @csspart new-pill - "↑ N new messages": shown to a reader scrolled down the list when new ones arrive above; back to the top.
 * @csspart author - Writer name.
 * @csspart label - Admin / Me label.
 * @csspart date - Message date (YY.MM.DD).
 * @csspart content - Message text.
 * @csspart actions - Like, reply, edit, delete, resolve.
 * @csspart replies - Reply list.
 * @csspart load-more - Load more button.
 * @csspart error - Error messages.
 * @csspart notice - What happened to the visitor's message (waiting for the owner's approval).
 * @csspart captcha - The check a visitor who went too fast may pass to go on (blocks with the captcha on).
 *
 * @cssproperty --reaction-primary - Main colour.
 * @cssproperty --reaction-secondary - Dividers and quiet fills.
 * @cssproperty --reaction-border - Field and outlined-button edges (default: 55% of the text colour over the background).
 * @cssproperty --reaction-muted - Dates, hints and placeholders.
 * @cssproperty --reaction-background - Background.
 * @cssproperty --reaction-text - Text colour.
 * @cssproperty --reaction-admin-label - Owner label colour. Light and dark: wins over the block's
 * label colour; custom theme: used when the block sets no --ADMIN_LABEL. Default: primary.
 * @cssproperty --reaction-me-label - The visitor's own label colour, like --reaction-admin-label
 * (block: --ME_LABEL).
 * @cssproperty --reaction-height - The panel's fixed height (default 640px): the list scrolls in what the composer leaves.
 */
export default class ReactionComment extends BlockElement {
  /** Of the answer checks' texts, the email's: the length's comes with the write paths. */
  static override texts = { emailError: fields.emailError, ...like, ...comment };
  static override styles = [baseStyles, fieldStyles, styles];
  static override properties = {
    _messages: state,
    _draft: state,
    _sending: state,
    _error: state,
    _name: state,
    _email: state,
    _emailBad: state,
    _home: state,
    _homeBad: state,
    _modes: state,
    _drafts: state,
    _menuOpen: state,
    _hasMore: state,
    _count: state,
    _notice: state,
    _fresh: state,
  };

  declare private _messages: Message[];
  declare private _draft: string;
  declare private _sending: boolean;
  /** What was refused or failed, and where: '' under the composer, or a message id. */
  declare private _error: { at: string; text: string };
  declare private _name: string;
  declare private _email: string;
  declare private _emailBad: boolean;
  /** The writer's website as typed; kept in their profile once it is a valid one. */
  declare private _home: string;
  declare private _homeBad: boolean;
  /** Each message's mode (normal when absent), keyed by message id. */
  declare private _modes: Record<string, Mode>;
  /** Text being typed in a message's edit or reply box, keyed `edit:<id>` / `reply:<id>`. */
  declare private _drafts: Record<string, string>;
  declare private _menuOpen: boolean;
  declare private _hasMore: boolean;
  /** The block's message count (response_count) as the visitor's and live changes move it. */
  declare private _count: number;
  /** What happened to the visitor's last message, when it is not simply shown (held). */
  declare private _notice: string;
  /** New top-level messages that arrived above a reader scrolled down the list. */
  declare private _fresh: number;

  protected qna = false;
  protected override mine = mineWithMessages;
  private liked = new Set<string>();
  private reported = new Set<string>();
  /** Ids counted out by a delete: each is counted once (comment.changes.ts). */
  private gone = new Set<string>();
  /** The hidden honeypot field's value: people never fill it. */
  private hp = '';
  private lastSent = 0;
  private loadingMore = false;
  private emailTimer?: ReturnType<typeof setTimeout>;
  private seq = 0;
  /** Whose list is on screen (see identityOf); another identity reads it again. */
  private shownFor = '';
  private refreshSeq = 0;
  /** Live changes, once the first data shows (comment.watch.ts: it comes with their chunk). */
  private live?: import('./comment.watch.js').LiveList;

  constructor() {
    super();
    this._messages = [];
    this._draft = this._email = this._notice = '';
    this._fresh = 0;
    this._error = { at: '', text: '' };
    this._modes = {};
    this._drafts = {};
    this._sending = this._emailBad = this._homeBad = this._menuOpen = this._hasMore = false;
    this._count = 0;
    this._name = this._home = '';
  }

  protected override viewChanged(): void {
    const v = this.view!;
    this._messages = threads(v.messages);
    this._count = v.block.response_count ?? 0;
    this.liked = new Set(v.me?.liked_message_ids || []);
    this.reported = new Set(v.me?.reported_message_ids || []);
    this.markLiked(this._messages);
    this._hasMore = this._messages.filter((m) => !m.pinned_at).length >= PAGE_SIZE;
    this.shownFor = this.identityOf();
    // the stored profile is open now (BlockElement.load waits for it)
    takeProfile(this.asHost);
    // (an element taken off the page meanwhile watches once it is back: comment.watch.ts)
    if (!this.isDummy)
      loadChanges().then(
        (m) =>
          (this.live ??= new m.LiveList(this, {
            change: (c) => this.onLive(c),
            counts: (c) => this.applyCounts(c),
            resync: () => void this.refresh(),
          })).watch(this.project, v.block),
        (e) => this.fail(e),
      );
  }

  /** The visitor the list was read for: likes, "Me" and owner rights depend on it. */
  private identityOf(): string {
    const u = this._session?.user;
    return u ? (u.is_anonymous ? 'anon:' : '') + u.id : '';
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    // Signed in or out (here or in another element of the page): the composer's fields for the new
    // identity, and the list read again for it, keeping what is on screen. A first anonymous
    // session (the first write) has no likes or messages of its own yet, so nothing needs reading.
    // takeProfile `out` unless an anonymous visitor (or none) signs in: what a signed-in writer
    // typed goes with them (a log out, or another account's session written straight over theirs),
    // as does an anonymous session's when it is lost.
    const now = this.identityOf();
    const was = this.shownFor;
    if (!changed.has('_session') || now === was) return;
    this.shownFor = now;
    if (!was && now.startsWith('anon:')) return;
    takeProfile(this.asHost, !this.signedIn || (!!was && !was.startsWith('anon:')));
    if (this._status === 'ready' && this.view) void this.refresh();
  }

  /**
   * Reads the list again as the current visitor and merges it with the list on screen
   * (comment.read.ts, loaded then): on sign-in, log out and live resyncs.
   */
  private async refresh(): Promise<void> {
    if (this.isDummy) return;
    const seq = ++this.refreshSeq;
    try {
      const { readAgain } = await loadReader();
      const {
        view: v,
        list,
        fresh,
        more,
      } = await readAgain(this.project, this.view!.block, this._messages);
      if (seq !== this.refreshSeq) return;
      this._messages = list;
      this._hasMore = more ?? this._hasMore;
      this.liked = new Set(v.me?.liked_message_ids || []);
      this.reported = new Set(v.me?.reported_message_ids || []);
      this.markLiked(fresh);
      this._count = v.block.response_count ?? this._count;
    } catch (e) {
      this.fail(e);
    }
  }

  /** Counts from Realtime, which starts once the changes' code is here (LiveList.watch). */
  private applyCounts(c: Counts): void {
    if (changes) this._messages = changes.applyCounts(this._messages, c);
  }

  /** A change from Realtime. */
  private onLive(c: Change): void {
    // the owner sees held and hidden messages here: a removal only changes their state
    if (c.type === 'REMOVE' && this.isOwner) return void this.refresh();
    const list = this.renderRoot.querySelector('[part~=list]');
    const isNew = c.type === 'INSERT' && !(c.row as Message).parent_id;
    this.applyChange(c);
    // a reader down the list is not pulled up: a pill says how many arrived above
    if (isNew && list && list.scrollTop > 8) this._fresh++;
  }

  /** The "+N new" pill: back to the top of the list, where the new messages are. */
  private toNew(): void {
    this._fresh = 0;
    const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.renderRoot
      .querySelector('[part~=list]')
      ?.scrollTo({ top: 0, behavior: reduce ? 'auto' : 'smooth' });
  }

  /**
   * Applies a change to the list (comment.changes.ts); one that comes before that code (a like in
   * the dashboard's preview, which has no realtime) is applied once it is here, in order.
   */
  private applyChange(c: Change): void {
    if (!changes)
      return void loadChanges().then(
        () => this.applyChange(c),
        (e) => this.fail(e),
      );
    const { list, delta } = changes.applyChange(this._messages, c, this.gone);
    this._messages = list;
    this._count = Math.max(0, this._count + delta);
  }

  /** The block's message count now, for "n messages" and the $responseCount$ token. */
  protected get responseCount(): number {
    return this._count;
  }

  /** A stored profile opens beside the first request: the composer shows it with the list. */
  protected override async fetchView(blockId: string): Promise<BlockView> {
    const [view] = await Promise.all([super.fetchView(blockId), openProfile()]);
    return view;
  }

  private get signedIn(): boolean {
    return isSignedIn(this._session);
  }

  /** Signed-in (or anonymous) user id, if any session exists. */
  protected get userId(): string | null {
    return this._session?.user.id || null;
  }

  /** The block's owner, signed in: they may delete, hide and answer as the owner. */
  protected get isOwner(): boolean {
    return (
      !!this.view &&
      isSignedIn(this._session) &&
      this._session!.user.id === this.view.block.owner_id
    );
  }

  private canReply(m: Message): boolean {
    const b = this.view!.block;
    return (
      b.allow_reply !== false &&
      !m.parent_id &&
      (!b.block_anonymous || this.signedIn) &&
      (!b.admin_only_reply || this.isOwner)
    );
  }

  /**
   * Shows why something was refused or failed, in the live region of that place; any action
   * (each says '' first) or failure takes the last notice off.
   */
  private say(text: string, at = ''): false {
    this._error = { at, text };
    this._notice = '';
    return false;
  }

  /** Sets (or, without a mode, clears) one message's mode; the others keep theirs. */
  private setMode(id: string, mode?: Mode) {
    const { [id]: _, ...rest } = this._modes;
    this._modes = mode ? { ...rest, [id]: mode } : rest;
  }

  /** Sets (or, without text, drops) the draft of a message's edit or reply box. */
  private setDraft(key: string, text?: string) {
    const { [key]: _, ...rest } = this._drafts;
    this._drafts = text === undefined ? rest : { ...rest, [key]: text };
  }

  /** Loads the next page of older top-level messages. */
  async loadMore(): Promise<void> {
    const last = this._messages[this._messages.length - 1];
    if (!this._hasMore || this.loadingMore || !last) return;
    this.loadingMore = true;
    try {
      // the request comes with the code that reads the list again (comment.read.ts, loaded now)
      const read = await loadReader();
      const page = await read.olderPage(this.project, this.view!.block, last.created_at);
      // merged with the list as it is now (live changes may have come meanwhile)
      this._messages = read.withOlder(this._messages, page);
      this._hasMore = page.length >= PAGE_SIZE;
    } catch (e) {
      this.say(this.fail(e));
    } finally {
      this.loadingMore = false;
    }
  }

  /** Messages from the server carry the caller's `liked`. */
  private markLiked(list: Message[]) {
    for (const m of list) {
      if (m.liked) this.liked.add(m.id);
      this.markLiked(m.replies || []);
    }
  }

  private onScroll(e: Event) {
    const l = e.target as HTMLElement;
    if (l.scrollTop <= 8) this._fresh = 0;
    if (l.scrollTop + l.clientHeight >= l.scrollHeight * 0.9) void this.loadMore();
  }

  /**
   * Posts a message or a reply (comment.writer.ts post). Refused, with the reason shown, when
   * anonymous visitors are blocked and this one is not signed in, and within the message term of
   * the last post.
   */
  private async post(content: string, parentId: string | null = null): Promise<boolean> {
    if (this._sending) return false;
    // sending (the spinner, Send disabled) while the write paths load
    this._sending = true;
    const w = await this.writePaths(parentId || '');
    this._sending = false;
    return !!w && w.post(this.asHost, content, parentId);
  }

  /**
   * Runs one of the write paths (comment.writer.ts): at once when they are here (before this
   * returns), else once loaded with the writer's code on the visitor's first interaction (or now).
   * When it cannot load, the reason is said where the visitor acted (`at`: '' under the composer,
   * or a message id) and the next try loads it again.
   */
  private async writing<T>(at: string, fn: (w: CommentWriter) => T): Promise<T | undefined> {
    const w = paths ?? (await this.writePaths(at));
    return w && fn(w);
  }

  /** The write paths, or undefined with the reason said at `at` when they cannot load. */
  private async writePaths(at: string): Promise<CommentWriter | undefined> {
    try {
      return await loadCommentWriter();
    } catch (e) {
      this.say(this.fail(e), at);
      return undefined;
    }
  }

  /** The write paths once loaded: the templates draw a message's modes and the menu with them. */
  private get paths(): CommentWriter | undefined {
    return paths;
  }

  /**
   * Opens a message's edit box, reply form or confirmation, which the write paths draw: at once
   * when they are here (the visitor's pointer or focus on the block started loading them), else
   * once they arrive; when they cannot load, the reason is said at the message.
   */
  private async open(id: string, mode: Mode): Promise<void> {
    if (await this.writePaths(id)) this.setMode(id, mode);
  }

  /** Opens or closes the menu (drawn by the write paths: its sign-in and log out are theirs). */
  private async toggleMenu(): Promise<void> {
    if (this._menuOpen) this._menuOpen = false;
    else if (await this.writePaths('')) this._menuOpen = true;
  }

  /** This element as its templates and write paths see it (ComposerView: see hostCheck). */
  private get asHost(): ComposerView {
    return this as unknown as ComposerView;
  }

  protected override startWriting(): void {
    super.startWriting();
    // once here, the list is drawn by repeat (comment.live.ts byId)
    loadCommentWriter().then(
      () => this.requestUpdate(),
      () => {},
    );
    loadIdentity()
      .then(() => takeProfile(this.asHost))
      .catch(() => {});
  }

  private async signIn(provider: 'google' | 'apple') {
    // the popup opens in the click, before the sign-in code is awaited (a popup blocker allows a
    // window only while the click is fresh); it goes to the provider once that code is here
    // none in a preview (dummy mode), where no one signs in (comment.writer.ts signIn)
    const popup = this.isDummy ? null : openPopup();
    const w = await this.writePaths('');
    if (w) await w.signIn(this.asHost, provider, popup);
    // the sign-in code could not load: the empty popup goes, the reason is said under the composer
    else popup?.close();
  }

  /** Likes or unlikes a message: at once on screen, then sent (comment.writer.ts like). */
  private async like(m: Message) {
    const was = this.liked.has(m.id);
    this.setLiked(m, !was, (m.like_count || 0) + (was ? -1 : 1));
    if (this.isDummy) return;
    const w = await this.writePaths(m.id);
    if (w) await w.like(this.asHost, m, was);
    else this.setLiked(m, was, m.like_count || 0);
  }

  private setLiked(m: Message, on: boolean, count: number) {
    this.liked[on ? 'add' : 'delete'](m.id);
    this.applyChange({ type: 'UPDATE', row: { ...m, like_count: Math.max(0, count) } });
  }

  private async submit(e: Event) {
    e.preventDefault();
    if (await this.post(this._draft)) this._draft = '';
  }

  protected renderHeader(): TemplateResult | typeof nothing {
    return nothing;
  }

  /** The Q&A header's place in the skeleton. */
  protected renderHeaderSkeleton(): unknown {
    return nothing;
  }

  /** The block's shape while it loads (comment.templates.ts skeleton). */
  protected override renderSkeleton() {
    return skeleton(this.renderHeaderSkeleton());
  }

  protected override renderBlock() {
    const b = this.view!.block;
    return html`${this.renderHeader()}
      <div part="toolbar">
        ${b.show_count ? html`<span part="count">${this.t('messages', { count: this._count })}</span>` : html`<span></span>`}
        <button
          part="menu-button"
          class="btn link"
          aria-expanded=${this._menuOpen}
          aria-controls="menu"
          @click=${this.toggleMenu}
        >
          ${this.t('menu')}
        </button>
      </div>
      ${this._menuOpen ? paths?.menu(this.asHost) : nothing} ${composer(this.asHost)}
      <p part="error" class="err" role="alert">${this._error.at ? '' : this._error.text}</p>
      <p part="notice" class="muted" role="status">${this._notice}</p>
      <ul part="list" aria-label=${this.t('messageList')} @scroll=${this.onScroll}>
        ${this._fresh ? html`<li class="pill"><button part="new-pill" class="btn" @click=${this.toNew}>↑ ${this.t('newMessages', { count: this._fresh })}</button></li>` : nothing}
        ${byId(pinnedFirst(this._messages), (m) => message(this.asHost, m))}
        ${this._messages.length ? nothing : html`<li part="empty" class="muted">${this.t(this.qna ? 'qnaEmpty' : 'empty')}</li>`}
        ${this._hasMore ? html`<li class="more"><button part="load-more" class="btn ghost" @click=${this.loadMore}>${this.t('loadMore')}</button></li>` : nothing}
      </ul>`;
  }
}

/**
 * Never called: TypeScript checks here that the element has every member its templates, composer
 * and write paths use (ComposerView) with a type they may use it as, so `asHost` may hand the element over
 * as one.
 */
const hostCheck = (c: ReactionComment): ComposerView => ({
  view: c['view'],
  project: c['project'],
  isDummy: c['isDummy'],
  userId: c['userId'],
  signedIn: c['signedIn'],
  t: c['t'],
  _session: c['_session'],
  hp: c['hp'],
  _email: c['_email'],
  _home: c['_home'],
  _homeBad: c['_homeBad'],
  _name: c['_name'],
  reported: c['reported'],
  _sending: c['_sending'],
  _notice: c['_notice'],
  _menuOpen: c['_menuOpen'],
  lastSent: c['lastSent'],
  seq: c['seq'],
  say: c['say'],
  fail: c['fail'],
  write: c['write'],
  emit: c['emit'],
  applyChange: c['applyChange'],
  setMode: c['setMode'],
  setDraft: c['setDraft'],
  setLiked: c['setLiked'],
  qna: c['qna'],
  isOwner: c['isOwner'],
  _count: c['_count'],
  _draft: c['_draft'],
  _drafts: c['_drafts'],
  _emailBad: c['_emailBad'],
  _error: c['_error'],
  _modes: c['_modes'],
  liked: c['liked'],
  canReply: c['canReply'],
  like: c['like'],
  post: c['post'],
  writing: c['writing'],
  paths: c['paths'],
  open: c['open'],
  signIn: c['signIn'],
  submit: c['submit'],
  emailTimer: c['emailTimer'],
  renderRoot: c['renderRoot'],
  updateComplete: c['updateComplete'],
});
void hostCheck;
