// A website typed while signed in is checked by the write paths (comment.writer.ts takeHome), which
// come with the writer's profile (core/identity.ts) on the first interaction. A log out (in another
// tab or element) before they are here makes the visitor anonymous by the time the check runs:
// what the signed-in writer typed is still theirs, so it is neither kept in the profile (the
// browser's anonymous writer's) nor shown again once log out took it off the composer; nor is the
// email they typed, which the profile's code, coming after the log out, does not take for one the
// anonymous visitor typed. In a browser of its own (the web-test-runner group first-interaction),
// so nothing has the profile's code or the write paths in its cache.
import { expect } from '@open-wc/testing';
import './comment.js';
import type ReactionComment from './comment.component.js';
import { saveSession } from '../../core/auth.js';
import { $, commentView, mockApi, type, until, withSession } from '../../test/mock-api.js';
import { mountReady } from '../../test/mount.js';
import { holdWriting, itLate, releaseWriting } from '../../test/request-control.js';

describe("a website and email typed while signed in, then a log out before the writer's profile arrives", () => {
  itLate('are neither kept in the profile nor shown again', async () => {
    const api = mockApi({
      get_block_view: () => commentView({ allow_creator_email: true }),
    });
    try {
      withSession('owner-1', false, { user_metadata: { full_name: 'New Owner' } });
      const el = await mountReady<ReactionComment>('reaction-comment');
      const home = $<HTMLInputElement>(el, '[part=home]');
      const email = $<HTMLInputElement>(el, '[part=email]');
      expect($<HTMLInputElement>(el, '[part=name]').value).to.equal('New Owner');
      await holdWriting(() =>
        home.dispatchEvent(new FocusEvent('focusin', { bubbles: true, composed: true })),
      );
      type(home, 'owner.example');
      type(email, 'owner@example.com');
      await el.updateComplete;
      // logged out elsewhere while the profile's code and the write paths are on their way
      saveSession(el['project'], null);
      await until(() => !el['signedIn'], 10000);
      await releaseWriting(el);
      const { getIdentity } = await import('../../core/identity.js');
      expect(getIdentity().homeUrl, "the profile's website").to.equal(undefined);
      expect(home.value, 'the website field').to.equal('');
      expect(email.value, 'the email field').to.equal('');
      expect($<HTMLInputElement>(el, '[part=name]').value).to.equal(getIdentity().name);
    } finally {
      api.restore();
    }
  });
});
