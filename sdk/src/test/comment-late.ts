// The comment element's tests of a signed-in writer who leaves (log out, or another account
// signed in over their session) while the writer's profile and write paths are on their way
// (comment.*.late.test.ts, each in a browser page of its own).
import { expect } from '@open-wc/testing';
import type ReactionComment from '../components/comment/comment.component.js';
import { message } from './fixtures.js';
import { $, commentView, mockApi, type, until, withSession } from './mock-api.js';
import { mountReady } from './mount.js';
import { holdWriting, releaseWriting } from './request-control.js';

/**
 * 'New Owner' signed in types a website and email on the first interaction; `leave` (elsewhere,
 * until `left`) before the profile's code and the write paths are released: neither is kept in
 * the profile nor left in the composer, and the account's name leaves the name field at once. Resolves with the element, its fake server restored.
 */
export async function typedThenLeft(
  leave: (el: ReactionComment) => void,
  left: (el: ReactionComment) => unknown,
): Promise<ReactionComment> {
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
    leave(el);
    await until(() => left(el), 10000);
    await el.updateComplete;
    // the account's name goes at once, not when the profile's code comes
    expect($<HTMLInputElement>(el, '[part=name]').value, 'the name, code late').to.not.equal(
      'New Owner',
    );
    await releaseWriting(el);
    const { getIdentity } = await import('../core/identity.js');
    expect(getIdentity().homeUrl, "the profile's website").to.equal(undefined);
    expect(home.value, 'the website field').to.equal('');
    expect(email.value, 'the email field').to.equal('');
    return el;
  } finally {
    api.restore();
  }
}

/**
 * The visitor is in the empty name field of a `kind` ('comment' or 'qna') element when the writer's
 * profile (with its random animal name) comes; then `enter` puts their name in at the caret in one
 * go, or nothing, and they leave the field and send. The field and the post say the visitor's own
 * name (the profile's when they entered none), nothing glued in front of it (rev-owner D9).
 */
export async function nameEnteredInOneGo(
  kind: 'comment' | 'qna',
  enter: (field: HTMLInputElement) => void,
): Promise<{ name: string; posted: string; animal: string }> {
  const api = mockApi({
    get_block_view: () => commentView({ type: kind }),
    post_message: (b) => message('new', { creator_name: b.p_creator_name as string }),
  });
  try {
    const el = await mountReady<ReactionComment>('reaction-' + kind);
    const field = $<HTMLInputElement>(el, '[part=name]');
    // the focus on the name field (the first interaction) starts loading the profile's code
    await holdWriting(() => field.focus());
    field.select();
    await releaseWriting(el);
    const { getIdentity } = await import('../core/identity.js');
    enter(field);
    // leaving the field: a change only when its value changed, as a browser does
    if (field.value) field.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
    field.blur();
    await el.updateComplete;
    const name = field.value;
    type($<HTMLTextAreaElement>(el, '[part=composer] textarea'), 'hi');
    await el.updateComplete;
    $<HTMLButtonElement>(el, '[part=composer] [part=submit]').click();
    await until(() => api.rpcCalls().some((c) => c.name === 'post_message'), 10000);
    const posted = api.rpcCalls().find((c) => c.name === 'post_message')!.body.p_creator_name;
    return { name, posted: posted as string, animal: getIdentity().name };
  } finally {
    api.restore();
  }
}
