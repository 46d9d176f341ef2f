// Letters and audience end to end (issue 11), in Chromium against the stack: an owner verifies a
// sender through the mailbox links, creates a Notion letter, loads the fixture page (the
// providers server's /pages fake through the SSRF guard), deletes a row, adds a call to action,
// saves, sends to two addresses and to a group, sees the mails in the mailbox, opens one (the
// open count moves), unsubscribes one from its link, sends again (skipped), reads the history,
// imports a CSV; the browser's Back with an unsaved change; then the same screens in Korean.
// axe on each new screen.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { signInWithGoogle } from './owner.ts';
import { axe, type Journey, until } from './support.ts';
import { browserBackAsks } from './workspace.ts';

const NOTION_PAGE =
  'https://reaction-demo.notion.site/Weekly-letter-5e0f0c1e9d2a4b7c8e3f1a2b3c4d5e6f';
const OWNER = { email: 'letters-owner@example.com', name: 'Letter Owner' };

interface Mail {
  subject: string;
  html: string | null;
  text: string | null;
  from: string;
}

async function mailbox(providersUrl: string, to: string): Promise<Mail[]> {
  const res = await fetch(`${providersUrl}/mailbox/messages?to=${encodeURIComponent(to)}`);
  return (await res.json()) as Mail[];
}

async function waitForMail(providersUrl: string, to: string, count = 1): Promise<Mail[]> {
  return until(`mail to ${to}`, async () => {
    const mails = await mailbox(providersUrl, to);
    return mails.length >= count && mails;
  });
}

/** The history's count of a kind (reserved, sent, opened, ...) for the selected send. */
const historyCount = (page: Page, kind: string) =>
  page.locator(`.history-count[data-count="${kind}"] dd`).textContent();

/**
 * The history's count labels at 375 px with the browser's text at 125 %: each word on one line
 * and inside its tile (they read "Complain / t" when .workspace-main's overflow-wrap broke them
 * in narrow tiles).
 */
async function countLabelsWhole(page: Page) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  const style = await page.addStyleTag({ content: 'html { font-size: 125%; }' });
  const split = await page.locator('.history-count dt').evaluateAll((labels) =>
    labels.flatMap((label) => {
      const text = label.firstChild!;
      if (label.scrollWidth > label.clientWidth)
        return [`${text.textContent} (wider than its tile)`];
      return [...(text.textContent ?? '').matchAll(/\S+/g)]
        .filter((word) => {
          const range = document.createRange();
          range.setStart(text, word.index);
          range.setEnd(text, word.index + word[0].length);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
        })
        .map((word) => word[0]);
    }),
  );
  assert.deepEqual(split, [], 'history count labels split inside a word at 375 px');
  await style.evaluate((node) => (node as Element).remove());
  if (size) await page.setViewportSize(size);
}

/**
 * The audience in Edit mode at 1440 x 700 (a laptop's window): each row's Save and Delete side by
 * side on one line (they stacked in the sticky column), the table inside its box, and no Delete
 * under the floating help button, as shown or reached by Tab (at 700 px the box reached under it).
 * Then the side menu at 375 px: its three sections on one row ("Audience" went onto a second).
 */
async function audienceLayout(page: Page, base: string) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1440, height: 700 });
  await page.goto(`${base}/audience`);
  await page.getByTestId('audience-row').first().waitFor();
  await page.locator('.audience-mode').getByRole('button', { name: 'Edit' }).click();
  const actions = page.locator('td.member-actions');
  await actions
    .getByRole('button', { name: /^Save / })
    .first()
    .waitFor();
  const fab = page.locator('.help-fab');
  const layout = await page.locator('.audience-table-wrap').evaluate((wrap) => {
    const f = document.querySelector('.help-fab')!.getBoundingClientRect();
    const box = wrap.getBoundingClientRect();
    const rows = [...wrap.querySelectorAll('td.member-actions')].map((cell) =>
      [...cell.querySelectorAll('button')].map((b) => b.getBoundingClientRect()),
    );
    return {
      stacked: rows.filter((r) => r.length !== 2 || r[0]!.top !== r[1]!.top).length,
      sideways: wrap.scrollWidth - wrap.clientWidth,
      // the part of a button the box shows, under the help button
      shownUnder: rows
        .flat()
        .filter((r) => Math.min(r.bottom, box.bottom) > Math.max(r.top, box.top))
        .filter((r) => r.right > f.left && r.left < f.right)
        .filter(
          (r) => Math.min(r.bottom, box.bottom) > f.top && Math.max(r.top, box.top) < f.bottom,
        ).length,
    };
  });
  assert.deepEqual(layout, { stacked: 0, sideways: 0, shownUnder: 0 }, 'audience in Edit mode');
  const deletes = actions.getByRole('button', { name: /^Delete / });
  const help = await fab.elementHandle();
  for (let i = 0; i < Math.min(await deletes.count(), 12); i++) {
    await deletes.nth(i).focus();
    const under = await deletes.nth(i).evaluate((button, fab) => {
      const r = button.getBoundingClientRect();
      const f = fab!.getBoundingClientRect();
      return r.right > f.left && r.left < f.right && r.bottom > f.top && r.top < f.bottom;
    }, help);
    assert.equal(under, false, `Delete ${i + 1} focused under the help button`);
  }
  await page.setViewportSize({ width: 375, height: 812 });
  const tops = await page
    .locator('.side-menu > ul > li > .side-link')
    .evaluateAll((links) => links.map((l) => l.getBoundingClientRect().top));
  assert.equal(new Set(tops).size, 1, `the side menu's sections on one row at 375 px: ${tops}`);
  if (size) await page.setViewportSize(size);
}

async function sendManual(page: Page, addresses: string) {
  await page.getByRole('button', { name: 'Send letter' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send letter' });
  await dialog.getByLabel('Email addresses').fill(addresses);
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  const status = dialog.locator('.send-done');
  await status.waitFor();
  const text = (await status.textContent()) ?? '';
  await dialog.getByRole('button', { name: 'Close' }).click();
  return text;
}

const note = (what: string) => console.log(`    letters: ${what}`);

export async function lettersJourney(journey: Journey, errors: string[]) {
  const { base, browser, db } = journey;
  const providersUrl = journey.providersUrl!;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`letters: ${error.message}`));

  // sign in, consent; paid (audience send, groups) with room for blocks
  await page.goto(`${base}/login`);
  await signInWithGoogle(page, 'Sign in with Google', OWNER);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Agree' }).click();
  await page.getByRole('dialog', { name: 'Terms of Service' }).waitFor({ state: 'detached' });
  await db.query(
    'update public.profiles set paid = true, block_limit = 10, response_monthly_limit = 1000 where email = $1',
    [OWNER.email],
  );

  note('sign-in done');
  // a sender verified by the owner's own link (opened in the signed-in dashboard), then by the
  // link SES mails once the owner confirmed
  const sender = `writer-${Date.now()}@ses-ready.example`;
  await page.goto(`${base}/profile/email`);
  await page.getByLabel('Email address').fill(sender);
  await page.getByRole('button', { name: 'Verify' }).click();
  const [confirmation] = await waitForMail(providersUrl, sender);
  const confirmLink = /https?:\/\/[^\s"<>\]]+\/profile\/email\?confirm=[A-Za-z0-9_-]+/.exec(
    confirmation!.text ?? '',
  )?.[0];
  assert.ok(confirmLink, 'a confirmation link');
  await page.goto(confirmLink);
  await page.getByText(`Amazon SES mailed a verification link to ${sender}.`).waitFor();
  assert.equal(new URL(page.url()).search, '', 'the token leaves the address bar');
  const [verification] = await waitForMail(providersUrl, sender, 2);
  const link = /https?:\/\/[^\s"<>]+\/ses\/verify\?[^\s"<>]+/.exec(
    verification!.text ?? verification!.html ?? '',
  )?.[0];
  assert.ok(link, 'a verification link');
  await (await fetch(link.replace(/&amp;/g, '&'))).body?.cancel();
  // The list checks unverified addresses when it loads again after Verify: if that check ran
  // after the link was opened, the row is verified already and has no Check again button.
  const verified = page.getByText('Verified', { exact: true }).first();
  const checkAgain = page.getByRole('button', { name: 'Check again' }).first();
  await verified.or(checkAgain).first().waitFor();
  if (!(await verified.isVisible())) await checkAgain.click();
  await verified.waitFor();

  note('sender verified');
  // Send: the menu, the picker's letter types (typedream and brunch disabled)
  await page.goto(`${base}/dashboard/send`);
  await page.getByRole('heading', { level: 1, name: 'Send' }).waitFor();
  await page.getByRole('button', { name: 'Create block' }).click();
  assert.equal(await page.getByRole('button', { name: 'Typedream letter' }).isDisabled(), true);
  assert.equal(await page.getByRole('button', { name: 'Brunch letter' }).isDisabled(), true);
  await page.getByRole('button', { name: 'Notion letter' }).click();
  await page.waitForURL(/\/work\/[0-9a-f-]{36}$/);
  const blockId = /\/work\/([0-9a-f-]{36})/.exec(page.url())![1]!;

  note('letter created');
  // load the page, delete a row, a call to action, save
  // exact: while the workspace loads, the dashboard's new "Untitled" card may still be on screen
  await page.getByLabel('Subject', { exact: true }).fill('Weekly letter');
  assert.equal(await page.getByLabel('From').inputValue(), sender);
  await page.getByLabel('Sender name').fill('Letter Owner');
  await page.getByLabel('Page URL').fill('https://example.com/not-notion');
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await page.getByText("It's not address of the public Notion page").waitFor();
  await page.getByLabel('Page URL').fill(NOTION_PAGE);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await page.locator('.letter-row').first().waitFor({ timeout: 30_000 });
  const rows = await page.locator('.letter-row').count();
  const quote = page.locator('.letter-row[data-type="quote"]');
  await quote.getByRole('button', { name: /^Delete row \d+: / }).click();
  assert.equal(await page.locator('.letter-row').count(), rows - 1);
  await page.getByLabel('Call-to-action button').click();
  const cta = page.getByRole('dialog', { name: 'Call-to-action link' });
  await cta.getByLabel('Button text').fill('Read on the site');
  await cta.getByLabel('Button link').fill('https://example.com/read');
  await cta.getByRole('button', { name: 'Apply' }).click();
  await page.locator('.letter-cta', { hasText: 'Read on the site' }).waitFor();
  await axe(page, 'letter workspace');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Send letter' }).waitFor();

  note('letter saved');
  // manual send to two addresses
  const a = `reader-a-${Date.now()}@example.com`;
  const b = `reader-b-${Date.now()}@example.com`;
  await page.getByRole('button', { name: 'Send letter' }).click();
  await axe(page, 'send letter dialog');
  await page.getByRole('button', { name: 'Close' }).click();
  assert.match(await sendManual(page, `${a}, ${b}`), /Reserved 2 emails\. They go out/);
  const [mailA] = await waitForMail(providersUrl, a);
  await waitForMail(providersUrl, b);
  assert.equal(mailA!.subject, 'Weekly letter');
  assert.ok(mailA!.html!.includes('Read on the site'));
  assert.ok(!mailA!.html!.includes('Small letters, read by the right people.'), 'the deleted row');
  assert.ok(mailA!.html!.includes('Delivered by Letter Owner'));

  note('manual send delivered');
  // a group in the audience, a member in it, and the audience send
  const friend = `friend-${Date.now()}@example.com`;
  await page.goto(`${base}/audience`);
  await page.getByRole('heading', { level: 1, name: 'Audience' }).waitFor();
  await page.getByRole('button', { name: '+ New group' }).click();
  await page.getByLabel('Group name').fill('friends');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Rename friends' }).waitFor();
  await page.getByRole('button', { name: 'Add audience' }).click();
  const add = page.getByRole('dialog', { name: 'Add audience' });
  await add.getByLabel('Name').fill('A'.repeat(31));
  await add.getByText('Name is too long').waitFor();
  await add.getByLabel('Name').fill('Friend');
  await add.getByLabel('Email').fill(friend);
  await add.getByLabel('Group').selectOption('friends');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByTestId('audience-row').filter({ hasText: friend }).waitFor();
  await axe(page, 'audience');

  await page.goto(`${base}/work/${blockId}`);
  await page.getByRole('button', { name: 'Send letter' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send letter' });
  await dialog.getByRole('tab', { name: 'Audience' }).click();
  await dialog.getByLabel('Group').selectOption('friends');
  await dialog.getByText('1 member with an email').waitFor();
  await dialog.getByRole('button', { name: 'Send to the group' }).click();
  await dialog.locator('.send-done').waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await waitForMail(providersUrl, friend);

  note('audience send delivered');
  // opening a mail loads its pixel: the open count moves
  const pixel = /<img[^>]+src="([^"]+\/ses\/open\/[^"]+)"/.exec(mailA!.html!)?.[1];
  assert.ok(pixel, 'the tracking pixel');
  await (await fetch(pixel.replace(/&amp;/g, '&'))).body?.cancel();
  await page.goto(`${base}/work/${blockId}/history`);
  await page.locator('.history-item').nth(1).click();
  for (let i = 0; i < 40 && (await historyCount(page, 'opened')) !== '1'; i++) {
    await page.reload();
    await page.locator('.history-item').nth(1).click();
    await page.waitForTimeout(500);
  }
  assert.equal(await historyCount(page, 'opened'), '1');
  assert.equal(await historyCount(page, 'reserved'), '2');
  assert.equal(await page.locator('.history-item').count(), 2);
  await countLabelsWhole(page);
  // the sandboxed frame (no scripts) is the letter, not our screen: axe cannot enter it
  await page.evaluate(() => document.querySelectorAll('iframe').forEach((f) => f.remove()));
  await axe(page, 'letter history');

  note('history read');
  // unsubscribe a from the mail's link; the next send skips it
  const unsubscribe = /href="([^"]+\/unsubscribe\?token=[^"]+)"/.exec(mailA!.html!)?.[1];
  assert.ok(unsubscribe, 'the unsubscribe link');
  await page.goto(unsubscribe.replace(/&amp;/g, '&'));
  // the letter as its mail showed it: the sender's name (not the block's)
  await page.getByText('Letters from').waitFor();
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await page.getByText('will get no more of these mails').waitFor();
  await page.goto(`${base}/work/${blockId}`);
  const again = await sendManual(page, `${a}\n${b}`);
  assert.match(again, /Reserved 1 email\. It goes out/);
  assert.match(again, /1 address skipped/);
  await waitForMail(providersUrl, b, 2);
  assert.equal((await mailbox(providersUrl, a)).length, 1);

  note('unsubscribed and skipped');
  // the public page of the letter block shows the letter
  const owner = (
    await db.query<{ id: string }>('select id from public.profiles where email = $1', [OWNER.email])
  ).rows[0]!.id;
  await page.goto(`${base}/block/?id=${owner}&block_id=${blockId}`);
  const frame = page.frameLocator('reaction-block iframe');
  await frame.getByText('This week at Reaction Blocks').waitFor();

  note('public page');
  // CSV import with a report of what was left out
  await page.goto(`${base}/audience`);
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const csv = page.getByRole('dialog', { name: 'Import audience from CSV' });
  await csv.getByLabel('CSV file').setInputFiles({
    name: 'audience.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `name,email,group\nMina Kim,mina-${Date.now()}@example.com,friends\n,noname@example.com,\nBad,not-an-email,\nAlex,alex-${Date.now()}@example.com,unknown\n`,
    ),
  });
  await csv.getByText('2 rows ready to import.').waitFor();
  await csv.getByText('Line 3 has no name.').waitFor();
  await csv.getByText('Line 4 has an email that is not valid.').waitFor();
  await csv.getByRole('button', { name: 'Import' }).click();
  await csv.getByText('Imported 2 new members.').waitFor();
  await csv.getByRole('button', { name: 'Close' }).click();
  await page.getByTestId('audience-row').filter({ hasText: 'Mina Kim' }).waitFor();

  // a file separated by semicolons, two columns; the network cut at its second batch: the dialog
  // says how many rows went in, and importing again sends the rest
  const cutStamp = Date.now();
  const semicolons = `name;email\n${Array.from({ length: 1200 }, (_, i) => `Cut ${i};c${i}-${cutStamp}@example.com`).join('\n')}\n`;
  await page.getByRole('button', { name: 'Import CSV' }).click();
  await csv
    .getByLabel('CSV file')
    .setInputFiles({ name: 'cut.csv', mimeType: 'text/csv', buffer: Buffer.from(semicolons) });
  await csv.getByText('1200 rows ready to import.').waitFor();
  let batches = 0;
  const cut = '**/rest/v1/audience_members?*';
  await page.route(cut, (route) =>
    route.request().method() === 'POST' && ++batches === 2 ? route.abort() : route.fallback(),
  );
  await csv.getByRole('button', { name: 'Import' }).click();
  await csv
    .getByRole('alert')
    .filter({ hasText: '500 of 1200 rows were saved before the import stopped.' })
    .waitFor();
  await page.unroute(cut);
  const saved = async () =>
    Number(
      (
        await db.query<{ n: string }>(
          'select count(*) as n from public.audience_members where email like $1',
          [`%-${cutStamp}@example.com`],
        )
      ).rows[0]!.n,
    );
  assert.equal(await saved(), 500);
  await csv.getByRole('button', { name: 'Import' }).click();
  await csv.getByText('Imported 700 new members.').waitFor();
  await csv.getByText('500 addresses were already in your audience.').waitFor();
  assert.equal(await csv.getByRole('alert').count(), 0);
  assert.equal(await saved(), 1200);
  await csv.getByRole('button', { name: 'Close' }).click();

  // 10,000 rows: sent in batches with a progress bar, the page answering meanwhile
  const stamp = Date.now();
  const big = `name,email\n${Array.from({ length: 10_000 }, (_, i) => `Reader ${i},r${i}-${stamp}@example.com`).join('\n')}\n`;
  await page.getByRole('button', { name: 'Import CSV' }).click();
  await csv
    .getByLabel('CSV file')
    .setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(big) });
  await csv.getByText('10000 rows ready to import.').waitFor();
  await csv.getByRole('button', { name: 'Import' }).click();
  await csv.locator('.import-progress progress').waitFor();
  // the page still answers while the import runs
  assert.equal(
    await page.evaluate(() => document.querySelectorAll('.audience-table tr').length > 0),
    true,
  );
  await csv.getByText('Imported 10000 new members.').waitFor({ timeout: 180_000 });
  await csv.getByRole('button', { name: 'Close' }).click();
  const [{ n }] = (
    await db.query<{ n: string }>(
      'select count(*) as n from public.audience_members where email like $1',
      [`%-${stamp}@example.com`],
    )
  ).rows as [{ n: string }];
  assert.equal(Number(n), 10_000);

  note('CSV imported');
  await audienceLayout(page, base);
  // the browser's Back with an unsaved change, from History and back (the new letter's name is
  // the database's default)
  await browserBackAsks(page, journey, {
    list: '/dashboard/send',
    name: 'Untitled',
    modes: 'Letter views',
    edit: 'Edit',
    mode: 'History',
  });
  note("the browser's Back");
  // the same screens in Korean
  await db.query("update public.profiles set language = 'ko' where id = $1", [owner]);
  await page.goto(`${base}/work/${blockId}?locale=ko`);
  await page.getByRole('button', { name: '레터 보내기' }).click();
  const ko = page.getByRole('dialog', { name: '레터 보내기' });
  // a bad entry is named once the owner leaves the box (not while it is typed), in Korean
  await ko.getByLabel('이메일 주소').fill('잘못된주소');
  await ko.getByLabel('이메일 주소').blur();
  await ko.getByRole('alert').getByText('이메일 주소가 아닌 항목 1개: “잘못된주소”').waitFor();
  await ko.getByLabel('이메일 주소').fill(`reader-ko-${Date.now()}@example.com`);
  await ko.getByRole('button', { name: '보내기', exact: true }).click();
  await ko.getByText('1통을 예약했습니다').waitFor();
  await ko.getByRole('button', { name: '닫기' }).click();
  await page.getByRole('link', { name: '기록' }).click();
  await page.getByRole('navigation', { name: '보낸 레터' }).waitFor();
  await page.goto(`${base}/audience?locale=ko`);
  await page.getByRole('heading', { level: 1, name: '오디언스' }).waitFor();
  await axe(page, 'audience (ko)');
  await context.close();
}
