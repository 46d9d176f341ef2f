// The comment element's write paths (posting, replying, editing, deleting, resolving, reporting,
// liking a message, the composer's name, website and email, signing in and out) and what the
// visitor acts in (a message's edit box, reply form and confirmations, the menu), loaded with the
// writer's code on the visitor's first interaction with the block (comment.component.ts
// writing()), never before the first data shows. Each takes the element and works on its state
// as its own methods did (private members through `c.name`, which TypeScript checks).
import { html, nothing, type TemplateResult } from 'lit/html.js';
import { COMMENT_LIMITS, lengthOf } from '@reaction-blocks/contracts/limits';
import { EMAIL_RE } from '@reaction-blocks/contracts/email-rule';
import { pageOf, timezone } from '../../core/api.js';
import { loadChunk } from '../../core/chunk.js';
import type { ReactionEventMap } from '../../core/base.js';
import {
  getIdentity,
  sendable,
  setIdentityName,
  setProfile,
  type Identity,
} from '../../core/identity.js';
import { displayUser } from '../../core/user.js';
import { dashboardUrl } from '../../core/config.js';
import { homeUrl } from '../../core/home-url.js';
import { honeypot } from '../../core/trust.js';
import { visitorAvatar } from '../../core/visitor-avatar.js';
import type { Block, Message } from '../../core/types.js';
import type { Project } from '../../core/config.js';
import type { Translate } from '../../core/i18n.js';
import type { Session } from '../../core/session.js';
import type { Change } from '../../core/live.js';
import type { Body } from '../../core/writer.js';
import { commentWrite, fields } from '../../core/locales/en.js';
import { signInButtons } from './sign-in.js';

/**
 * The English texts only these paths say (with the length check's, from the answer checks' group);
 * the element takes them in when they load.
 */
export const texts = { ...commentWrite, lengthError: fields.lengthError };

/** What a message is open in, besides reading: its edit box, reply form or a confirmation. */
export type Mode = 'edit' | 'reply' | 'delete' | 'report';

/**
 * The comment element as its write paths see it: its state and the helpers they use (private to
 * the element; comment.component.ts checks at compile time that it has each member with this
 * type, and hands itself over as this host).
 */
export interface CommentHost {
  readonly view: { block: Block } | null;
  readonly project: Project;
  readonly isDummy: boolean;
  readonly userId: string | null;
  readonly signedIn: boolean;
  readonly t: Translate;
  readonly _session: Session | null;
  /** The hidden honeypot field's value (comment.composer.ts sets it). */
  hp: string;
  readonly _email: string;
  readonly _home: string;
  readonly _homeBad: boolean;
  /** The name field's; an anonymous post sets it to the profile's name it went under. */
  _name: string;
  readonly reported: Set<string>;
  readonly isOwner: boolean;
  /** Text being typed in a message's edit or reply box, keyed `edit:<id>` / `reply:<id>`. */
  readonly _drafts: Record<string, string>;
  _sending: boolean;
  _notice: string;
  _menuOpen: boolean;
  lastSent: number;
  seq: number;
  say(text: string, at?: string): false;
  fail(e: unknown): string;
  write<T>(name: string, body: Body): Promise<T>;
  emit<K extends keyof ReactionEventMap>(name: K, detail: ReactionEventMap[K]): boolean;
  applyChange(c: Change): void;
  setMode(id: string, mode?: Mode): void;
  setDraft(key: string, text?: string): void;
  setLiked(m: Message, on: boolean, count: number): void;
  post(content: string, parentId?: string | null): Promise<boolean>;
  signIn(provider: 'google' | 'apple'): Promise<void>;
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly updateComplete: Promise<boolean>;
  readonly _modes: Record<string, Mode>;
}

const MESSAGE_MAX = COMMENT_LIMITS.message;
/** Signing in and out (core/auth.ts); a failed load is tried again by the next click. */
const loadAuth = loadChunk(() => import('../../core/auth.js'));
/** Spec section 9. */
export const MESSAGE_TERM_MS = 3000;

/**
 * Posts a message or a reply. Refused, with the reason shown, when anonymous visitors are blocked
 * and this one is not signed in, and within the message term of the last post.
 */
export async function post(
  c: CommentHost,
  content: string,
  parentId: string | null = null,
): Promise<boolean> {
  const text = content.trim();
  const b = c.view?.block;
  const at = parentId || '';
  const say = (s: string) => c.say(s, at);
  if (!b || c._sending) return false;
  if (b.block_anonymous && !c.signedIn) return say(c.t('signInPrompt'));
  if (!text) return false;
  if (Date.now() - c.lastSent < MESSAGE_TERM_MS) return say(c.t('wait'));
  if (lengthOf(text) > MESSAGE_MAX) return say(c.t('lengthError', { max: MESSAGE_MAX }));
  c._sending = true;
  c.say('');
  try {
    // a signed-in writer's session refused at Send (revoked, or signed out where this page did
    // not hear it), or no longer theirs: nothing is sent (core/writer.ts write, SIGNED_OUT) and the
    // composer shows them signed out, the text kept, and says why
    const id = getIdentity();
    // who sends it: a log out while the post is on its way must not keep a signed-in email
    const anonymous = !c.signedIn;
    const email = !parentId && b.allow_creator_email && EMAIL_RE.test(c._email) ? c._email : null;
    const home = (!c._homeBad && homeUrl(c._home)) || null;
    const row: Message = c.isDummy
      ? {
          id: 'dummy-' + ++c.seq,
          block_id: b.id,
          parent_id: parentId,
          creator_id: c.userId || 'dummy',
          creator_name: c._name,
          color: id.color,
          home_url: home,
          content: text,
          created_at: new Date().toISOString(),
        }
      : await c.write<Message>('post_message', (kept: Identity) => ({
          p_block_id: b.id,
          p_parent_id: parentId,
          p_content: text,
          // without bidi controls, at most 100 characters: an account's name may have either.
          // An anonymous writer's name is the profile's (typed names are kept in it: onName), as
          // kept when the write goes: another tab's of the same visitor, when that tab kept its
          // own first, and the field shows it from now on (identity.ts keepProfile)
          p_creator_name: sendable(
            (anonymous && c._name ? (c._name = kept.name) : c._name).trim() || kept.name,
          ),
          p_color: kept.color,
          // an avatar only from a signed-in visitor's provider profile (the server's rule)
          p_creator_photo_url: visitorAvatar(
            c.project,
            c.signedIn ? displayUser(c._session).photo : null,
          ),
          p_home_url: home,
          p_creator_email: email,
          p_timezone: timezone(),
          p_honeypot: c.hp,
          ...pageOf(b),
        }));
    c.lastSent = Date.now();
    // the address replies are announced to is offered again next time, to the anonymous writer
    // only: the profile is the browser's anonymous writer's (takeHome; the name: composer onName)
    if (!parentId && b.allow_creator_email && anonymous) setProfile({ email: email || undefined });
    c.applyChange({ type: 'INSERT', row });
    c._notice = [
      row.status === 'held' && c.t('heldNotice'),
      row.email_confirmation && c.t('confirmMailNotice'),
    ]
      .filter(Boolean)
      .join(' ');
    c.emit('reaction-message', { action: 'post', id: row.id });
    return true;
  } catch (e) {
    return say(c.fail(e));
  } finally {
    c._sending = false;
  }
}

async function act(
  c: CommentHost,
  action: ReactionEventMap['reaction-message']['action'],
  m: Message,
  name: string,
  body: object,
  local: () => void,
): Promise<void> {
  c.say('');
  try {
    if (!c.isDummy) {
      const r = await c.write<Message | null>(name, body);
      if (r && (r as Message).id)
        c.applyChange({ type: 'UPDATE', row: { ...(r as Message), parent_id: m.parent_id } });
    }
    local();
    // The edit or delete is done: that message is back to normal and its edit draft goes.
    if (action === 'edit' || action === 'delete') {
      c.setMode(m.id);
      c.setDraft('edit:' + m.id);
    }
    c.emit('reaction-message', { action, id: m.id });
  } catch (e) {
    c.say(c.fail(e), m.id);
  }
}

/** Saves an edit; an emptied box is refused with the reason, an unchanged one just closes. */
export function edit(c: CommentHost, m: Message, content: string) {
  const text = content.trim();
  if (!text) return c.say(c.t('emptyMessage'), m.id);
  if (text === m.content) {
    c.setMode(m.id);
    c.setDraft('edit:' + m.id);
    return c.say('');
  }
  if (lengthOf(text) > MESSAGE_MAX) return c.say(c.t('lengthError', { max: MESSAGE_MAX }), m.id);
  return act(c, 'edit', m, 'edit_message', { p_message_id: m.id, p_content: text }, () =>
    c.applyChange({ type: 'UPDATE', row: { ...m, content: text, is_edited: true } }),
  );
}

export const remove = (c: CommentHost, m: Message) =>
  act(c, 'delete', m, 'delete_message', { p_message_id: m.id }, () =>
    c.applyChange({ type: 'DELETE', row: m }),
  );

export const resolve = (c: CommentHost, m: Message) =>
  act(
    c,
    'resolve',
    m,
    'set_message_resolved',
    { p_message_id: m.id, p_resolved: !m.resolved },
    () => c.applyChange({ type: 'UPDATE', row: { ...m, resolved: !m.resolved } }),
  );

/** Reports a message to the owner (once; the server ignores a second report). */
export async function report(c: CommentHost, m: Message) {
  c.say('');
  try {
    if (!c.isDummy) await c.write('report_message', { p_message_id: m.id });
    c.reported.add(m.id);
    c.setMode(m.id);
    // "Reported" takes the button's place: said in the element's polite live region, emptied
    // first (say) so that a second report is said again
    await c.updateComplete;
    c._notice = c.t('reportSent');
    c.emit('reaction-message', { action: 'report', id: m.id });
  } catch (e) {
    c.say(c.fail(e), m.id);
  }
}

/**
 * Sends a message's like or its undoing (the element showed it at once, `was` is what it was
 * before), corrected by the server's answer or undone.
 */
export async function like(c: CommentHost, m: Message, was: boolean) {
  c.say('');
  try {
    const r = await c.write<{ liked: boolean; like_count: number }>('toggle_message_like', {
      p_message_id: m.id,
    });
    c.setLiked(m, r.liked, r.like_count);
    c.emit('reaction-message', { action: 'like', id: m.id });
  } catch (e) {
    c.setLiked(m, was, m.like_count || 0);
    c.say(c.fail(e), m.id);
  }
}

/** Keeps a change of the writer's profile (name, website) typed in the composer. */
export const keep = (patch: { name?: string; homeUrl?: string }) =>
  patch.name === undefined ? setProfile(patch) : setIdentityName(patch.name);

/**
 * The website typed in the composer (comment.composer.ts onHome), checked once this code is here:
 * one that is not one the server takes is said at once and never kept (nor sent: post checks it
 * again). It is kept in the profile only for an anonymous writer, as the name is
 * (comment.composer.ts onName). One no longer in the composer when this code comes is left: typed
 * over, or taken off by a log out since (takeProfile), which made the visitor anonymous but did
 * not make what the signed-in writer typed the anonymous writer's.
 */
/** The notification address as typed, checked once the visitor paused (composer onEmail). */
export function takeEmail(c: { _email: string; _emailBad: boolean }): void {
  c._emailBad = !!c._email && !EMAIL_RE.test(c._email);
}

export function takeHome(
  c: { _home: string; _homeBad: boolean; signedIn: boolean },
  typed: string,
): void {
  if (c._home !== typed) return;
  const url = homeUrl(typed);
  c._homeBad = url == null;
  if (url != null && !c.signedIn) keep({ homeUrl: url || undefined });
}

/**
 * Signs in with a provider's popup. The popup was opened in the click (`popup`), before this
 * code was awaited: a popup blocker allows a window only while the click is fresh.
 */
export async function signIn(c: CommentHost, provider: 'google' | 'apple', popup: Window | null) {
  // a preview (dummy mode) has no visitor's session of its own: the page's is its owner's
  if (c.isDummy) return void c.say(c.t('previewSignIn'));
  let auth: typeof import('../../core/auth.js');
  try {
    auth = await loadAuth();
  } catch (e) {
    // the empty popup goes; the reason is said under the composer
    popup?.close();
    c.say(c.fail(e));
    return;
  }
  const s = await auth.signInWithPopup(c.project, provider, popup);
  // The new session reaches willUpdate, which reads the list again for it.
  if (s) c.emit('reaction-sign-in', { userId: s.user.id });
}

export async function logOut(c: CommentHost) {
  if (c.isDummy) return; // a preview holds no session: never the page's to end
  try {
    void (await loadAuth()).signOut(c.project);
  } catch (e) {
    c.say(c.fail(e));
    return;
  }
  c._menuOpen = false;
  c.emit('reaction-sign-in', { userId: null });
}

/** A message's edit box: Save (an emptied box is refused, an unchanged one closes) and Discard. */
export function editBox(c: CommentHost, m: Message): TemplateResult {
  const key = 'edit:' + m.id;
  return html`<textarea
      part="textarea"
      class="input"
      dir="auto"
      aria-label=${c.t('edit')}
      maxlength=${MESSAGE_MAX}
      .value=${c._drafts[key] ?? m.content}
      @input=${(e: Event) => c.setDraft(key, (e.target as HTMLTextAreaElement).value)}
    ></textarea>
    <div class="row">
      <button class="btn" @click=${() => edit(c, m, c._drafts[key] ?? m.content)}>
        ${c.t('save')}
      </button>
      <button
        class="btn ghost"
        @click=${() => {
          c.setMode(m.id);
          c.setDraft(key);
        }}
      >
        ${c.t('discard')}
      </button>
    </div>`;
}

/** The confirmations drawn and focused (each once: a render again does not move focus). */
const focused = new WeakSet<Element>();

/**
 * Deleting or reporting a message, asked first: the question, the action (focused when it opens)
 * and Cancel. Closed (Cancel, or the action done), focus goes back to the message's action that
 * opened it or, when it is gone (Reported in its place), to the message's first action, else (the
 * message deleted) to the element's first field or button: never to the page's <body>.
 */
export function confirmRow(c: CommentHost, m: Message, mode: 'delete' | 'report'): TemplateResult {
  const question = c.t(mode === 'delete' ? 'confirmDelete' : 'reportConfirm');
  const close = async (done?: Promise<unknown>) => {
    if (done) await done;
    else c.setMode(m.id);
    // a failed action keeps the confirmation open, and focus in it
    if (c._modes[m.id]) return;
    await c.updateComplete;
    const root = c.renderRoot;
    const actions = [
      ...root.querySelectorAll<HTMLElement>(`[id="m-${m.id}"] > [part=actions] button`),
    ];
    (
      actions.find((a) => a.textContent!.trim() === c.t(mode)) ||
      actions[0] ||
      root.querySelector<HTMLElement>('textarea,button')
    )?.focus();
  };
  // opened: its first button takes focus, once it is in the page
  void c.updateComplete.then(() => {
    const row = c.renderRoot.querySelector(`[id="m-${m.id}"] > [role=group]`);
    if (row && !focused.has(row)) {
      focused.add(row);
      row.querySelector('button')!.focus();
    }
  });
  return html`<div class="row" role="group" aria-label=${question}>
    <span>${question}</span>
    <button class="btn" @click=${() => close(mode === 'delete' ? remove(c, m) : report(c, m))}>
      ${c.t(mode)}
    </button>
    <button class="btn ghost" @click=${() => close()}>${c.t('cancel')}</button>
  </div>`;
}

/** The reply form under a message: sent, it closes and its draft goes. */
export function replyForm(c: CommentHost, m: Message): TemplateResult {
  const key = 'reply:' + m.id;
  return html`<form
    class="row"
    @submit=${async (e: Event) => {
      e.preventDefault();
      if (await c.post(c._drafts[key] || '', m.id)) {
        c.setMode(m.id);
        c.setDraft(key);
      }
    }}
  >
    ${honeypot((v) => (c.hp = v))}
    <textarea
      part="textarea"
      class="input"
      dir="auto"
      aria-label=${c.t('replyTo', { name: m.creator_name || '?' })}
      maxlength=${MESSAGE_MAX}
      .value=${c._drafts[key] ?? ''}
      @input=${(e: Event) => c.setDraft(key, (e.target as HTMLTextAreaElement).value)}
    ></textarea>
    <button part="submit" class="btn" type="submit" ?disabled=${c._sending}>${c.t('send')}</button>
    <button class="btn ghost" type="button" @click=${() => c.setMode(m.id)}>${c.t('close')}</button>
  </form>`;
}

/** The menu panel: the owner's way to the block's settings, log out or sign in. */
export function menu(c: CommentHost): TemplateResult {
  const dash = dashboardUrl();
  return html`<div part="menu" id="menu" role="group" aria-label=${c.t('menu')}>
    ${c.isOwner && dash ? html`<a class="btn link" href="${dash}/work/${c.view!.block.id}" target="_blank" rel="noopener">${c.t('toBlock')}</a>` : nothing}
    ${c.signedIn ? html`<button type="button" class="btn link" @click=${() => logOut(c)}>${c.t('logout')}</button>` : signInButtons(c)}
  </div>`;
}
