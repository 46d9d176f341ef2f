// End-to-end journey of the dashboard in Chromium against a throwaway local stack:
// - the landing (no signed-in code loaded), the tablet menu, /reaction?focus=button;
// - the first screens in Korean, up to a new Korean user's consent;
// - the owner: sign-in through the local Google page (a cancelled try first), consent, blocks
//   through the type picker until "Block limit reached!" (the database refuses too), Upgrade to
//   Basic paid by card on the local PortOne checkout, the fourth block, the plan page and Stop,
//   then all six types;
// - each type's workspace: modes, rename, a setting, Save, reload; the leave guard (the back
//   link; the browser's Back in the Q&A's, opened from its card); the form editor (questions,
//   one added and reordered by keyboard only, options, capture, submit text, a custom ending
//   with a condition); preview with the theme switch; the block link dialog;
// - a visitor on the public block pages (comment, like, A/B vote, form with the required
//   check and the matching ending) and the copied snippet embedded on another site;
// - the owner again: response counts, result rows, details, Export CSV, deleting a response;
//   duplicate, tag, delete; a second owner, in Korean, buying Custom with PayPal from the
//   pricing page; holding new comments, one arriving live in the Comments mode and approved
//   there; profile saved in Korean; sign-out;
// - axe (no serious or critical violations) on the landing, login, dashboard and the form's
//   workspace edit and result pages (with the results summary), the integration page and the
//   workspace's Integration section;
// - the gzip JS of the landing, /login and the block dashboard (a new owner's and the demo owner's)
//   within their budgets (weight.ts);
// - Notion: connect in the popup through the local authorise page, link the button block, a
//   visitor's click written to the Notion fake, remove (integration.ts);
// - Cafe24: connect a mall in the popup, place the comment block on product pages, a shopper's
//   review on the fake storefront stays on its product, remove (cafe24.ts);
// - the seeded demo owner: result pages and CSV not empty, focus on arrival, long names and
//   texts at 1280 and 375 px, the description's rich-text editor, every top bar two rows at 375 px
//   (demo-owner.ts);
// - the owner on their own public block, one session with the dashboard: Admin, sign-out in
//   either, a plain session from before sealed once; storage blocked (own-block.ts);
// - letters and audience (letters.ts, also alone: npm run e2e:letters);
// - a sign-in return left at once, during the exchange, or after the server took the code, and
//   no PKCE verifier left behind (sign-in-return.ts, also alone: npm run e2e:sign-in).
// Run: npm run build -w @reaction-blocks/sdk && npm run build -w @reaction-blocks/dashboard &&
//      npm run e2e -w @reaction-blocks/dashboard
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { chromium, type Page } from 'playwright-core';
import { looksLikeFailure } from '../../supabase/local/process.ts';
import { startThrowawayStack } from '../../supabase/local/throwaway.ts';
import type { ExpectedConsole } from '../../scripts/console-watch.ts';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { blockLimitReached, cardMenuActions, createThroughPicker } from './blocks.ts';
import { demoOwner } from './demo-owner.ts';
import { editForm } from './form.ts';
import { moderateComments } from './moderation.ts';
import { firstScreensInKorean, landingInEnglish } from './landing.ts';
import { lettersJourney } from './letters.ts';
import { signInOwner } from './owner.ts';
import { signInReturnSurvives } from './sign-in-return.ts';
import { ownerOnOwnBlock, storageBlocked } from './own-block.ts';
import { planAndStop, secondOwnerPaysByPaypal, upgradeByCard } from './plans.ts';
import { notionIntegration } from './integration.ts';
import { cafe24Shop } from './cafe24.ts';
import { formResults, likeResult, responseCounts } from './results.ts';
import { type BlockType, type Journey, step, TYPES, watchErrors } from './support.ts';
import { embedOnAnotherSite, visitorReacts } from './visitor.ts';
import { pageWeights } from './weight.ts';
import {
  blockLinkDialog,
  browserBackAsks,
  editBlock,
  leaveGuard,
  NAMES,
  openWorkspace,
  previewMode,
} from './workspace.ts';

const TIME_ZONE = 'Asia/Seoul';

/**
 * Failure-looking log lines the journey causes on purpose (keep short; each with its reason).
 * Matched against "[service] line".
 */
const EXPECTED_LOG: ExpectedConsole[] = [
  {
    match:
      /^\[postgres\] .*55P03 ERROR: {2}canceling statement due to lock timeout[\s\S]*record_mail_event/,
    reason:
      "record_mail_event waits 250 ms for a mail's lock, then fails whole so ses-events answers 503 and SNS posts the event again (mail-log.sql; nothing is lost)",
  },
];
const t0 = Date.now();
/** What `npm start` would have printed as failures while the journey ran (process.ts). */
const failureLines: string[] = [];
const stack = await startThrowawayStack('dashboard-e2e', {
  log: (service, line) => {
    if (looksLikeFailure(line) && !EXPECTED_LOG.some((e) => e.match.test(`[${service}] ${line}`)))
      failureLines.push(`[${service}] ${line}`);
  },
});
const browser = await chromium.launch(chromiumLaunchOptions);
const db = new pg.Client({ connectionString: stack.dbUrl });
db.on('error', () => {});
await db.connect();
const journey: Journey = {
  base: stack.webUrl.replace(/\/$/, ''),
  apiUrl: stack.apiUrl,
  anonKey: stack.anonKey,
  providersUrl: stack.providersUrl,
  browser,
  db,
};
console.log(`dashboard e2e journey (stack up in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);

/** The owner's page, for a screenshot when something fails. */
let failurePage: Page | undefined;
try {
  const errors: string[] = [];
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    timezoneId: TIME_ZONE,
  });
  const page = await context.newPage();
  failurePage = page;
  watchErrors(page, errors, 'owner');

  await step('landing', () => landingInEnglish(page, journey));
  await step('first screens in Korean', () => firstScreensInKorean(journey, errors));
  const ownerId = await step('sign-in and consent', () => signInOwner(page, journey));
  await step('page weights within budget', () => pageWeights(context, journey));

  const ids = {} as Record<BlockType, string>;
  await step('free blocks up to the limit', async () => {
    for (const type of TYPES.slice(0, 3))
      ids[type] = await createThroughPicker(page, journey, type);
    await blockLimitReached(page, journey, ownerId);
  });
  await step('upgrade: Basic by card', () => upgradeByCard(page, journey, ownerId));
  await step('the fourth block, the plan, Stop', async () => {
    ids[TYPES[3]] = await createThroughPicker(page, journey, TYPES[3]);
    await planAndStop(page, journey, ownerId);
  });
  await step('paid: the other types', async () => {
    for (const type of TYPES.slice(4)) ids[type] = await createThroughPicker(page, journey, type);
  });

  await step('workspaces', async () => {
    for (const type of ['comment', 'qna', 'like', 'button', 'ab'] as const) {
      await editBlock(page, journey, type, ids[type]);
    }
    await leaveGuard(page, journey, ids.comment);
    await browserBackAsks(page, journey, {
      list: '/dashboard/reaction',
      name: NAMES.qna,
      modes: 'Workspace modes',
      edit: 'Edit',
      mode: 'Questions',
    });
    await previewMode(page, journey, 'button', ids.button, 'Visit us');
  });
  await step('form editor', () => editForm(page, journey, ids.form));
  await step('form preview', () => previewMode(page, journey, 'form', ids.form, 'Send answers'));
  const snippet = await step('block link', async () => {
    await openWorkspace(page, journey, ids.form);
    return blockLinkDialog(page, journey, ownerId, ids.form, NAMES.form);
  });

  await step('visitor', () =>
    visitorReacts(
      journey,
      ownerId,
      { comment: ids.comment, like: ids.like, ab: ids.ab, form: ids.form },
      errors,
    ),
  );
  await step('embedded on another site', () => embedOnAnotherSite(journey, snippet, errors));

  await step('response counts', () => responseCounts(page, journey));
  await step('like result', () => likeResult(page, journey, ids.like));
  await step('form results and CSV', () => formResults(page, journey, ids.form, TIME_ZONE));
  await step('Notion integration', () => notionIntegration(page, journey, ownerId, ids.button));
  await step('Cafe24 shop', () => cafe24Shop(page, journey, ids.comment, errors));
  await step('card menu', () => cardMenuActions(page, journey, NAMES.like));
  await step('letters and audience (en, ko)', () => lettersJourney(journey, errors));
  await step('moderation: held comment approved live', () =>
    moderateComments(page, journey, ids.comment),
  );
  await step(
    'demo owner: seeded results, focus, long texts, description editor, phone top bars',
    () => demoOwner(journey, errors),
  );
  await step('a second owner pays with PayPal (ko)', () =>
    secondOwnerPaysByPaypal(journey, errors),
  );

  await step('the owner on their own public block: one sealed session, Admin, sign-out', () =>
    ownerOnOwnBlock(page, journey, ownerId, ids.comment, errors),
  );
  await step('storage blocked: /not_supported; the public block still works', () =>
    storageBlocked(journey, ownerId, ids.comment, errors),
  );

  await step('profile in Korean and sign-out', async () => {
    await page.goto(`${journey.base}/profile`);
    await page.getByLabel('Name').fill('Renamed Owner');
    await page.getByLabel('Language').selectOption('ko');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: '계정' }).waitFor();
    await page.goto(`${journey.base}/dashboard/reaction`);
    await page.getByRole('button', { name: '계정 메뉴' }).click();
    await page.getByRole('menuitem', { name: '로그아웃' }).click();
    await page.waitForURL(`${journey.base}/`);
  });

  await step('a sign-in return survives the page being left', () =>
    signInReturnSurvives(journey, errors),
  );

  assert.deepEqual(errors, []);
  assert.deepEqual(failureLines, [], 'log lines that read as failures during ordinary use');
  console.log(`dashboard e2e journey: ok in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
} catch (error) {
  // Where the owner's page was when it failed, for whoever reads the log.
  const shot = join(tmpdir(), 'rb-dashboard-e2e-failure.png');
  if (
    await failurePage?.screenshot({ path: shot }).then(
      () => true,
      () => false,
    )
  ) {
    console.error(`failed at ${failurePage?.url()} (screenshot: ${shot})`);
  }
  throw error;
} finally {
  await db.end().catch(() => {});
  await browser.close();
  await stack.stop();
}
