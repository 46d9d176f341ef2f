// The writer's profile (core/identity.ts) comes with the writer's code on the visitor's first
// interaction. A visitor who types their name and website, and leaves the fields, before it is
// here keeps what they typed: the fields, the post and the profile say it, not the profile's
// random animal name, which the composer takes when the profile's code comes (takeProfile), before
// the write paths (comment.writer.ts) that keep what was typed. In a browser of its own (the
// web-test-runner group first-interaction), so nothing has the profile's code in its cache; it is
// imported here only once the test has held and released it.
import { expect } from '@open-wc/testing';
import './comment.js';
import type ReactionComment from './comment.component.js';
import { message } from '../../test/fixtures.js';
import { $, block, mockApi, type, until, wait } from '../../test/mock-api.js';
import { mountReady } from '../../test/mount.js';
import { holdNext, modulePath, release, requested, itLate } from '../../test/request-control.js';

const IDENTITY = modulePath('../../core/identity.js', import.meta.url);
const PATHS = modulePath('./comment.writer.js', import.meta.url);
/** Waits for this page's first request for `path`. */
async function requestedOnce(path: string) {
  for (let n = 0; (await requested(path)) !== 1; n++)
    if (n > 200) throw new Error('the focus did not start loading ' + path);
}

describe("a name typed before the writer's profile arrives", () => {
  itLate('wins over the animal name: in the field, the post and the profile', async () => {
    const api = mockApi({
      get_block_view: () => ({ block: block({ type: 'comment' }), messages: [], me: {} }),
      post_message: (b) =>
        message('new', {
          creator_name: b.p_creator_name as string,
          home_url: b.p_home_url as string,
        }),
    });
    try {
      const el = await mountReady<ReactionComment>('reaction-comment');
      const name = $<HTMLInputElement>(el, '[part=name]');
      const home = $<HTMLInputElement>(el, '[part=home]');
      expect(await requested(IDENTITY), 'a reader loads no profile').to.equal(0);
      await holdNext(IDENTITY);
      await holdNext(PATHS);
      // the focus on the name field (the first interaction) starts loading the profile's code and
      // the write paths
      name.dispatchEvent(new FocusEvent('focusin', { bubbles: true, composed: true }));
      await requestedOnce(IDENTITY);
      await requestedOnce(PATHS);
      type(name, ' Kim ');
      type(home, 'kim.example');
      await el.updateComplete;
      expect(name.value).to.equal('Kim');
      // the profile's code first (the composer takes the profile), then the write paths
      await release(IDENTITY);
      await wait(100);
      await release(PATHS);
      await until(() => el['paths'], 10000);
      await wait(50);
      await el.updateComplete;
      const { getIdentity } = await import('../../core/identity.js');
      expect(name.value, 'the name field').to.equal('Kim');
      expect(home.value, 'the website field').to.equal('kim.example');
      expect(getIdentity(), 'the profile').to.include({
        name: 'Kim',
        homeUrl: 'https://kim.example',
      });
      type($<HTMLTextAreaElement>(el, '[part=composer] textarea'), 'hi');
      await el.updateComplete;
      $<HTMLButtonElement>(el, '[part=composer] [part=submit]').click();
      await until(() => api.rpcCalls().some((c) => c.name === 'post_message'), 10000);
      expect(api.rpcCalls().find((c) => c.name === 'post_message')!.body).to.include({
        p_creator_name: 'Kim',
        p_home_url: 'https://kim.example',
      });
    } finally {
      api.restore();
    }
  });
});
