// The local stand-in for Google's and Apple's consent screens. No scripts: a plain form that
// posts what "the provider" would return (email, name, picture) to the auth server's callback,
// in the page every consent stand-in shares (../consent.ts).
import { consentError, consentPage, consentStyle, destinationOf } from '../consent.ts';
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
  return consentPage({
    title: `Local sign-in with ${label} (development stand-in)`,
    style: consentStyle('#1d4ed8'),
    notice: `<strong>Local development sign-in</strong> — stands in for Google/Apple.
  Nothing is sent to ${e(label)}; type the account details the provider would return.`,
    heading: `Sign in with ${label}`,
    body: `<p>After signing in you go back to <strong>${e(destinationOf(input.redirectTo))}</strong>.</p>
  ${consentError(input.error)}
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
  </form>`,
  });
}
