// Another account's session written straight over a signed-in writer's (another same-origin client,
// or a tab frozen through a log out and the next sign-in), with no empty session between, while the
// writer's profile and write paths are on their way (comment.writer.ts takeHome): the website and
// email the last writer typed are neither kept in the profile nor left for the next account to send.
// In a browser page of its own (the web-test-runner group first-interaction), so nothing has the
// profile's code or the write paths in its cache.
import { expect } from '@open-wc/testing';
import './comment.js';
import { saveSession } from '../../core/auth.js';
import { $, fakeJwt } from '../../test/mock-api.js';
import { typedThenLeft } from '../../test/comment-late.js';
import { itLate } from '../../test/request-control.js';

describe("a website and email typed while signed in, then another account's session before the writer's profile arrives", () => {
  itLate('are neither kept in the profile nor left for the next account', async () => {
    const el = await typedThenLeft(
      (el) =>
        saveSession(el['project'], {
          access_token: fakeJwt('other-2', { is_anonymous: false }),
          refresh_token: 'r',
          expires_at: Date.now() / 1000 + 3600,
          user: {
            id: 'other-2',
            is_anonymous: false,
            user_metadata: { full_name: 'Other Writer' },
          },
        } as never),
      (el) => el['userId'] === 'other-2',
    );
    expect($<HTMLInputElement>(el, '[part=name]').value).to.equal('Other Writer');
  });
});
