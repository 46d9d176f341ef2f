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

/** The key the dashboard's session is kept under: the SDK's key for the project. */
export const sessionStorageKey = ({ apiUrl }: Pick<Journey, 'apiUrl'>): string =>
  'reaction-blocks.session:' + apiUrl.replace(/\/+$/, '');

/**
 * What the page keeps sealed under `key` (sdk/src/core/storage.ts: `rb1.<iv>.<ciphertext>`,
 * AES-GCM with the page's non-extractable key from IndexedDB, the key's name as additional
 * data), opened in the page as the SDK does; null when nothing is there.
 */
export async function openSealed(page: Page, key: string): Promise<unknown> {
  return page.evaluate(async (key) => {
    const raw = localStorage.getItem(key);
    if (!raw?.startsWith('rb1.')) return null;
    const [iv = '', data = ''] = raw.slice(4).split('.');
    const cryptoKey = await new Promise<CryptoKey>((ok, ko) => {
      const open = indexedDB.open('reaction-blocks');
      open.onerror = () => ko(open.error);
      open.onsuccess = () => {
        const get = open.result.transaction('keys').objectStore('keys').get('storage');
        get.onsuccess = () => ok(get.result as CryptoKey);
        get.onerror = () => ko(get.error);
      };
    });
    // no named helpers in here: tsx would wrap them in a __name() the page does not have
    const plain = await crypto.subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: Uint8Array.from(atob(iv), (c) => c.charCodeAt(0)),
        additionalData: new TextEncoder().encode(key),
      },
      cryptoKey,
      Uint8Array.from(atob(data), (c) => c.charCodeAt(0)),
    );
    return JSON.parse(new TextDecoder().decode(plain)) as unknown;
  }, key);
}

/** The signed-in user's access token, as the dashboard keeps it (sealed). */
export async function accessToken(page: Page, journey: Pick<Journey, 'apiUrl'>): Promise<string> {
  const session = (await openSealed(page, sessionStorageKey(journey))) as {
    access_token?: string;
  } | null;
  assert.ok(session?.access_token, 'no stored session');
  return session.access_token;
}

export const OWNER = { email: 'e2e-owner@example.com', name: 'E2E Owner' };

/** Login (axe, a cancelled attempt), sign-in, consent, the empty dashboard (axe), mobile. */
export async function signInOwner(page: Page, { base, db }: Journey): Promise<string> {
  await page.goto(`${base}/login`);
  await axe(page, 'login');
  // Cancelling on the provider page comes back with a visible error, in our words (access_denied),
  // not the provider's
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForURL(/\/dashboard\/reaction\?error=/);
  assert.equal(
    await page.getByRole('alert').textContent(),
    'Sign-in failed: It was cancelled, or Google or Apple did not allow it. Try again, or use the other one.',
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
  await page.getByText('No blocks yet', { exact: true }).waitFor();
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
