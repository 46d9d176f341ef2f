// Shared pieces of the dashboard journey: the run's context (stack, browser, database), the axe
// check, step timing, and small waits on the page.
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type pg from 'pg';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { type ExpectedConsole, watchConsole } from '../../scripts/console-watch.ts';
import { eventually } from '../../scripts/poll.ts';
import en from '../src/locales/en.ts';

/** What every part of the journey gets. */
export interface Journey {
  /** The dashboard's origin, without a trailing slash. */
  base: string;
  apiUrl: string;
  anonKey: string;
  /** The providers server (mailbox and fakes of SES, Notion...): letters read the mails they send. */
  providersUrl: string;
  browser: Browser;
  /** The stack's database as its superuser: for what the product has no screen for yet. */
  db: pg.Client;
}

/** The six reaction block types, in the order the journey creates them. */
export const TYPES = ['comment', 'like', 'form', 'qna', 'button', 'ab'] as const;
export type BlockType = (typeof TYPES)[number];

/** The type picker's and the cards' label of each type (en): the app's own texts. */
export const TYPE_LABELS: Record<BlockType, string> = en.blockTypes;

/** No serious or critical axe violation on the page as it is now. */
export async function axe(page: Page, label: string) {
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  for (const v of serious) console.error(`axe ${label}: ${v.id} ${v.help}`, v.nodes[0]?.target);
  assert.equal(serious.length, 0, `${label}: serious accessibility violations`);
}

const started = Date.now();

/**
 * The journeys' wait for a state (scripts/poll.ts's eventually): asks `check` again every 250 ms
 * (a journey's checks ask the servers) until it answers something, which is returned; after `ms`,
 * fails with `what` (or what the function says was seen last).
 */
export const until = <T>(
  what: string | (() => string),
  check: () => Promise<T | false | undefined>,
  ms = 30_000,
): Promise<T> => eventually(check, ms, what, 250);

/** Runs one named part of the journey and logs how long it took (for finding slow parts). */
export async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  try {
    return await fn();
  } finally {
    const total = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`  ${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s (at ${total} s)`);
  }
}

/** Collects uncaught page errors and unexpected console lines, which must stay empty. */
export function watchErrors(
  page: Page,
  errors: string[],
  label: string,
  expected: ExpectedConsole[] = [],
) {
  page.on('pageerror', (error) => errors.push(`${label}: ${error.message}`));
  // console errors and warnings too, but for the expected ones (scripts/console-watch.ts)
  watchConsole(page, errors, label, expected);
  // a request that never got an answer is logged, so a failure's cause shows in the output
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? '';
    if (failure !== 'net::ERR_ABORTED')
      console.log(`  [${label}] request failed: ${request.method()} ${request.url()} ${failure}`);
  });
}

/**
 * Runs `run` on a page of a browser context of its own, its errors watched under `label` (a
 * 1280 x 900 window unless the options say otherwise; `expected`: console lines the step causes
 * on purpose), and closes the context however `run` ends.
 */
export async function inNewPage<T>(
  journey: Journey,
  errors: string[],
  {
    label,
    expected,
    ...options
  }: BrowserContextOptions & { label: string; expected?: ExpectedConsole[] },
  run: (page: Page) => Promise<T>,
): Promise<T> {
  const context = await journey.browser.newContext({
    viewport: { width: 1280, height: 900 },
    ...options,
  });
  try {
    const page = await context.newPage();
    watchErrors(page, errors, label, expected);
    return await run(page);
  } finally {
    await context.close();
  }
}

/** Waits until the input value of `locator` is `expected`, then returns it. */
export async function waitForValue(locator: Locator, expected: string, timeout = 10000) {
  const handle = await locator.elementHandle({ timeout });
  assert.ok(handle, 'no element for the value');
  await locator
    .page()
    .waitForFunction(
      ([el, value]) => (el as HTMLInputElement).value === value,
      [handle, expected] as const,
      { timeout },
    )
    .catch(async () => assert.equal(await locator.inputValue(), expected));
}

/** The block id of the workspace the page shows (/work/{id}...). */
export function workspaceBlockId(page: Page): string {
  const match = /\/work\/([0-9a-f-]{36})/.exec(page.url());
  assert.ok(match, `not a workspace URL: ${page.url()}`);
  return match[1]!;
}

/** The date as the CSV file name writes it (YYMMDD) in a time zone. */
export function yymmdd(date: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: '2-digit',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}${part('month')}${part('day')}`;
}
