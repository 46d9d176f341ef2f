// The local stand-ins for a provider's consent screen (Google's and Apple's sign-in, Notion's
// authorise page, a Cafe24 mall's app consent): one page shape, clearly marked LOCAL, no script.
// The auth server and the providers' fakes each fill it with their own form.
import { escapeHtml } from './http.ts';

/**
 * A consent stand-in: a page with the LOCAL notice, a heading and `body` (what the app asks for,
 * the error, the form), in the fake's own `style`.
 */
export function consentPage(input: {
  title: string;
  style: string;
  /** HTML: says what the page stands in for and that nothing leaves this machine. */
  notice: string;
  heading: string;
  body: string;
}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<style>${input.style}</style>
</head>
<body>
<main>
  <p class="notice" role="note">${input.notice}</p>
  <h1>${escapeHtml(input.heading)}</h1>
  ${input.body}
</main>
</body>
</html>
`;
}

/**
 * The look of a sign-in or authorise stand-in: a card in the system's colours with the notice in
 * dashed amber; `allow` is the colour of its Allow button (the provider's own).
 */
export const consentStyle = (allow: string) => `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
  main { width: min(30rem, calc(100vw - 2rem)); border: 1px solid GrayText; border-radius: 12px; padding: 1.5rem; }
  .notice { border: 2px dashed #b45309; background: #fef3c7; color: #451a03; border-radius: 8px; padding: .75rem; margin: 0 0 1rem; }
  h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  input, select { width: 100%; box-sizing: border-box; font: inherit; padding: .5rem; border: 1px solid GrayText; border-radius: 6px; }
  input:focus-visible, select:focus-visible, button:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  .hint { font-size: .875rem; margin: .25rem 0 0; }
  .error { color: #b91c1c; font-weight: 600; }
  ul { padding-left: 1.25rem; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: .6rem 1rem; border-radius: 6px; border: 1px solid GrayText; cursor: pointer; }
  button[value="allow"] { background: ${allow}; color: #fff; border-color: ${allow}; }
`;

/** A consent page's error, which its form names with aria-describedby="form-error". */
export const consentError = (error: string | undefined) =>
  error ? `<p class="error" role="alert" id="form-error">${escapeHtml(error)}</p>` : '';

/** Where the page says the person goes back to: the redirect's origin (as it is when not a URL). */
export function destinationOf(redirectUri: string): string {
  try {
    return new URL(redirectUri).origin;
  } catch {
    return redirectUri;
  }
}
