// Cloudflare Turnstile (`/turnstile`): a stand-in widget script and the siteverify API, so the
// captcha a block shows once the rate limits trip (issue 9) runs end to end on this machine.
//   GET  /turnstile/v0/api.js        the stand-in widget (window.turnstile: render, reset,
//                                    remove, getResponse), clearly marked LOCAL on the page
//   GET  /turnstile/v0/token         ?sitekey=&action=&cdata=&outcome=pass|fail -> { token }
//                                    what the stand-in widget fetches when a button is pressed
//                                    (tests use it as the widget would); CORS open
//   POST /turnstile/v0/siteverify    Cloudflare's API: secret, response[, remoteip,
//                                    idempotency_key] as a form or JSON -> { success,
//                                    "error-codes", challenge_ts, hostname, action, cdata }
// A token passes once, within 300 s, for the secret of its site key; a token minted with
// outcome=fail, an unknown one (forged) and a spent one (replayed: timeout-or-duplicate) fail,
// as on Cloudflare. Passing or failing on demand is the widget's two buttons (or `outcome`).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FakeContext, ProviderFake } from '../fake.ts';
import { escapeHtml, HttpError, readBody, sendJson, sendText } from '../http.ts';

/** The local widget's keys (the stack puts them in the settings and the functions' env). */
export const LOCAL_TURNSTILE = {
  siteKey: 'local-turnstile-site-key',
  secretKey: 'local-turnstile-secret-key',
} as const;

/** How long a token may wait for its siteverify call (Cloudflare: 300 s). */
const TOKEN_TTL_MS = 300_000;

interface Token {
  sitekey: string;
  action: string;
  cdata: string;
  hostname: string;
  outcome: 'pass' | 'fail';
  issuedAt: number;
  spent: boolean;
}

async function readParams(req: IncomingMessage): Promise<Record<string, string>> {
  const body = (await readBody(req, 64 * 1024)).toString('utf8');
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) {
    try {
      const value = JSON.parse(body) as Record<string, unknown>;
      return Object.fromEntries(
        Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(body));
}

/** The stand-in widget: two buttons instead of a challenge. Served as JavaScript. */
function widgetScript(): string {
  return `/* LOCAL STAND-IN for Cloudflare Turnstile, served by the Reaction Blocks providers server
   (supabase/local/providers/turnstile). It shows two buttons instead of a challenge; the token it
   hands over passes or fails the local siteverify fake. Never used outside this machine. */
(function () {
  if (window.turnstile && window.turnstile.__local) return;
  var script = document.currentScript;
  var origin = script ? new URL(script.src).origin : location.origin;
  var widgets = {};
  var next = 0;
  function el(tag, text, css) {
    var e = document.createElement(tag);
    if (text) e.textContent = text;
    if (css) e.style.cssText = css;
    return e;
  }
  function render(container, params) {
    var host = typeof container === 'string' ? document.querySelector(container) : container;
    if (!host) throw new Error('turnstile: no container');
    params = params || {};
    var id = 'local-turnstile-' + ++next;
    var box = el('div', '', 'display:inline-flex;flex-wrap:wrap;gap:8px;align-items:center;border:1px dashed #9a6700;background:#fff8c5;color:#4d2d00;padding:8px 10px;border-radius:6px;font:13px/1.4 system-ui,sans-serif');
    box.setAttribute('data-local-turnstile', id);
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', 'Local stand-in for Cloudflare Turnstile');
    box.appendChild(el('span', 'LOCAL stand-in for Cloudflare Turnstile', 'font-weight:600'));
    function button(label, outcome) {
      var b = el('button', label, 'font:inherit;padding:4px 10px;border-radius:4px;border:1px solid #9a6700;background:#fff;color:#4d2d00;cursor:pointer');
      b.type = 'button';
      b.setAttribute('data-outcome', outcome);
      b.addEventListener('click', function () {
        var u = new URL(origin + '/turnstile/v0/token');
        u.searchParams.set('sitekey', params.sitekey || '');
        u.searchParams.set('action', params.action || '');
        u.searchParams.set('cdata', params.cData || params.cdata || '');
        u.searchParams.set('outcome', outcome);
        fetch(u.href).then(function (r) { return r.json(); }).then(function (j) {
          if (!j.token) throw new Error(j.error || 'no token');
          widgets[id].token = j.token;
          if (typeof params.callback === 'function') params.callback(j.token);
        }).catch(function (e) {
          if (typeof params['error-callback'] === 'function') params['error-callback'](String(e));
        });
      });
      return b;
    }
    box.appendChild(button('I am human (passes)', 'pass'));
    box.appendChild(button('Fail this check', 'fail'));
    host.appendChild(box);
    widgets[id] = { box: box, token: '' };
    return id;
  }
  window.turnstile = {
    __local: true,
    render: render,
    ready: function (fn) { fn(); },
    reset: function (id) { if (widgets[id]) widgets[id].token = ''; },
    remove: function (id) { if (widgets[id]) { widgets[id].box.remove(); delete widgets[id]; } },
    getResponse: function (id) { return widgets[id] ? widgets[id].token : undefined; },
    isExpired: function () { return false; },
  };
  var onload = script && new URL(script.src).searchParams.get('onload');
  if (onload && typeof window[onload] === 'function') window[onload]();
})();
`;
}

export function createTurnstileFake(ctx: FakeContext): ProviderFake {
  const tokens = new Map<string, Token>();
  const stats = { issued: 0, passed: 0, failed: 0 };
  const secrets = new Map<string, string>([[LOCAL_TURNSTILE.secretKey, LOCAL_TURNSTILE.siteKey]]);

  const forget = (now: number) => {
    for (const [k, t] of tokens) if (now - t.issuedAt > 2 * TOKEN_TTL_MS) tokens.delete(k);
  };

  return {
    prefix: '/turnstile',
    title: 'Cloudflare Turnstile (fake)',
    async handle(req, res, path, url) {
      if (req.method === 'GET' && path === '/v0/api.js') {
        return sendText(res, 200, widgetScript(), 'text/javascript; charset=utf-8');
      }
      if (req.method === 'GET' && path === '/v0/token') {
        const sitekey = url.searchParams.get('sitekey') ?? '';
        const cors = { 'access-control-allow-origin': '*' };
        if (![...secrets.values()].includes(sitekey)) {
          return sendJson(res, 400, { error: 'unknown site key' }, cors);
        }
        const outcome = url.searchParams.get('outcome') === 'fail' ? 'fail' : 'pass';
        const token = `local.${randomBytes(24).toString('base64url')}`;
        const origin = req.headers.origin ?? req.headers.referer ?? '';
        let hostname = 'localhost';
        try {
          hostname = origin ? new URL(origin).hostname : hostname;
        } catch {
          // keep localhost
        }
        forget(Date.now());
        tokens.set(token, {
          sitekey,
          action: (url.searchParams.get('action') ?? '').slice(0, 32),
          cdata: (url.searchParams.get('cdata') ?? '').slice(0, 255),
          hostname,
          outcome,
          issuedAt: Date.now(),
          spent: false,
        });
        stats.issued++;
        return sendJson(res, 200, { token }, cors);
      }
      if (req.method === 'POST' && path === '/v0/siteverify') {
        const params = await readParams(req);
        const fail = (codes: string[]) => {
          stats.failed++;
          return sendJson(res, 200, { success: false, 'error-codes': codes, messages: [] });
        };
        if (!params.secret) return fail(['missing-input-secret']);
        const sitekey = secrets.get(params.secret);
        if (!sitekey) return fail(['invalid-input-secret']);
        if (!params.response) return fail(['missing-input-response']);
        const token = tokens.get(params.response);
        if (!token || token.sitekey !== sitekey || token.outcome === 'fail') {
          if (token) token.spent = true;
          return fail(['invalid-input-response']);
        }
        if (token.spent || Date.now() - token.issuedAt > TOKEN_TTL_MS) {
          return fail(['timeout-or-duplicate']);
        }
        token.spent = true;
        stats.passed++;
        return sendJson(res, 200, {
          success: true,
          'error-codes': [],
          challenge_ts: new Date(token.issuedAt).toISOString(),
          hostname: token.hostname,
          action: token.action,
          cdata: token.cdata,
          metadata: { local: true },
          messages: [],
        });
      }
      throw new HttpError(404, 'Not found');
    },
    section: () =>
      `<p class="muted">Site key <code>${escapeHtml(LOCAL_TURNSTILE.siteKey)}</code>; the widget at <code>${escapeHtml(ctx.baseUrl)}/turnstile/v0/api.js</code> shows two buttons (passes, fails) instead of a challenge.</p><p>${stats.issued} tokens issued, ${stats.passed} verified, ${stats.failed} refused.</p>`,
    reset: () => {
      tokens.clear();
      Object.assign(stats, { issued: 0, passed: 0, failed: 0 });
    },
  };
}
