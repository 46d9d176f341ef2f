// What npm run screens photographs (screens.ts takes the pictures): the landing and dashboard
// screens of the demo owner, and a new owner's empty screens, each a name, a path and what to do
// on the page before the picture.
import type { Locator, Page } from 'playwright-core';
import { NOTION_LONG_PAGE_URL } from '../../supabase/local/providers/pages/fixtures.ts';

export const DEMO = { email: 'demo@reaction-blocks.local', name: 'Demo Owner' };
export const DEMO_ID = '00000000-0000-4000-8000-000000000001';
export const block = (nn: string) => `00000000-0000-4000-8000-0000000001${nn}`;
const LONG_NAME = 'Customer feedback for the spring launch campaign 2026';
const LONG_URL = `https://example.com/${'very-long-path-segment-'.repeat(8)}end?utm_source=newsletter`;
const LONG_WORD = 'Supercalifragilisticexpialidocious'.repeat(4);
export const WIDTHS = [1440, 375] as const;
export const LOCALES = ['en', 'ko'] as const;

/** What to capture: a name, a path, and what to do on the page before the picture. */
export interface Shot {
  name: string;
  path: string;
  /** Waits for the page to be ready and sets it up (menus open, a question selected...). */
  prepare?: (page: Page) => Promise<void>;
  fullPage?: boolean;
  /** Taken before signing in (the landing sends a signed-in owner to the dashboard). */
  public?: boolean;
}

/** Waits for what `find` finds, does `then` (opens a dialog...) and lets the page settle. */
const shown =
  (find: (page: Page) => Locator, then?: (page: Page) => Promise<unknown>) =>
  async (page: Page) => {
    await find(page).waitFor();
    await then?.(page);
    await settle(page);
  };
const audienceRow = (page: Page) => page.getByTestId('audience-row').first();
const planCard = (page: Page) => page.locator('.plan-card').first();
const h1 = (page: Page) => page.getByRole('heading', { level: 1 });

export const workspace = (page: Page) =>
  page
    .locator('.workspace-top-bar')
    .waitFor({ timeout: 15000 })
    .then(() => settle(page));

/** The form's workspace with its question `n` open; `then` fills or waits for something in it. */
const onQuestion = (n: number, then?: (page: Page) => Promise<unknown>) => async (page: Page) => {
  await workspace(page);
  await page.locator('.question-list .editor-list-item').nth(n).click();
  await then?.(page);
  await settle(page);
};

/** The letter workspace with the demo sample loaded. */
async function letterSample(page: Page) {
  await workspace(page);
  await page.locator('.letter-load-row button').nth(1).click();
  await page.locator('.letter-row').first().waitFor({ timeout: 30000 });
}

/** The sample saved and the Send letter dialog open. */
async function sendDialog(page: Page) {
  await letterSample(page);
  await page.locator('.workspace-actions .button-primary').first().click();
  await page.getByRole('button', { name: /Send letter|레터 보내기/ }).click();
}

/** /send's two frames have loaded and taken their documents' height. */
const sampleFrames = async (page: Page) => {
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLIFrameElement>('iframe.sample-frame')].every(
      (f) => f.offsetHeight > 300,
    ),
  );
  await settle(page);
};

/**
 * Brings each of the showcase's blocks into view until it has rendered (each loads when it comes
 * near the viewport), then goes back to the top. Scrolling through in fixed steps missed the last
 * two on a busy machine: no frame was drawn while they were in view, so nothing saw them.
 */
async function renderShowcase(page: Page) {
  // found again on every try: hydration may replace the prerendered blocks meanwhile
  for (let i = 0; i < 6; i++)
    await page.waitForFunction(
      (n) => {
        const block = document.querySelectorAll('.showcase-list .demo-block')[n];
        block?.scrollIntoView({ block: 'center' });
        return !!block?.querySelector('.demo-block-fallback');
      },
      i,
      { polling: 250, timeout: 30000 },
    );
  await page.evaluate(() => window.scrollTo(0, 0));
}

export const SHOTS: Shot[] = [
  { name: 'home', path: '/', public: true, fullPage: true, prepare: (page) => settle(page) },
  { name: 'reaction', path: '/reaction', public: true, prepare: (page) => settle(page) },
  {
    name: 'showcase',
    path: '/showcase',
    public: true,
    fullPage: true,
    prepare: async (page) => {
      await renderShowcase(page);
      await page.waitForFunction(() => customElements.get('reaction-form') !== undefined);
      await settle(page);
    },
  },
  { name: 'pricing', path: '/pricing', public: true, prepare: (page) => settle(page) },
  { name: 'help', path: '/help', public: true, prepare: (page) => settle(page) },
  { name: 'login', path: '/login', public: true, prepare: (page) => settle(page) },
  { name: 'terms', path: '/terms', public: true, prepare: (page) => settle(page) },
  { name: 'cookies', path: '/cookies', public: true, prepare: (page) => settle(page) },
  // the landing's before and after: fixture pages made into letters at build time
  { name: 'send', path: '/send', public: true, fullPage: true, prepare: sampleFrames },
  {
    name: 'send-brunch',
    path: '/send?focus=brunch',
    public: true,
    fullPage: true,
    prepare: sampleFrames,
  },
  {
    name: 'home-footer',
    path: '/',
    public: true,
    prepare: async (page) => {
      await page.locator('footer').scrollIntoViewIfNeeded();
      await settle(page);
    },
  },
  {
    name: 'dashboard',
    path: '/dashboard/reaction',
    fullPage: true,
    prepare: async (page) => {
      await page.getByTestId('block-card').first().waitFor({ state: 'attached' });
      await page
        .locator('.create-block button')
        .first()
        .click()
        .catch(() => {});
      await settle(page);
    },
  },
  {
    // a block's tags: the owner's tags ticked or not, and a new one typed in the shared field
    name: 'dashboard-tags',
    path: '/dashboard/reaction',
    prepare: async (page) => {
      await page.getByTestId('block-card').first().waitFor({ state: 'attached' });
      const menu = page.locator('.block-card-menu .menu-trigger').first();
      // a phone is told the dashboard is for larger screens: no menu to open
      if (await menu.isVisible()) {
        await menu.click();
        await page.getByRole('menuitem', { name: /Change tag|태그 변경/ }).click();
        await page.getByRole('dialog').getByRole('textbox').fill('launch');
      }
      await settle(page);
    },
  },
  {
    // the mail question: its letter picker (issue 18: a letter the form sends by itself)
    name: 'work-form-mail',
    path: `/work/${block('06')}`,
    fullPage: true,
    prepare: onQuestion(2, (page) => page.locator('.question-editor select').last().waitFor()),
  },
  { name: 'work-comment', path: `/work/${block('01')}`, prepare: workspace },
  { name: 'work-qna', path: `/work/${block('02')}`, prepare: workspace },
  {
    name: 'work-form',
    path: `/work/${block('06')}`,
    fullPage: true,
    prepare: onQuestion(0),
  },
  {
    // a long word or URL in a setting must not push the top bar or Save off screen
    name: 'work-comment-long',
    path: `/work/${block('01')}`,
    prepare: async (page) => {
      await workspace(page);
      await page.locator('.workspace-name-input').fill(LONG_NAME);
      await page.locator('.workspace-settings textarea').first().fill(LONG_URL);
      await page.locator('.workspace-settings input[type=text]').first().fill(LONG_WORD);
      await settle(page);
    },
  },
  {
    // a notification address that is not the owner's own waits for its confirmation
    // (docs/security.md "Notification addresses"): the section says so and offers the link again
    name: 'work-notify-waiting',
    path: `/work/${block('01')}`,
    prepare: async (page) => {
      await workspace(page);
      await page.getByRole('button', { name: /^(Notification|알림)$/ }).click();
      await page.locator('.workspace-settings input[type=email]').fill('team@example.com');
      const save = page.locator('.workspace-actions .button-primary').first();
      // saved by an earlier width or locale: no Save to press
      if ((await save.count()) > 0 && (await save.isEnabled())) await save.click();
      const notice = page.locator('.workspace-settings .notice');
      await notice.waitFor({ timeout: 15000 });
      await notice.scrollIntoViewIfNeeded();
      await settle(page);
    },
  },
  {
    name: 'work-form-long',
    path: `/work/${block('06')}`,
    fullPage: true,
    prepare: onQuestion(3, async (page) => {
      await page.locator('.question-editor input').first().fill(LONG_WORD);
      await page.locator('.options-editor input').first().fill(LONG_URL);
    }),
  },
  // letters and audience (issue 11)
  {
    name: 'dashboard-send',
    path: '/dashboard/send',
    prepare: async (page) => {
      await page.getByTestId('block-card').first().waitFor({ state: 'attached' });
      await page.locator('.create-block button').first().click();
      await settle(page);
    },
  },
  {
    name: 'work-letter',
    path: `/work/${block('07')}`,
    fullPage: true,
    prepare: async (page) => {
      await letterSample(page);
      await settle(page);
    },
  },
  {
    name: 'work-letter-send',
    path: `/work/${block('07')}`,
    prepare: async (page) => {
      await sendDialog(page);
      // a pasted list with bad entries (U12): named once the box is left
      const box = page.locator('.send-addresses');
      await box.fill(
        'Ann <ann@example.com>; second@example.com\nCarl Jones, not-an-address, x@, <b>Bo</b> <bo@example.com>',
      );
      await box.blur();
      await page.locator('.send-manual .error-text[role="alert"]').waitFor();
      await settle(page);
    },
  },
  {
    name: 'work-letter-brunch',
    path: `/work/${block('09')}`,
    prepare: async (page) => {
      await workspace(page);
      // the seed's Brunch writer is verified now (the workspace then names the writer); an
      // unverified one gets the verification dialog in the picture
      const verify = page.getByRole('button', { name: /Verify profile|프로필 인증/ });
      if (await verify.isVisible()) await verify.click();
      await settle(page);
    },
  },
  {
    name: 'history-letter',
    path: `/work/${block('07')}`,
    prepare: async (page) => {
      // a send first: load the sample, save, send to two addresses, then the history
      await sendDialog(page);
      await page.locator('.send-addresses').fill('reader@example.com, second@example.com');
      await page.locator('.send-manual .button-primary').click();
      await page.locator('.send-done').waitFor();
      await page.locator('.send-letter-dialog .dialog-actions .button').last().click();
      await page.locator('.workspace-mode-link').nth(1).click();
      await page.locator('.history-count').first().waitFor();
      await page.waitForTimeout(6000); // the counts follow the delivery events
      await settle(page);
    },
  },
  {
    name: 'history-letter-empty',
    path: `/work/${block('08')}/history`,
    prepare: workspace,
  },
  {
    name: 'audience',
    path: '/audience',
    fullPage: true,
    prepare: shown(audienceRow),
  },
  {
    name: 'audience-edit',
    path: '/audience',
    prepare: shown(audienceRow, (page) => page.locator('.audience-mode .button').nth(1).click()),
  },
  {
    name: 'audience-import',
    path: '/audience',
    prepare: async (page) => {
      await audienceRow(page).waitFor();
      await page.locator('.audience-side-actions .button').nth(1).click();
      await page.locator('input[type=file]').setInputFiles({
        name: 'audience.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          // our own row checks, then papaparse's: an unquoted comma, a quote never closed
          'name,email,group\nMina Kim,mina@example.com,\n,noname@example.com,\nBad,not-an-email,\nAlex,alex@example.com,unknown-group\nKim, Joon,joon@example.com,\n"Open,open@example.com\n',
        ),
      });
      await page.locator('.import-report').waitFor();
      await settle(page);
    },
  },
  {
    name: 'audience-of-block',
    path: `/work/${block('06')}/audience`,
    prepare: shown(audienceRow),
  },
  {
    name: 'letter-public',
    path: `/block/?id=${DEMO_ID}&block_id=${block('07')}`,
    prepare: async (page) => {
      await page.locator('reaction-block iframe').waitFor({ timeout: 15000 });
      await page.waitForTimeout(800);
    },
    fullPage: true,
  },
  {
    // the owner's moderation list of the demo guestbook (issue 9)
    name: 'moderation-comment',
    path: `/work/${block('01')}/comments`,
    prepare: shown((page) => page.locator('.moderation[aria-busy="false"]')),
  },
  {
    // the "Spam and abuse" settings section, opened
    name: 'work-comment-trust',
    path: `/work/${block('01')}`,
    prepare: async (page) => {
      await workspace(page);
      const section = page.locator('.accordion-section').filter({ hasText: /Spam and abuse|스팸/ });
      await section.locator('.accordion-trigger').click();
      await section.scrollIntoViewIfNeeded();
      await settle(page);
    },
  },
  {
    name: 'plan',
    path: '/profile/plan',
    fullPage: true,
    prepare: shown(planCard),
  },
  {
    // a PayPal renewal that failed while PayPal retries it: the page says so, when PayPal tries
    // again and what to do (the demo owner's active plan read back as such a plan)
    name: 'plan-paypal-retrying',
    path: '/profile/plan',
    prepare: async (page) => {
      const retry = new Date(Date.now() + 3 * 86_400_000).toISOString();
      await page.route('**/rest/v1/payments?*', async (route) => {
        const res = await route.fetch();
        const rows = (await res.json()) as Array<Record<string, unknown>>;
        const json = rows.map((r) =>
          r.is_active && ['basic', 'custom', 'subscription'].includes(String(r.type))
            ? {
                ...r,
                method: 'paypal',
                auto_renew: true,
                stopped_at: null,
                renewal_failed_at: new Date().toISOString(),
                renewal_retry_at: retry,
                next_content: null,
                next_price: null,
              }
            : r,
        );
        await route.fulfill({ response: res, json });
      });
      await page.getByTestId('renewal').waitFor();
      await settle(page);
    },
  },
  {
    name: 'plan-coupon',
    path: '/profile/plan',
    prepare: async (page) => {
      await planCard(page).waitFor();
      await page
        .getByRole('button', { name: /coupon|쿠폰/i })
        .first()
        .click();
      await page.getByRole('dialog').waitFor();
      await page.getByRole('dialog').getByRole('textbox').fill('NOT-A-COUPON');
      await page.getByRole('dialog').getByRole('textbox').press('Enter');
      await page.getByRole('dialog').locator('.error-text, [role=alert]').first().waitFor();
      await settle(page);
    },
  },
  {
    name: 'profile-email',
    path: '/profile/email',
    fullPage: true,
    prepare: shown(h1),
  },
  {
    // a confirmation link cut short by a mail program: refused without a request, in our words
    name: 'profile-email-link-cut',
    path: '/profile/email?confirm=cut-short',
    prepare: shown((page) => page.locator('[role="alert"]').first()),
  },
  {
    // an address that said "Not me" (or bounced): request-mail-verify refuses it before mailing
    // (its answer is stood in for here: the stack's own would need the suppression row first)
    name: 'profile-email-suppressed',
    path: '/profile/email',
    prepare: async (page) => {
      await page.route('**/functions/v1/request-mail-verify', (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({
              status: 400,
              contentType: 'application/json',
              headers: { 'access-control-allow-origin': '*' },
              body: JSON.stringify({
                error: {
                  code: 'suppressed',
                  message:
                    'This address asked not to get mail from Reaction Blocks, or could not receive it',
                },
              }),
            })
          : route.fallback(),
      );
      await h1(page).waitFor();
      await page.getByLabel(/^(Email address|이메일 주소)$/).fill('said-no@example.com');
      await page.getByRole('button', { name: /^(Verify|인증하기)$/ }).click();
      await page.locator('input[aria-invalid=true]').waitFor();
      await settle(page);
    },
  },
  // /purchase sends the demo owner (on a paid plan) to /profile/plan: the plans journey shoots it
  { name: 'profile-account', path: '/profile', fullPage: true, prepare: shown(h1) },
  {
    // the Remove account dialog (a paid plan stops with the account), not confirmed
    name: 'profile-remove',
    path: '/profile',
    prepare: async (page) => {
      await h1(page).waitFor();
      await page.getByRole('button', { name: /Remove account|계정 삭제/ }).click();
      await page.getByRole('alertdialog').waitFor();
      await settle(page);
    },
  },
  { name: 'work-ab', path: `/work/${block('05')}`, prepare: workspace },
  { name: 'work-like', path: `/work/${block('03')}`, prepare: workspace },
  {
    // the custom theme on a dark background: two colours set, two left on Default (issue 22)
    name: 'work-like-custom',
    path: `/work/${block('03')}`,
    fullPage: true,
    prepare: async (page) => {
      await workspace(page);
      await page.locator('.workspace-preview .theme-switch input[value=custom]').check();
      const hex = page.locator('.field-color input[type=text]');
      await hex.nth(0).fill('#7C9CFF');
      await hex.nth(3).fill('#161B33');
      await settle(page);
    },
  },
  { name: 'work-button', path: `/work/${block('04')}`, prepare: workspace },
  { name: 'work-form-preview', path: `/work/${block('06')}/preview`, prepare: workspace },
  { name: 'result-form', path: `/work/${block('06')}/result`, prepare: workspace },
  { name: 'result-ab', path: `/work/${block('05')}/result`, prepare: workspace },
  { name: 'result-like', path: `/work/${block('03')}/result`, prepare: workspace },
  { name: 'result-button', path: `/work/${block('04')}/result`, prepare: workspace },
  {
    name: 'integration',
    path: '/profile/integration',
    prepare: shown((page) =>
      page.locator('.integration-card').filter({ hasText: /Granted|허용됨/ }),
    ),
  },
  {
    // connected to the Notion fake (see connectNotion), the form linked to "Feedback", a note
    name: 'work-form-integration',
    path: `/work/${block('06')}`,
    prepare: async (page) => {
      const section = await integrationSection(page);
      await section.locator('.integration-notes').waitFor();
      // the notes in view (the last, a write Notion never answered, below a column's)
      await section.locator('.integration-notes li').last().scrollIntoViewIfNeeded();
      await settle(page);
    },
  },
  {
    // rev-uncov3 D4: Notion removed in another tab while the form's workspace links a database
    // not saved yet; the tab comes back and the section drops the link and says why. The
    // removal is what this page reads (the connection's row answered as gone), so the demo
    // owner stays connected for the shots after it
    name: 'work-form-integration-removed',
    path: `/work/${block('06')}`,
    prepare: async (page) => {
      await page.unrouteAll();
      const section = await integrationSection(page);
      await page.route('**/rest/v1/integrations?*', (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }),
      );
      await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
      const note = section.locator('.integration-section .warning-note');
      await note.waitFor();
      await note.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await settle(page);
    },
  },
  {
    // rev-uncov3 D1: a long Notion page (the fake's, with a table, toggles, a synced block, a
    // video, an embed, a sub-page and a database): the cut and the kinds left out are said
    name: 'work-letter-long',
    path: `/work/${block('07')}`,
    prepare: async (page) => {
      await page.unrouteAll();
      await page.locator('.letter-settings input[type="url"]').fill(NOTION_LONG_PAGE_URL);
      await page.locator('.letter-load-row button').first().click();
      const note = page.locator('.letter-settings .warning-note');
      await note.first().waitFor({ timeout: 30000 });
      await note.last().scrollIntoViewIfNeeded();
      await settle(page);
    },
  },
];

/**
 * The form's workspace with its Integration section open, once the section lists the Notion
 * database the form is linked to ("Feedback", connectNotion); answers the section.
 */
async function integrationSection(page: Page) {
  await workspace(page);
  const section = page
    .locator('.accordion-section')
    .filter({ has: page.locator('.integration-section') });
  await section.locator('.accordion-trigger').click();
  await section
    .locator('select')
    .first()
    .locator('option', { hasText: 'Feedback' })
    .waitFor({ state: 'attached' });
  return section;
}

export async function settle(page: Page) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(400);
}

/** A new owner's screens before they have anything: the empty states (issue 22). */
export const EMPTY_SHOTS: Shot[] = [
  { name: 'empty-dashboard', path: '/dashboard/reaction', prepare: (page) => emptyReady(page) },
  { name: 'empty-send', path: '/dashboard/send', prepare: (page) => emptyReady(page) },
  {
    name: 'empty-audience',
    path: '/audience',
    prepare: async (page) => {
      await page.locator('.empty-panel').waitFor();
      await settle(page);
    },
  },
];

async function emptyReady(page: Page) {
  await page.getByTestId('remaining').waitFor();
  await page.locator('.empty-panel').waitFor();
  await settle(page);
}
