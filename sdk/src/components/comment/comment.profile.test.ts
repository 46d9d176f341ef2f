// The composer's name, website and email come from the writer's profile, whose code loads with the
// writer's (core/profile.ts) and stays for the page: a file of its own, so that this page has
// loaded none of it before the first test (comment.test.ts writes, which loads it).
import { expect } from '@open-wc/testing';
import './comment.js';
import type ReactionComment from './comment.component.js';
import { takeProfile, type ComposerView } from './comment.composer.js';
import { getIdentity } from '../../core/identity.js';
import { $, block, mockApi, reset, until } from '../../test/mock-api.js';
import { mountReady } from '../../test/mount.js';

describe("reaction-comment's composer and the writer's profile", () => {
  let api: ReturnType<typeof mockApi>;
  beforeEach(() => {
    reset();
    api = mockApi({
      get_block_view: () => ({ block: block({ type: 'comment' }), messages: [], me: {} }),
    });
  });
  afterEach(() => api.restore());

  const mount = async () => {
    return mountReady<ReactionComment>('reaction-comment');
  };
  const name = (el: Element) => $<HTMLInputElement>(el, '[part=name]');

  it('fills the name in on the first interaction, not before, and keeps what is being typed', async () => {
    // a reader has loaded no profile code: the name field is empty, its placeholder says what for
    const el = await mount();
    expect(name(el).value).to.equal('');
    expect(name(el).placeholder).to.equal('Your name');
    // focus on the block (the first interaction) brings the profile: a new anonymous name
    $(el, '[part=composer] textarea').dispatchEvent(
      new FocusEvent('focusin', { bubbles: true, composed: true }),
    );
    await until(() => name(el).value !== '');
    expect(name(el).value).to.equal(getIdentity().name);
    // the code is here now: a second element of the page shows the page's profile at once...
    const other = await mount();
    expect(name(other).value).to.equal(getIdentity().name);
    // ...and a name field being typed in keeps what was typed when the profile comes again
    name(other).value = 'Typing Tapir';
    takeProfile(other as unknown as ComposerView);
    await other.updateComplete;
    expect(name(other).value).to.equal('Typing Tapir');
  });
});
