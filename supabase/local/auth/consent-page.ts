// The local stand-in for Google's and Apple's consent screens. No scripts: a plain form that
// posts what "the provider" would return (email, name, picture) to the auth server's callback.
import { escapeHtml } from '../http.ts';

export const PROVIDER_LABELS: Record<string, string> = { google: 'Google', apple: 'Apple' };

export interface ConsentPageInput {
  provider: string;
  state: string;
  callbackUrl: string;
  email: string;
  name: string;
  redirectTo: string;
  error?: string;
}

export function renderConsentPage(input: ConsentPageInput): string {
  const label = PROVIDER_LABELS[input.provider] ?? input.provider;
  const e = escapeHtml;
  let destination = input.redirectTo;
  try {
    destination = new URL(input.redirectTo).origin;
  } catch {
    // keep the raw value; it is escaped below
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Local sign-in with ${e(label)} (development stand-in)</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
  main { width: min(28rem, calc(100vw - 2rem)); border: 1px solid GrayText; border-radius: 12px; padding: 1.5rem; }
  .notice { border: 2px dashed #b45309; background: #fef3c7; color: #451a03; border-radius: 8px; padding: .75rem; margin: 0 0 1rem; }
  h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  input { width: 100%; box-sizing: border-box; font: inherit; padding: .5rem; border: 1px solid GrayText; border-radius: 6px; }
  input:focus-visible, button:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  .hint { font-size: .875rem; margin: .25rem 0 0; }
  .error { color: #b91c1c; font-weight: 600; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: .6rem 1rem; border-radius: 6px; border: 1px solid GrayText; cursor: pointer; }
  button[value="allow"] { background: #1d4ed8; color: #fff; border-color: #1d4ed8; }
</style>
</head>
<body>
<main>
  <p class="notice" role="note"><strong>Local development sign-in</strong> — stands in for Google/Apple.
  Nothing is sent to ${e(label)}; type the account details the provider would return.</p>
  <h1>Sign in with ${e(label)}</h1>
  <p>After signing in you go back to <strong>${e(destination)}</strong>.</p>
  ${input.error ? `<p class="error" role="alert" id="form-error">${e(input.error)}</p>` : ''}
  <form method="post" action="${e(input.callbackUrl)}"${input.error ? ' aria-describedby="form-error"' : ''}>
    <input type="hidden" name="state" value="${e(input.state)}">
    <label for="email">Email address</label>
    <input id="email" name="email" type="email" required autocomplete="email" maxlength="255" value="${e(input.email)}">
    <label for="name">Full name</label>
    <input id="name" name="name" type="text" autocomplete="name" maxlength="100" value="${e(input.name)}" aria-describedby="name-hint">
    <p class="hint" id="name-hint">The name ${e(label)} would share with the app.</p>
    <label for="picture">Profile picture URL (optional)</label>
    <input id="picture" name="picture" type="url" autocomplete="photo" maxlength="500" value="">
    <div class="actions">
      <button type="submit" name="decision" value="allow">Continue</button>
      <button type="submit" name="decision" value="deny" formnovalidate>Cancel</button>
    </div>
  </form>
</main>
</body>
</html>
`;
}
