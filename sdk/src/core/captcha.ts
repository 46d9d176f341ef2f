// The captcha a block offers once a visitor went too fast (issue 9), loaded only then: the
// provider's widget (Cloudflare Turnstile, or the local stand-in; its script URL comes with the
// block) is rendered into a light-DOM child the element slots into its captcha panel (third-party
// widgets need the document, not a shadow root); the token goes to the verify-captcha function,
// which gives the visitor a pass for the block; then the element sends the write again.
import { SIGNED_OUT } from './auth.js';
import type { Project } from './config.js';
import { ApiError } from './errors.js';
import type { Session } from './session.js';
import type { CaptchaConfig } from './types.js';

interface Turnstile {
  render(el: HTMLElement, params: Record<string, unknown>): string;
  reset(id: string): void;
  remove(id: string): void;
}
declare global {
  interface Window {
    turnstile?: Turnstile;
  }
}

const scripts = new Map<string, Promise<Turnstile>>();

function load(src: string): Promise<Turnstile> {
  let p = scripts.get(src);
  if (!p) {
    p = new Promise<Turnstile>((resolve, reject) => {
      if (window.turnstile) return resolve(window.turnstile);
      const s = document.createElement('script');
      s.src = src;
      s.async = true;
      s.onload = () =>
        window.turnstile ? resolve(window.turnstile) : reject(new Error('no widget'));
      s.onerror = () => reject(new Error('captcha unavailable'));
      document.head.append(s);
    });
    p.catch(() => scripts.delete(src));
    scripts.set(src, p);
  }
  return p;
}

/**
 * What the element that shows the captcha gives this module (its own state stays its own: the
 * setters are how the panel opens, fails and closes).
 */
export interface CaptchaHost {
  /** Where the widget's light-DOM box goes (slot "captcha"). */
  element: HTMLElement;
  project: Project;
  block: { id: string; language?: string | null };
  /** The session the write goes with (core/writer.ts): the pass is for it, made for no other. */
  session(): Promise<Session>;
  setState(state: '' | 'open' | 'failed'): void;
  setCancel(cancel: (() => void) | undefined): void;
}

/** verify-captcha: a pass for the block, for the visitor's session. */
async function verify(host: CaptchaHost, token: string): Promise<boolean> {
  const s = await host.session();
  const res = await fetch(`${host.project.url}/functions/v1/verify-captcha`, {
    method: 'POST',
    headers: {
      apikey: host.project.key,
      Authorization: 'Bearer ' + s.access_token,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ blockId: host.block.id, token }),
  });
  return res.ok;
}

/**
 * Shows the captcha until the visitor passes it (resolves) or cancels it (rejects with the
 * original refusal). Each failed check shows why and offers the widget again. A solved token
 * goes to `use`: by default verify-captcha (a pass for the block); the anonymous sign-up past
 * the address's limit takes it itself.
 */
export async function solveCaptcha(
  host: CaptchaHost,
  c: CaptchaConfig,
  refusal: unknown,
  use: (token: string) => Promise<boolean> = (token) => verify(host, token),
) {
  const box = document.createElement('div');
  box.slot = 'captcha';
  let widget = '';
  try {
    const turnstile = await load(c.script_url);
    host.element.append(box);
    host.setState('open');
    await new Promise<void>((resolve, reject) => {
      host.setCancel(() => reject(refusal));
      widget = turnstile.render(box, {
        sitekey: c.site_key,
        action: 'write',
        language: host.block.language || 'auto',
        'error-callback': () => host.setState('failed'),
        callback: async (token: string) => {
          try {
            if (await use(token)) return resolve();
          } catch (e) {
            // a signed-in visitor's session refused: the write is not sent (core/auth.ts); any
            // other failure is shown as a failed check
            if ((e as ApiError).code === SIGNED_OUT) return reject(e);
          }
          host.setState('failed');
          turnstile.reset(widget);
        },
      });
    });
  } catch (e) {
    throw e instanceof ApiError || e === refusal ? e : refusal;
  } finally {
    if (widget) window.turnstile?.remove(widget);
    box.remove();
    host.setState('');
    host.setCancel(undefined);
  }
}
