// The providers server's page kit; the HTTP helpers themselves are the local servers' shared
// ones (../http.ts), re-exported here for the fakes.
import type { ServerResponse } from 'node:http';
import { escapeHtml, PAGE_CSP, sendHtml } from '../http.ts';

export {
  escapeHtml,
  HttpError,
  isObject,
  PAGE_CSP,
  readBody,
  readJson,
  sendHtml,
  sendJson,
  sendText,
  type JsonObject,
} from '../http.ts';

/** The last `n` of `items`, newest first: what a fake's section of the developer page lists. */
export const newest = <T>(items: Iterable<T>, n: number): T[] => [...items].slice(-n).reverse();

/**
 * A fake's section made of its ten newest accounts (Notion workspaces, Cafe24 malls), each shown
 * by `show` (HTML, already escaped), or `none` (a muted paragraph) when it has none yet.
 */
export function newestEach<T>(items: Iterable<T>, none: string, show: (item: T) => string): string {
  const list = newest(items, 10);
  return list.length === 0 ? `<p class="muted">${none}</p>` : list.map(show).join('');
}

/**
 * A table of a fake's section: its column headings and rows (HTML, already escaped), or `empty`
 * (a muted paragraph) when there are no rows.
 */
export function sectionTable(headings: string[], rows: string, empty: string): string {
  if (!rows) return empty ? `<p class="muted">${empty}</p>` : '';
  const head = headings.map((h) => `<th scope="col">${h}</th>`).join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** A whole page in the providers server's look: plain HTML, no script. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
header{background:#24292f;color:#fff;padding:10px 20px}header a{color:#fff;text-decoration:none;font-weight:600}
main{max-width:1100px;margin:0 auto;padding:16px 20px}
section{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:12px 16px;margin:0 0 16px}
h1{font-size:20px;margin:0 0 12px}h2{font-size:16px;margin:0 0 8px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eaeef2;vertical-align:top}
th{font-weight:600;color:#57606a}td.wrap{word-break:break-all}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;padding:8px;border-radius:4px}
iframe{width:100%;height:480px;border:1px solid #d0d7de;border-radius:4px;background:#fff}
.muted{color:#57606a}.ok{color:#1a7f37}.bad{color:#cf222e}
</style></head>
<body><header><a href="/">Local providers</a></header><main>${body}</main></body></html>`;
}

/**
 * A provider's browser SDK script, stood in: `body` runs once per page (a second copy finds
 * `window[global].__local` and stops), with BASE (the fake's URL, `base` + `/fake`) and ORIGIN
 * (the providers server's, whose pages post their answers back) defined.
 */
export function standInScript(v: {
  /** what it stands in for, and whose code that is: `PayPal JS SDK`, `PayPal` */
  product: string;
  vendor: string;
  /** the fake's folder and path under the providers server */
  fake: string;
  global: string;
  base: string;
  body: string;
}): string {
  return `/* ${v.product}: LOCAL STAND-IN served by the local providers server (supabase/local/providers/${v.fake}). Not ${v.vendor}'s code. */
(function () {
  'use strict';
  if (window.${v.global} && window.${v.global}.__local) return;
  var BASE = ${JSON.stringify(`${v.base}/${v.fake}`)};
  var ORIGIN = ${JSON.stringify(new URL(v.base).origin)};
${v.body}})();
`;
}

/** `value` as JSON that is safe inside an inline <script> (no `</script>` can close it). */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * A payment provider's checkout page in the fake's own `style`, marked LOCAL: `notice` follows
 * "stands in for", then `body`, then `script` (inline, allowed by `nonce`).
 */
export function checkoutShell(v: {
  title: string;
  style: string;
  notice: string;
  body: string;
  nonce: string;
  script?: string;
}): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(v.title)}</title><style>${v.style}</style></head>
<body><main>
<p class="notice" role="note"><strong>LOCAL test checkout</strong> — stands in for ${v.notice}</p>
${v.body}
</main>${v.script ? `<script nonce="${v.nonce}">${v.script}</script>` : ''}</body></html>`;
}

/**
 * A payment provider's checkout page: its form posts to this server, and the server refuses a
 * post whose Origin is another site; under "no-referrer" Chromium sends `Origin: null`, so these
 * pages say same-origin.
 */
export const sendCheckoutPage = (res: ServerResponse, html: string, csp: string) =>
  sendHtml(res, 200, html, csp, { 'referrer-policy': 'same-origin' });

/**
 * Sends a consent page: 400 with the error, else 200. Its form posts to this server, which
 * redirects to the app, so form-action allows the app's origin too (on a valid request only); the
 * same-origin referrer policy is sendCheckoutPage's.
 */
export function sendConsentPage(
  res: ServerResponse,
  html: string,
  redirectUri: string,
  error: string | undefined,
) {
  let back = '';
  try {
    back = error ? '' : ` ${new URL(redirectUri).origin}`;
  } catch {
    back = '';
  }
  sendHtml(
    res,
    error ? 400 : 200,
    html,
    PAGE_CSP.replace("form-action 'self'", `form-action 'self'${back}`),
    { 'referrer-policy': 'same-origin' },
  );
}

/**
 * A `lost` outage: the call is carried out, and its answer never comes. Whatever the fake then
 * answers closes the connection instead, as when a timeout or a dropped connection ends a call
 * the provider took (the caller cannot know whether it was done).
 */
export function loseAnswer(res: ServerResponse): void {
  const drop = () => {
    res.socket?.destroy();
    return res;
  };
  res.writeHead = drop as unknown as ServerResponse['writeHead'];
  res.write = (() => true) as unknown as ServerResponse['write'];
  res.end = drop as unknown as ServerResponse['end'];
}
