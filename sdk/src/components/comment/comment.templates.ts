// The comment element's template partials: one message with its actions and replies, and the
// loading skeleton (the composer is comment.composer.ts). Each takes the element as the view it renders (CommentView: its
// state and handlers, checked member by member in comment.component.ts) and returns a template the
// element renders in its own shadow root, where Lit calls the handlers with the element as `this`.
// What shows only once the visitor acts (a message's edit box, reply form and confirmations, the
// menu) comes with the write paths (comment.writer.ts), loaded on the visitor's first interaction.
import { html, nothing, type TemplateResult } from 'lit/html.js';
import { bone, line } from '../../core/base.js';
import { AVATAR_PLACEHOLDER, fallBackTo } from '../../core/placeholder.js';
import { link, linkify, safeUrl, shortDate } from '../../core/text.js';
import type { Message } from '../../core/types.js';
import { avatarStyle } from './avatar.js';
import { byId } from './comment.live.js';
import type { CommentHost, Mode } from './comment.writer.js';

type CommentWriter = typeof import('./comment.writer.js');
export type { Mode };

/**
 * The comment element as its templates see it: what its write paths see (CommentHost) and the
 * state and handlers the templates read and bind.
 */
export interface CommentView extends CommentHost {
  readonly qna: boolean;
  readonly _count: number;
  _draft: string;
  readonly _emailBad: boolean;
  /** What was refused or failed, and where: '' under the composer, or a message id. */
  readonly _error: { at: string; text: string };
  readonly _modes: Record<string, Mode>;
  readonly liked: Set<string>;
  canReply(m: Message): boolean;
  like(m: Message): Promise<void>;
  /** Runs a write path, loading it if need be; the reason is said at `at` if it cannot load. */
  writing<T>(at: string, fn: (w: CommentWriter) => T): Promise<T | undefined>;
  /** The write paths once loaded, with what they draw (edit box, reply form, confirmations, menu). */
  readonly paths: CommentWriter | undefined;
  /** Opens a message's edit box, reply form or confirmation once the write paths are here. */
  open(id: string, mode: Mode): Promise<void>;
  submit(e: Event): Promise<void>;
}

/**
 * One message with its header, text, actions and, in a mode, its edit box, confirmation or reply
 * form (drawn by the write paths, comment.writer.ts); its replies below it.
 */
export function message(c: CommentView, m: Message): TemplateResult {
  const b = c.view!.block;
  const labels = b.custom_label_name || {};
  const mine = !!c.userId && m.creator_id === c.userId;
  const home = safeUrl(m.home_url, true);
  const photo = safeUrl(m.creator_photo_url);
  const mode = c._modes[m.id];
  const top = !m.parent_id;
  const replyMode = mode === 'reply';
  const name = m.creator_name || '?';
  // a mode opens once the write paths are here (CommentView.open), which draw it
  const w = mode && c.paths;
  // the header (who wrote it, when, their labels) describes each of the message's buttons: a
  // screen reader tabbing through the list hears whose "Reply" or "2 Likes" it is
  const d = 'h-' + m.id;
  /** Edit, Delete or Report: opens that mode (its box or confirmation). */
  const opens = (to: Mode) =>
    html`<button class="btn link" aria-describedby=${d} @click=${() => c.open(m.id, to)}>
      ${c.t(to)}
    </button>`;
  return html`<li part="message" id="m-${m.id}">
    <div part="message-header" id=${d}>
      ${
        photo
          ? html`<img part="avatar" src=${photo} alt="" @error=${fallBackTo(AVATAR_PLACEHOLDER)} />`
          : html`<span part="avatar" aria-hidden="true" style=${avatarStyle(m.color)}
              >${name[0]}</span
            >`
      }
      <span part="author" dir="auto">${home ? link(home, name) : name}</span>
      ${m.creator_id === b.owner_id ? html`<span part="label" class="admin">${labels.admin || c.t('admin')}</span>` : nothing}
      ${mine ? html`<span part="label">${labels.me || c.t('me')}</span>` : nothing}
      <time part="date" class="muted" datetime=${m.created_at}>${shortDate(m.created_at)}</time>
      ${m.imitates_owner && m.creator_id !== b.owner_id ? html`<span part="label" class="note">${c.t('notOwner')}</span>` : nothing}
      ${m.is_edited ? html`<span class="muted">(${c.t('edited')})</span>` : nothing}
      ${m.status === 'held' || m.status === 'hidden' ? html`<span part="label" class="note">${c.t(m.status)}</span>` : nothing}
      ${m.pinned_at && top ? html`<span part="label" class="note">${c.t('pinned')}</span>` : nothing}
      ${c.qna && top && m.resolved ? html`<span part="label" class="admin">${c.t('resolved')}</span>` : nothing}
    </div>
    ${mode === 'edit' && w ? w.editBox(c, m) : html`<p part="content" dir="auto">${linkify(m.content)}</p>`}
    ${
      (mode === 'delete' || mode === 'report') && w
        ? w.confirmRow(c, m, mode)
        : html`<div part="actions">
            ${
              b.allow_reaction !== false
                ? html`<button
                    class="btn link"
                    aria-describedby=${d}
                    aria-pressed=${c.liked.has(m.id)}
                    @click=${() => c.like(m)}
                  >
                    ${c.t('like', { count: m.like_count || 0 })}
                  </button>`
                : nothing
            }
            ${c.canReply(m) ? html`<button class="btn link" aria-describedby=${d} aria-expanded=${replyMode} @click=${() => (replyMode ? c.setMode(m.id) : c.open(m.id, 'reply'))}>${c.t('reply')}${m.reply_count ? ` ${m.reply_count}` : ''}</button>` : nothing}
            ${mine ? opens('edit') : nothing} ${mine || c.isOwner ? opens('delete') : nothing}
            ${
              mine || c.isOwner || (m.status && m.status !== 'published')
                ? nothing
                : c.reported.has(m.id)
                  ? html`<span class="muted">${c.t('reported')}</span>`
                  : opens('report')
            }
            ${
              c.qna && top && c.isOwner
                ? html`<button
                    class="btn link"
                    aria-describedby=${d}
                    aria-pressed=${!!m.resolved}
                    @click=${() => c.writing(m.id, (w) => w.resolve(c, m))}
                  >
                    ${c.t(m.resolved ? 'unresolve' : 'resolve')}
                  </button>`
                : nothing
            }
          </div>`
    }
    ${replyMode && w ? w.replyForm(c, m) : nothing}
    ${
      mode === 'edit' || mode === 'reply' || c._error.at === m.id
        ? html`<p part="error" class="err" role="alert">
            ${c._error.at === m.id ? c._error.text : ''}
          </p>`
        : nothing
    }
    ${
      m.replies?.length
        ? html`<ul part="replies">
            ${byId(m.replies, (r) => message(c, r))}
          </ul>`
        : nothing
    }
  </li>`;
}

/**
 * The loading skeleton under the Q&A header's place (`header`): toolbar; composer with a welcome
 * line, name, message box and Send (12px under it); one-line messages (header, text, actions) as
 * the list shows them, as many as the panel's fixed height (SKELETON_HEIGHTS) holds.
 */
export function skeleton(header: unknown): TemplateResult {
  const message = html`<div
    class="sk"
    style="gap:4px;padding:10px 0;border-top:1px solid var(--reaction-secondary)"
  >
    <div class="sk-row" style="justify-content:start">
      ${bone(24, '24px', 'border-radius:50%')}${line('96px')}
    </div>
    ${line('70%')}${line('120px', 25)}
  </div>`;
  return html`${header}
    <div class="sk-row" style="height:25px">${line('80px')}${line('40px')}</div>
    <div class="sk" style="margin-bottom:4px">
      ${line('50%')}${bone(39)}${bone(64)}
      <div class="sk-row" style="justify-content:end">${bone(36, '72px')}</div>
    </div>
    <div>${message}${message}${message}${message}</div>`;
}
