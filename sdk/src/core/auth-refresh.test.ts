// rev-fixes2 D2: a refresh answered after the 10 s wait is kept when its answer comes (75c18100),
// but a second refresh asked before that answer came (the visitor acting again, another element
// reading, another tab) sent the same refresh token again. GoTrue, past its 10 s reuse interval,
// answers "Invalid Refresh Token: Already Used" and revokes the family: the session was forgotten,
// the late answer then dropped, and an anonymous visitor's next write signed up a new user (their
// likes, votes and comment rights gone). Measured before: token calls ['r', 'r'], nothing stored.
import { expect } from '@open-wc/testing';
import '../components/like/like.js';
import type ReactionLike from '../components/like/like.component.js';
import { mountReady } from '../test/mount.js';
import {
  KEY,
  PROJECT,
  block,
  fakeJwt,
  mockApi,
  mockApiPerTest,
  until,
  withSession,
} from '../test/mock-api.js';
import { eventually } from '../../../scripts/poll.js';
import * as auth from './auth.js';
import { getSession, key, loadSession, type Session } from './session.js';

type Auth = typeof auth;

describe('a refresh answered late and another refresh before its answer', () => {
  let api: ReturnType<typeof mockApi>;
  mockApiPerTest();
  const p = { url: PROJECT, key: KEY };
  const tokenCalls = () =>
    api.calls.filter((c) => c.name === '/auth/v1/token').map((c) => c.body.refresh_token);
  /** Whether another tab could take the session's lock now. */
  const lockFree = (): Promise<boolean> =>
    navigator.locks.request('lock:' + key(p), { ifAvailable: true }, (lock) => lock !== null);

  /**
   * An anonymous visitor's stored session due for a refresh, and an auth server as GoTrue past its
   * reuse interval: it rotates `r` at once but its answer (`r2`) comes only at `answer()`; a token
   * sent again is refused and the family revoked. The copies of core/auth.ts given (another tab's)
   * wait 300 ms for an answer and for the lock, as this one does. Returns the stale session.
   */
  async function lateRotation(copies: Auth[] = []): Promise<{ answer: () => void; s: Session }> {
    let answer = () => {};
    const used = new Set<string>();
    api = mockApi({
      get_block_view: () => ({ block: block({ like_count: 3 }), me: {} }),
      '/auth/v1/token': (b) => {
        const rt = String(b.refresh_token);
        if (used.has(rt))
          return Response.json(
            {
              error_code: 'refresh_token_already_used',
              msg: 'Invalid Refresh Token: Already Used',
            },
            { status: 400 },
          );
        used.add(rt);
        return new Promise((r) => {
          answer = () =>
            r({
              access_token: fakeJwt('vera', { is_anonymous: true, iat: 2 }),
              refresh_token: 'r2',
              expires_in: 3600,
              user: { id: 'vera', is_anonymous: true },
            });
        });
      },
    });
    withSession('vera');
    const s = { ...(await loadSession(p))!, expires_at: 1 };
    auth.saveSession(p, s);
    for (const m of [auth, ...copies]) Object.assign(m.waits, { fetch: 300, lock: 300 });
    // the first refresh: given up after the wait, its answer still on its way
    expect(await auth.ensureSession(p, false), 'given up after the wait').to.equal(null);
    return { answer: () => answer(), s };
  }
  const before = { ...auth.waits };
  afterEach(() => Object.assign(auth.waits, before));

  it('a second refresh before the answer joins the first: the token is sent once and the visitor kept', async () => {
    const { answer } = await lateRotation();
    // the visitor acts again (a write makes no new user meanwhile: it waits for the same answer)
    expect(await auth.ensureSession(p, true), 'still on its way').to.equal(null);
    expect(tokenCalls(), 'sent once').to.deep.equal(['r']);
    answer();
    await until(() => getSession(p)?.refresh_token === 'r2');
    expect((await auth.ensureSession(p, true))?.user.id, 'the same visitor').to.equal('vera');
    expect(tokenCalls()).to.deep.equal(['r']);
    expect(api.calls.filter((c) => c.name === '/auth/v1/signup')).to.have.length(0);
  });

  it('two elements reading at once while the answer is on its way: no refresh sent again, the visitor kept', async () => {
    const { answer } = await lateRotation();
    const els = await Promise.all([
      mountReady<ReactionLike>('reaction-like'),
      mountReady<ReactionLike>('reaction-like'),
    ]);
    for (const el of els) expect(el.shadowRoot!.textContent).to.include('3 Likes');
    // a 401 on the stale token while the refresh is on its way: it joins that one as well
    expect((await auth.refused(p, getSession(p)!))?.refresh_token, 'kept').to.equal('r');
    expect(tokenCalls(), 'sent once').to.deep.equal(['r']);
    answer();
    await until(() => getSession(p)?.refresh_token === 'r2');
    expect(tokenCalls()).to.deep.equal(['r']);
  });

  it('another tab (or element bundle: its own copy of core/auth.ts) waits for the lock the late refresh holds, sends nothing and keeps the session', async () => {
    const other = (await import(new URL('./auth.ts?other', import.meta.url).href)) as Auth;
    const { answer, s } = await lateRotation([other]);
    expect(await lockFree(), 'held while the answer is on its way').to.equal(false);
    expect(await other.ensureSession(p, false), 'gave up waiting for the lock').to.equal(null);
    // a 401 there: no refresh beside the one on its way, kept (as when the server is out of reach)
    expect((await other.refused(p, s))?.refresh_token).to.equal('r');
    expect(tokenCalls(), 'sent once').to.deep.equal(['r']);
    expect(getSession(p)?.refresh_token, 'kept').to.equal('r');
    answer();
    await until(() => getSession(p)?.refresh_token === 'r2');
    expect((await other.ensureSession(p, false))?.refresh_token).to.equal('r2');
    await eventually(lockFree, 2000, 'the lock free once the answer is kept', 5);
    expect(tokenCalls()).to.deep.equal(['r']);
  });
});
