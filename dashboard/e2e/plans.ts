// Plans in the journey: the owner at the block limit follows Upgrade to the plan page, picks Basic
// and pays by Korean card on the local PortOne checkout (framed, marked LOCAL), creates the fourth
// block, reads the plan and its history, and stops it; a second owner, in Korean, comes from the
// pricing page, signs in on /purchase, picks Custom and subscribes with PayPal in the local popup.
// axe on every plan screen; E2E_SHOTS=dir saves them at 1440 and 375 px.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import type { Page } from 'playwright-core';
import { axe, inNewPage, type Journey, until } from './support.ts';

const shots = process.env.E2E_SHOTS;

/** Saves the page at 1440 and 375 px wide when E2E_SHOTS is set, then restores the size. */
export async function shoot(page: Page, name: string) {
  if (!shots) return;
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

async function chargeRows(journey: Journey, ownerId: string) {
  const { rows } = await journey.db.query<{ kind: string; status: string; amount: string }>(
    'select kind, status, amount::text from private.payment_charges where user_id = $1 order by created_at',
    [ownerId],
  );
  return rows;
}

type Charge = Awaited<ReturnType<typeof chargeRows>>[number];

/**
 * The owner's charges once they read as expected, or the assertion after 60 s. When the owner's
 * confirmation and PortOne's webhook settle one checkout at the same time, the one that loses the
 * schedule records the plan first now and then: the renewal is `unscheduled` until the schedule
 * job (a few seconds) finds PortOne's schedule and marks it `scheduled`.
 */
async function expectCharges<T>(
  journey: Journey,
  ownerId: string,
  pick: (c: Charge) => T,
  expected: T[],
) {
  let seen: T[] = [];
  await until(
    () => `charges ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`,
    async () => {
      seen = (await chargeRows(journey, ownerId)).map(pick);
      return isDeepStrictEqual(seen, expected);
    },
    60_000,
  );
}

/** From "Block limit reached!" to Basic, paid by card on the local checkout page. */
export async function upgradeByCard(page: Page, journey: Journey, ownerId: string) {
  const { base } = journey;
  await page.getByRole('link', { name: 'Upgrade' }).click();
  await page.waitForURL(`${base}/profile/plan`);
  await page.getByRole('heading', { level: 1, name: 'Plan' }).waitFor();
  await page.getByText('Starter', { exact: true }).waitFor();
  await page.getByText('No plans yet.').waitFor();
  await axe(page, 'plan (starter)');
  await shoot(page, 'plan-starter-en');

  await page.getByRole('main').getByRole('link', { name: 'Upgrade' }).click();
  await page.waitForURL(`${base}/purchase`);
  await page.getByRole('heading', { level: 1, name: 'Select plan' }).waitFor();
  // the shell's back button reads Plan here
  assert.equal(
    await page.getByRole('link', { name: 'Plan', exact: true }).getAttribute('href'),
    '/profile/plan',
  );
  await page.getByRole('radio', { name: /Basic/ }).click();
  await page.waitForURL(`${base}/purchase?focus=basic`);
  assert.equal(await page.getByTestId('purchase-price').textContent(), '$3 a month');
  await axe(page, 'select plan');
  await shoot(page, 'purchase-select-en');
  await page.getByRole('link', { name: 'Continue' }).click();
  await page.waitForURL(`${base}/purchase/payment?focus=basic`);
  await page.getByRole('heading', { level: 1, name: 'Payment' }).waitFor();
  assert.equal(
    await page.getByTestId('payment-price').textContent(),
    '₩3,000 a month by Korean card or wallet, $3 a month with PayPal',
  );
  await page.locator('[data-paypal-local]').waitFor();
  await axe(page, 'payment');
  await shoot(page, 'purchase-payment-en');

  // the local stand-in of PortOne's checkout, in a frame over the page
  await page.getByRole('button', { name: 'Pay by card' }).click();
  const checkout = page.frameLocator('iframe[title="PortOne checkout (local stand-in)"]');
  await checkout.getByText('LOCAL test checkout').waitFor();
  await checkout.getByText('KCP billing (local)').waitFor();
  await shoot(page, 'portone-checkout');
  await checkout.getByRole('button', { name: 'Register' }).click();

  await page.waitForURL(`${base}/profile/plan?purchased=1`);
  await page.getByText('Your plan is active. Thank you!').waitFor();
  await page.getByText('11 blocks · 1,100 emails and answers a month').waitFor();
  await page.getByText('₩3,000 a month').waitFor();
  const history = page.getByRole('table');
  await history.getByRole('cell', { name: 'Active' }).waitFor();
  assert.equal(await history.getByRole('row').count(), 2);
  const { rows } = await journey.db.query<{ paid: boolean; block_limit: number }>(
    'select paid, block_limit from public.profiles where id = $1',
    [ownerId],
  );
  assert.deepEqual(rows[0], { paid: true, block_limit: 11 });
  await expectCharges(journey, ownerId, (c) => [c.kind, c.status, c.amount], [
    ['first', 'recorded', '3000.00'],
    ['renewal', 'scheduled', '3000.00'],
  ]);
  await axe(page, 'plan (basic)');
  await shoot(page, 'plan-basic-en');

  await page.goto(`${base}/dashboard/reaction`);
  await page.getByTestId('remaining').filter({ hasText: '8 blocks left' }).waitFor();
}

/**
 * A change the card renewal charged already, 3 days before its period (the row as
 * record_plan_renewal leaves it): shown beside the plan until that period starts, and a second
 * Change is for the period after. The row is put back as it was afterwards.
 */
async function paidNextPeriod(page: Page, journey: Journey, ownerId: string) {
  const plan = `user_id = $1 and is_active and type = 'basic'`;
  const { rows } = await journey.db.query<{ end_date: string }>(
    `select end_date::text from public.payments where ${plan}`,
    [ownerId],
  );
  await journey.db.query(
    `update public.payments
        set paid_next_content = '{"planName": "Custom", "blockLimit": 20, "responseMonthlyLimit": 5000}',
            paid_next_price = 10, paid_next_from = end_date + 1,
            end_date = private.period_end(end_date + 1)
      where ${plan}`,
    [ownerId],
  );
  await page.reload();
  await page
    .getByText(
      /^From \d\d\.\d\d\.\d\d: 23 blocks, 5,100 emails and answers a month, ₩10,000 a month\.$/,
    )
    .waitFor();
  await page.getByText('11 blocks · 1,100 emails and answers a month').waitFor();
  await page.getByRole('button', { name: 'Change' }).click();
  const change = page.getByRole('dialog', { name: 'Change your plan' });
  await change
    .getByText(
      /^Your next period, from (\d\d\.\d\d\.\d\d), is paid already .* on \d\d\.\d\d\.\d\d\.$/,
    )
    .waitFor();
  assert.equal(await change.getByLabel('Extra blocks').inputValue(), '20');
  await axe(page, 'change dialog (next period paid)');
  await shoot(page, 'plan-change-next-paid');
  await page.keyboard.press('Escape');
  await change.waitFor({ state: 'detached' });
  await shoot(page, 'plan-next-paid');
  await journey.db.query(
    `update public.payments
        set paid_next_content = null, paid_next_price = null, paid_next_from = null, end_date = $2
      where ${plan}`,
    [ownerId, rows[0]!.end_date],
  );
  await page.reload();
  await page.getByRole('meter', { name: 'Blocks' }).waitFor();
}

/** The plan page after the fourth block: usage, history, and Stop (confirmed). */
export async function planAndStop(page: Page, journey: Journey, ownerId: string) {
  const { base } = journey;
  await page.goto(`${base}/profile`);
  await page
    .getByRole('navigation', { name: 'Profile' })
    .getByRole('link', { name: 'Plan' })
    .click();
  await page.waitForURL(`${base}/profile/plan`);
  const blocks = page.getByRole('meter', { name: 'Blocks' });
  await blocks.waitFor();
  assert.equal(await blocks.getAttribute('aria-valuetext'), '4 of 11 blocks (36%)');
  await paidNextPeriod(page, journey, ownerId);
  // a change to fewer blocks than in use warns, as Stop does (not submitted)
  await page.getByRole('button', { name: 'Change' }).click();
  const change = page.getByRole('dialog', { name: 'Change your plan' });
  await change.getByRole('radio', { name: /Custom/ }).check();
  await change.getByLabel('Extra blocks').fill('0');
  await change.getByLabel('Extra blocks').press('Tab');
  await change
    .getByRole('status')
    .filter({ hasText: /^You have 4 blocks; the new plan allows 3\. When it starts, / })
    .waitFor();
  await axe(page, 'change dialog (over the limit)');
  await shoot(page, 'plan-change-over-limit');
  await page.keyboard.press('Escape');
  await change.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Stop' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Stop your plan?' });
  await dialog.waitFor();
  await shoot(page, 'plan-stop-dialog');
  await dialog.getByRole('button', { name: 'Stop plan' }).click();
  await page.getByText(/^Your plan is stopped\. It runs until \d\d\.\d\d\.\d\d\.$/).waitFor();
  await page
    .getByTestId('renewal')
    .filter({ hasText: /^Stopped: it ends on/ })
    .waitFor();
  assert.equal(await page.getByRole('button', { name: 'Stop' }).count(), 0);
  const { rows } = await journey.db.query<{ auto_renew: boolean; is_active: boolean }>(
    `select auto_renew, is_active from public.payments where user_id = $1`,
    [ownerId],
  );
  assert.deepEqual(rows, [{ auto_renew: false, is_active: true }]);
  await expectCharges(journey, ownerId, (c) => c.status, ['recorded', 'revoked']);
  await axe(page, 'plan (stopped)');
  await shoot(page, 'plan-stopped-en');
}

/** A second owner, in Korean: pricing, sign-in on /purchase, Custom, PayPal in the local popup. */
export async function secondOwnerPaysByPaypal(journey: Journey, errors: string[]) {
  const { base } = journey;
  const declined = {
    match:
      /^error: Failed to load resource: the server responded with a status of 402 \(Payment Required\) \S+\/functions\/v1\/check-iamport-payment$/,
    reason:
      'the test card 4000 0000 0000 0002 is declined on purpose: the function answers 402, which Chromium logs for any failed resource',
  };
  const options = { label: 'paypal owner', locale: 'ko-KR', expected: [declined] };
  await inNewPage(journey, errors, options, async (page) => {
    await page.goto(`${base}/pricing?locale=ko`);
    await page.locator('.plans a[href="/purchase?focus=custom"]').click();
    await page.waitForURL(`${base}/purchase?focus=custom`);
    // the login shows in place, and comes back here
    await page.getByRole('button', { name: 'Google로 로그인' }).click();
    await page.locator('#email').fill('e2e-paypal@example.com');
    await page.locator('#name').fill('페이팔 사용자');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/purchase\?focus=custom/);
    const consent = page.getByRole('dialog', { name: '서비스 이용약관' });
    await consent.waitFor();
    await consent.getByRole('checkbox').check();
    await consent.getByRole('button', { name: '동의' }).click();
    await consent.waitFor({ state: 'detached' });

    await page.getByRole('heading', { level: 1, name: '플랜 선택' }).waitFor();
    const blocks = page.getByLabel('추가 블록');
    await blocks.fill('13');
    await blocks.press('Enter');
    await page.waitForURL(/blocks=16/);
    await page
      .getByTestId('purchase-price')
      .filter({ hasText: /^월 5,000원$/ })
      .waitFor();
    await axe(page, 'select plan (ko)');
    await shoot(page, 'purchase-select-ko');
    await page.getByRole('link', { name: '계속' }).click();
    await page.waitForURL(/\/purchase\/payment\?focus=custom&blocks=16&emails=1000/);
    await page
      .getByTestId('payment-price')
      .filter({ hasText: /^국내 카드·간편결제 월 5,000원, PayPal 월 \$5$/ })
      .waitFor();
    await page.getByText(/결제하면 이용약관과 개인정보 처리방침에 동의/).waitFor();
    const paypal = page.locator('[data-paypal-local]');
    await paypal.waitFor();
    await axe(page, 'payment (ko)');
    await shoot(page, 'purchase-payment-ko');

    // the test card 4000 0000 0000 0002 is declined: said in Korean, with what to do
    await page.getByRole('button', { name: '카드로 결제' }).click();
    const checkout = page.frameLocator('iframe[title="PortOne checkout (local stand-in)"]');
    await checkout.getByRole('radio', { name: /4000 0000 0000 0002/ }).check();
    await checkout.getByRole('button', { name: 'Register' }).click();
    await page
      .getByRole('alert')
      .filter({
        hasText:
          /^결제가 완료되지 않았습니다\. 다른 카드로 다시 시도하거나 카드사에 거절 사유를 문의해 주세요\.$/,
      })
      .waitFor();
    await axe(page, 'payment declined (ko)');
    await shoot(page, 'purchase-declined-ko');

    const [popup] = await Promise.all([page.waitForEvent('popup'), paypal.click()]);
    await popup.getByText('LOCAL test checkout').waitFor();
    await popup.getByText('$5.00 USD every month').waitFor();
    if (shots) {
      await popup.setViewportSize({ width: 480, height: 680 });
      await popup.screenshot({ path: `${shots}/paypal-popup.png` });
    }
    await popup.getByRole('button', { name: 'Agree & Subscribe' }).click();

    await page.waitForURL(`${base}/profile/plan?purchased=1`);
    await page.getByText('플랜이 시작되었습니다. 감사합니다!').waitFor();
    await page.getByText('블록 19개 · 월 이메일·응답 1,100건').waitFor();
    await page.getByText('월 $5').first().waitFor();
    await page.getByRole('table').getByRole('cell', { name: '사용 중' }).waitFor();
    await axe(page, 'plan (ko)');
    await shoot(page, 'plan-custom-ko');
    const { rows } = await journey.db.query<{ type: string; method: string; price: string }>(
      `select p.type, p.method, p.price::text from public.payments p
         join public.profiles o on o.id = p.user_id where o.email = $1`,
      ['e2e-paypal@example.com'],
    );
    assert.deepEqual(rows, [{ type: 'custom', method: 'paypal', price: '5.00' }]);

    // the Change dialog in Korean (not submitted)
    await page.getByRole('button', { name: '변경' }).click();
    await page.getByRole('dialog', { name: '플랜 변경' }).waitFor();
    await axe(page, 'change dialog (ko)');
    await shoot(page, 'plan-change-dialog-ko');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '쿠폰 사용' }).click();
    await page.getByRole('dialog', { name: '쿠폰 사용' }).waitFor();
    await shoot(page, 'plan-coupon-dialog-ko');
    await page.keyboard.press('Escape');
  });
}
