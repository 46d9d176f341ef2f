import { expect } from '@open-wc/testing';
import { render } from 'lit/html.js';
import { getIdentity, setIdentityName } from './identity.js';
import { fill, linkify, safeUrl, shortDate } from './text.js';
import { sanitize } from './html.js';
import { checkAnswer } from './validate.js';
import { ReactionElement } from './base.js';
import { translator, loadLang } from './i18n.js';
import * as english from './locales/en.js';
import { SERVER_SAID } from './locales/server-said.js';
import { ensureSession, handleAuthReturn, signInWithPopup } from './auth.js';
import { getSession, POPUP_NAME, sessionKey } from './session.js';
import { flush } from './storage.js';
import { fakeJwt, KEY, mockApi, PROJECT, reset, until } from '../test/mock-api.js';

describe('core', () => {
  beforeEach(reset);

  it('gives a reader a random animal identity for the page without storing anything', () => {
    const a = getIdentity();
    expect(a.name).to.match(/^[A-Z][a-z]+$/);
    expect(a.color).to.match(/^#[0-9a-f]{6}$/);
    expect(getIdentity()).to.deep.equal(a);
    expect(localStorage.length).to.equal(0);
    expect(setIdentityName('Zed').name).to.equal('Zed');
    expect(getIdentity()).to.deep.equal({ ...a, name: 'Zed' });
  });

  it('makes only http(s) links clickable', () => {
    const el = document.createElement('p');
    render(linkify('a http://x.test/1. b javascript:alert(1) c https://y.test/?q=<b> d'), el);
    const links = [...el.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal([
      'http://x.test/1',
      'https://y.test/?q=',
    ]);
    expect(el.querySelector('b')).to.equal(null);
    expect(safeUrl('javascript:alert(1)')).to.equal('');
    expect(safeUrl('example.com', true)).to.equal('https://example.com/');
    expect(safeUrl('data:text/html,x', true)).to.equal('');
    expect(fill('$responseCount$ answers', 4)).to.equal('4 answers');
    expect(shortDate('2024-03-05T12:00:00')).to.equal('24.03.05');
  });

  it('sanitises owner HTML', () => {
    expect(
      sanitize(
        '<p onclick="x()">a<script>b</script><iframe src=x></iframe><a href="javascript:x">c</a><a href="https://ok.test">d</a></p>',
      ),
    ).to.equal(
      '<p>ac<a href="https://ok.test/" target="_blank" rel="noopener noreferrer nofollow">d</a></p>',
    );
    // the description editor and the server keep mailto links (with the same target and rel);
    // data: and vbscript: go, their text stays (as the server's sanitiser does: html.test.ts)
    expect(
      sanitize(
        '<a href="mailto:hi@example.com">mail</a><a href="data:text/html,x">d</a><a href=" vbscript:x">v</a>',
      ),
    ).to.equal(
      '<a href="mailto:hi@example.com" target="_blank" rel="noopener noreferrer nofollow">mail</a>dv',
    );
  });

  it('validates answers like the spec', () => {
    const q = (type: string, required = false) =>
      ({ id: 'q', type, title: 't', index: 0, required }) as Parameters<typeof checkAnswer>[0];
    expect(checkAnswer(q('short_text', true), '  ')).to.deep.equal(['required']);
    expect(checkAnswer(q('poll', true), [])).to.deep.equal(['required']);
    expect(checkAnswer(q('short_text'), 'x'.repeat(300))).to.equal(null);
    expect(checkAnswer(q('short_text'), 'x'.repeat(301))).to.deep.equal([
      'lengthError',
      { max: 300 },
    ]);
    expect(checkAnswer(q('long_text'), 'x'.repeat(1001))).to.deep.equal([
      'lengthError',
      { max: 1000 },
    ]);
    expect(checkAnswer(q('phone'), '1'.repeat(21))).to.deep.equal(['phoneError']);
    expect(checkAnswer(q('number'), '12')).to.equal(null);
    expect(checkAnswer(q('number'), '1e3')).to.deep.equal(['numberError']);
    // The rest of the table, with the database's verdicts: supabase/tests/answer-rules.test.ts
    expect(checkAnswer(q('number'), '9'.repeat(18))).to.equal(null);
    expect(checkAnswer(q('number'), '1'.repeat(19))).to.deep.equal(['numberError']);
    expect(checkAnswer(q('phone'), '010\t1234')).to.deep.equal(['phoneError']);
    expect(checkAnswer(q('short_text'), '😀'.repeat(300))).to.equal(null);
    expect(checkAnswer(q('mail'), 'a@b.c')).to.deep.equal(['emailError']);
    expect(checkAnswer(q('mail'), 'a@b')).to.deep.equal(['emailError']);
  });

  it('translates with plurals, English fallback and lazy Korean', async () => {
    const en = translator('en', english.like);
    expect(en('like', { count: 1 })).to.equal('1 Like');
    expect(en('like', { count: 2 })).to.equal('2 Likes');
    expect(en('retry')).to.equal(english.core.retry);
    // a write's refusals come with the writer's code (core/writer.ts), not in every element's texts
    expect(en('tooFast')).to.equal('tooFast');
    expect(translator('en', english.write)('tooFast')).to.equal(english.write.tooFast);
    expect(en('nope')).to.equal('nope');
    // a group the element did not name is not there: each bundle carries only its own texts
    expect(en('required')).to.equal('required');
    await loadLang('ko');
    const ko = translator('ko');
    expect(ko('required')).to.equal('필수 항목입니다');
    expect(ko('like', { count: 1 })).to.equal('좋아요 1');
  });

  it('names each English text in one group only, and Korean has every one but `_one` plurals', async () => {
    const groups = Object.values(english) as Record<string, string>[];
    const keys = groups.flatMap((g) => Object.keys(g));
    expect(keys.length).to.equal(new Set(keys).size);
    // and the texts whose English the server says (a 429's wait), which other languages carry
    keys.push(...SERVER_SAID);
    const ko = (await import('./locales/ko.js')).default as Record<string, string>;
    // Korean has one plural form: `_other` only
    expect(keys.filter((k) => !ko[k] && !k.endsWith('_one'))).to.deep.equal([]);
    expect(Object.keys(ko).filter((k) => !keys.includes(k))).to.deep.equal([]);
  });

  it('define() is repeat-safe', () => {
    class X extends ReactionElement {}
    class Y extends ReactionElement {}
    X.define('reaction-test-x');
    Y.define('reaction-test-x');
    expect(customElements.get('reaction-test-x')).to.equal(X);
  });

  it('signs up anonymously once for concurrent writes and refreshes an expired session', async () => {
    const api = mockApi({});
    const p = { url: PROJECT, key: KEY };
    expect(await ensureSession(p, false)).to.equal(null);
    const [a, b] = await Promise.all([ensureSession(p, true), ensureSession(p, true)]);
    expect(a!.access_token).to.equal(b!.access_token);
    expect(api.calls.filter((c) => c.name === '/auth/v1/signup')).to.have.length(1);
    expect(api.calls[0]!.body).to.deep.equal({});
    await flush(sessionKey(PROJECT)); // the sign-up's session is sealed: now another tab changes it
    localStorage.setItem(
      'reaction-blocks.session:' + PROJECT,
      JSON.stringify({ ...a, expires_at: 1 }),
    );
    api.restore();
    const api2 = mockApi({});
    const real = window.fetch;
    window.fetch = async (u, i) =>
      String(u).includes('grant_type=refresh_token')
        ? (api2.calls.push({
            name: 'refresh',
            body: JSON.parse(String(i!.body)),
            auth: '',
            method: 'POST',
          }),
          Response.json({
            access_token: fakeJwt('u2'),
            refresh_token: 'n',
            expires_in: 3600,
            user: { id: 'u2' },
          }))
        : real(u, i);
    const s = await ensureSession(p, false);
    expect(s!.user.id).to.equal('u2');
    expect(api2.calls[0]!.body).to.deep.equal({ refresh_token: a!.refresh_token });
    window.fetch = real;
    api2.restore();
  });

  /** The host page come back in a window named `name` with the tokens of `user` in its fragment. */
  function comeBack(name: string, user: string) {
    window.name = name;
    history.replaceState(
      null,
      '',
      location.pathname +
        location.search +
        '#access_token=' +
        fakeJwt(user, { user_metadata: { full_name: 'Gina' } }) +
        '&refresh_token=rt-' +
        user +
        '&expires_in=3600',
    );
    return handleAuthReturn({ url: PROJECT, key: KEY });
  }

  it('stores the session from the popup redirect this page started, once', async () => {
    const name = window.name;
    const hash = location.hash;
    const close = window.close;
    let closed = false;
    window.close = () => (closed = true);
    const p = { url: PROJECT, key: KEY };
    // the popup opened in the visitor's click (about:blank, this origin), sent to the provider
    const popup = { name: POPUP_NAME, closed: false, location: { href: '' } } as unknown as Window;
    const signedIn = signInWithPopup(p, 'google', popup);
    try {
      expect(popup.location.href).to.contain('/auth/v1/authorize?provider=google');
      expect(popup.name).to.not.equal(POPUP_NAME);
      expect(comeBack(popup.name, 'g-user')).to.equal(true);
      // kept under the lock a refresh takes (core/auth.ts)
      await until(() => getSession(p));
      const s = getSession(p)!;
      expect(s.user.id).to.equal('g-user');
      expect(s.user.user_metadata!.full_name).to.equal('Gina');
      // closed once the session is sealed into storage, where the opener reads it
      await until(() => closed);
      expect(location.hash).to.equal('');
      (popup as { closed: boolean }).closed = true;
      expect((await signedIn)!.user.id).to.equal('g-user');

      // the same return again (its state is used up), or one this page never started (another
      // site's window.open(host#access_token=..., 'reaction-blocks-auth')): not taken, the tokens
      // leave the address bar, the visitor's session stays
      for (const [n, why] of [
        [popup.name, 'used up'],
        [POPUP_NAME, 'no state'],
        [POPUP_NAME + ':guess', 'wrong state'],
      ]) {
        closed = false;
        comeBack(n!, 'attacker');
        await until(() => closed);
        await flush(sessionKey(PROJECT));
        expect(getSession(p)!.user.id, why).to.equal('g-user');
        expect(location.hash, why).to.equal('');
      }
    } finally {
      window.name = name;
      window.close = close;
      history.replaceState(null, '', location.pathname + location.search + hash);
    }
  });
});
