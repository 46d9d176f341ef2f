// A provider's return survives the page being left before its code is exchanged (rev-visitor4
// D7): a full load of another route at once, or while the exchange's request is held, signs in
// on the next page; a code spent by a page left before the answer says so on the sign-in page;
// no PKCE verifier is left in storage after a sign-in, a cancelled try or a failed one.
import assert from 'node:assert/strict';
import type { Page, Route } from 'playwright-core';
import { sessionStorageKey } from './owner.ts';
import type { ExpectedConsole } from '../../scripts/console-watch.ts';
import { type Journey, watchErrors } from './support.ts';

const TOKEN = '**/auth/v1/token?grant_type=pkce';

/** The spent code's second exchange, which the auth server refuses as GoTrue does. */
const SPENT: ExpectedConsole = {
  match: /^error: Failed to load resource: .* 404 .*\/auth\/v1\/token\?grant_type=pkce$/,
  reason: 'the next page sends the code a page left before its answer had spent',
};

/** In a fresh context: /login, Google and the stand-in page's fields filled in as `email`. */
async function returnFromGoogle(
  { browser, base }: Journey,
  email: string,
  errors: string[],
  expected: ExpectedConsole[] = [],
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  watchErrors(page, errors, email, expected);
  await page.goto(`${base}/login`);
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await page.locator('#email').fill(email);
  await page.locator('#name').fill('Leaving Owner');
  return { context, page };
}

const continueOnGoogle = async (page: Page) => {
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/dashboard\/reaction/, { waitUntil: 'commit' });
};

/** What the page shows once the session is read: a new owner's consent (signed in) or the login. */
async function outcome(page: Page): Promise<'signed in' | 'signed out'> {
  const consent = page.getByRole('dialog', { name: 'Terms of Service' });
  const login = page.getByRole('heading', { name: 'Sign in to Reaction Blocks' });
  await consent.or(login).first().waitFor();
  return (await consent.isVisible()) ? 'signed in' : 'signed out';
}

/** The PKCE verifiers and this tab's kept return: none once a flow is over. */
async function leftovers(page: Page, journey: Journey): Promise<string[]> {
  const prefix = `${sessionStorageKey(journey)}-`;
  return page.evaluate(
    (prefix) => [
      ...Object.keys(localStorage).filter((k) => k.startsWith(prefix)),
      ...Object.keys(sessionStorage).filter((k) => k.startsWith('reaction-blocks.')),
    ],
    prefix,
  );
}

export async function signInReturnSurvives(journey: Journey, errors: string[]) {
  const { base, browser } = journey;

  // Left as soon as the boot script had kept the code, before the client had loaded: the
  // return page's scripts are held until then (leaving the moment the address committed left
  // before the boot script too, on a busy machine, and nothing could keep that code).
  {
    const { context, page } = await returnFromGoogle(journey, 'leaves-at-once@example.com', errors);
    let holding = true;
    await page.route('**/*.js', (route: Route) => (holding ? undefined : route.continue()));
    await continueOnGoogle(page);
    await page.waitForURL((url) => !url.searchParams.has('code'), { waitUntil: 'commit' });
    holding = false;
    await page.unroute('**/*.js');
    await page.goto(`${base}/audience`);
    assert.equal(await outcome(page), 'signed in', 'left at once');
    assert.equal(new URL(page.url()).pathname, '/audience');
    await page.reload();
    assert.equal(await outcome(page), 'signed in', 'left at once, reloaded');
    assert.deepEqual(await leftovers(page, journey), []);
    await context.close();
  }

  // Left while the exchange's request was held in the browser (it never reached the server).
  {
    const { context, page } = await returnFromGoogle(journey, 'leaves-held@example.com', errors);
    let held!: () => void;
    const seen = new Promise<void>((resolve) => (held = resolve));
    let calls = 0;
    // the first is held until the page goes (unrouted, it would go on to the server)
    await page.route(TOKEN, (route: Route) => (calls++ ? route.continue() : held()));
    await continueOnGoogle(page);
    await seen;
    await page.goto(`${base}/profile`);
    assert.equal(await outcome(page), 'signed in', 'left during a held exchange');
    assert.deepEqual(await leftovers(page, journey), []);
    await context.close();
  }

  // Left after the server took the code, before its answer reached the page: the code is spent,
  // and the next page says the sign-in did not finish.
  {
    const { context, page } = await returnFromGoogle(journey, 'leaves-spent@example.com', errors, [
      SPENT,
    ]);
    let taken!: () => void;
    const spent = new Promise<void>((resolve) => (taken = resolve));
    let calls = 0;
    // the first goes to the server, and its answer is held until the page goes
    await page.route(TOKEN, async (route: Route) => {
      if (calls++) return route.continue();
      await route.fetch();
      taken();
    });
    await continueOnGoogle(page);
    await spent;
    await page.goto(`${base}/audience`);
    assert.equal(await outcome(page), 'signed out', 'a spent code');
    assert.equal(
      await page.getByRole('alert').textContent(),
      'Sign-in failed: It did not finish: the page was left while it was being completed, or it was started in another browser. Sign in again.',
    );
    assert.deepEqual(await leftovers(page, journey), []);
    // signing in again from there works, and comes back to /audience
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.locator('#email').fill('leaves-spent@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/audience/);
    assert.equal(await outcome(page), 'signed in', 'signed in again');
    assert.deepEqual(await leftovers(page, journey), []);
    await context.close();
  }

  // A cancelled try, then a sign-in waited for: no verifier of either is left.
  {
    const { context, page } = await returnFromGoogle(journey, 'stays@example.com', errors);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(/\?error=/);
    await page.getByRole('alert').waitFor();
    assert.deepEqual(await leftovers(page, journey), []);
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.locator('#email').fill('stays@example.com');
    await continueOnGoogle(page);
    assert.equal(await outcome(page), 'signed in', 'waited');
    assert.deepEqual(await leftovers(page, journey), []);
    await context.close();
  }

  // An owner whose saved language is English signs in from /login?locale=ko: the visit stays in
  // Korean once the profile is read (before: the return address had no locale, and the saved
  // English replaced the Korean the address asked for).
  {
    await journey.db.query(
      `update public.profiles set agree = true, language = 'en', name = 'Zed English'
        where email = 'stays@example.com'`,
    );
    const context = await browser.newContext();
    const page = await context.newPage();
    watchErrors(page, errors, 'stays@example.com');
    await page.goto(`${base}/login?locale=ko`);
    await page.getByRole('button', { name: 'Google로 로그인' }).click();
    await page.locator('#email').fill('stays@example.com');
    await continueOnGoogle(page);
    // the profile is read (the header's initial is its name's, no longer the email's), and the
    // page is still in Korean
    await page.locator('.avatar-initial', { hasText: 'Z' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ko');
    assert.equal(new URL(page.url()).searchParams.get('locale'), 'ko');
    await context.close();
  }
}
