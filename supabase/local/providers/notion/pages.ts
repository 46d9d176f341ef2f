// The Notion fake's LOCAL stand-in for Notion's authorise page (no script): pick or create the
// workspace to connect, then allow or cancel.
import { consentError, consentPage, consentStyle, destinationOf } from '../../consent.ts';
import { escapeHtml, newest } from '../http.ts';
import type { Workspace } from './model.ts';

export function authorizePage(input: {
  clientId: string;
  redirectUri: string;
  state: string;
  workspaces: Workspace[];
  error?: string;
}): string {
  const e = escapeHtml;
  const existing = newest(input.workspaces, 20)
    .map((w) => `<option value="${e(w.id)}">${e(w.name)} (${e(w.ownerEmail)})</option>`)
    .join('');
  return consentPage({
    title: 'Local Notion authorisation (development stand-in)',
    style: consentStyle('#111827'),
    notice: `<strong>Local development authorisation</strong> — stands in for Notion.
  Nothing is sent to Notion; the workspace below lives in this machine's providers server only.`,
    heading: 'Reaction Blocks would like to access a Notion workspace',
    body: `<p>It will be able to read the pages and databases you share and add pages to them. After
  allowing you go back to <strong>${e(destinationOf(input.redirectUri))}</strong>.</p>
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
