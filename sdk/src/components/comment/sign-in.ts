// The comment element's sign-in buttons: in the composer's overlay when anonymous writing is
// blocked (comment.composer.ts) and in the menu (comment.writer.ts).
import { html, nothing, type TemplateResult } from 'lit/html.js';
import type { Translate } from '../../core/i18n.js';

const IN_APP = /\bwv\b|WebView|FBA[NV]|Instagram|KAKAOTALK|Line\//i;

/** Sign-in with Google and Apple; none in in-app browsers, where the provider's popup fails. */
export function signInButtons(c: {
  readonly t: Translate;
  signIn(provider: 'google' | 'apple'): Promise<void>;
}): TemplateResult | typeof nothing {
  if (IN_APP.test(navigator.userAgent)) return nothing;
  return html`<button type="button" class="btn ghost" @click=${() => c.signIn('google')}>
      ${c.t('google')}
    </button>
    <button type="button" class="btn ghost" @click=${() => c.signIn('apple')}>
      ${c.t('apple')}
    </button>`;
}
