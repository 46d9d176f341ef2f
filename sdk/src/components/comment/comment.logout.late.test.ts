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
import { saveSession } from '../../core/auth.js';
import { $ } from '../../test/mock-api.js';
import { typedThenLeft } from '../../test/comment-late.js';
import { itLate } from '../../test/request-control.js';

describe("a website and email typed while signed in, then a log out before the writer's profile arrives", () => {
  itLate('are neither kept in the profile nor shown again', async () => {
    const el = await typedThenLeft(
      (el) => saveSession(el['project'], null),
      (el) => !el['signedIn'],
    );
    const { getIdentity } = await import('../../core/identity.js');
    expect($<HTMLInputElement>(el, '[part=name]').value).to.equal(getIdentity().name);
  });
});
