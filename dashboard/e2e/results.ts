// Back as the owner after the visitor: response counts on the cards, the result rows (like and
// form), the details toggle, Export CSV and its content, and deleting a response.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { card } from './blocks.ts';
import { FORM } from './form.ts';
import { axe, type Journey, yymmdd } from './support.ts';
import { VISITOR } from './visitor.ts';
import { expectModes, NAMES, openWorkspace } from './workspace.ts';

/** The cards say "+ 1 response" where the visitor reacted and "No responses" elsewhere. */
export async function responseCounts(page: Page, { base }: Journey) {
  await page.goto(`${base}/dashboard/reaction`);
  for (const type of ['comment', 'like', 'ab', 'form'] as const) {
    await card(page, NAMES[type]).filter({ hasText: '+ 1 response' }).waitFor();
  }
  for (const type of ['qna', 'button'] as const) {
    assert.match(
      (await card(page, NAMES[type]).textContent()) ?? '',
      /No responses/,
      `${type} card`,
    );
  }
  // Blocks with new responses come first.
  const names = await page.locator('[data-testid=block-card] .block-card-name').allTextContents();
  assert.deepEqual(
    new Set(names.slice(0, 4)),
    new Set([NAMES.comment, NAMES.like, NAMES.ab, NAMES.form]),
  );
}

export async function likeResult(page: Page, journey: Journey, id: string) {
  await openWorkspace(page, journey, id, 'result');
  await expectModes(page, 'like', 'Result');
  await page.getByRole('heading', { name: '1 response' }).waitFor();
  await page.getByTestId('result-row').filter({ hasText: 'Liked this block' }).waitFor();
  // the summary: one like, new since the last visit, a chart
  const summary = page.locator('.results-summary');
  await summary.getByRole('heading', { name: 'Summary' }).waitFor();
  assert.deepEqual(await summary.locator('.summary-totals dt').allTextContents(), [
    'Likes',
    'Last 7 days',
    'New since your last visit',
    'Latest',
  ]);
  await summary.getByRole('img', { name: /likes per day/i }).waitFor();
  // opening the results marked the like as seen: "+ 1 response" is gone from its card
  await page.goto(`${journey.base}/dashboard/reaction`);
  await card(page, NAMES.like).filter({ hasText: '1 response' }).waitFor();
  assert.doesNotMatch((await card(page, NAMES.like).textContent()) ?? '', /\+ 1 response/);
  const { rows } = await journey.db.query<{ n: number }>(
    'select new_response_count as n from public.blocks where id = $1',
    [id],
  );
  assert.equal(rows[0]?.n, 0);
}

export async function formResults(page: Page, journey: Journey, id: string, timeZone: string) {
  await openWorkspace(page, journey, id, 'result');
  await expectModes(page, 'form', 'Result');
  await page.getByRole('heading', { name: '1 response' }).waitFor();
  const row = page.getByTestId('result-row');
  await row.filter({ hasText: VISITOR.name }).waitFor();
  assert.equal(await row.count(), 1);
  const summary = (await row.locator('.result-summary').textContent()) ?? '';
  assert.equal(
    summary,
    `Your name: ${VISITOR.name} · Favourite colour: Blue · Email: ${VISITOR.email}`,
  );

  // Details: every answer, and the visitor id.
  const toggle = row.getByRole('button', { name: 'Show details' });
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  await toggle.click();
  const hide = row.getByRole('button', { name: 'Hide details' });
  assert.equal(await hide.getAttribute('aria-expanded'), 'true');
  const details = row.locator('.result-detail');
  await details.waitFor();
  const answers = await details.locator('.result-answers dt, .result-answers dd').allTextContents();
  assert.deepEqual(answers, [
    FORM.titles[0],
    VISITOR.name,
    FORM.titles[1],
    'Blue',
    FORM.titles[2],
    VISITOR.email,
  ]);
  const { rows } = await journey.db.query<{ creator_id: string }>(
    'select creator_id from public.responses where block_id = $1',
    [id],
  );
  const creator = rows[0]?.creator_id;
  assert.ok(creator);
  assert.equal(await details.locator('.result-visitor-id').textContent(), creator);
  // the summary above the rows: the poll's share as a bar, the latest text answers
  const overview = page.locator('.results-summary');
  const poll = overview.locator('.summary-question').filter({ hasText: FORM.titles[1]! });
  await poll.waitFor();
  assert.deepEqual(await poll.locator('.option-bar').allTextContents(), [
    'Red0% (0 votes)',
    'Blue100% (1 vote)',
  ]);
  await overview.getByRole('img', { name: /responses per day/i }).waitFor();
  const time = (await row.locator('.result-time').textContent()) ?? '';
  assert.match(time, /^\d{2}\.\d{2}\.\d{2} \d{2}:\d{2}$/, `YY.MM.DD HH:mm: ${time}`);
  await axe(page, 'workspace result (form)');
  await hide.click();
  assert.equal(await details.isVisible(), false);

  // Export CSV: {blockName}_result_{YYMMDD}.csv, one row per response.
  const before = yymmdd(new Date(), timeZone);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const after = yymmdd(new Date(), timeZone);
  assert.ok(
    [before, after]
      .map((d) => `${NAMES.form}_result_${d}.csv`)
      .includes(download.suggestedFilename()),
    `file name ${download.suggestedFilename()}`,
  );
  const text = await readFile((await download.path())!, 'utf8');
  assert.equal(text.charCodeAt(0), 0xfeff, 'the CSV starts with a byte order mark');
  const parsed = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true });
  assert.deepEqual(parsed.errors, []);
  const [header, record, ...rest] = parsed.data;
  assert.deepEqual(header, ['creator', 'creatorName', 'submitted', 'Q_1', 'Q_2', 'Q_3']);
  assert.equal(rest.length, 0);
  assert.ok(record);
  assert.equal(record[0], creator);
  assert.equal(record[1], VISITOR.name);
  assert.match(record[2]!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.deepEqual(record.slice(3), [VISITOR.name, 'Blue', VISITOR.email]);

  // Delete the response, after confirming.
  await row.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this response?' });
  await confirm.waitFor();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'detached' });
  assert.equal(await row.count(), 1);
  await row.getByRole('button', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await confirm.waitFor({ state: 'detached' });
  await page.getByRole('status').filter({ hasText: 'Response deleted' }).waitFor();
  assert.equal(await row.count(), 0);
  await page.getByRole('heading', { name: '0 responses' }).waitFor();
  const left = await journey.db.query<{ n: number }>(
    'select count(*)::int as n from public.responses where block_id = $1',
    [id],
  );
  assert.equal(left.rows[0]?.n, 0);
}
