// The browser console in the end-to-end journeys (issue 18, owner 9): an error or a warning that
// ordinary use prints is a bug a new owner sees in their devtools, so the journeys (dashboard,
// SDK, examples) fail on any that is not expected here. Each expected one says why it is not
// ours to fix; keep the list short: fix the cause rather than adding a line.
import type { Browser, ConsoleMessage, Page } from 'playwright-core';

export interface ExpectedConsole {
  /** Matched against "<type>: <text> <url of the line or resource>". */
  match: RegExp;
  reason: string;
}

/** What Chromium or a journey's own hostile step prints, whoever the page is. */
export const EXPECTED_CONSOLE: ExpectedConsole[] = [];

/** The line a console message is matched and reported as. */
export function consoleLine(message: ConsoleMessage): string {
  const url = message.location().url;
  return `${message.type()}: ${message.text()}${url ? ` ${url}` : ''}`;
}

/**
 * Collects into `problems` every console error or warning of `page` that no entry of
 * EXPECTED_CONSOLE or `expected` matches, and every uncaught page error.
 */
export function watchConsole(
  page: Page,
  problems: string[],
  label: string,
  expected: ExpectedConsole[] = [],
): void {
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    const line = consoleLine(message);
    if ([...EXPECTED_CONSOLE, ...expected].some((e) => e.match.test(line))) return;
    problems.push(`${label}: console ${line}`);
  });
}

/** Watches every page of every context `browser` makes from now on (see watchConsole). */
export function watchBrowser(
  browser: Browser,
  problems: string[],
  label: string,
  expected: ExpectedConsole[] = [],
): void {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.on('page', (page) => watchConsole(page, problems, label, expected));
    return context;
  };
}
