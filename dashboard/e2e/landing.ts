// The public screens: the landing without the signed-in code, the tablet menu, /reaction's
// focus parameter, and the first screens in Korean up to a new user's consent.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axe, inNewPage, type Journey } from './support.ts';
import { signInWithGoogle } from './owner.ts';

export async function landingInEnglish(page: Page, { base }: Journey) {
  const scripts: string[] = [];
  const onRequest = (r: { resourceType(): string; url(): string }) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  };
  page.on('request', onRequest);

  // Landing: the signed-in app's chunks are not loaded.
  await page.goto(`${base}/`);
  await page.getByRole('heading', { level: 1, name: 'Reactions for every page' }).waitFor();
  assert.ok(scripts.includes('/env.js'));
  for (const chunk of ['signed-in', 'dashboard', 'profile', 'work']) {
    assert.ok(!scripts.some((s) => s.startsWith(`/assets/${chunk}-`)), `landing loaded ${chunk}`);
  }
  page.off('request', onRequest);
  await axe(page, 'landing');

  // Tablet width: the hamburger replaces the links and opens Reaction, Send, Pricing, Start.
  await page.setViewportSize({ width: 768, height: 900 });
  assert.equal(await page.getByRole('link', { name: 'Showcase', exact: true }).isVisible(), false);
  await page.getByRole('button', { name: 'Open menu' }).focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await page.locator('.nav-mobile a').allTextContents(), [
    'Reaction',
    'Send',
    'Pricing',
    'Start',
  ]);
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/tablet.png` });
  await page.setViewportSize({ width: 1280, height: 900 });

  // /send: a fixture page and the letter the real pipeline made of it at build time
  // (scripts/letter-samples.ts): the page's navigation stays out of the letter, the footer is in
  await page.goto(`${base}/send?focus=typedream`);
  const before = page.frameLocator('iframe[title="A Typedream page"]');
  const after = page.frameLocator('iframe[title="The letter made from the Typedream page"]');
  await before.getByRole('navigation').waitFor();
  await after.getByText('Small letters, read by the right people').waitFor();
  await after.getByRole('link', { name: 'Unsubscribe' }).waitFor();
  assert.equal(await after.getByRole('navigation').count(), 0);

  // focus=button preselects Button and the SDK defines the live demo element.
  await page.goto(`${base}/reaction?focus=button`);
  await page.locator('[role=tab][aria-selected=true]', { hasText: 'Button' }).waitFor();
  await page.waitForFunction(() => !!customElements.get('reaction-button'), null, {
    timeout: 10000,
  });
}

/**
 * A Korean visitor (browser language ko) on the first screens: the landing and /login with
 * `?locale=ko`, then signing up as a new user, whose terms must be in Korean too.
 */
export async function firstScreensInKorean(journey: Journey, errors: string[]) {
  const { base } = journey;
  await inNewPage(journey, errors, { label: 'ko', locale: 'ko-KR' }, async (page) => {
    await page.goto(`${base}/?locale=ko`);
    await page.getByRole('heading', { level: 1, name: '모든 페이지에 반응을 더하세요' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'ko');

    await page.goto(`${base}/login?locale=ko`);
    await page.getByRole('heading', { level: 1, name: '리액션 블록스에 로그인' }).waitFor();
    await page.getByRole('link', { name: '로그인에 도움이 필요하신가요?' }).waitFor();
    await signInWithGoogle(page, 'Google로 로그인', {
      email: 'e2e-korean@example.com',
      name: '한국 사용자',
    });

    // A brand-new account: the terms, in the language the visitor signed up in.
    const consent = page.getByRole('dialog', { name: '서비스 이용약관' });
    await consent.waitFor();
    assert.equal(await consent.getByRole('button', { name: '동의' }).isDisabled(), true);
    await consent
      .getByRole('checkbox', { name: '서비스 이용약관과 개인정보처리방침에 동의합니다' })
      .check();
    await consent.getByRole('button', { name: '동의' }).click();
    await consent.waitFor({ state: 'detached' });
    // Agreeing keeps the account in Korean: the dashboard after consent speaks it too.
    await page.getByText('아직 블록이 없습니다', { exact: true }).waitFor();
    assert.equal(await page.getByTestId('remaining').textContent(), '남은 블록 3개');
    const { rows } = await journey.db.query<{ language: string }>(
      'select language from public.profiles where email = $1',
      ['e2e-korean@example.com'],
    );
    assert.equal(rows[0]?.language, 'ko');
  });
}
