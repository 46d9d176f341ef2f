// A visitor: nobody signed in, in a browser context of its own. Reacts on the public block
// pages (/block/?id=&block_id=) — a comment, a like, an A/B vote, a form submission — and sees
// the copied embed snippet render on a page of another site.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { FORM } from './form.ts';
import { type Journey, watchErrors } from './support.ts';

export const VISITOR = { name: 'Vera Visitor', email: 'vera@example.com' };
export const COMMENT = 'Hello from a visitor!';

async function publicPage(context: BrowserContext, journey: Journey, ownerId: string, id: string) {
  const page = await context.newPage();
  await page.goto(`${journey.base}/block/?id=${ownerId}&block_id=${id}`);
  // <reaction-block> renders the element of the block's type; its parts are forwarded.
  await page.locator('reaction-block [part~=base]').first().waitFor();
  return page;
}

export async function visitorReacts(
  journey: Journey,
  ownerId: string,
  ids: { comment: string; like: string; ab: string; form: string },
  errors: string[],
) {
  const context = await journey.browser.newContext({ viewport: { width: 1000, height: 900 } });
  try {
    // Comment: the welcome message the owner saved, then the visitor's message appears.
    let page = await publicPage(context, journey, ownerId, ids.comment);
    watchErrors(page, errors, 'visitor comment');
    await page
      .locator('reaction-block [part=welcome]', { hasText: 'Welcome, visitors!' })
      .waitFor();
    await page.locator('reaction-block [part=composer] textarea').fill(COMMENT);
    await page.locator('reaction-block [part=composer] [part=submit]').click();
    await page.locator('reaction-block [part=content]', { hasText: COMMENT }).waitFor();
    await page.close();

    // Like: the count goes to 1.
    page = await publicPage(context, journey, ownerId, ids.like);
    watchErrors(page, errors, 'visitor like');
    await page.locator('reaction-block [part=count]', { hasText: '0 Likes' }).waitFor();
    await page.locator('reaction-block [part=button]').click();
    await page.locator('reaction-block [part=count]', { hasText: '1 Like' }).waitFor();
    // the count shows at once; the like is stored once the button is no longer busy (closing the
    // page before then could drop the write while the writer's code or the session still loads)
    await page.locator('reaction-block [part=button][aria-busy=false]').waitFor();
    assert.equal(
      await page.locator('reaction-block [part=button]').getAttribute('aria-pressed'),
      'true',
    );
    await page.close();

    // A/B: the owner's question and options; a vote shows the counts.
    page = await publicPage(context, journey, ownerId, ids.ab);
    watchErrors(page, errors, 'visitor ab');
    await page.locator('reaction-block [part=title]', { hasText: 'Cats or dogs?' }).waitFor();
    await page.locator('reaction-block [part=option]', { hasText: 'Dogs' }).click();
    await page.locator('reaction-block [part=result]', { hasText: '1 vote · 100%' }).waitFor();
    await page.locator('reaction-block [part=result]', { hasText: '0 votes · 0%' }).waitFor();
    await page.close();

    // Form: empty answers are refused with the required message, then the matching ending.
    page = await publicPage(context, journey, ownerId, ids.form);
    watchErrors(page, errors, 'visitor form');
    const form = page.locator('reaction-block');
    const submit = form.locator('[part=submit]');
    await submit.filter({ hasText: FORM.submit }).waitFor();
    await submit.click();
    // The two required questions say so; the optional email does not.
    await form.locator('[part=field-error]', { hasText: 'Required' }).first().waitFor();
    assert.equal(await form.locator('[part=field-error]', { hasText: 'Required' }).count(), 2);
    await form.locator('[part=invalid]', { hasText: 'Please check response' }).waitFor();
    await form.getByLabel(FORM.titles[0]!).fill(VISITOR.name);
    await form.locator('[part=choice]', { hasText: 'Blue' }).click();
    await form.getByLabel(FORM.titles[2]!).fill(VISITOR.email);
    await submit.click();
    await form.locator('[part=ending-title]', { hasText: FORM.ending.title }).waitFor();
    await form.locator('[part=ending]', { hasText: FORM.ending.closing }).waitFor();
    await page.close();
  } finally {
    await context.close();
  }
}

/**
 * The snippet copied from the block link dialog, pasted into a page of another site: a small
 * server of its own, opened as localhost (another origin than the stack's 127.0.0.1; both on
 * this machine, since Chromium keeps public pages from loading loopback addresses).
 */
export async function embedOnAnotherSite(journey: Journey, snippet: string, errors: string[]) {
  const html = `<!doctype html><html lang="en"><head><title>A post</title></head>
<body><main><h1>A post</h1><p>What did you think?</p>
${snippet}
</main></body></html>`;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const context = await journey.browser.newContext();
  try {
    const page = await context.newPage();
    watchErrors(page, errors, 'embed');
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
    });
    await page.goto(`http://localhost:${port}/post`);
    await page
      .locator('reaction-form [part=submit]', { hasText: FORM.submit })
      .waitFor({ timeout: 10000 })
      .catch((cause: unknown) => {
        throw new Error(`the embedded block did not render: ${warnings.join(' | ')}`, { cause });
      });
    await page.getByRole('radiogroup', { name: /Favourite colour/ }).waitFor();
    await page.locator('reaction-form [part=question-title]', { hasText: 'Your name' }).waitFor();
  } finally {
    await context.close();
    await new Promise((resolve) => server.close(resolve));
  }
}
