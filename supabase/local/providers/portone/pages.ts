// The browser side of the PortOne fake: a stand-in for PortOne's browser SDK script (what
// `@portone/browser-sdk` loads from its CDN) and the checkout page it shows, clearly marked as a
// local stand-in, the way the local Google sign-in page is (supabase/local/auth/consent-page.ts).
import { checkoutShell, escapeHtml, scriptJson, standInScript } from '../http.ts';

export interface CheckoutRequest {
  storeId?: unknown;
  channelKey?: unknown;
  billingKeyMethod?: unknown;
  issueId?: unknown;
  issueName?: unknown;
  customer?: { customerId?: unknown; fullName?: unknown; email?: unknown };
  [key: string]: unknown;
}

/**
 * window.PortOne with requestIssueBillingKey: the checkout page in a modal frame (as PortOne
 * shows KCP on a desktop), answered by a message from that page. The other methods refuse.
 */
export function browserSdkScript(base: string): string {
  return standInScript({
    product: 'PortOne browser SDK',
    vendor: 'PortOne',
    fake: 'portone',
    global: 'PortOne',
    base,
    body: `  function requestIssueBillingKey(request) {
    return new Promise(function (resolve) {
      var opener = document.activeElement;
      var overlay = document.createElement('div');
      overlay.setAttribute('data-portone-local', '');
      overlay.style.cssText = 'position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;background:rgba(0,0,0,.55)';
      var frame = document.createElement('iframe');
      frame.title = 'PortOne checkout (local stand-in)';
      frame.src = BASE + '/checkout?request=' + encodeURIComponent(JSON.stringify(request || {})) +
        '&origin=' + encodeURIComponent(location.origin);
      frame.style.cssText = 'width:min(460px,calc(100vw - 16px));height:min(640px,calc(100vh - 16px));border:0;border-radius:12px;background:#fff;box-shadow:0 10px 40px rgba(0,0,0,.35)';
      overlay.appendChild(frame);
      document.body.appendChild(overlay);
      frame.focus();
      function done(response) {
        window.removeEventListener('message', onMessage);
        overlay.remove();
        if (opener && typeof opener.focus === 'function') opener.focus();
        resolve(response);
      }
      function onMessage(event) {
        if (event.origin !== ORIGIN || !event.data || event.data.source !== 'portone-local') return;
        done(event.data.response);
      }
      window.addEventListener('message', onMessage);
    });
  }
  function unsupported(name) {
    return function () {
      return Promise.reject(new Error('[PortOne local stand-in] ' + name + ' is not stood in; only requestIssueBillingKey is'));
    };
  }
  window.PortOne = {
    __local: true,
    requestIssueBillingKey: requestIssueBillingKey,
    requestPayment: unsupported('requestPayment'),
    requestIdentityVerification: unsupported('requestIdentityVerification'),
    requestIssueBillingKeyAndPay: unsupported('requestIssueBillingKeyAndPay'),
    loadPaymentUI: unsupported('loadPaymentUI'),
    loadIssueBillingKeyUI: unsupported('loadIssueBillingKeyUI'),
    updateLoadPaymentUIRequest: unsupported('updateLoadPaymentUIRequest'),
    updateLoadIssueBillingKeyUIRequest: unsupported('updateLoadIssueBillingKeyUIRequest')
  };
`,
  });
}

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, 'Apple SD Gothic Neo', 'Noto Sans KR', sans-serif; }
  body { margin: 0; background: #fff; color: #1f2328; }
  main { padding: 1.25rem 1.5rem; }
  .notice { border: 2px dashed #b45309; background: #fef3c7; color: #451a03; border-radius: 8px; padding: .6rem .75rem; margin: 0 0 1rem; font-size: .9rem; }
  h1 { font-size: 1.25rem; margin: 0 0 .75rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem .75rem; margin: 0 0 1rem; font-size: .95rem; }
  dt { color: #57606a; } dd { margin: 0; word-break: break-all; }
  fieldset { border: 1px solid #d0d7de; border-radius: 8px; padding: .5rem .75rem .75rem; margin: 0 0 1rem; }
  legend { font-weight: 600; padding: 0 .25rem; }
  label { display: flex; gap: .5rem; align-items: flex-start; margin-top: .5rem; }
  .hint { color: #57606a; font-size: .85rem; display: block; }
  .actions { display: flex; gap: .75rem; }
  button { font: inherit; padding: .6rem 1rem; border-radius: 6px; border: 1px solid #8c959f; background: #fff; cursor: pointer; }
  button[value="approve"] { background: #1d4ed8; color: #fff; border-color: #1d4ed8; }
  button:focus-visible, input:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  .error { color: #b91c1c; font-weight: 600; }
`;

const shell = (title: string, body: string, nonce: string, script = ''): string =>
  checkoutShell({
    title,
    style: STYLE,
    notice: 'PortOne (KCP and wallets).\nNo card is charged and nothing leaves this machine.',
    body,
    nonce,
    script,
  });

export interface CheckoutView {
  request: CheckoutRequest;
  requestJson: string;
  origin: string;
  channelName: string;
  method: 'CARD' | 'EASY_PAY';
  error?: string;
  nonce: string;
}

export function checkoutPage(v: CheckoutView): string {
  const e = escapeHtml;
  const customer = v.request.customer ?? {};
  if (v.error) {
    return shell(
      'PortOne checkout (local stand-in)',
      `<h1>PortOne checkout</h1><p class="error" role="alert">${e(v.error)}</p>
<form method="post" action="checkout"><input type="hidden" name="request" value="${e(v.requestJson)}"><input type="hidden" name="origin" value="${e(v.origin)}">
<div class="actions"><button type="submit" name="decision" value="cancel">Close</button></div></form>`,
      v.nonce,
    );
  }
  const card =
    v.method === 'CARD'
      ? `<fieldset><legend>Test card</legend>
<label><input type="radio" name="card" value="ok" checked> <span>4242 4242 4242 4242<span class="hint">Later charges succeed.</span></span></label>
<label><input type="radio" name="card" value="decline"> <span>4000 0000 0000 0002<span class="hint">The billing key is issued, every charge is declined.</span></span></label>
</fieldset>`
      : `<fieldset><legend>Wallet</legend>
<label><input type="radio" name="card" value="ok" checked> <span>Pay with the wallet<span class="hint">Later charges succeed.</span></span></label>
<label><input type="radio" name="card" value="decline"> <span>A wallet without funds<span class="hint">Every charge is declined.</span></span></label>
</fieldset>`;
  return shell(
    'PortOne checkout (local stand-in)',
    `<h1>Register a payment method</h1>
<dl>
<dt>Channel</dt><dd>${e(v.channelName)}</dd>
<dt>For</dt><dd>${e(String(v.request.issueName ?? ''))}</dd>
<dt>Customer</dt><dd>${e(String(customer.email ?? customer.customerId ?? ''))}</dd>
</dl>
<form method="post" action="checkout">
<input type="hidden" name="request" value="${e(v.requestJson)}">
<input type="hidden" name="origin" value="${e(v.origin)}">
${card}
<div class="actions">
<button type="submit" name="decision" value="approve">Register</button>
<button type="submit" name="decision" value="cancel" formnovalidate>Cancel</button>
</div>
</form>`,
    v.nonce,
  );
}

/** The page after the form: hands the SDK's answer to the page that opened the checkout. */
export function resultPage(
  response: Record<string, unknown>,
  origin: string,
  nonce: string,
): string {
  const ok = typeof response.billingKey === 'string' && !response.code;
  return shell(
    'PortOne checkout (local stand-in)',
    `<h1>${ok ? 'Payment method registered' : 'Checkout closed'}</h1><p role="status">Returning to the site…</p>`,
    nonce,
    `window.parent.postMessage(${scriptJson({ source: 'portone-local', response })}, ${JSON.stringify(origin)});`,
  );
}

/** CSP of the checkout pages: our one inline script, framed only by the page that asked. */
export function checkoutCsp(nonce: string, origin: string): string {
  return `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors ${origin}; base-uri 'none'`;
}
