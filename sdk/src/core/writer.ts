// The writing half of every block element, loaded on the visitor's first interaction with one
// (BlockElement: pointerdown, focus or a key on it) or by the first write itself, never before
// the first data shows: making or refreshing the session (core/auth.ts), the writer's profile
// (core/identity.ts), the list of blocks written to (core/marks.ts) and the captcha after a
// limit tripped (core/captcha.ts, a chunk of its own), and what a refused write says. A reader
// never loads it.
import { html, nothing } from 'lit/html.js';
import { rpc } from './api.js';
import type { CaptchaHost } from './captcha.js';
import type { Project } from './config.js';
import { ApiError } from './errors.js';
import { refusals, translator } from './i18n.js';
import { write as texts } from './locales/en.js';
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
interface WriteHost extends Omit<CaptchaHost, 'block'> {
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
  const [{ profileReady }, { displayUser }] = await Promise.all([identity(), auth()]);
  // a stored profile opened now if no element opened it with its first data (core/profile.ts)
  const id = await profileReady();
  return {
    p_creator_name: (session && !session.user.is_anonymous && displayUser(session).name) || id.name,
    p_color: id.color,
  };
}

/**
 * Calls a write RPC (the caller skips it in dummy mode). When the block offers a captcha and the
 * visitor went too fast, the captcha is shown (loaded only then) and, once solved, the write is
 * sent again; never before a limit tripped. A write the element started for a signed-in visitor
 * goes with their session only (core/auth.ts SIGNED_OUT otherwise).
 */
export async function write<T>(element: HTMLElement, name: string, body: object): Promise<T> {
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

async function send<T>(h: WriteHost, name: string, body: object): Promise<T> {
  const p = h.project;
  // the visitor's list of blocks with a part of their own written to (core/marks.ts), before the
  // write is sent: the session is made or refreshed first, so the write that makes the user
  // starts its list
  const had = h.mine ? await loadSession(p) : null;
  const { ensureSession, SIGNED_OUT } = await auth();
  // a failure is met again by the write's own (a sign-up's captcha), but a signed-in visitor's
  // session refused is said now: the next try would find no session and sign up a new visitor
  const s =
    (h.mine || h.as) &&
    (await ensureSession(p, true).catch((e: ApiError) => {
      if (e.code === SIGNED_OUT) throw e;
      return null;
    }));
  // the session is someone else's now (another caller met the refusal first and signed up an
  // anonymous visitor, or another account signed in): the write, built for the signed-in
  // visitor (their name, picture, website, email), is not sent (one that could not reach the
  // server to refresh goes on, as before)
  if (h.as && s && s.user.id !== h.as) throw new ApiError('Signed out', SIGNED_OUT);
  if (s && h.mine)
    await (await marks()).markWrite(p, s, h.block?.id || h.blockId, had?.user.id !== s.user.id);
  const { keepProfile } = await identity();
  try {
    const done = await rpc<T>(p, name, body, true);
    // the page's new profile is kept once something was written with it
    keepProfile();
    return done;
  } catch (e) {
    const block = h.block;
    // the anonymous sign-up asked for a captcha (past the address's limit: visitors behind one
    // shared address), or the write went past a limit of the block that offers one
    const signUp = (e as ApiError).code === 'captcha_failed';
    if (!block?.captcha || (!signUp && (e as ApiError).details !== 'captcha')) throw e;
    const { solveCaptcha } = await import('./captcha.js');
    await solveCaptcha(
      { ...h, block },
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
    return await rpc<T>(p, name, body, true);
  }
}

/**
 * What a refused write says in the block's language (BlockElement.fail): the refusals the visitor
 * can act on (too fast, automated, blocked) and the owner's monthly responses being used up; a
 * 429 that says its wait, the server's own words (English, per action) or the same in the block's
 * language from its lazily loaded texts. '' for any other failure.
 */
export function said(e: ApiError | null, lang: string): string {
  const { code, details, retry_after: wait } = e || ({} as ApiError);
  if (wait) return refusals[lang]?.(e!) ?? e!.message;
  const key =
    (code === 'PT429' && /^(rate_limit|captcha)$/.test(details)) ||
    /^(over_request_rate_limit|captcha_failed|429)$/.test(code)
      ? 'tooFast'
      : details === 'honeypot'
        ? 'automated'
        : details === 'blocked'
          ? 'blockedWriter'
          : details === 'quota'
            ? 'quotaReached'
            : code === 'signed_out' // core/auth.ts SIGNED_OUT
              ? 'signedOut'
              : '';
  return key && translator(lang, texts)(key);
}

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
