// Cafe24, as an owner connects a shop and a shopper meets it (docs/cafe24.md): /profile/integration,
// the mall id typed as the shop's address, the mall's LOCAL consent page in a popup, /oauth/cafe24
// finishes and closes it; the comment block placed on product pages with a thread per product; the
// jobs queue installs our script tag in the Cafe24 fake; the fake's storefront loads it on a phone-
// sized product page, where a shopper's review shows on that product and not on another; Remove
// takes the tag off. Axe on the integration page with the shop connected.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axe, inNewPage, type Journey, until } from './support.ts';

interface MallState {
  scriptTags: Array<{ src: string; display_location: string[] }>;
}

async function mallState(journey: Journey, mall: string): Promise<MallState> {
  const res = await fetch(`${journey.providersUrl}/cafe24/_control/state?mall=${mall}`);
  return (await res.json()) as MallState;
}

export async function cafe24Shop(
  page: Page,
  journey: Journey,
  commentId: string,
  errors: string[],
) {
  const mall = `e2e${Date.now().toString(36)}`.slice(0, 16);
  await page.goto(`${journey.base}/profile/integration`);
  const card = page
    .locator('.integration-card')
    .filter({ has: page.getByRole('heading', { name: 'Cafe24' }) });
  await card.getByLabel('Your Cafe24 mall ID').fill(`https://${mall}.cafe24.com/`);
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    card.getByRole('button', { name: 'Connect Cafe24' }).click(),
  ]);
  await popup
    .getByRole('heading', { name: `Reaction Blocks asks for access to the mall “${mall}”` })
    .waitFor();
  const closed = popup.waitForEvent('close', { timeout: 20000 });
  await popup.getByRole('button', { name: 'Allow' }).click();
  await closed;
  await page
    .locator('.notice')
    .filter({ hasText: `Your Cafe24 shop is connected (${mall}).` })
    .waitFor();
  await card.filter({ hasText: 'Nothing in your shop yet' }).waitFor();

  // the comment block on product pages, a thread per product (the default)
  await card.getByRole('button', { name: 'Add a block' }).click();
  await card.getByLabel('Block', { exact: true }).selectOption(commentId);
  assert.equal(await card.getByLabel('A separate thread for each product').isChecked(), true);
  await card.getByRole('button', { name: 'Save placements' }).click();
  await card.filter({ hasText: 'In your shop on: product pages.' }).waitFor({ timeout: 30000 });
  await axe(page, 'integration page (Cafe24 connected, a block placed)');
  const [tag] = (await mallState(journey, mall)).scriptTags;
  assert.deepEqual(tag?.display_location, ['PRODUCT_DETAIL']);

  // a shopper on a phone: the review stays on its product
  const phone = { width: 375, height: 800 };
  await inNewPage(journey, errors, { label: 'cafe24 shopper', viewport: phone }, async (shop) => {
    await shop.goto(`${journey.providersUrl}/cafe24/${mall}/product/detail.html?product_no=12`);
    const onTwelve = shop.locator('reaction-comment[page-key="cafe24:product:12"]');
    await onTwelve.locator('[part=composer] textarea').fill('Fits well, true to size');
    await onTwelve.locator('[part=composer] [part=submit]').click();
    await onTwelve.locator('[part=content]', { hasText: 'Fits well, true to size' }).waitFor();
    await shop.goto(`${journey.providersUrl}/cafe24/${mall}/product/canvas-tote/13/category/1/`);
    const onThirteen = shop.locator('reaction-comment[page-key="cafe24:product:13"]');
    await onThirteen.locator('[part=composer] textarea').waitFor();
    assert.equal(await onThirteen.locator('[part=content]').count(), 0);
  });

  // disconnect: the tag comes off the shop, then the card says Not granted
  await card.getByRole('button', { name: 'Remove', exact: true }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Disconnect your Cafe24 shop?' });
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await until(
    'the tag left the shop',
    async () => (await mallState(journey, mall)).scriptTags.length === 0,
  );
  await card.getByLabel('Your Cafe24 mall ID').waitFor({ timeout: 30000 });
}
