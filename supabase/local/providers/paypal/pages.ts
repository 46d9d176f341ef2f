// The browser side of the PayPal fake: a stand-in for PayPal's JS SDK script (what
// `@paypal/paypal-js` loads from its `sdkBaseUrl`), rendering a PayPal button that opens the
// approval page in a popup, as PayPal does; every page clearly marked as a local stand-in.
import { checkoutShell, escapeHtml, scriptJson, standInScript } from '../http.ts';

/** window.paypal with Buttons({ createSubscription, onApprove, onCancel, onError }). */
export function jsSdkScript(base: string, clientId: string): string {
  return standInScript({
    product: 'PayPal JS SDK',
    vendor: 'PayPal',
    fake: 'paypal',
    global: 'paypal',
    base,
    body: `  var CLIENT_ID = ${JSON.stringify(clientId)};
  var CANCELLED = {};
  function Buttons(options) {
    options = options || {};
    var rendered = null;
    function pay(button) {
      var popup = window.open('about:blank', 'paypal-local-checkout', 'width=480,height=680');
      if (!popup) {
        if (options.onError) options.onError(new Error('The PayPal window was blocked'));
        return;
      }
      button.disabled = true;
      var settled = false;
      var waiters = [];
      function finish() {
        settled = true;
        button.disabled = false;
        window.removeEventListener('message', onMessage);
        clearInterval(watch);
      }
      function onMessage(event) {
        if (event.origin !== ORIGIN || !event.data || event.data.source !== 'paypal-local') return;
        waiters.forEach(function (w) { w(event.data); });
      }
      window.addEventListener('message', onMessage);
      var watch = setInterval(function () {
        if (popup.closed && !settled) waiters.forEach(function (w) { w({ result: 'cancel' }); });
      }, 500);
      var actions = {
        subscription: {
          create: function (body) {
            popup.location.href = BASE + '/checkout/subscribe?client_id=' + encodeURIComponent(CLIENT_ID) +
              '&origin=' + encodeURIComponent(location.origin) +
              '&body=' + encodeURIComponent(JSON.stringify(body || {}));
            return new Promise(function (resolve, reject) {
              waiters.push(function (data) {
                if (data.result === 'approve') resolve(data.subscriptionID);
                else if (data.result === 'error') reject(new Error(String(data.name)));
                else reject(CANCELLED);
              });
            });
          }
        }
      };
      Promise.resolve()
        .then(function () {
          if (typeof options.createSubscription !== 'function') throw new Error('createSubscription is required');
          return options.createSubscription({}, actions);
        })
        .then(function (id) {
          finish();
          if (options.onApprove) return options.onApprove({ subscriptionID: id, orderID: id }, {});
        })
        .catch(function (err) {
          finish();
          try { if (!popup.closed) popup.close(); } catch (e) { /* cross-origin */ }
          if (err === CANCELLED) { if (options.onCancel) options.onCancel({}); }
          else if (options.onError) options.onError(err);
        });
    }
    return {
      isEligible: function () { return true; },
      render: function (container) {
        var host = typeof container === 'string' ? document.querySelector(container) : container;
        if (!host) return Promise.reject(new Error('[PayPal local stand-in] no container to render into'));
        var button = document.createElement('button');
        button.type = 'button';
        button.setAttribute('data-paypal-local', '');
        button.style.cssText = 'display:flex;align-items:center;justify-content:center;gap:.5em;width:100%;min-height:44px;border:0;border-radius:22px;background:#ffc439;color:#003087;font:700 16px/1.2 system-ui,sans-serif;cursor:pointer';
        button.innerHTML = '<span>PayPal</span><span style="font:600 11px system-ui;background:#b45309;color:#fff;border-radius:4px;padding:2px 5px">LOCAL</span>';
        button.setAttribute('aria-label', 'Subscribe with PayPal (local stand-in)');
        button.addEventListener('click', function () { pay(button); });
        host.appendChild(button);
        rendered = button;
        return Promise.resolve();
      },
      close: function () {
        if (rendered) rendered.remove();
        return Promise.resolve();
      }
    };
  }
  window.paypal = { __local: true, version: 'local-stand-in', Buttons: Buttons };
`,
  });
}

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, 'Apple SD Gothic Neo', 'Noto Sans KR', sans-serif; }
  body { margin: 0; background: #f5f7fa; color: #1f2328; }
  main { max-width: 26rem; margin: 0 auto; padding: 1.25rem 1.5rem; background: #fff; min-height: 100vh; box-sizing: border-box; }
  .notice { border: 2px dashed #b45309; background: #fef3c7; color: #451a03; border-radius: 8px; padding: .6rem .75rem; margin: 0 0 1rem; font-size: .9rem; }
  .brand { font-weight: 800; color: #003087; font-size: 1.4rem; margin: 0 0 .5rem; }
  h1 { font-size: 1.2rem; margin: 0 0 .75rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem .75rem; margin: 0 0 1rem; }
  dt { color: #57606a; } dd { margin: 0; word-break: break-all; }
  .actions { display: flex; flex-direction: column; gap: .6rem; }
  button { font: inherit; padding: .7rem 1rem; border-radius: 22px; border: 1px solid #8c959f; background: #fff; cursor: pointer; }
  button[value="approve"] { background: #0070ba; color: #fff; border-color: #0070ba; font-weight: 700; }
  button:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  .error { color: #b91c1c; font-weight: 600; }
`;

export const shell = (title: string, body: string, nonce: string, script = ''): string =>
  checkoutShell({
    title,
    style: STYLE,
    notice: 'PayPal.\nNo money moves and nothing leaves this machine.',
    body: `<p class="brand" aria-hidden="true">PayPal</p>\n${body}`,
    nonce,
    script,
  });

export interface ApprovalView {
  title: string;
  /** What is being agreed to, as label/value pairs. */
  details: Array<[string, string]>;
  hidden: Record<string, string>;
  action: string;
  approveLabel: string;
  error?: string;
  nonce: string;
}

export function approvalPage(v: ApprovalView): string {
  const e = escapeHtml;
  const hidden = Object.entries(v.hidden)
    .map(([k, value]) => `<input type="hidden" name="${e(k)}" value="${e(value)}">`)
    .join('');
  if (v.error) {
    return shell(
      v.title,
      `<h1>${e(v.title)}</h1><p class="error" role="alert">${e(v.error)}</p><form method="post" action="${e(v.action)}">${hidden}<div class="actions"><button type="submit" name="decision" value="cancel">Close</button></div></form>`,
      v.nonce,
    );
  }
  return shell(
    v.title,
    `<h1>${e(v.title)}</h1>
<dl>${v.details.map(([k, value]) => `<dt>${e(k)}</dt><dd>${e(value)}</dd>`).join('')}</dl>
<form method="post" action="${e(v.action)}">${hidden}
<div class="actions">
<button type="submit" name="decision" value="approve">${e(v.approveLabel)}</button>
<button type="submit" name="decision" value="cancel">Cancel and return</button>
</div></form>`,
    v.nonce,
  );
}

/** After the popup's decision: tell the opener (if any) and close. */
export function popupResultPage(
  data: Record<string, unknown>,
  origin: string | null,
  message: string,
  nonce: string,
): string {
  const script = origin
    ? `try { if (window.opener) window.opener.postMessage(${scriptJson({ source: 'paypal-local', ...data })}, ${JSON.stringify(origin)}); } catch (e) {}
setTimeout(function () { window.close(); }, 300);`
    : '';
  return shell(
    'PayPal (local stand-in)',
    `<h1>${escapeHtml(message)}</h1><p role="status">You can close this window.</p>`,
    nonce,
    script,
  );
}

export const pageCsp = (nonce: string) =>
  `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'`;
