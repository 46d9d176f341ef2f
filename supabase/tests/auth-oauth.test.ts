// The local auth server's Apple and Google flows, driven by the unmodified @supabase/supabase-js
// against a real PostgreSQL (support/auth.ts), with the Google PKCE flow completed in headless
// Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { chromium, type Browser } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { db, baseUrl, anonKey, client, uniqueEmail } from './support/auth.ts';

describe('auth server through supabase-js', () => {
  it('completes the implicit Apple flow and finds the same user on the next sign-in', async () => {
    const email = uniqueEmail('apple');
    const signInOnce = async () => {
      const page = await fetch(
        `${baseUrl}/auth/v1/authorize?provider=apple&redirect_to=${encodeURIComponent(`${baseUrl}/app/callback`)}`,
      );
      const state = /name="state" value="([^"]+)"/.exec(await page.text())?.[1];
      expect(state).toBeTruthy();
      const res = await fetch(`${baseUrl}/auth/v1/callback`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          state: state!,
          email,
          name: 'Apple Person',
          decision: 'allow',
        }),
      });
      expect(res.status).toBe(303);
      const location = new URL(res.headers.get('location')!);
      expect(location.origin + location.pathname).toBe(`${baseUrl}/app/callback`);
      const fragment = new URLSearchParams(location.hash.slice(1));
      const { data, error } = await client().auth.getUser(fragment.get('access_token')!);
      expect(error).toBeNull();
      expect(fragment.get('refresh_token')).toBeTruthy();
      return data.user!;
    };
    const first = await signInOnce();
    expect(first).toMatchObject({
      email,
      app_metadata: { provider: 'apple', providers: ['apple'] },
    });
    expect(first.user_metadata).toMatchObject({
      full_name: 'Apple Person',
      name: 'Apple Person',
      email,
    });
    const second = await signInOnce();
    expect(second.id).toBe(first.id);
  });

  it('links Google to an anonymous user (linkIdentity), who becomes permanent and gets a profile', async () => {
    const supabase = client(anonKey, { pkce: true });
    const { data: anon } = await supabase.auth.signInAnonymously();
    const anonId = anon.user!.id;
    const profileBefore = await db.query('select 1 from public.profiles where id = $1', [anonId]);
    expect(profileBefore.rowCount).toBe(0);

    const { data, error } = await supabase.auth.linkIdentity({
      provider: 'google',
      options: { skipBrowserRedirect: true, redirectTo: `${baseUrl}/app/callback` },
    });
    expect(error).toBeNull();
    // the stand-in consent page, filled in without a browser this time
    const page = await fetch(data.url!);
    expect(page.status).toBe(200);
    const state = /name="state" value="([^"]+)"/.exec(await page.text())?.[1];
    const email = uniqueEmail('linked');
    const res = await fetch(`${baseUrl}/auth/v1/callback`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state: state!, email, name: 'Linked Person', decision: 'allow' }),
    });
    expect(res.status).toBe(303);
    const code = new URL(res.headers.get('location')!).searchParams.get('code');
    const { data: linked, error: linkError } = await supabase.auth.exchangeCodeForSession(code!);
    expect(linkError).toBeNull();
    expect(linked.user).toMatchObject({
      id: anonId,
      email,
      is_anonymous: false,
      app_metadata: { provider: 'google', providers: ['google'] },
      user_metadata: { full_name: 'Linked Person' },
    });
    expect(decodeJwt(linked.session!.access_token).is_anonymous).toBe(false);
    // the schema's trigger made the profile when the user stopped being anonymous
    const profile = await db.query<{ name: string; email: string }>(
      'select name, email from public.profiles where id = $1',
      [anonId],
    );
    expect(profile.rows[0]).toMatchObject({ name: 'Linked Person', email });
  });

  describe('Google PKCE flow in headless Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch(chromiumLaunchOptions);
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('signs in through the local consent page and exchanges the code for a session', async () => {
      const supabase = client(anonKey, { pkce: true });
      const redirectTo = `${baseUrl}/app/callback`;
      const { data, error } = await supabase.auth.signInWithOAuth({
        provider: 'google',
        options: { skipBrowserRedirect: true, redirectTo },
      });
      expect(error).toBeNull();
      expect(data.url).toContain('code_challenge=');

      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        await page.goto(data.url!);
        expect(await page.getByRole('note').textContent()).toMatch(
          /Local development sign-in\s+— stands in for Google\/Apple/,
        );
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
          'Sign in with Google',
        );
        expect(await page.getByLabel('Email address').inputValue()).toBe(
          'demo@reaction-blocks.local',
        );
        const axe = await new AxeBuilder({ page }).analyze();
        expect(axe.violations.map((v) => v.id)).toEqual([]);

        const email = uniqueEmail('google');
        await page.getByLabel('Email address').fill(email);
        await page.getByLabel('Full name').fill('Grace Hopper');
        await page
          .getByLabel('Profile picture URL (optional)')
          .fill('https://example.com/grace.png');
        await Promise.all([
          page.waitForURL(/\/app\/callback\?code=/),
          page.getByRole('button', { name: 'Continue' }).click(),
        ]);
        const code = new URL(page.url()).searchParams.get('code');
        expect(code).toBeTruthy();

        const exchanged = await supabase.auth.exchangeCodeForSession(code!);
        expect(exchanged.error).toBeNull();
        const user = exchanged.data.user!;
        expect(user).toMatchObject({
          email,
          app_metadata: { provider: 'google', providers: ['google'] },
          user_metadata: {
            full_name: 'Grace Hopper',
            name: 'Grace Hopper',
            email,
            avatar_url: 'https://example.com/grace.png',
            picture: 'https://example.com/grace.png',
          },
        });
        expect(user.identities?.[0]?.provider).toBe('google');
        const claims = decodeJwt(exchanged.data.session!.access_token);
        expect(claims).toMatchObject({ sub: user.id, app_metadata: { provider: 'google' } });
        expect((claims.amr as { method: string }[])[0]?.method).toBe('oauth');

        // the session is stored and usable
        const { data: me } = await supabase.auth.getUser();
        expect(me.user?.id).toBe(user.id);

        // a code is good once
        const replay = await fetch(`${baseUrl}/auth/v1/token?grant_type=pkce`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(56) }),
        });
        expect(replay.status).toBe(404);
      } finally {
        await context.close();
      }
    });

    it('rejects a code exchanged with the wrong verifier', async () => {
      const supabase = client(anonKey, { pkce: true });
      const { data } = await supabase.auth.signInWithOAuth({
        provider: 'google',
        options: { skipBrowserRedirect: true, redirectTo: `${baseUrl}/app/callback` },
      });
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        await page.goto(data.url!);
        await Promise.all([
          page.waitForURL(/\/app\/callback\?code=/),
          page.getByRole('button', { name: 'Continue' }).click(),
        ]);
        const code = new URL(page.url()).searchParams.get('code');
        const res = await fetch(`${baseUrl}/auth/v1/token?grant_type=pkce`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ auth_code: code, code_verifier: 'y'.repeat(56) }),
        });
        expect(res.status).toBe(403);
        expect(await res.json()).toMatchObject({ error_code: 'bad_code_verifier' });
      } finally {
        await context.close();
      }
    });
  });
});
