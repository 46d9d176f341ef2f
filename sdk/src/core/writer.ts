// The writing half of every block element, loaded on the visitor's first interaction with one
// (BlockElement: pointerdown, focus or a key on it) or by the first write itself, never before
// the first data shows: making or refreshing the session (core/auth.ts), the writer's profile
// (core/identity.ts), the list of blocks written to (core/marks.ts) and the captcha after a
// limit tripped (core/captcha.ts, a chunk of its own), and what a refused write says. A reader
// never loads it.
import { html, nothing } from 'lit/html.js';
import { call } from './api.js';
import type { CaptchaHost } from './captcha.js';
import type { Project } from './config.js';
import { ApiError } from './errors.js';
import { refusals, translator } from './i18n.js';
import { write as texts } from './locales/en.js';
import type { Identity } from './identity.js';
import { getSession, loadSession, type Session } from './session.js';
import type { Block, BlockView } from './types.js';

// chunks shared with the reader's paths (a stored session, a stored profile), imported as chunks
// so that on the CDN each is tried again on its own when it failed to load (rollup.config.mjs)
const auth = () => import('./auth.js');
/** The writer's profile (core/identity.ts; a composer reaches it through core/profile.ts). */
const identity = () => import('./identity.js');
const marks = () => import('./marks.js');

/**
 * The block element as this half of it sees it (core/base.ts's BlockElement, whose protected
 * fields it reads and sets): typed here, not imported, so that base.ts, which loads this module,
 * is not imported by it (npm run lint:cycles).
 */
interface BlockElement extends HTMLElement {
  project: Project;
  view?: BlockView | null;
  blockId: string;
  mine?: unknown;
  language: string;
  _session: Session | null;
  requestUpdate(): void;
}

/** What a write needs of its element: who writes where, and how its captcha panel opens and closes. */
interface WriteHost extends Omit<CaptchaHost, 'block' | 'session'> {
  /** The block on screen (its captcha settings), if loaded. */
  block?: Block;
  blockId: string;
  /** The element has a part of its own (get_block_me): the write is noted in core/marks.ts. */
  mine: boolean;
  /** The signed-in visitor the element showed writing (their user id), or '' (anonymous). */
  as: string;
}

/** An element's captcha panel while one is open: 'open' or 'failed', and its Cancel. */
const panels = new WeakMap<HTMLElement, { state: 'open' | 'failed'; cancel?: () => void }>();

/**
 * Name and colour sent with every write, from the writer's profile or their provider's name (the
 * session's code tells it: core/user.ts comes with core/auth.ts, which every write loads).
 */
export async function writer(
  session: Session | null,
): Promise<{ p_creator_name: string; p_color: string }> {
  const [{ profileReady, sendable }, { displayUser }] = await Promise.all([identity(), auth()]);
  // a stored profile opened now if no element opened it with its first data (core/profile.ts)
  const id = await profileReady();
  return {
    p_creator_name: sendable(
      (session && !session.user.is_anonymous && displayUser(session).name) || id.name,
    ),
    p_color: id.color,
  };
}

/**
 * A write's body, or what makes it from the writer's profile as kept when the write goes
 * (identity.ts keepProfile): a name and colour taken before may be another tab's by then.
 */
export type Body = object | ((id: Identity) => object);

/**
 * Calls a write RPC (the caller skips it in dummy mode). When the block offers a captcha and the
 * visitor went too fast, the captcha is shown (loaded only then) and, once solved, the write is
 * sent again; never before a limit tripped. A write the element started for a signed-in visitor
 * goes with their session only (core/auth.ts SIGNED_OUT otherwise).
 */
export async function write<T>(element: HTMLElement, name: string, body: Body): Promise<T> {
  const el = element as BlockElement;
  const p: Project = el.project;
  const u = el._session?.user;
  try {
    return await send<T>(
      {
        element: el,
        project: p,
        block: el.view?.block,
        blockId: el.blockId,
        mine: !!el.mine,
        as: (u && !u.is_anonymous && u.id) || '',
        setState: (state) => {
          const panel = panels.get(el);
          if (state) panels.set(el, { ...panel, state });
          else panels.delete(el);
          el.requestUpdate();
        },
        setCancel: (cancel) => {
          const panel = panels.get(el);
          if (panel) panel.cancel = cancel;
        },
      },
      name,
      body,
    );
  } finally {
    el._session = getSession(p);
  }
}

async function send<T>(h: WriteHost, name: string, body: Body): Promise<T> {
  const p = h.project;
  const [{ ensureSession, refused, SIGNED_OUT }, { keepProfile, sendable }] = await Promise.all([
    auth(),
    identity(),
  ]);
  // what it says (said): a comment or Q&A offers to sign in again; the other elements send it
  // when the visitor tries again, as whoever they are now
  const signedOut = () =>
    new ApiError('Signed out', SIGNED_OUT, /^(comment|qna)$/.test(h.block?.type || '') ? 'in' : '');
  /**
   * The session the write goes with, asked again for every send (the first, the one after a
   * captcha) and for the captcha's pass: made or refreshed now (an anonymous visitor's first write
   * makes the user), and for a write the element started for a signed-in visitor, theirs only.
   * Another one (another caller met the refusal first and signed up an anonymous visitor, another
   * account signed in, or they logged out: here or in another tab) and a refused refresh send
   * nothing (SIGNED_OUT); nor does a session the auth server could not be reached to refresh (the
   * anon key would be refused): the visitor can try again. The write is noted in the visitor's
   * list of blocks written to (core/marks.ts) before it is sent, so the write that makes the user
   * starts its list, and the writer's profile kept (core/identity.ts keepProfile): `id`, which
   * a body made from it carries.
   */
  let id: Identity;
  const session = async (): Promise<Session> => {
    const had = h.mine ? await loadSession(p) : null;
    // a signed-in visitor's write never makes a user
    const s = await ensureSession(p, !h.as);
    if (h.as && (s ? s.user.id !== h.as : !(await loadSession(p)))) throw signedOut();
    if (!s) throw new ApiError('Network error', 'network');
    // the list of blocks written to and the profile whose name and colour the write carries: both
    // in storage before it goes; their seals run side by side, not one after the other (a new
    // visitor's first write makes both)
    [, id] = await Promise.all([
      h.mine &&
        marks().then((m) =>
          m.markWrite(p, s, h.block?.id || h.blockId, had?.user.id !== s.user.id),
        ),
      keepProfile(),
    ]);
    return s;
  };
  const go = async (again = !h.as, refresh = true): Promise<T> => {
    const s = await session();
    // an anonymous write's name and colour (writer(), taken before its sign-up) are the profile's
    // as kept now: another tab of the same visitor may have kept its own first meanwhile
    const b =
      typeof body == 'function'
        ? body(id)
        : !h.as && 'p_creator_name' in body
          ? { ...body, p_creator_name: sendable(id.name), p_color: id.color }
          : body;
    return call<T>(p, name, b, s.access_token).catch(async (e: ApiError) => {
      // a token the server did not take: refreshed once (it may only have expired on the server's
      // clock) and sent again with the new one, as the same visitor; the refresh out of reach,
      // kept and not sent; refused (or the new token not taken either: a rotated secret),
      // forgotten, and an anonymous visitor's write goes once more (with a new user), a signed-in
      // visitor's is not sent as anyone else's
      if (e.status !== 401) throw e;
      const n = await refused(p, s, refresh);
      if (n === s) throw new ApiError('Network error', 'network');
      if (n) return go(again, false);
      if (again) return go(false, false);
      throw h.as ? signedOut() : e;
    });
  };
  let done: T;
  try {
    done = await go();
  } catch (e) {
    const block = h.block;
    // the anonymous sign-up asked for a captcha (past the address's limit: visitors behind one
    // shared address), or the write went past a limit of the block that offers one
    const signUp = (e as ApiError).code === 'captcha_failed';
    if (!block?.captcha || (!signUp && (e as ApiError).details !== 'captcha')) throw e;
    const { solveCaptcha } = await import('./captcha.js');
    await solveCaptcha(
      { ...h, block, session },
      block.captcha,
      e,
      signUp
        ? async (token) => {
            const n = await (await auth()).signUp(p, token);
            if (h.mine) await (await marks()).markWrite(p, n, block.id, true);
            return true;
          }
        : undefined,
    );
    // sent again the same way: the session checked again (the visitor may have logged out, or
    // another account signed in, while the captcha was shown)
    done = await go();
  }
  return done;
}

/**
 * What a refused write says in the block's language (BlockElement.fail): the refusals the visitor
 * can act on (too fast, automated, blocked, a name or link not taken, a character text cannot
 * hold) and the owner's monthly responses being used up; a 429 that says its wait, the server's
 * own words (English, per action) or the same in the block's language from its lazily loaded
 * texts. '' for any other failure. 22P05 and 22P02 are PostgREST's (Postgres's English, before
 * the function runs): a NUL in a text, and a value that is not its type (a block or message id
 * that is not a uuid, a text with half an emoji).
 */
export function said(e: ApiError | null, lang: string, el?: HTMLElement): string {
  const { code, details, retry_after: wait } = e || ({} as ApiError);
  if (wait) {
    const text = refusals[lang]?.(e!) ?? e!.message;
    if (el) setTimeout(() => waitPassed(el, text), wait * 1000);
    return text;
  }
  const key =
    (code === 'PT429' && /^(rate_limit|captcha)$/.test(details)) ||
    /^(over_request_rate_limit|captcha_failed|429)$/.test(code)
      ? 'tooFast'
      : code === 'signed_out' // core/auth.ts SIGNED_OUT
        ? details
          ? 'signedOut'
          : 'signedOutRetry'
        : REFUSALS[details] || REFUSALS[code];
  return key ? translator(lang, texts)(key) : '';
}

/**
 * "You can like again in 1 second." is untrue once the second has passed: the element's error (a
 * text; the comment's and Q&A's {at, text}) goes if it still says it. Here, in the writer's chunk
 * that every refused write has loaded, rather than in each element: they are at their budgets.
 */
function waitPassed(el: HTMLElement, text: string) {
  const shown = el as unknown as { _error?: string | { at: string; text: string } };
  if (shown._error === text) shown._error = '';
  else if (typeof shown._error === 'object' && shown._error.text === text)
    shown._error = { at: '', text: '' };
}

/** The text of a refusal, by its details (the visitor RPCs') or its code (PostgREST's). */
const REFUSALS: Record<string, keyof typeof texts | undefined> = {
  honeypot: 'automated',
  blocked: 'blockedWriter',
  quota: 'quotaReached',
  invalid_input: 'invalidInput',
  '22P05': 'badCharacter',
  '22P02': 'badRequest',
};

/**
 * The element's captcha panel while a limit tripped (open, or failed once): the check's widget in
 * the element's "captcha" slot (core/captcha.ts) and Cancel; nothing otherwise.
 */
export function captchaPanel(el: HTMLElement) {
  const panel = panels.get(el);
  if (!panel) return nothing;
  const t = translator((el as BlockElement).language, texts);
  return html`<div part="captcha" role="group" aria-label=${t('captcha')}>
    <p role="alert">${t(panel.state === 'failed' ? 'captchaFailed' : 'captcha')}</p>
    <slot name="captcha"></slot>
    <button class="btn ghost" @click=${() => panel.cancel?.()}>${t('cancel')}</button>
  </div>`;
}
