// The Cafe24 fake's HTML: a clearly marked LOCAL stand-in for the mall admin's app consent page,
// and a stand-in storefront (main page and product pages) that loads the script tags installed
// for each screen, as a Cafe24 skin does, so the loader can be tried and tested in a browser.
// Everything interpolated is escaped.
import { consentError, consentPage, destinationOf } from '../../consent.ts';
import { escapeHtml as e } from '../http.ts';
import type { Mall, ScriptTag } from './model.ts';

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, sans-serif; }
  body { margin: 0; background: #f5f5f5; color: #222; }
  .notice { border: 2px dashed #b45309; background: #fef3c7; color: #451a03; border-radius: 8px; padding: .75rem; margin: 0 0 1rem; }
  main { box-sizing: border-box; width: min(44rem, calc(100vw - 2rem)); margin: 1.5rem auto; background: #fff; border: 1px solid #ddd; border-radius: 10px; padding: 1.5rem; }
  h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
  .error { color: #b91c1c; font-weight: 600; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: .6rem 1rem; border-radius: 6px; border: 1px solid #888; cursor: pointer; background: #fff; }
  button[value="allow"] { background: #1d4ed8; color: #fff; border-color: #1d4ed8; }
  button:focus-visible, a:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  nav a { margin-right: 1rem; }
`;

const SCOPE_TEXT: Record<string, string> = {
  'mall.read_application': 'Read the app’s screen scripts (script tags)',
  'mall.write_application': 'Add and remove the app’s screen scripts (script tags)',
};

export function authorizePage(input: {
  mallId: string;
  clientId: string;
  redirectUri: string;
  state: string;
  scope: string;
  error?: string;
}): string {
  const scopes = input.scope
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => `<li>${e(SCOPE_TEXT[s] ?? s)} <code>${e(s)}</code></li>`)
    .join('');
  return consentPage({
    title: 'Local Cafe24 app authorisation (development stand-in)',
    style: STYLE,
    notice: `<strong>Local development authorisation</strong> — stands in for
  Cafe24's app consent page. Nothing is sent to Cafe24; the mall below lives in this machine's
  providers server only.`,
    heading: `Reaction Blocks asks for access to the mall “${input.mallId}”`,
    body: `<p>You are signed in to the mall's admin as <strong>${e(input.mallId)}</strong> (the mall's
  operator). The app will be able to:</p>
  <ul>${scopes}</ul>
  <p>After allowing you go back to <strong>${e(destinationOf(input.redirectUri))}</strong>.</p>
  ${consentError(input.error)}
  ${
    input.error
      ? ''
      : `<form method="post" action="/cafe24/${e(input.mallId)}/api/v2/oauth/authorize">
    <input type="hidden" name="client_id" value="${e(input.clientId)}">
    <input type="hidden" name="redirect_uri" value="${e(input.redirectUri)}">
    <input type="hidden" name="state" value="${e(input.state)}">
    <input type="hidden" name="scope" value="${e(input.scope)}">
    <div class="actions">
      <button type="submit" name="decision" value="allow">Allow</button>
      <button type="submit" name="decision" value="deny">Cancel</button>
    </div>
  </form>`
  }`,
  });
}

export type StorefrontScreen = 'MAIN' | 'PRODUCT_DETAIL';

/** The script tags a screen loads: those for the screen or for every screen. */
export function tagsFor(mall: Mall, screen: StorefrontScreen): ScriptTag[] {
  return [...mall.scriptTags.values()].filter((t) =>
    t.display_location.some((l) => l === screen || l.toUpperCase() === 'ALL'),
  );
}

export function storefrontPage(
  mall: Mall,
  screen: StorefrontScreen,
  productNo: number | null,
  base: string,
): string {
  const product = mall.products.find((p) => p.no === productNo);
  const scripts = tagsFor(mall, screen)
    .map(
      (t) =>
        `<script src="${e(t.src)}"${t.integrity ? ` integrity="${e(t.integrity)}" crossorigin="anonymous"` : ''}></script>`,
    )
    .join('\n');
  const nav = `<nav aria-label="Shop"><a href="${base}/index.html">Home</a>${mall.products
    .map((p) => `<a href="${base}/product/detail.html?product_no=${p.no}">${e(p.name)}</a>`)
    .join('')}</nav>`;
  const content =
    screen === 'MAIN'
      ? `<div class="xans-element- xans-product xans-product-listmain"><h1>${e(mall.shopName)}</h1>
  <p>New this week: ${mall.products.map((p) => e(p.name)).join(', ')}.</p></div>`
      : product
        ? `<div class="xans-element- xans-product xans-product-detail">
  <h1>${e(product.name)}</h1>
  <p class="price">₩ 29,000</p>
</div>
<div id="prdDetail"><h2>Details</h2><p>${e(product.description)}</p></div>`
        : '<h1>No such product</h1>';
  return `<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(product?.name ?? mall.shopName)} (local Cafe24 storefront)</title>
<style>${STYLE}</style>
</head>
<body>
<main id="contents">
  <p class="notice" role="note"><strong>Local Cafe24 storefront</strong> — a stand-in for the
  mall's skin: it loads the script tags installed for this screen (${e(screen)}).</p>
  ${nav}
  ${content}
</main>
${scripts}
</body>
</html>
`;
}
