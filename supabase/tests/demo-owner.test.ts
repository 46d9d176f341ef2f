// `npm start` promises a demo owner: signed in through the local Google page with the printed
// email, on a paid plan, owning one block of each of the nine types.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { anonClient, stack } from './support/clients.ts';

const DEMO_ID = '00000000-0000-4000-8000-000000000001';

describe('demo owner', () => {
  it('signs in through the local Google page and owns one block of each type on a paid plan', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const redirectTo = 'http://127.0.0.1/dashboard/reaction';
    const authorize = new URL(`${stack().apiUrl}/auth/v1/authorize`);
    authorize.search = new URLSearchParams({
      provider: 'google',
      redirect_to: redirectTo,
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

    // ...and submits the email npm start prints
    res = await fetch(new URL(action!.replaceAll('&amp;', '&'), pageUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        state: state!.replaceAll('&amp;', '&'),
        email: 'demo@reaction-blocks.local',
        name: 'Demo Owner',
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
    const session = (await token.json()) as { access_token: string; user: { id: string } };
    expect(session.user.id).toBe(DEMO_ID);

    const client = anonClient();
    const { data: blocks } = await client
      .from('blocks')
      .select('type')
      .eq('owner_id', DEMO_ID)
      .setHeader('Authorization', `Bearer ${session.access_token}`);
    expect((blocks ?? []).map((b) => b.type).sort()).toEqual([
      'ab',
      'brunch_letter',
      'button',
      'comment',
      'form',
      'like',
      'notion_letter',
      'qna',
      'typedream_letter',
    ]);
    const { data: profile } = await client
      .from('profiles')
      .select('paid, agree')
      .eq('id', DEMO_ID)
      .setHeader('Authorization', `Bearer ${session.access_token}`)
      .single();
    expect(profile).toEqual({ paid: true, agree: true });
  });
});
