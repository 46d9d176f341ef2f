// A sign-in through the local Google stand-in as a browser makes it (PKCE): /authorize, the
// consent page, the form posted with the account's email, the code exchanged for a session.
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { stack } from './clients.ts';

export interface GoogleSession {
  access_token: string;
  user: { id: string; email: string; is_anonymous: boolean; app_metadata: Record<string, unknown> };
}

export async function signInWithGoogle(email: string, name: string): Promise<GoogleSession> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = new URL(`${stack().apiUrl}/auth/v1/authorize`);
  authorize.search = new URLSearchParams({
    provider: 'google',
    redirect_to: 'http://127.0.0.1/dashboard/reaction',
    code_challenge: challenge,
    code_challenge_method: 's256',
  }).toString();

  // the browser follows /authorize to the consent page
  let res = await fetch(authorize, { redirect: 'manual' });
  const pageUrl = new URL(res.headers.get('location')!, authorize);
  res = await fetch(pageUrl);
  const page = await res.text();
  expect(page).toContain('Local development sign-in');
  const state = /name="state" value="([^"]+)"/.exec(page)?.[1];
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  expect(state && action).toBeTruthy();

  // ...and submits the account's email
  res = await fetch(new URL(action!.replaceAll('&amp;', '&'), pageUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      state: state!.replaceAll('&amp;', '&'),
      email,
      name,
      decision: 'allow',
    }).toString(),
  });
  expect(res.status).toBe(303);
  const code = new URL(res.headers.get('location')!).searchParams.get('code');
  expect(code).toBeTruthy();

  const token = await fetch(`${stack().apiUrl}/auth/v1/token?grant_type=pkce`, {
    method: 'POST',
    headers: { apikey: stack().anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
  });
  expect(token.status).toBe(200);
  return (await token.json()) as GoogleSession;
}
