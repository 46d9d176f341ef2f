// The writer's profile (core/identity.ts) comes with the writer's code on the visitor's first
// interaction. A visitor who types their name, website and email, and leaves the fields, before it
// is here keeps what they typed: the fields, the post and the profile say it, not the profile's
// random animal name (nor its empty website and email), which the composer takes when the
// profile's code comes (takeProfile), before the write paths (comment.writer.ts) that keep what was
// typed. In a browser of its own (the web-test-runner group first-interaction), so nothing has the
// profile's code in its cache; it is imported here only once the test has held and released it.
import { expect } from '@open-wc/testing';
import './comment.js';
import type ReactionComment from './comment.component.js';
import { message } from '../../test/fixtures.js';
import { $, commentView, mockApi, type, until } from '../../test/mock-api.js';
import { mountReady } from '../../test/mount.js';
import { holdWriting, itLate, releaseWriting } from '../../test/request-control.js';

describe("a name, website and email typed before the writer's profile arrives", () => {
  itLate("win over the profile's: in the fields, the post and the profile", async () => {
    const api = mockApi({
      get_block_view: () => commentView({ allow_creator_email: true }),
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
      const email = $<HTMLInputElement>(el, '[part=email]');
      // the focus on the name field (the first interaction) starts loading the profile's code and
      // the write paths
      await holdWriting(() =>
        name.dispatchEvent(new FocusEvent('focusin', { bubbles: true, composed: true })),
      );
      type(name, ' Kim ');
      type(home, 'kim.example');
      type(email, 'kim@example.com');
      await el.updateComplete;
      expect(name.value).to.equal('Kim');
      // the profile's code first (the composer takes the profile), then the write paths
      await releaseWriting(el);
      const { getIdentity } = await import('../../core/identity.js');
      expect(name.value, 'the name field').to.equal('Kim');
      expect(home.value, 'the website field').to.equal('kim.example');
      expect(email.value, 'the email field').to.equal('kim@example.com');
      expect(getIdentity(), 'the profile').to.include({
        name: 'Kim',
        homeUrl: 'https://kim.example',
      });
      type($<HTMLTextAreaElement>(el, '[part=composer] textarea'), 'hi');
      await el.updateComplete;
      $<HTMLButtonElement>(el, '[part=composer] [part=submit]').click();
      await until(() => api.rpcCalls().some((c) => c.name === 'post_message'), 20000);
      expect(api.rpcCalls().find((c) => c.name === 'post_message')!.body).to.include({
        p_creator_name: 'Kim',
        p_home_url: 'https://kim.example',
        p_creator_email: 'kim@example.com',
      });
    } finally {
      api.restore();
    }
  });
});
