// The comment element's composer: the new-message form with its sign-in buttons, and what its
// name, website and email fields do as the visitor types (the writer's profile fills them in, a
// website the server would refuse is said by the writer's code, an email is checked once typing
// pauses). Like the templates, each takes the element as the view it works on (ComposerView,
// checked member by member in comment.component.ts). Posting itself is a write path
// (comment.writer.ts post).
import { html, nothing, type TemplateResult } from 'lit/html.js';
import { COMMENT_LIMITS, LIMITS } from '@reaction-blocks/contracts/limits';
import type { Identity } from '../../core/identity.js';
import { profile } from '../../core/profile.js';
import { displayUser } from '../../core/user.js';
import { fill } from '../../core/text.js';
import { honeypot } from '../../core/trust.js';
import type { CommentView } from './comment.templates.js';
import { signInButtons } from './sign-in.js';

/** The composer's view of the element: the fields' state it sets, besides the templates' view. */
export interface ComposerView extends CommentView {
  _name: string;
  _home: string;
  _homeBad: boolean;
  _email: string;
  _emailBad: boolean;
  /** The pause in typing after which the email is checked. */
  emailTimer?: ReturnType<typeof setTimeout>;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

export const DEBOUNCE_MS = 500;

const MESSAGE_MAX = COMMENT_LIMITS.message;
const NAME_MAX = COMMENT_LIMITS.name;

/** The new-message form, under a sign-in overlay when anonymous writing is blocked. */
export function composer(c: ComposerView): TemplateResult {
  const b = c.view!.block;
  const blocked = b.block_anonymous && !c.signedIn;
  const empty = !c._draft.trim();
  return html`<form part="composer" @submit=${c.submit} novalidate>
    ${b.welcome_message ? html`<p part="welcome" dir="auto">${fill(b.welcome_message, c._count)}</p>` : nothing}
    <!-- Under the sign-in overlay the fields are inert: no keyboard way around it. -->
    <div class="fields" ?inert=${blocked}>
      <div class="who">
        <input
          part="name"
          class="input"
          dir="auto"
          aria-label=${c.t('writerName')}
          placeholder=${c.t('writerName')}
          maxlength=${NAME_MAX}
          .value=${c._name}
          @change=${(e: Event) => onName(c, e)}
        />
        <input
          part="home"
          class="input"
          type="url"
          inputmode="url"
          autocomplete="url"
          aria-label=${c.t('homeUrl')}
          placeholder=${c.t('homeUrl')}
          maxlength=${LIMITS.homeUrl}
          aria-invalid=${c._homeBad}
          aria-describedby=${c._homeBad ? 'home-error' : nothing}
          .value=${c._home}
          @change=${(e: Event) => onHome(c, e)}
        />
      </div>
      ${c._homeBad ? html`<p part="error" id="home-error" class="err">${c.t('homeUrlError')}</p>` : nothing}
      <textarea
        part="textarea"
        class="input"
        dir="auto"
        aria-label=${c.t('message')}
        maxlength=${MESSAGE_MAX}
        placeholder=${fill(b.placeholder, c._count) || c.t(c.qna ? 'qnaPlaceholder' : 'placeholder')}
        .value=${c._draft}
        @input=${(e: Event) => (c._draft = (e.target as HTMLTextAreaElement).value)}
      ></textarea>
      ${
        b.allow_creator_email
          ? html`<input
                part="email"
                class="input"
                type="email"
                aria-label=${c.t('notifyEmail')}
                placeholder=${c.t('notifyEmail')}
                aria-invalid=${c._emailBad}
                .value=${c._email}
                @input=${(e: Event) => onEmail(c, e)}
              />
              ${c._emailBad ? html`<p part="error" class="err">${c.t('emailError')}</p>` : nothing}`
          : nothing
      }
      ${honeypot((v) => (c.hp = v))}
      <div class="row">
        <span class="muted" aria-hidden="true">${c._draft.length}/${MESSAGE_MAX}</span>
        <button part="submit" class="btn" type="submit" ?disabled=${empty || c._sending}>
          ${c._sending ? html`<span class="spin" role="status" aria-label=${c.t('sending')}></span>` : nothing}${c.t('send')}
        </button>
      </div>
    </div>
    ${
      blocked
        ? html`<div part="overlay">
            <p>${c.t('signInPrompt')}</p>
            ${signInButtons(c)}
          </div>`
        : nothing
    }
  </form>`;
}

/**
 * The composer's name, website and email from the writer's profile, once its code is here: a
 * stored one opens beside the view (BlockElement.load), a new one comes with the writer's code
 * on the first interaction (startWriting); again when the visitor signs in or out (willUpdate).
 * The name is a signed-in visitor's account name (takeName). The profile is the browser's
 * anonymous writer's and keeps no website or email typed while signed in (comment.writer.ts post,
 * takeHome): on a log out or another account's session over theirs (`out`: who typed it left;
 * willUpdate) the composer shows its own again (none until its code is here), and says nothing of
 * what was typed. Otherwise a website or email the
 * visitor typed stays: typed before the profile's code came, or before signing in (the same
 * visitor going on with what they write, as the draft does); an empty field takes the profile's.
 */
export function takeProfile(c: ComposerView, out?: boolean): void {
  takeName(c, out);
  const id: Partial<Identity> = profile() || {};
  if (out || !c._home) {
    c._home = id.homeUrl || '';
    c._homeBad = false;
  }
  if (out || !c._email) {
    c._email = id.email || '';
    c._emailBad = false;
  }
}

/**
 * The name field for who writes now (with the profile, and when the visitor signs in or out),
 * unless it is being typed in (the field shows other than its state) or the visitor is in it: a
 * signed-in visitor's account name, else the profile's (an anonymous visitor's random animal name,
 * or the name they chose). A name written into the field the visitor is in lands under the caret,
 * and what they enter in one go (autofill, a paste, an IME's committed syllables) went after it
 * ("Owl방문자", rev-owner D9). One they leave empty shows its placeholder, and the post goes under
 * the profile's name (comment.writer.ts post) until the next take.
 * With `out` (who wrote left), the one who left's name goes even while the profile's code is on
 * its way (empty until it comes).
 */
export function takeName(c: ComposerView, out?: boolean): void {
  const name = writerName(c);
  const field = c.renderRoot?.querySelector<HTMLInputElement>('[part~=name]');
  if ((name || out) && (field?.value ?? c._name) === c._name && (out || !field?.matches(':focus')))
    c._name = name;
}

const writerName = (c: ComposerView): string =>
  (c.signedIn && displayUser(c._session).name) || profile()?.name || '';

function onEmail(c: ComposerView, e: Event) {
  c._email = (e.target as HTMLInputElement).value.trim();
  clearTimeout(c.emailTimer);
  // checked by the writer's code (comment.writer.ts takeEmail), which the focus started loading:
  // a reader who never writes does not load the address rule
  c.emailTimer = setTimeout(() => void c.writing('', (w) => w.takeEmail(c)), DEBOUNCE_MS);
}

/**
 * The website as typed, checked by the writer's code (comment.writer.ts takeHome), which the
 * visitor's focus on the field started loading: at once when it is here, else once it arrives.
 */
function onHome(c: ComposerView, e: Event) {
  const typed = (e.target as HTMLInputElement).value;
  c._home = typed;
  void c.writing('', (w) => w.takeHome(c, typed));
}

/**
 * The writer's name as typed; emptied, the name for who writes again. Kept in the profile only for
 * an anonymous visitor: the profile is the browser's anonymous writer, so nothing a signed-in
 * visitor types (their account's name, or a nickname) shows for the next anonymous writer. It is
 * kept by the write paths (which the focus on the field started loading), and taken again then: a
 * name typed before the profile's code came was replaced by the profile's random animal name when
 * that code came (takeProfile), before the write paths that keep it. The field shows the name
 * taken: Lit writes it only when the state changes, so " Kim " over "Kim" (or spaces over the
 * account's name) would stay in it, read by takeName as still being typed, and outlive a sign-in
 * or log out.
 */
function onName(c: ComposerView, e: Event) {
  const field = e.target as HTMLInputElement;
  const typed = field.value.trim().slice(0, NAME_MAX);
  field.value = c._name = typed || writerName(c);
  if (typed && !c.signedIn)
    void c.writing('', (w) => {
      w.keep({ name: typed });
      takeName(c);
    });
}
