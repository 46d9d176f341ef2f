// End-to-end: the built CDN bundle against the real local stack (PostgREST RPCs, local Auth,
// Realtime), driven in Chromium. Run: npm run build && npm run e2e (in sdk/).
// Starts its own stack on free ports with a throwaway data directory.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import pg from 'pg';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Page } from 'playwright-core';
import { startThrowawayStack } from '../../supabase/local/throwaway.ts';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { journeySteps } from '../../scripts/journey-steps.ts';
import { eventually } from '../../scripts/poll.ts';
import { watchBrowser } from '../../scripts/console-watch.ts';
import { signInOwner } from '../../scripts/bench/support.ts';
import {
  examplePageReady,
  formFirstPage,
  launchRewriting,
  loadedFormHeight,
  measureLayoutShift,
} from './layout-shift.ts';
import { buildConsumerApp, type ConsumerApp } from './consumer.ts';

const repo = resolve(import.meta.dirname, '../..');
// this release's CDN folder, where the loader finds the elements
const release = `/sdk/dist/cdn/v${(JSON.parse(readFileSync(join(repo, 'sdk/package.json'), 'utf8')) as { version: string }).version}`;
const { step, fail, finish } = journeySteps();

// the packed package in a fresh app, built while the stack starts (e2e/consumer.ts)
const consumer: Promise<ConsumerApp | Error> = buildConsumerApp().catch((e: Error) => e);

const stack = await startThrowawayStack('e2e');
let web: Server | undefined;
let consumerDir = '';
const browser = await chromium.launch(chromiumLaunchOptions);
// every page's console errors and warnings (scripts/console-watch.ts), checked by the last step;
// a step that causes some on purpose takes out what it expects (the missing block's)
const consoleProblems: string[] = [];
watchBrowser(browser, consoleProblems, 'sdk e2e');
try {
  const db = new pg.Client({ connectionString: stack.dbUrl });
  db.on('error', () => {});
  await db.connect();
  const q = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    (await db.query(text, params)).rows as T[];

  // The owner (made with the admin API and signed in by a generated link, as email sign-up is
  // off); blocks are set up directly in SQL.
  const owner = await signInOwner(stack, `owner-${Date.now()}@test.local`, 'Olivia Owner');
  assert.ok(owner.user?.id, 'owner sign-up');
  await q('update public.profiles set paid = true, block_limit = 100 where id = $1', [
    owner.user.id,
  ]);
  const block = async (type: string, extra: Record<string, unknown> = {}) => {
    const cols = ['owner_id', 'type', ...Object.keys(extra)];
    const vals = [owner.user.id, type, ...Object.values(extra)];
    const [row] = await q<{ id: string }>(
      `insert into public.blocks (${cols.join(',')}) values (${cols.map((_, i) => '$' + (i + 1)).join(',')}) returning id`,
      vals,
    );
    return row!.id;
  };
  const ids = {
    comment: await block('comment', { welcome_message: 'Say hi' }),
    members: await block('comment', { block_anonymous: true }),
    qna: await block('qna', { qna_subject: 'Ask me', owner_name: 'Olivia' }),
    like: await block('like'),
    button: await block('button', {
      button_text: 'Visit',
      url_to_open: 'https://example.com',
      show_count: true,
    }),
    ab: await block('ab'),
    form: await block('form', { submit_button_text: 'Send' }),
  };
  const question = async (
    blockId: string,
    type: string,
    title: string,
    index: number,
    required = true,
  ) =>
    (
      await q<{ id: string }>(
        'insert into public.questions (block_id, type, title, index, required) values ($1,$2,$3,$4,$5) returning id',
        [blockId, type, title, index, required],
      )
    )[0]!.id;
  const option = async (blockId: string, questionId: string, value: string, index: number) =>
    (
      await q<{ id: string }>(
        'insert into public.options (block_id, question_id, value, index) values ($1,$2,$3,$4) returning id',
        [blockId, questionId, value, index],
      )
    )[0]!.id;
  // An ab block is created with its question and the options Good and Bad.
  await q("update public.questions set title = 'Cats or dogs?' where block_id = $1", [ids.ab]);
  const [bad] = await q<{ id: string }>(
    "select o.id from public.options o where o.block_id = $1 and o.value = 'Bad'",
    [ids.ab],
  );
  const pollQ = await question(ids.form, 'poll', 'Pick one', 0);
  await option(ids.form, pollQ, 'Red', 0);
  const blue = await option(ids.form, pollQ, 'Blue', 1);
  await question(ids.form, 'mail', 'Email', 1, false);
  const [ending] = await q<{ id: string }>(
    "insert into public.endings (block_id, title, index) values ($1, 'Blue it is', 1) returning id",
    [ids.form],
  );
  await q(
    "insert into public.ending_conditions (ending_id, block_id, question_id, type, value) values ($1,$2,$3,'equal',$4)",
    [ending!.id, ids.form, pollQ, blue],
  );

  // A static page per block with the CDN script tag, served with the built bundle.
  const pageFor = (
    tag: string,
    id: string,
  ) => `<!doctype html><html lang="en"><head><title>${tag}</title>
    <script src="/sdk/dist/cdn/reaction.js" data-project-url="${stack.apiUrl}" data-anon-key="${stack.anonKey}" defer></script></head>
    <body><${tag} owner-id="${owner.user.id}" block-id="${id}"></${tag}></body></html>`;
  web = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/page')
      return res.end(pageFor(url.searchParams.get('tag')!, url.searchParams.get('id')!));
    // the docs' script tag: this release's loader pinned with its integrity
    if (url.pathname === '/pinned') {
      const loader = readFileSync(join(repo, release, 'reaction.js'));
      const integrity = 'sha384-' + createHash('sha384').update(loader).digest('base64');
      return res.end(`<!doctype html><html lang="en"><head><title>pinned</title>
        <script src="${release}/reaction.js" integrity="${integrity}" crossorigin="anonymous" data-project-url="${stack.apiUrl}" data-anon-key="${stack.anonKey}"></script></head>
        <body><reaction-like block-id="${url.searchParams.get('id')}"></reaction-like></body></html>`);
    }
    // a page whose browser holds a loader from before the release folders: it imports the
    // element file beside the loader, dist/cdn/like.js
    if (url.pathname === '/old-loader')
      return res.end(`<!doctype html><html lang="en"><head><title>old</title>
        <script>window.ReactionBlocks = { projectUrl: ${JSON.stringify(stack.apiUrl)}, anonKey: ${JSON.stringify(stack.anonKey)} };</script>
        <script type="module">import('/sdk/dist/cdn/like.js');</script></head>
        <body><reaction-like block-id="${url.searchParams.get('id')}"></reaction-like></body></html>`);
    // a page with a like and a comment: the loader takes their files in shared/
    if (url.pathname === '/two')
      return res.end(`<!doctype html><html lang="en"><head><title>two</title>
        <script src="/sdk/dist/cdn/reaction.js" data-project-url="${stack.apiUrl}" data-anon-key="${stack.anonKey}" defer></script></head>
        <body><reaction-like block-id="${ids.like}"></reaction-like>
        <reaction-comment block-id="${ids.comment}"></reaction-comment></body></html>`);
    // a blog's index page: a count under every post
    if (url.pathname === '/counts')
      return res.end(`<!doctype html><html lang="en"><head><title>posts</title>
        <script src="/sdk/dist/cdn/reaction.js" data-project-url="${stack.apiUrl}" data-anon-key="${stack.anonKey}"></script></head>
        <body><ul>${url.searchParams
          .get('ids')!
          .split(',')
          .map((id) => `<li>Post <reaction-count block-id="${id}"></reaction-count></li>`)
          .join('')}</ul></body></html>`);
    if (url.pathname.startsWith('/consumer/') && consumerDir) {
      const file = join(consumerDir, url.pathname.slice('/consumer/'.length).replace(/\.\./g, ''));
      if (existsSync(file)) {
        res.setHeader('content-type', file.endsWith('.html') ? 'text/html' : 'text/javascript');
        return res.end(readFileSync(file));
      }
    }
    // the host pages have no icon: no 404 on the console for the browser's own request
    if (url.pathname === '/favicon.ico') {
      res.statusCode = 204;
      return res.end();
    }
    const file = join(repo, url.pathname);
    if (url.pathname.startsWith('/sdk/dist/') && existsSync(file)) {
      res.setHeader('content-type', 'text/javascript');
      return res.end(readFileSync(file));
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => web!.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(web.address() as { port: number }).port}`;

  /** A page in a browser context of its own, and every address it asks for (on `origin`: the path). */
  const watchedPage = async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const seen: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      seen.push(url.origin === origin ? url.pathname + url.search : url.href);
    });
    return { ctx, page, seen };
  };

  const open = async (tag: string, id: string, asOwner = false): Promise<Page> => {
    const ctx = await browser.newContext();
    if (asOwner)
      await ctx.addInitScript(({ key, session }) => localStorage.setItem(key, session), {
        key: 'reaction-blocks.session:' + stack.apiUrl,
        session: JSON.stringify({ ...owner, user: { ...owner.user, is_anonymous: false } }),
      });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.error(tag, 'pageerror', e.message));
    await page.goto(`${origin}/page?tag=${tag}&id=${id}`);
    await page.locator(`${tag} [part~=base]`).first().waitFor();
    return page;
  };

  /**
   * `<tag>` of block `id` in a browser context of its own, whose requests for the chunk named
   * `chunk` ('writer-', 'rich-'...) fail as offline until `online()`; once online, a request waits
   * for `gate` (when given) before it goes through. `asked` lists those requests. `done()` closes
   * the context and asserts that the console saw only what the cut-off causes: Chromium's failed
   * loads of that chunk and the SDK's warnings to the site owner (they leave the console check).
   */
  const withChunkOffline = async (tag: string, id: string, chunk: string, gate?: Promise<void>) => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const asked: string[] = [];
    let offline = true;
    const seenBefore = consoleProblems.length;
    await page.route(
      (u) => u.pathname.includes(`/chunks/${chunk}`),
      async (route) => {
        asked.push(route.request().url());
        if (offline) return route.abort('internetdisconnected');
        await gate;
        return route.continue();
      },
    );
    await page.goto(`${origin}/page?tag=${tag}&id=${id}`);
    const failedLoad = new RegExp(
      `Failed to load resource: net::ERR_INTERNET_DISCONNECTED .*/chunks/${chunk.replace(/\./g, '\\.')}`,
    );
    return {
      page,
      asked,
      online: () => void (offline = false),
      done: async () => {
        await ctx.close();
        const caused = consoleProblems.splice(seenBefore);
        assert.deepEqual(
          caused.filter(
            (line) =>
              !failedLoad.test(line) &&
              !/\[reaction-blocks\] (could not load|Couldn't reach the server)/.test(line),
          ),
          [],
        );
      },
    };
  };

  await step('like: toggles, writes once per visitor, survives reload', async () => {
    const page = await open('reaction-like', ids.like);
    const btn = page.locator('reaction-like [part=button]');
    const written = page.waitForResponse((r) => r.url().endsWith('/rpc/toggle_block_like'));
    await btn.click();
    assert.equal((await written).status(), 200);
    await page.waitForFunction(() =>
      document.querySelector('reaction-like')!.shadowRoot!.textContent!.includes('1 Like'),
    );
    await page.reload();
    await page.locator('reaction-like [part=button][aria-pressed=true]').waitFor();
    assert.equal(
      (
        await q<{ like_count: number }>('select like_count from public.blocks where id=$1', [
          ids.like,
        ])
      )[0]!.like_count,
      1,
    );
    await page.locator('reaction-like [part=button]').click();
    await page.waitForFunction(() =>
      document.querySelector('reaction-like')!.shadowRoot!.textContent!.includes('0 Likes'),
    );
    await page.context().close();
  });

  await step(
    "like: the writer's code loads on the first interaction; when it fails, the error shows and the next click sends the like",
    async () => {
      const {
        page,
        asked: writer,
        online,
        done,
      } = await withChunkOffline('reaction-like', await block('like'), 'writer-');
      const btn = page.locator('reaction-like [part=button]');
      await btn.waitFor();
      assert.deepEqual(writer, [], 'the writer is not loaded before the first interaction');
      await btn.click();
      await page
        .locator('reaction-like [part=error]', { hasText: "Couldn't reach the server" })
        .waitFor();
      await page.locator('reaction-like [part=button][aria-pressed=false]').waitFor();
      online();
      const written = page.waitForResponse((r) => r.url().endsWith('/rpc/toggle_block_like'));
      await btn.click();
      assert.equal((await written).status(), 200);
      await page
        .locator('reaction-like [part=button][aria-pressed=true]', { hasText: '1 Like' })
        .waitFor();
      assert.equal(await page.locator('reaction-like [part=error]').count(), 0);
      assert.ok(writer.length >= 2, writer.join(', '));
      await done();
    },
  );

  await step('button: records the click', async () => {
    const page = await open('reaction-button', ids.button);
    await page.evaluate(() =>
      document.addEventListener('reaction-click', (e) => e.preventDefault()),
    );
    await page.locator('reaction-button [part=button]').click();
    await page.locator('reaction-button [part=count]', { hasText: '1' }).waitFor();
    await page.context().close();
  });

  await step(
    'ab: a click votes and shows counts; option count in the same transaction; a reload shows the vote',
    async () => {
      const page = await open('reaction-ab', ids.ab);
      await page.locator('reaction-ab [part=option]', { hasText: 'Bad' }).click();
      await page.locator('reaction-ab [part=result]').first().waitFor();
      assert.equal(
        (
          await q<{ response_count: number }>(
            'select response_count from public.options where id=$1',
            [bad!.id],
          )
        )[0]!.response_count,
        1,
      );
      // After a reload the view tells the visitor their vote (me.vote): the counts show at once.
      await page.reload();
      await page
        .locator('reaction-ab [part=option][aria-pressed=true]', { hasText: 'Bad' })
        .waitFor();
      await page.locator('reaction-ab [part=result]', { hasText: '1 vote · 100%' }).waitFor();
      await page.context().close();
    },
  );

  await step('form: Required, then the ending whose condition holds', async () => {
    const page = await open('reaction-form', ids.form);
    await page.locator('reaction-form [part=submit]').click();
    await page.locator('reaction-form [part=field-error]', { hasText: 'Required' }).waitFor();
    await page
      .locator('reaction-form [part=invalid]', { hasText: 'Please check response' })
      .waitFor();
    await page.locator('reaction-form [part=choice]', { hasText: 'Blue' }).click();
    await page.locator('reaction-form [part=submit]').click();
    await page.locator('reaction-form [part=ending-title]', { hasText: 'Blue it is' }).waitFor();
    const [r] = await q<{ n: number }>(
      "select count(*)::int n from public.responses where block_id=$1 and kind='form'",
      [ids.form],
    );
    assert.equal(r!.n, 1);
    await page.context().close();
  });

  await step(
    "form with a description: its sanitiser's chunk loads before the form shows; when it fails, Try again shows the form",
    async () => {
      const id = await block('form', { submit_button_text: 'Send' });
      const d = await question(id, 'description', 'About', 0, false);
      await q("update public.questions set content = '<p>Hello <b>there</b></p>' where id = $1", [
        d,
      ]);
      await question(id, 'short_text', 'Name', 1, false);
      const {
        page,
        asked: rich,
        online,
        done,
      } = await withChunkOffline('reaction-form', id, 'rich-');
      const retry = page.locator('reaction-form button', { hasText: 'Try again' });
      await retry.waitFor();
      assert.equal(await page.locator('reaction-form [part=input]').count(), 0);
      online();
      await retry.click();
      await page.locator('reaction-form [part=description] b', { hasText: 'there' }).waitFor();
      await page.locator('reaction-form [part=input]').waitFor();
      assert.ok(rich.length >= 2, rich.join(', '));
      await done();
    },
  );

  await step('comment: post appears live in a second viewer; HTML stays text', async () => {
    const a = await open('reaction-comment', ids.comment);
    const b = await open('reaction-comment', ids.comment);
    await b.waitForTimeout(500); // realtime joined
    await a
      .locator('reaction-comment [part=composer] textarea')
      .fill('<b>hi</b> from A https://example.com');
    await a.locator('reaction-comment [part=composer] [part=submit]').click();
    await a.locator('reaction-comment [part=message] [part=label]', { hasText: 'Me' }).waitFor();
    await b
      .locator('reaction-comment [part=content]', { hasText: '<b>hi</b> from A' })
      .waitFor({ timeout: 5000 });
    assert.equal(await b.locator('reaction-comment [part=content] b').count(), 0);
    assert.equal(
      await b
        .locator('reaction-comment [part=content] a[rel="noopener noreferrer nofollow ugc"]')
        .count(),
      1,
    );
    // B replies; A sees the reply live
    await b.locator('reaction-comment [part=actions] button', { hasText: 'Reply' }).first().click();
    await b.locator('reaction-comment [part=message] form textarea').fill('reply from B');
    await b.locator('reaction-comment [part=message] form [type=submit]').click();
    await a
      .locator('reaction-comment [part=replies] [part=content]', { hasText: 'reply from B' })
      .waitFor({ timeout: 5000 });
    // A edits its message; B cannot edit it
    assert.equal(
      await b.locator('reaction-comment [part=actions] button', { hasText: 'Edit' }).count(),
      1,
    ); // its own reply only
    await a.context().close();
    await b.context().close();
  });

  await step(
    "comment: a message's Reply waits for the write paths: when they fail to load, the reason shows at the message; the next try (by keyboard) opens the form once they arrive",
    async () => {
      // once back online, the write paths' next request waits until `arrive` is called
      let arrive = () => {};
      const late = new Promise<void>((r) => (arrive = r));
      const {
        page,
        asked: paths,
        online,
        done,
      } = await withChunkOffline('reaction-comment', ids.comment, 'comment.writer-', late);
      const reply = page
        .locator('reaction-comment [part=actions] button', { hasText: 'Reply' })
        .first();
      await reply.waitFor();
      assert.deepEqual(paths, [], 'the write paths are not loaded before the first interaction');
      await reply.click();
      await page
        .locator('reaction-comment [part=message] [part=error]', {
          hasText: "Couldn't reach the server",
        })
        .waitFor();
      assert.equal(await page.locator('reaction-comment [part=message] form').count(), 0);
      // back online, by keyboard, before the write paths arrive: the form opens once they do
      online();
      const asked = paths.length;
      await reply.press('Enter');
      await eventually(
        () => paths.length > asked,
        60_000,
        'the key to ask for the write paths',
        50,
      );
      assert.equal(await page.locator('reaction-comment [part=message] form').count(), 0);
      arrive();
      await page.locator('reaction-comment [part=message] form textarea').waitFor();
      assert.equal(await reply.getAttribute('aria-expanded'), 'true');
      assert.ok(paths.length >= 2, paths.join(', '));
      await done();
    },
  );

  await step(
    'sign-in popup: Google through the local consent page returns to the host page',
    async () => {
      const page = await open('reaction-comment', ids.members);
      await page
        .locator('reaction-comment [part=overlay]', {
          hasText: 'Please sign in to leave a message.',
        })
        .waitFor();
      const [popup] = await Promise.all([
        page.waitForEvent('popup'),
        page
          .locator('reaction-comment [part=overlay] button', { hasText: 'Sign in with Google' })
          .click(),
      ]);
      await popup.locator('button[value=allow]').click();
      await popup.waitForEvent('close', { timeout: 10000 });
      await page.locator('reaction-comment [part=overlay]').waitFor({ state: 'detached' });
      const session = await page.evaluate(() =>
        Object.keys(localStorage).find((k) => k.startsWith('reaction-blocks.session:')),
      );
      assert.ok(session, 'session stored');
      await page.locator('reaction-comment [part=composer] textarea').fill('signed-in message');
      await page.locator('reaction-comment [part=composer] [part=submit]').click();
      await page
        .locator('reaction-comment [part=content]', { hasText: 'signed-in message' })
        .waitFor();
      const [m] = await q<{ creator_name: string }>(
        'select creator_name from public.messages where block_id = $1',
        [ids.members],
      );
      assert.notEqual(m!.creator_name, '');
      await page.context().close();
    },
  );

  await step(
    'qna: a visitor asks, the owner sees it live, resolves it and deletes it',
    async () => {
      const ownerPage = await open('reaction-qna', ids.qna, true);
      await ownerPage.locator('reaction-qna [part=subject]', { hasText: 'Ask me' }).waitFor();
      const visitor = await open('reaction-qna', ids.qna);
      await ownerPage.waitForTimeout(500);
      await visitor.locator('reaction-qna [part=composer] textarea').fill('Is it free?');
      await visitor.locator('reaction-qna [part=composer] [part=submit]').click();
      const question = ownerPage.locator('reaction-qna [part=message]', { hasText: 'Is it free?' });
      await question.waitFor({ timeout: 5000 });
      assert.equal(
        await visitor
          .locator('reaction-qna [part=actions] button', { hasText: 'Mark resolved' })
          .count(),
        0,
      );
      await question.locator('[part=actions] button', { hasText: 'Mark resolved' }).click();
      await visitor
        .locator('reaction-qna [part=message] [part=label]', { hasText: 'Resolved' })
        .waitFor({ timeout: 5000 });
      const [row] = await q<{ resolved: boolean }>(
        'select resolved from public.messages where block_id = $1',
        [ids.qna],
      );
      assert.equal(row!.resolved, true);
      await question.locator('[part=actions] button', { hasText: 'Delete' }).click();
      await question.locator('button', { hasText: 'Delete' }).click();
      await visitor
        .locator('reaction-qna [part=message]', { hasText: 'Is it free?' })
        .waitFor({ state: 'detached', timeout: 5000 });
      await ownerPage.context().close();
      await visitor.context().close();
    },
  );

  await step('a deactivated or missing block is "not available"; en and ko', async () => {
    const off = await block('like');
    // (the insert trigger starts every block active)
    await q('update public.blocks set deactivated = true where id = $1', [off]);
    const seenBefore = consoleProblems.length;
    for (const [id, lang, text] of [
      [off, 'en', 'This block is not available.'],
      ['00000000-0000-4000-8000-00000000dead', 'en', 'This block is not available.'],
      [off, 'ko', '사용할 수 없는 블록입니다.'],
    ]) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto(`${origin}/page?tag=reaction-like&id=${id}`);
      if (lang === 'ko')
        await page.evaluate(() =>
          document.querySelector('reaction-like')!.setAttribute('lang', 'ko'),
        );
      await page.locator('reaction-like [part=base][role=status]', { hasText: text }).waitFor();
      await ctx.close();
    }
    // what this step causes on purpose, and only that: the API's 404 for each page (Chromium
    // logs it) and the SDK's one warning to the site owner; taken out of the console check
    const caused = consoleProblems.splice(seenBefore);
    const expected = [
      /console error: Failed to load resource: .* 404 .*\/rpc\/get_block_public\?p_block_id=/,
      /console warning: \[reaction-blocks\] block doesn't exists/,
    ];
    assert.deepEqual(
      caused.filter((line) => !expected.some((e) => e.test(line))),
      [],
    );
    assert.equal(caused.filter((line) => expected[1]!.test(line)).length, 3);
  });

  await step(
    'examples/html: the six seeded demo blocks render through the CDN script',
    async () => {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const scripts: string[] = [];
      page.on('request', (r) => r.url().endsWith('.js') && scripts.push(new URL(r.url()).pathname));
      await page.goto(stack.webUrl + '/examples/html/index.html');
      for (const tag of ['comment', 'qna', 'like', 'button', 'ab', 'form'])
        await page.locator(`reaction-${tag} [part~=base]`).first().waitFor({ timeout: 10000 });
      // all six on one page: six.js, one file (the loader's choice for a form with a comment)
      assert.deepEqual(
        scripts.filter((u) => /\/v[^/]+\/[^/]+\.js$/.test(u) && !u.endsWith('/reaction.js')),
        [scripts.find((u) => u.endsWith('/six.js'))],
        scripts.join(', '),
      );
      await page.locator('reaction-button [part=button]', { hasText: 'Read the docs' }).waitFor();
      await page.locator('reaction-form [part=submit]', { hasText: 'Send feedback' }).waitFor();
      await page
        .locator('reaction-qna [part=subject]', {
          hasText: 'Ask me anything about Reaction Blocks',
        })
        .waitFor();
      assert.deepEqual(errors, []);
      // E2E_SCREENSHOT=file.png keeps a picture of the page, for a look at the styling.
      if (process.env.E2E_SCREENSHOT)
        await page.screenshot({ path: process.env.E2E_SCREENSHOT, fullPage: true });
      await ctx.close();
    },
  );

  await step(
    'examples/hosts: the six blocks on the three host pages, axe clean in light, dark and custom',
    async () => {
      for (const host of ['blog', 'product', 'notion'])
        for (const theme of ['light', 'dark', 'custom']) {
          const ctx = await browser.newContext();
          const page = await ctx.newPage();
          const errors: string[] = [];
          page.on('pageerror', (e) => errors.push(e.message));
          await page.goto(`${stack.webUrl}/examples/hosts/${host}.html?theme=${theme}`);
          await examplePageReady(page);
          const { violations } = await new AxeBuilder({ page }).analyze();
          assert.deepEqual(
            violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
            [],
            `${host} ${theme}`,
          );
          assert.deepEqual(errors, [], `${host} ${theme}`);
          await ctx.close();
        }
    },
  );

  await step(
    'examples/html: no layout shift while the blocks load (1440, 375, and 1000x3200 with all six in view)',
    async () => {
      // CLS is not time: the page must not move, whatever the machine's speed. The added latency
      // keeps the loading state on screen, as on a real network.
      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 375, height: 812 },
        // every block in view: any block that grows moves those under it (issue 22)
        { width: 1000, height: 3200 },
      ]) {
        const { cls } = await measureLayoutShift(
          browser,
          stack.webUrl + '/examples/html/index.html',
          {
            viewport,
            latencyMs: 150,
            ready: examplePageReady,
          },
        );
        // 0 measured; a thousandth of slack for sub-pixel rounding
        assert.ok(cls < 0.001, `CLS ${cls.toFixed(4)} at ${viewport.width}x${viewport.height}`);
      }
      // a form longer than its skeleton, first on the page, with its height said by the page (a
      // rewritten page: a browser of its own)
      const url = stack.webUrl + '/examples/html/index.html';
      const viewport = { width: 1000, height: 3200 };
      const rewriting = await launchRewriting();
      try {
        const hint = await loadedFormHeight(rewriting, url, viewport);
        const { cls } = await measureLayoutShift(rewriting, url, {
          viewport,
          latencyMs: 150,
          ...formFirstPage(hint),
        });
        assert.ok(cls < 0.001, `CLS ${cls.toFixed(4)}, a ${hint} px form first, with its hint`);
      } finally {
        await rewriting.close();
      }
    },
  );

  await step(
    'count: an index page of counts makes one API call, cacheable, with the counts the blocks show',
    async () => {
      const { ctx, page, seen } = await watchedPage();
      const missing = '00000000-0000-4000-8000-00000000dead';
      const list = [ids.comment, ids.qna, ids.like, ids.button, ids.ab, ids.form, missing];
      await page.goto(`${origin}/counts?ids=${list.join(',')}`);
      const counts = page.locator('reaction-count');
      await page.waitForFunction(() =>
        [...document.querySelectorAll('reaction-count')]
          .slice(0, 6)
          .every((el) => el.hasAttribute('data-count')),
      );
      const texts = await counts.evaluateAll((els) =>
        els.map((el) => el.shadowRoot!.querySelector('[part=base]')!.textContent),
      );
      const now = async (id: string) =>
        (
          await q<{ r: number; l: number }>(
            'select (c).response_count as r, (c).like_count as l from (select private.with_live_counts(b) c from public.blocks b where b.id = $1) x',
            [id],
          )
        )[0]!;
      const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
      assert.deepEqual(texts, [
        plural((await now(ids.comment)).r, 'comment'),
        plural((await now(ids.qna)).r, 'comment'),
        plural((await now(ids.like)).l, 'like'),
        plural((await now(ids.button)).r, 'response'),
        plural((await now(ids.ab)).r, 'response'),
        plural((await now(ids.form)).r, 'response'),
        '',
      ]);
      const api = seen.filter((u) => u.startsWith(stack.apiUrl));
      assert.equal(api.length, 1, api.join(', '));
      assert.match(api[0]!, /\/rest\/v1\/rpc\/get_block_counts\?p_block_ids=/);
      assert.deepEqual(
        seen.filter((u) => u.endsWith('.js')),
        ['/sdk/dist/cdn/reaction.js', `${release}/count.js`],
      );
      await ctx.close();
    },
  );

  await step('first data: 2 script requests and 1 API call', async () => {
    const { ctx, page, seen } = await watchedPage();
    await page.goto(`${origin}/page?tag=reaction-like&id=${ids.like}`);
    await page.locator('reaction-like [part=button]').waitFor();
    const scripts = seen.filter((u) => u.endsWith('.js'));
    const api = seen.filter((u) => u.startsWith(stack.apiUrl));
    assert.deepEqual(scripts, ['/sdk/dist/cdn/reaction.js', `${release}/like.js`]);
    assert.equal(api.length, 1, api.join(', '));
    await ctx.close();
  });
  await step(
    'a page with a like and a comment: their files in shared/, Lit and the core loaded once',
    async () => {
      const { ctx, page, seen } = await watchedPage();
      await page.goto(`${origin}/two`);
      await page.locator('reaction-like [part=button]').waitFor();
      await page.locator('reaction-comment [part=composer]').waitFor();
      const scripts = seen.filter((u) => u.endsWith('.js'));
      assert.ok(scripts.includes(`${release}/shared/like.js`), scripts.join(', '));
      assert.ok(scripts.includes(`${release}/shared/comment.js`), scripts.join(', '));
      assert.deepEqual(
        scripts.filter(
          (u) => u !== '/sdk/dist/cdn/reaction.js' && !u.startsWith(`${release}/shared/`),
        ),
        [],
        'no self-contained element file, no block.js',
      );
      // Lit's lit-html and the elements' reactive base (core/element.ts, the one that attaches a
      // shadow root) are each in one of the files the page loaded
      for (const marker of ['litHtmlVersions', 'attachShadow']) {
        const holding = scripts.filter((u) =>
          readFileSync(join(repo, u.slice(1)), 'utf8').includes(marker),
        );
        assert.equal(holding.length, 1, `${marker}: ${holding.join(', ')}`);
      }
      await ctx.close();
    },
  );

  await step(
    'CDN versions: the pinned loader with its integrity, and the old element address, render a like block',
    async () => {
      for (const path of ['pinned', 'old-loader']) {
        const { ctx, page, seen } = await watchedPage();
        await page.goto(`${origin}/${path}?id=${ids.like}`);
        await page.locator('reaction-like [part=button]').waitFor();
        assert.ok(seen.includes(`${release}/like.js`), `${path}: ${seen.join(', ')}`);
        await ctx.close();
      }
    },
  );

  await step(
    'consumer app: the packed tarball, installed outside the workspace, type-checks strictly, builds with esbuild (and the like with rollup) within its budgets and renders <reaction-like> (npm import and React wrapper)',
    async () => {
      const app = await consumer;
      if (app instanceof Error) throw app;
      consumerDir = app.dir;
      console.log('consumer app sizes (gzip bytes before the element runs):', app.sizes);
      const query = new URLSearchParams({
        project: stack.apiUrl,
        key: stack.anonKey,
        block: ids.like,
      });
      for (const page of ['element', 'react']) {
        const ctx = await browser.newContext();
        const p = await ctx.newPage();
        const errors: string[] = [];
        p.on('pageerror', (e) => errors.push(e.message));
        await p.goto(`${origin}/consumer/${page}.html?${query}`);
        const button = p.locator('reaction-like [part=button]');
        await button.waitFor();
        // the typed event reaches the app's handler (it writes the page title)
        await button.click();
        await p.waitForFunction(() => document.title !== 'element' && document.title !== 'react');
        assert.deepEqual(errors, [], `${page}: page errors`);
        await ctx.close();
      }
    },
  );
  await step('no unexpected console errors or warnings on any page', async () => {
    for (const line of consoleProblems) console.error(`  ${line}`);
    assert.equal(consoleProblems.length, 0, `${consoleProblems.length} console line(s), above`);
  });
  await db.end();
} catch (e) {
  fail('e2e setup failed', e);
} finally {
  await browser.close();
  web?.close();
  await stack.stop();
  const app = await consumer;
  if (!(app instanceof Error)) app.remove();
}
finish();
