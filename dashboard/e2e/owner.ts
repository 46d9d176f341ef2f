// The owner's account: sign-in through the local Google stand-in page, consent, the session's
// token (for calls the journey makes past the screens), and the dashboard's first screens.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axe, type Journey } from './support.ts';

/** Clicks the Google button and continues on the stand-in provider page as this person. */
export async function signInWithGoogle(
  page: Page,
  buttonName: string,
  person: { email: string; name: string },
) {
  await page.getByRole('button', { name: buttonName }).click();
  await page.locator('#email').fill(person.email);
  await page.locator('#name').fill(person.name);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/dashboard\/reaction/);
}

/** The signed-in user's access token, as supabase-js stored it. */
export async function accessToken(page: Page): Promise<string> {
  // The dashboard's supabase-js storageKey (src/lib/auth-storage.ts).
  const token = await page.evaluate(() => {
    const raw = localStorage.getItem('reaction.auth');
    return raw ? (JSON.parse(raw) as { access_token?: string }).access_token : undefined;
  });
  assert.ok(token, 'no stored session');
  return token;
}

export const OWNER = { email: 'e2e-owner@example.com', name: 'E2E Owner' };

/** Login (axe, a cancelled attempt), sign-in, consent, the empty dashboard (axe), mobile. */
export async function signInOwner(page: Page, { base, db }: Journey): Promise<string> {
  await page.goto(`${base}/login`);
  await axe(page, 'login');
  // Cancelling on the provider page comes back with a visible error.
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForURL(/\/dashboard\/reaction\?error=/);
  assert.equal(
    await page.getByRole('alert').textContent(),
    'Sign-in failed: Google sign-in was cancelled',
  );
  await signInWithGoogle(page, 'Sign in with Google', OWNER);

  // Consent: Agree is enabled only when ticked.
  const consent = page.getByRole('dialog', { name: 'Terms of Service' });
  await consent.waitFor();
  assert.equal(await page.getByRole('button', { name: 'Agree' }).isDisabled(), true);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Agree' }).click();
  await consent.waitFor({ state: 'detached' });
  // focus goes to the page's heading, not <body>, so a screen reader says where it is
  await page.waitForFunction(() => document.activeElement?.hasAttribute('data-page-heading'));
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Reaction');
  assert.equal(await page.getByTestId('remaining').textContent(), '3 blocks left');
  await page.getByText('No blocks yet. Create your first block.').waitFor();
  await axe(page, 'dashboard');

  // Mobile width: the not-supported message shows, the tag bar hides, Profile leaves the menu.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByText('Block management is not supported on mobile.').waitFor();
  await page.getByRole('button', { name: 'Account menu' }).click();
  assert.deepEqual(await page.getByRole('menuitem').allTextContents(), ['Logout']);
  await page.keyboard.press('Escape');
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/mobile.png` });
  await page.setViewportSize({ width: 1280, height: 900 });

  const { rows } = await db.query<{ id: string }>(
    'select id from public.profiles where email = $1',
    [OWNER.email],
  );
  assert.ok(rows[0], 'owner profile');
  return rows[0].id;
}
