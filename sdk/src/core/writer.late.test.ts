// A visitor's first action before the writer's code (core/writer.ts) has arrived is not lost: it
// shows at once, waits for the code, and is sent once. Keyboard only: focusing the block starts
// the load. What a change does to the comment list (comment.changes.ts) comes after the first
// data, with realtime (comment.realtime.ts), or with the first change: a like on a message before it arrives shows once
// it does (tested before the comment's write paths, which bring it too), and Lit's repeat with it. In a browser of its own (the
// web-test-runner group first-interaction), so nothing has the writer's code in its cache; the code failing to load is tested on the built CDN files
// (e2e/stack.e2e.ts).
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../components/comment/comment.js';
import type ReactionComment from '../components/comment/comment.component.js';
import { message } from '../test/fixtures.js';
import { B1, $, KEY, PROJECT, block, mockApi, type, until } from '../test/mock-api.js';
import {
  holdNext,
  modulePath,
  mountLike,
  release,
  requested,
  requestedOnce,
  itLate,
} from '../test/request-control.js';

const WRITER = modulePath('./writer.js', import.meta.url);

describe('a click before the writer arrives', () => {
  itLate('shows at once, waits for the code, then sends the one like (keyboard only)', async () => {
    const { el, api, btn } = await mountLike();
    try {
      expect(await requested(WRITER)).to.equal(0);
      await holdNext(WRITER);
      // Tab to the button: the focus starts loading the writer's code
      await sendKeys({ press: 'Tab' });
      await until(() => el.shadowRoot!.activeElement === btn, 20000);
      await requestedOnce(WRITER, 'the focus');
      await sendKeys({ press: 'Enter' });
      await until(() => btn.getAttribute('aria-pressed') === 'true', 20000);
      expect(btn.textContent!.trim()).to.equal('8 Likes');
      expect(api.rpcNames()).to.deep.equal(['get_block_public']);
      await release(WRITER);
      await until(() => api.rpcNames().includes('toggle_block_like'), 20000);
      await until(() => btn.textContent!.trim() === '8 Likes' && !$(el, '[role=alert]'), 20000);
      expect(api.rpcNames().filter((n) => n === 'toggle_block_like')).to.have.length(1);
      expect(api.calls.find((c) => c.name === 'toggle_block_like')!.body.p_liked).to.equal(true);
      expect(await requested(WRITER)).to.equal(1);
      // the session the like made is sealed into localStorage before the like is sent (core/auth.ts
      // signUp), so it is there before the next test clears it
      await until(
        () => !!localStorage.getItem('reaction-blocks.session:' + PROJECT)?.startsWith('rb1.'),
        20000,
      );
    } finally {
      api.restore();
    }
  });
});

const CHANGES = modulePath('../components/comment/comment.changes.js', import.meta.url);

describe("a like before the comment list's changes arrive", () => {
  itLate(
    'shows once they are here (the dashboard preview: no realtime, nothing sent)',
    async () => {
      const api = mockApi({
        get_block_view: () => ({
          block: block({ type: 'comment' }),
          messages: [message('m1', { like_count: 2 }), message('m2')],
          me: {},
        }),
      });
      try {
        const el = await fixture<ReactionComment>(
          html`<reaction-comment
            dummy
            block-id=${B1}
            project-url=${PROJECT}
            anon-key=${KEY}
          ></reaction-comment>`,
        );
        const like = () => $<HTMLButtonElement>(el, '#m-m1 [aria-pressed]');
        const ids = () =>
          [...el.shadowRoot!.querySelectorAll('[part=list] > [part=message]')].map((m) => m.id);
        await until(() => like(), 20000);
        const drawnBefore = $(el, '#m-m2');
        // no realtime in dummy mode: the first change asks for the changes' code
        expect(await requested(CHANGES)).to.equal(0);
        await holdNext(CHANGES);
        like().click();
        await requestedOnce(CHANGES, 'the like');
        await el.updateComplete;
        expect(like().textContent!.trim()).to.equal('2 Likes');
        await release(CHANGES);
        await until(() => like().getAttribute('aria-pressed') === 'true', 20000);
        await until(() => like().textContent!.trim() === '3 Likes', 20000);
        expect(api.rpcNames()).to.deep.equal(['get_block_public']);

        // Lit's repeat comes with the changes (comment.live.ts byId): the list drawn by a plain
        // map before them is drawn again, once, by repeat, which from then on keeps a message's
        // DOM with it when the list moves: m2's like button (a keyboard visitor's focus) stays the
        // same when a message comes above (focusing it here would load the write paths)
        expect(drawnBefore.isConnected, 'drawn again by repeat').to.equal(false);
        expect(ids()).to.deep.equal(['m-m1', 'm-m2']);
        const kept = $<HTMLButtonElement>(el, '#m-m2 [aria-pressed]');
        el['applyChange']({
          type: 'INSERT',
          row: message('m0', { created_at: '2024-05-07T10:00:00Z' }),
        });
        await el.updateComplete;
        expect(ids()).to.deep.equal(['m-m0', 'm-m1', 'm-m2']);
        expect($(el, '#m-m2 [aria-pressed]') === kept, 'the same like button').to.equal(true);
      } finally {
        api.restore();
      }
    },
  );
});

describe("a comment sent before the comment's write paths arrive", () => {
  itLate('shows sending at once, then posts the one message', async () => {
    const PATHS = modulePath('../components/comment/comment.writer.js', import.meta.url);
    const api = mockApi({
      get_block_view: () => ({ block: block({ type: 'comment' }), messages: [], me: {} }),
      post_message: (b) => ({
        id: 'm-new',
        block_id: 'b1',
        parent_id: null,
        creator_id: 'anon',
        creator_name: b.p_creator_name,
        content: b.p_content,
        created_at: new Date().toISOString(),
      }),
    });
    try {
      const el = await fixture<HTMLElement>(
        html`<reaction-comment
          block-id=${B1}
          project-url=${PROJECT}
          anon-key=${KEY}
        ></reaction-comment>`,
      );
      await until(() => $(el, 'textarea'), 20000);
      expect(await requested(PATHS)).to.equal(0);
      await holdNext(PATHS);
      type($<HTMLTextAreaElement>(el, 'textarea'), 'First!');
      await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
      $<HTMLButtonElement>(el, '[part=submit]').click();
      // the spinner and a disabled Send while the code is on its way; nothing sent yet
      await until(() => $(el, '[part=submit] .spin'), 20000);
      expect($<HTMLButtonElement>(el, '[part=submit]').disabled).to.equal(true);
      expect(api.rpcNames()).to.deep.equal(['get_block_public']);
      await release(PATHS);
      await until(() => $(el, '#m-m-new'), 20000);
      expect(api.rpcNames().filter((n) => n === 'post_message')).to.have.length(1);
      expect($<HTMLTextAreaElement>(el, 'textarea').value).to.equal('');
    } finally {
      api.restore();
    }
  });
});
