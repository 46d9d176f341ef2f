// <reaction-comment>: a visitor writes: sends, refusals said in a live region, replies, edits,
// likes, the sign-in overlay, the writer's details, the owner's tools and the dashboard preview.
import { expect } from '@open-wc/testing';
import type ReactionComment from './comment.component.js';
import { getIdentity, PROFILE_KEY } from '../../core/identity.js';
import { flush } from '../../core/storage.js';
import { getSession, loadSession } from '../../core/session.js';
import {
  $,
  $$,
  ApiError,
  KEY,
  PROJECT,
  block,
  commentView,
  mockApi,
  newPage,
  type,
  until,
  wait,
} from '../../test/mock-api.js';
import {
  commentHarness,
  msg,
  signIn,
  textarea,
  send,
  typeAndSend,
  alertIn,
  item,
  button,
  has,
  likeOf,
} from '../../test/comment.js';

describe('reaction-comment: writing', () => {
  const { h, mount, mountIn, inEnglishAndKorean } = commentHarness();

  describe('says why it refuses, in a live region (en and ko)', () => {
    it('a second send within the message term', async () => {
      await inEnglishAndKorean(
        {
          en: 'Please wait a moment before sending another message.',
          ko: '잠시 후에 다시 보내 주세요.',
        },
        async (lang, wait_) => {
          const el = await mountIn(lang);
          const region = $(el, '[part=composer] ~ [role=alert]');
          expect(region, 'the live region is there before anything is said').to.not.equal(null);
          await typeAndSend(el, 'first');
          await until(() => item(el, 'new1'));
          await typeAndSend(el, 'second');
          await until(() => alertIn(el.shadowRoot as unknown as Element).includes(wait_));
          expect($(el, '[part=composer] ~ [role=alert]'), 'same region').to.equal(region);
          expect(textarea(el).value, 'the text stays').to.equal('second');
          expect(h.api.rpcCalls().filter((c) => c.name === 'post_message')).to.have.length(1);
        },
      );
    });

    it('saving an emptied edit box: says so, keeps the text and does not mark it edited', async () => {
      await inEnglishAndKorean(
        { en: 'The message cannot be empty.', ko: '메시지를 입력해 주세요.' },
        async (lang, empty) => {
          signIn('someone');
          const el = await mount({ block: block({ type: 'comment', language: lang }) });
          const m2 = item(el, 'm2');
          await until(() => has(m2, lang === 'ko' ? '수정' : 'Edit'));
          button(m2, lang === 'ko' ? '수정' : 'Edit').click();
          // the edit box comes with the write paths (comment.writer.ts), loaded on this click
          await until(() => m2.querySelector('textarea'));
          type(m2.querySelector('textarea')!, '   ');
          await el.updateComplete;
          button(m2, lang === 'ko' ? '저장' : 'Save').click();
          await until(() => alertIn(m2).includes(empty));
          expect(h.api.rpcCalls().some((c) => c.name === 'edit_message')).to.equal(false);
          expect(m2.querySelector('textarea'), 'still editing').to.not.equal(null);
          // Unchanged text: nothing is written and the message is not marked edited.
          type(m2.querySelector('textarea')!, el['_messages'][1]!.content);
          button(m2, lang === 'ko' ? '저장' : 'Save').click();
          await until(() => !m2.querySelector('textarea'));
          expect(h.api.rpcCalls().some((c) => c.name === 'edit_message')).to.equal(false);
          expect(m2.textContent).not.to.contain(lang === 'ko' ? '수정됨' : '(edited)');
        },
      );
    });

    it('the sign-in overlay cannot be bypassed by keyboard', async () => {
      await inEnglishAndKorean(
        { en: 'Please sign in to leave a message.', ko: '메시지를 남기려면 로그인해 주세요.' },
        async (lang, prompt) => {
          const el = await mount({
            block: block({ type: 'comment', block_anonymous: true, language: lang }),
          });
          await until(() => $(el, '[part=overlay]').textContent!.includes(prompt));
          // The fields under the overlay are out of the tab order and cannot take focus.
          for (const field of [textarea(el), $(el, '[part=name]'), send(el)]) {
            expect(field.closest('[inert]'), field.getAttribute('part')!).to.not.equal(null);
            field.focus();
            expect(el.shadowRoot!.activeElement).to.not.equal(field);
          }
          const google = [...$(el, '[part=overlay]').querySelectorAll('button')][0]!;
          google.focus();
          expect(el.shadowRoot!.activeElement, 'the sign-in buttons are reachable').to.equal(
            google,
          );
          // A submit that gets through anyway (Enter in a field, a script) says why, and sends nothing.
          $<HTMLFormElement>(el, '[part=composer]').requestSubmit();
          await until(() => alertIn(el.shadowRoot as unknown as Element).includes(prompt));
          expect(h.api.rpcCalls().some((c) => c.name === 'post_message')).to.equal(false);
        },
      );
    });
  });

  it('keeps the text and shows the server message when posting fails', async () => {
    const el = await mount(
      {},
      {
        post_message: () => {
          throw new ApiError(400, 'message too long');
        },
      },
    );
    await typeAndSend(el, 'keep me');
    await until(() => $(el, '[part=error][role=alert]').textContent === 'message too long');
    expect(textarea(el).value).to.equal('keep me');
  });

  it('replies, edits (edited) and deletes after confirmation', async () => {
    const el = await mount();
    button(item(el, 'm3'), 'Reply').click();
    // the reply form comes with the write paths (comment.writer.ts), loaded on this click
    await until(() => item(el, 'm3').querySelector('form textarea'));
    const reply = item(el, 'm3').querySelector('form textarea') as HTMLTextAreaElement;
    expect(reply.getAttribute('aria-label')).to.equal('Reply to Someone');
    type(reply, 'A reply');
    (item(el, 'm3').querySelector('form [type=submit]') as HTMLButtonElement).click();
    await until(() => item(el, 'new1'));
    expect(h.api.rpcCalls().find((c) => c.name === 'post_message')!.body.p_parent_id).to.equal(
      'm3',
    );
    expect(item(el, 'new1').parentElement!.getAttribute('part')).to.equal('replies');
    expect(has(item(el, 'new1'), 'Reply')).to.equal(false); // one level only
    expect(has(item(el, 'm1'), 'Edit')).to.equal(false); // not the author

    button(item(el, 'new1'), 'Edit').click();
    await until(() => item(el, 'new1').querySelector('textarea'));
    type(item(el, 'new1').querySelector('textarea')!, 'Edited reply');
    button(item(el, 'new1'), 'Save').click();
    await until(
      () => item(el, 'new1').querySelector('[part=content]')?.textContent === 'Edited reply',
    );
    expect(item(el, 'new1').textContent).to.contain('(edited)');
    expect(h.api.rpcCalls().find((c) => c.name === 'edit_message')!.body).to.deep.equal({
      p_message_id: 'new1',
      p_content: 'Edited reply',
    });

    button(item(el, 'new1'), 'Delete').click();
    await until(() => item(el, 'new1').textContent!.includes('Delete this message?'));
    button(item(el, 'new1'), 'Delete').click();
    await until(() => !item(el, 'new1'));
    expect(h.api.rpcCalls().find((c) => c.name === 'delete_message')!.body).to.deep.equal({
      p_message_id: 'new1',
    });
  });

  it('keeps the edit draft and the reply being typed when someone else posts, and saves the new text', async () => {
    signIn('someone'); // m1..m5 are the visitor's own
    const el = await mount();
    button(item(el, 'm2'), 'Edit').click();
    await until(() => item(el, 'm2').querySelector('textarea'));
    type(item(el, 'm2').querySelector('textarea')!, 'new text');
    button(item(el, 'm3'), 'Reply').click();
    await until(() => item(el, 'm3').querySelector('form textarea'));
    type(item(el, 'm3').querySelector('form textarea')!, 'half a reply');
    const editBox = item(el, 'm2').querySelector('textarea');

    // Someone else posts: the list re-renders with a new first item.
    el['applyChange']({
      type: 'INSERT',
      row: msg('other', { creator_id: 'x', created_at: new Date().toISOString() }),
    });
    await el.updateComplete;
    expect($$(el, '[part=list] > [part=message]')[0]!.id).to.equal('m-other');
    expect(item(el, 'm2').querySelector('textarea'), 'same edit box').to.equal(editBox);
    expect(item(el, 'm2').querySelector('textarea')!.value).to.equal('new text');
    expect(item(el, 'm3').querySelector<HTMLTextAreaElement>('form textarea')!.value).to.equal(
      'half a reply',
    );

    button(item(el, 'm2'), 'Save').click();
    await until(() => h.api.rpcCalls().some((c) => c.name === 'edit_message'));
    expect(h.api.rpcCalls().find((c) => c.name === 'edit_message')!.body).to.deep.equal({
      p_message_id: 'm2',
      p_content: 'new text',
    });
    // The reply box is still open with its text; sending it posts that text.
    (item(el, 'm3').querySelector('form [type=submit]') as HTMLButtonElement).click();
    await until(() => h.api.rpcCalls().some((c) => c.name === 'post_message'));
    expect(h.api.rpcCalls().find((c) => c.name === 'post_message')!.body).to.include({
      p_parent_id: 'm3',
      p_content: 'half a reply',
    });
  });

  it('likes a message at once', async () => {
    const el = await mount();
    const like = likeOf(item(el, 'm3'))!;
    expect(like.textContent!.trim()).to.equal('0 Likes');
    like.click();
    await el.updateComplete;
    expect(like.getAttribute('aria-pressed')).to.equal('true');
    expect(like.textContent!.trim()).to.equal('1 Like');
    await until(() => h.api.rpcCalls().some((c) => c.name === 'toggle_message_like'));
  });

  it('blocks anonymous writers with the sign-in overlay', async () => {
    const el = await mount({ block: block({ type: 'comment', block_anonymous: true }) });
    expect($(el, '[part=overlay]').textContent).to.contain('Please sign in to leave a message.');
    expect(has($(el, '[part=overlay]'), 'Sign in with Google')).to.equal(true);
    expect(has(item(el, 'm1'), 'Reply')).to.equal(false);
  });

  it('validates the notification email after a pause and attaches it only to top-level messages', async () => {
    const el = await mount({ block: block({ type: 'comment', allow_creator_email: true }) });
    const email = $<HTMLInputElement>(el, '[part=email]');
    const invalid = (value: 'true' | 'false') =>
      until(() => email.getAttribute('aria-invalid') === value);
    type(email, 'bad@');
    // checked by the writer's code once the visitor paused (comment.writer.ts takeEmail)
    await invalid('true');
    expect($(el, '[part=composer] [part=error]').textContent).to.equal(
      'Please enter a valid email address',
    );
    type(email, 'me@example.com');
    await invalid('false');
    // the address rule SES holds to (rev-break2 R2): no doubled dot
    type(email, 'me..too@example.com');
    await invalid('true');
    type(email, 'me@example.com');
    await invalid('false');
    await typeAndSend(el, 'notify me');
    await until(() => item(el, 'new1'));
    expect(h.api.rpcCalls().find((c) => c.name === 'post_message')!.body.p_creator_email).to.equal(
      'me@example.com',
    );
  });

  it("sends the writer's website, links their name to it, and keeps name, website and email sealed for the next page", async () => {
    const el = await mount({ block: block({ type: 'comment', allow_creator_email: true }) });
    const home = $<HTMLInputElement>(el, '[part=home]');
    expect(home.getAttribute('aria-label')).to.equal('Your website (optional)');
    type($<HTMLInputElement>(el, '[part=name]'), 'Quiet Otter');
    type(home, 'otter.example/me');
    type($<HTMLInputElement>(el, '[part=email]'), 'otter@example.com');
    await wait(600);
    await el.updateComplete;
    expect(home.getAttribute('aria-invalid')).to.equal('false');
    await typeAndSend(el, 'hello');
    await until(() => item(el, 'new1'));
    expect(h.api.rpcCalls().find((c) => c.name === 'post_message')!.body).to.include({
      p_creator_name: 'Quiet Otter',
      p_home_url: 'https://otter.example/me',
      p_creator_email: 'otter@example.com',
    });
    const link = item(el, 'new1').querySelector<HTMLAnchorElement>('[part=author] a')!;
    expect(link.getAttribute('href')).to.equal('https://otter.example/me');
    expect(link.rel.split(' ')).to.include.members(['nofollow', 'ugc', 'noopener']);
    expect(link.textContent).to.equal('Quiet Otter');
    await flush(PROFILE_KEY);
    const raw = localStorage.getItem(PROFILE_KEY)!;
    expect(raw).to.match(/^rb1\./);
    for (const plain of ['Otter', 'otter.example', 'otter@example.com'])
      expect(raw).not.to.contain(plain);
    // the next page: the composer offers them again
    newPage();
    h.api.restore();
    const again = await mount({ block: block({ type: 'comment', allow_creator_email: true }) });
    expect($<HTMLInputElement>(again, '[part=name]').value).to.equal('Quiet Otter');
    expect($<HTMLInputElement>(again, '[part=home]').value).to.equal('https://otter.example/me');
    expect($<HTMLInputElement>(again, '[part=email]').value).to.equal('otter@example.com');
  });

  it('says at once that a website is not one the server takes, in en and ko, and neither keeps nor sends it', async () => {
    const el = await mount();
    const home = $<HTMLInputElement>(el, '[part=home]');
    // the visitor's focus on the field starts loading the writer's code, which checks the website
    home.dispatchEvent(new FocusEvent('focusin', { bubbles: true, composed: true }));
    await until(() => el['paths']);
    for (const bad of [
      'javascript:alert(1)',
      'https://user@evil.example/',
      'ftp://files.example',
      'https://exa mple.com',
    ]) {
      type(home, bad);
      await el.updateComplete;
      expect(home.getAttribute('aria-invalid'), bad).to.equal('true');
      const error = $(el, '#home-error');
      expect(error.textContent, bad).to.equal('Please enter a web address (http or https)');
      expect(home.getAttribute('aria-describedby')).to.equal('home-error');
    }
    await typeAndSend(el, 'hello');
    await until(() => item(el, 'new1'));
    expect(h.api.rpcCalls().find((c) => c.name === 'post_message')!.body.p_home_url).to.equal(null);
    expect(getIdentity().homeUrl).to.equal(undefined);
    h.api.restore();
    const ko = await mount({ block: block({ type: 'comment', language: 'ko' }) });
    type($<HTMLInputElement>(ko, '[part=home]'), 'javascript:alert(1)');
    await ko.updateComplete;
    expect($(ko, '#home-error').textContent).to.equal('웹 주소를 입력해 주세요 (http 또는 https)');
  });

  it('gives the owner delete on any the admin label and the menu without sign-in buttons', async () => {
    const token = signIn('owner-1');
    const el = await mount();
    expect(has(item(el, 'm1'), 'Delete')).to.equal(true);
    expect(has(item(el, 'm1'), 'Edit')).to.equal(false);
    $(el, '[part=menu-button]').click();
    // the menu comes with the write paths (comment.writer.ts), loaded on this click
    await until(() => $(el, '[part=menu-button]').getAttribute('aria-expanded') === 'true');
    expect(has($(el, '[part=menu]'), 'Log out')).to.equal(true);
    expect(has($(el, '[part=menu]'), 'Sign in with Google')).to.equal(false);
    // the public part with the anon key (the same request for every visitor), then the owner's own
    expect(h.api.calls.slice(0, 2).map((c) => [c.name, c.auth])).to.deep.equal([
      ['get_block_public', 'Bearer ' + KEY],
      ['get_block_me', 'Bearer ' + token],
    ]);
    // the plain session from before is sealed now
    expect(localStorage.getItem('reaction-blocks.session:' + PROJECT)).to.match(/^rb1\./);
  });

  // The dashboard's preview (BlockPreview) sets the properties, never the attribute, in React's
  // layout effect: after React connected a defined element, or, on a page's first workspace,
  // before the SDK defines it (kept aside until the first update). Either way connectedCallback
  // ran with dummy = false and read the owner's session: the preview showed the owner, and its
  // Log out signed the owner out everywhere. The SDK's one guard drops it at the first update.
  let upgrades = 0;
  const ORDERS = {
    defined: 'defined, set before it connects',
    connected: "defined, set after it connected (the dashboard's layout effect)",
    late: 'defined after its properties were set',
  };
  for (const order of ['defined', 'connected', 'late'] as const)
    it(`a preview (dummy mode) on the owner's page is a visitor's: no session of the page's, no one signed in or out (element ${ORDERS[order]})`, async () => {
      // the dashboard's workspace: the owner signed in on the page, the element given the draft
      h.api = mockApi({});
      signIn('owner-1');
      await loadSession({ url: PROJECT, key: KEY });
      const open = window.open;
      let popups = 0;
      window.open = () => (popups++, null);
      try {
        const tag = order === 'late' ? `preview-comment-${++upgrades}` : 'reaction-comment';
        const el = document.createElement(tag) as ReactionComment;
        el.setAttribute('project-url', PROJECT);
        el.setAttribute('anon-key', KEY);
        const preview = () => {
          el.dummy = true;
          el.view = commentView();
        };
        if (order !== 'connected') preview();
        document.body.append(el);
        if (order === 'connected') preview();
        if (order === 'late')
          customElements.define(tag, class extends customElements.get('reaction-comment')! {});
        await until(() => $(el, '[part~=name]'));
        await el.updateComplete;
        expect(el['signedIn'], "the owner's session is not the preview's").to.equal(false);
        expect($<HTMLInputElement>(el, '[part~=name]').value).not.to.equal('Signed owner-1');
        $(el, '[part=menu-button]').click();
        await until(() => el.shadowRoot!.querySelector('[part=menu]'));
        expect(has($(el, '[part=menu]'), 'Log out')).to.equal(false);
        button($(el, '[part=menu]'), 'Sign in with Google').click();
        await until(() => el.shadowRoot!.textContent!.includes('This is a preview'));
        expect(popups, 'no sign-in popup').to.equal(0);
        expect(
          getSession({ url: PROJECT, key: KEY })?.user.id,
          "the owner's session kept",
        ).to.equal('owner-1');
        el.remove();
      } finally {
        window.open = open;
      }
    });

  it('reads the list again on log out, keeping the messages loaded with Load more', async () => {
    signIn('owner-1');
    const el = await mount();
    $(el, '[part=load-more]').click();
    await until(() => item(el, 'm7'));
    expect(has(item(el, 'm1'), 'Delete'), "the owner's rights").to.equal(true);
    $(el, '[part=menu-button]').click();
    await until(() => el.shadowRoot!.querySelector('[part=menu]'));
    button($(el, '[part=menu]'), 'Log out').click();
    await until(() => h.api.rpcCalls().filter((c) => c.name === 'get_block_view').length === 1);
    await until(() => !has(item(el, 'm1'), 'Delete'));
    expect($$(el, '[part=list] > [part=message]').map((m) => m.id)).to.deep.equal(
      ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'].map((id) => 'm-' + id),
    );
    expect(el['_status'], 'no loading state in between').to.equal('ready');
  });

  it('offers admin-only replies to the owner only', async () => {
    const el = await mount({ block: block({ type: 'comment', admin_only_reply: true }) });
    expect(has(item(el, 'm1'), 'Reply')).to.equal(false);
  });
});
