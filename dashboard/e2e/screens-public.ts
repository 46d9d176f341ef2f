// The public pages as a visitor sees them (issue 22), for `npm run screens`: every block type's
// /block/ page and its states (loading, not available, incomplete link, failed load), the A/B
// after a vote, a dark block, the letter page; /unsubscribe (asking, done, already unsubscribed,
// a deleted block's link with nothing left to stop, invalid link, failed, loading),
// /confirm-email (asking about replies, letters and notifications, confirmed, a sender mail's
// "Not me" asking and answered, invalid link) and
// /not_supported. No session: a browser context of its own.
import { createHash, randomBytes } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import type pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { backgroundEnv } from '../../supabase/local/config.ts';
import { hmacKey, signClaims } from '../../supabase/functions/_shared/signed-token.ts';

export const DEMO_ID = '00000000-0000-4000-8000-000000000001';
export const block = (nn: string) => `00000000-0000-4000-8000-0000000001${nn}`;
const MISSING = '00000000-0000-4000-8000-00000000ffff';

export interface PublicShot {
  name: string;
  path: string | ((ctx: PublicContext) => Promise<string>);
  /** Before the page opens: requests held or refused, storage blocked... */
  before?: (page: Page) => Promise<unknown>;
  /** Puts back what `path` changed in the database. */
  after?: (ctx: PublicContext) => Promise<void>;
  /** Waits for the state to photograph. */
  ready: (page: Page) => Promise<void>;
  fullPage?: boolean;
}

export interface PublicContext {
  db: pg.Client;
  locale: 'en' | 'ko';
  /** An unsubscribe link's token for an address, signed as the mail's would be. */
  token: (claim: {
    s: 'owner' | 'reply' | 'letter';
    e: string;
    b: string;
    u?: string;
  }) => Promise<string>;
}

const state = (name: string) => (page: Page) =>
  page.locator(`html[data-state="${name}"]`).waitFor({ timeout: 20000 });
const blockPage = (nn: string) => `/block/?id=${DEMO_ID}&block_id=${block(nn)}`;
const blockReady =
  (part = '[part~=base]') =>
  async (page: Page) => {
    await state('ready')(page);
    await page.locator(`reaction-block ${part}`).first().waitFor({ timeout: 20000 });
  };
/**
 * A confirmation mail's link as the worker writes it (supabase/functions/_shared/confirm-mail.ts):
 * a live token for a fresh address asking for reply notifications on the demo comment block (or
 * the demo owner's letters from the demo form, or their notification mails), in the locale of
 * the visitor who asked.
 */
const consentLinkFor =
  (scope: 'reply' | 'letters' | 'notify') =>
  async (ctx: PublicContext): Promise<string> => {
    const token = randomBytes(32).toString('base64url');
    await ctx.db.query(
      `insert into private.mail_consents (email, owner_id, commenter_id, block_id, locale,
         for_notifications, token_hash, token_expires_at, mailed_at)
       values ($1, $2, case when $6 = 'reply' then $2::uuid end, $3, $4, $6 = 'notify', $5,
               now() + interval '7 days', now())`,
      [
        `reader-${randomBytes(4).toString('hex')}@example.com`,
        DEMO_ID,
        block(scope === 'letters' ? '06' : '01'),
        ctx.locale,
        createHash('sha256').update(token).digest('hex'),
        scope,
      ],
    );
    return `/confirm-email?token=${token}&locale=${ctx.locale}`;
  };
const consentLink = consentLinkFor('reply');
const yesConfirm = /Yes, confirm|네, 확인합니다/;

/**
 * A sender address confirmation mail's "Not me" link (supabase/functions/request-mail-verify): a
 * pending claim of the demo owner and its mail's live "Not me" token; `after` removes both.
 */
async function senderNotMeLink(ctx: PublicContext): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const sha = (t: string) => createHash('sha256').update(t).digest('hex');
  await ctx.db.query(
    `with claim as (
       insert into public.sender_emails (user_id, email) values ($1, $2) returning id, email),
     confirm as (
       insert into private.sender_email_tokens (sender_email_id, token_hash, expires_at)
       select id, $3, now() + interval '1 day' from claim)
     insert into private.not_me_tokens (token_hash, email, scope, owner_id, expires_at)
     select $4, email, 'sender', $1, now() + interval '7 days' from claim`,
    [
      DEMO_ID,
      `screens-sender-${randomBytes(4).toString('hex')}@example.com`,
      sha(randomBytes(32).toString('base64url')),
      sha(token),
    ],
  );
  return `/confirm-email?token=${token}&locale=${ctx.locale}&answer=not-me`;
}
const dropSenderClaims = async (ctx: PublicContext) => {
  await ctx.db.query(
    `delete from public.sender_emails where user_id = $1 and email like 'screens-sender-%'`,
    [DEMO_ID],
  );
  await ctx.db.query(`delete from private.not_me_tokens where email like 'screens-sender-%'`);
};
const notMe = /^(Not me|본인이 아닙니다)$/;

/** A request that never answers while the picture is taken. */
const hold = (pattern: string) => (page: Page) => page.route(pattern, () => {});

export const PUBLIC_SHOTS: PublicShot[] = [
  {
    name: 'block-comment',
    path: blockPage('01'),
    ready: blockReady('[part~=composer]'),
    fullPage: true,
  },
  {
    name: 'block-qna',
    path: blockPage('02'),
    ready: blockReady('[part~=composer]'),
    fullPage: true,
  },
  {
    // the owner's dark theme: the page goes dark with it
    name: 'block-comment-dark',
    path: async (ctx) => {
      await ctx.db.query("update public.blocks set theme = 'dark' where id = $1", [block('01')]);
      return blockPage('01');
    },
    after: async (ctx) => {
      await ctx.db.query("update public.blocks set theme = 'light' where id = $1", [block('01')]);
    },
    ready: blockReady('[part~=composer]'),
  },
  { name: 'block-like', path: blockPage('03'), ready: blockReady('[part~=button]') },
  { name: 'block-button', path: blockPage('04'), ready: blockReady('[part~=button]') },
  { name: 'block-ab', path: blockPage('05'), ready: blockReady('[part~=option]') },
  {
    // the result bars after a vote (a vote is written: a throwaway stack, or the demo's counts)
    name: 'block-ab-voted',
    path: blockPage('05'),
    ready: async (page) => {
      await blockReady('[part~=option]')(page);
      await page.locator('reaction-block [part~=option]').first().click();
      await page.locator('reaction-block [part~=result]').first().waitFor({ timeout: 20000 });
    },
  },
  { name: 'block-form', path: blockPage('06'), ready: blockReady('[part~=form]'), fullPage: true },
  {
    name: 'block-letter',
    path: blockPage('07'),
    ready: async (page) => {
      await state('ready')(page);
      await page.locator('reaction-block iframe').waitFor({ timeout: 20000 });
      await page.waitForTimeout(800); // the frame sizes itself to its letter
    },
    fullPage: true,
  },
  {
    name: 'block-loading',
    path: blockPage('01'),
    before: hold('**/rest/v1/rpc/get_block_public*'),
    ready: (page) => page.locator('reaction-block [part~=skeleton]').first().waitFor(),
  },
  {
    name: 'block-unavailable',
    path: `/block/?id=${DEMO_ID}&block_id=${MISSING}`,
    ready: state('unavailable'),
  },
  { name: 'block-incomplete', path: '/block/', ready: state('incomplete') },
  {
    name: 'block-error',
    path: blockPage('03'),
    before: (page) => page.route('**/rest/v1/rpc/get_block_public*', (route) => route.abort()),
    ready: state('error'),
  },
  {
    name: 'unsubscribe',
    path: async (ctx) =>
      `/unsubscribe?token=${encodeURIComponent(
        await ctx.token({
          s: 'letter',
          e: `reader-${Date.now()}@example.com`,
          b: block('07'),
          u: DEMO_ID,
        }),
      )}`,
    ready: (page) => page.getByRole('button', { name: /Unsubscribe|수신 거부/ }).waitFor(),
  },
  {
    name: 'unsubscribe-done',
    path: async (ctx) =>
      `/unsubscribe?token=${encodeURIComponent(
        await ctx.token({ s: 'owner', e: `owner-${Date.now()}@example.com`, b: block('01') }),
      )}`,
    ready: async (page) => {
      await page.getByRole('button', { name: /Unsubscribe|수신 거부/ }).click();
      await page.locator('.unsubscribe-page [data-state=done]').waitFor();
    },
  },
  {
    name: 'unsubscribe-already',
    path: async (ctx) => {
      const token = await ctx.token({
        s: 'letter',
        e: 'already@example.com',
        b: block('07'),
        u: DEMO_ID,
      });
      await ctx.db.query(
        `insert into public.unsubscribes (user_id, block_id, email) values ($1, $2, 'already@example.com')
         on conflict (user_id, email) do nothing`,
        [DEMO_ID, block('07')],
      );
      return `/unsubscribe?token=${encodeURIComponent(token)}`;
    },
    ready: (page) => page.locator('.unsubscribe-page [data-state=already]').waitFor(),
  },
  {
    // an old digest's link (no owner in it) of a block since deleted: nothing left to stop
    name: 'unsubscribe-gone',
    path: async (ctx) =>
      `/unsubscribe?token=${encodeURIComponent(
        await ctx.token({ s: 'owner', e: `gone-${Date.now()}@example.com`, b: MISSING }),
      )}`,
    ready: (page) => page.locator('.unsubscribe-page [data-state=gone]').waitFor(),
  },
  {
    name: 'unsubscribe-invalid',
    path: '/unsubscribe?token=not-a-real-token',
    ready: (page) => page.locator('.unsubscribe-page [data-state=invalid]').waitFor(),
  },
  {
    name: 'unsubscribe-failed',
    path: async (ctx) =>
      `/unsubscribe?token=${encodeURIComponent(
        await ctx.token({ s: 'reply', e: `reply-${Date.now()}@example.com`, b: block('01') }),
      )}`,
    before: (page) =>
      page.route('**/functions/v1/unsubscribe', (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({
              status: 500,
              contentType: 'application/json',
              body: JSON.stringify({
                error: { code: 'internal_error', message: 'Could not unsubscribe; try again' },
              }),
            })
          : route.fallback(),
      ),
    ready: async (page) => {
      await page.getByRole('button', { name: /Unsubscribe|수신 거부/ }).click();
      await page.locator('.unsubscribe-page [role=alert]').waitFor();
    },
  },
  {
    name: 'unsubscribe-loading',
    path: async (ctx) =>
      `/unsubscribe?token=${encodeURIComponent(
        await ctx.token({ s: 'owner', e: 'held@example.com', b: block('01') }),
      )}`,
    before: hold('**/functions/v1/unsubscribe*'),
    ready: (page) => page.locator('.unsubscribe-page [data-state=loading]').waitFor(),
  },
  {
    name: 'confirm-email',
    path: consentLink,
    ready: (page) => page.getByRole('button', { name: yesConfirm }).waitFor(),
  },
  {
    // the demo owner's letters: the page names the verified sender the letters come from
    name: 'confirm-email-letters',
    path: consentLinkFor('letters'),
    ready: (page) => page.getByRole('button', { name: yesConfirm }).waitFor(),
  },
  {
    // a block's notification address: the owner's sign-in address, and ours as the sender
    name: 'confirm-email-notify',
    path: consentLinkFor('notify'),
    ready: (page) => page.getByRole('button', { name: yesConfirm }).waitFor(),
  },
  {
    name: 'confirm-email-done',
    path: consentLink,
    ready: async (page) => {
      await page.getByRole('button', { name: yesConfirm }).click();
      await page.locator('.confirm-email-page [data-state=confirmed]').waitFor();
    },
  },
  {
    // a sender address mail's "Not me": one answer only, and the page after it
    name: 'confirm-email-sender',
    path: senderNotMeLink,
    after: dropSenderClaims,
    ready: (page) => page.getByRole('button', { name: notMe }).waitFor(),
  },
  {
    name: 'confirm-email-sender-done',
    path: senderNotMeLink,
    after: dropSenderClaims,
    ready: async (page) => {
      await page.getByRole('button', { name: notMe }).click();
      await page.locator('.confirm-email-page [data-state=declined]').waitFor();
    },
  },
  {
    name: 'confirm-email-invalid',
    path: '/confirm-email?token=not-a-real-token',
    ready: (page) => page.locator('.confirm-email-page [data-state=invalid]').waitFor(),
  },
  {
    // what a browser that refuses site data sees (the storage check fails at once)
    name: 'not-supported',
    path: '/not_supported',
    before: (page) =>
      page.addInitScript(() => {
        Object.defineProperty(window, 'localStorage', {
          get() {
            throw new DOMException('blocked', 'SecurityError');
          },
        });
      }),
    ready: (page) => page.getByRole('heading', { level: 1 }).waitFor(),
  },
];

/** Signs unsubscribe tokens as the stack's functions do (their secret derives from the JWT secret). */
export async function tokenSigner(jwtSecret: string) {
  const key = await hmacKey(backgroundEnv(jwtSecret, '').UNSUBSCRIBE_SECRET);
  return (claim: { s: string; e: string; b: string; u?: string }) =>
    signClaims(key, { ...claim, e: claim.e.toLowerCase() });
}

/**
 * The demo letter block needs a letter for its public page: the saved one, or a short sample
 * when none was saved yet (SCREENS_ONLY without the letter workspace's shots).
 */
export async function ensureLetter(db: pg.Client) {
  await db.query(
    `update public.block_private set mail_title = coalesce(mail_title, 'This week at the demo café'),
       mail_html = coalesce(mail_html, $2)
     where block_id = $1`,
    [
      block('07'),
      `<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;font-family:Georgia,serif;color:#1f2328"><tr><td style="padding:32px"><h1 style="margin:0 0 12px;font-size:26px">This week at the demo café</h1><p style="margin:0 0 12px;line-height:1.6">Spring is here: the terrace opens on Saturday, and the new seasonal menu starts with it.</p><p style="margin:0;line-height:1.6">Thank you for reading, and see you soon.</p></td></tr></table>`,
    ],
  );
}

/** Runs the public shots for one locale in a context with no session. */
export async function shootPublic(
  browser: Browser,
  base: string,
  ctx: PublicContext,
  shoot: (page: Page, name: string, width: number, fullPage: boolean) => Promise<string>,
  widths: readonly number[],
  only?: string[],
): Promise<{ files: string[]; checks: Check[] }> {
  const files: string[] = [];
  const checks: Check[] = [];
  // the demo blocks speak the locale being photographed (the page follows the block's language)
  await ctx.db.query('update public.blocks set language = $1 where owner_id = $2', [
    ctx.locale,
    DEMO_ID,
  ]);
  await ensureLetter(ctx.db);
  try {
    for (const shot of PUBLIC_SHOTS) {
      if (only && !only.includes(shot.name)) continue;
      for (const width of widths) {
        const context = await browser.newContext({
          locale: ctx.locale === 'ko' ? 'ko-KR' : 'en-US',
          viewport: { width, height: width > 800 ? 900 : 812 },
        });
        const page = await context.newPage();
        page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
        try {
          await shot.before?.(page);
          const path = typeof shot.path === 'string' ? shot.path : await shot.path(ctx);
          await page.goto(`${base}${path}${path.includes('?') ? '&' : '?'}locale=${ctx.locale}`);
          await shot.ready(page);
          await page.evaluate(() => document.fonts.ready);
          await page.waitForTimeout(300);
          files.push(await shoot(page, shot.name, width, shot.fullPage ?? false));
          checks.push(await check(page, `${shot.name}-${ctx.locale}-${width}`));
        } catch (error) {
          await shoot(page, `${shot.name}-FAILED`, width, false).catch(() => '');
          throw error;
        } finally {
          await shot.after?.(ctx);
          await context.close();
        }
      }
    }
  } finally {
    await ctx.db.query("update public.blocks set language = 'en' where owner_id = $1", [DEMO_ID]);
  }
  return { files, checks };
}

export interface Check {
  shot: string;
  /** Layout shift so far (what the visitor saw move while the page loaded), no input counted. */
  cls: number;
  /** axe rule ids that failed, with their impact. */
  axe: string[];
}

/** axe's findings on the page as it is now: each failed rule's id with its impact. */
export async function axeFindings(page: Page, shot: string): Promise<string[]> {
  // axe waits for every frame to answer, and a letter's frame is sandboxed with no scripts: such a
  // page is checked without its frames (their HTML is the owner's mail, not ours)
  const builder = new AxeBuilder({ page });
  const frames = page.locator('iframe[sandbox]:not([sandbox*="allow-scripts"])');
  if (/letter/.test(shot) || (await frames.count())) builder.setLegacyMode(true);
  const result = await builder.analyze();
  // the rule, its impact and where (the first node), so a finding can be found
  return result.violations.map(
    (v) => `${v.id} (${v.impact}) at ${v.nodes[0]?.target.join(' > ') ?? '?'}`,
  );
}

/** What a look cannot tell: the layout shift so far and axe's findings, for the run's report. */
async function check(page: Page, shot: string): Promise<Check> {
  // the total, and what moved (each shift's nodes, from where to where) when anything did; a
  // string, not a function: tsx's transform would add helpers (__name) the page does not have
  const [cls, moved] = await page.evaluate<[number, string[]]>(`new Promise((done) => {
    let total = 0;
    const what = [];
    const name = (node) =>
      node instanceof Element
        ? node.localName + (node.className ? '.' + String(node.className).split(' ')[0] : '')
        : (node ? node.nodeName : '?');
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (!entry.hadRecentInput) {
          total += entry.value;
          what.push(entry.value.toFixed(4) + ': ' + (entry.sources || []).map((s) =>
            name(s.node) + ' y ' + Math.round(s.previousRect.y) + '->' + Math.round(s.currentRect.y) +
            ' h ' + Math.round(s.previousRect.height) + '->' + Math.round(s.currentRect.height)).join(', '));
        }
    }).observe({ type: 'layout-shift', buffered: true });
    setTimeout(() => done([total, what]), 50);
  })`);
  if (cls > 0) console.log(`  moved in ${shot}: ${moved.join(' | ')}`);
  const axe = await axeFindings(page, shot);
  console.log(`check ${shot}: CLS ${cls.toFixed(4)}, axe ${axe.length ? axe.join(', ') : 'clean'}`);
  return { shot, cls, axe };
}
