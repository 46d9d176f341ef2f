// The Notion fake's LOCAL stand-in for Notion's authorise page (no script): pick or create the
// workspace to connect, then allow or cancel.
import { consentError, consentPage, escapeHtml } from '../http.ts';
import type { Workspace } from './model.ts';

const STYLE = `
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
  button[value="allow"] { background: #111827; color: #fff; border-color: #111827; }
`;

export function authorizePage(input: {
  clientId: string;
  redirectUri: string;
  state: string;
  workspaces: Workspace[];
  error?: string;
}): string {
  const e = escapeHtml;
  let destination = input.redirectUri;
  try {
    destination = new URL(input.redirectUri).origin;
  } catch {
    // shown escaped as it is
  }
  const existing = input.workspaces
    .slice(-20)
    .reverse()
    .map((w) => `<option value="${e(w.id)}">${e(w.name)} (${e(w.ownerEmail)})</option>`)
    .join('');
  return consentPage({
    title: 'Local Notion authorisation (development stand-in)',
    style: STYLE,
    notice: `<strong>Local development authorisation</strong> — stands in for Notion.
  Nothing is sent to Notion; the workspace below lives in this machine's providers server only.`,
    heading: 'Reaction Blocks would like to access a Notion workspace',
    body: `<p>It will be able to read the pages and databases you share and add pages to them. After
  allowing you go back to <strong>${e(destination)}</strong>.</p>
  <p class="hint">A new workspace comes with the databases “Responses” and “Feedback” and the pages “Likes” and “Reaction Blocks notes”.</p>
  ${consentError(input.error)}
  <form method="post" action="/notion/v1/oauth/authorize"${input.error ? ' aria-describedby="form-error"' : ''}>
    <input type="hidden" name="client_id" value="${e(input.clientId)}">
    <input type="hidden" name="redirect_uri" value="${e(input.redirectUri)}">
    <input type="hidden" name="state" value="${e(input.state)}">
    <label for="workspace_id">Workspace</label>
    <select id="workspace_id" name="workspace_id"><option value="">A new workspace</option>${existing}</select>
    <label for="workspace_name">Name of a new workspace</label>
    <input id="workspace_name" name="workspace_name" type="text" maxlength="100" value="Local workspace">
    <label for="email">Your Notion account's email</label>
    <input id="email" name="email" type="email" maxlength="255" value="owner@example.com">
    <div class="actions">
      <button type="submit" name="decision" value="allow">Allow access</button>
      <button type="submit" name="decision" value="deny">Cancel</button>
    </div>
  </form>`,
  });
}
