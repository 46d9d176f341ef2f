// The client signs out only once the API requests under way have answered (lib/supabase.ts
// signedOutWhenIdle): a read that took its token after the sign-out went as anon and got a 401.
// After the account's deletion it only forgets the session: /logout would answer 403.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH_STORAGE_KEY } from './auth-storage';
import { sealedStorage } from './sealed-storage';
import { storedSession } from '../test/utils';
import { invokeFunction, supabase } from './supabase';

describe('signedOutWhenIdle', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('waits for the requests under way, then signs out', async () => {
    let answer!: (r: Response) => void;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((r) => (answer = r))),
    );
    const signOut = vi.spyOn(supabase.auth, 'signOut').mockResolvedValue({ error: null });
    const read = supabase.from('blocks').select('id');
    const pending = read.then((r) => r);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const out = supabase.signedOutWhenIdle();
    await new Promise((r) => setTimeout(r, 50));
    expect(signOut).not.toHaveBeenCalled();
    answer(new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } }));
    await out;
    await pending;
    expect(signOut).toHaveBeenCalledTimes(1);
  });

  it('signs out at once with nothing under way, and after `ms` at the most', async () => {
    const signOut = vi.spyOn(supabase.auth, 'signOut').mockResolvedValue({ error: null });
    await supabase.signedOutWhenIdle();
    expect(signOut).toHaveBeenCalledTimes(1);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    void supabase
      .from('blocks')
      .select('id')
      .then((r) => r);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    await supabase.signedOutWhenIdle(100);
    expect(signOut).toHaveBeenCalledTimes(2);
  });

  it('drops a request that reads its token only after the sign-out, instead of sending it as anon', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('[]', { status: 200 }))),
    );
    let session!: (s: unknown) => void;
    const getSession = vi
      .spyOn(supabase.auth, 'getSession')
      .mockImplementationOnce(() => new Promise((r) => (session = r)) as never)
      .mockResolvedValue({ data: { session: null }, error: null } as never);
    vi.spyOn(supabase.auth, 'signOut').mockResolvedValue({ error: null });
    const late = supabase.from('blocks').select('id');
    const answer = late.then((r) => r);
    await vi.waitFor(() => expect(getSession).toHaveBeenCalledTimes(1));
    // the request is still waiting for its token when sign-out's limit runs out
    await supabase.signedOutWhenIdle(50);
    session({ data: { session: null }, error: null });
    expect((await answer).error?.message).toMatch(/AbortError/);
    expect(fetch).not.toHaveBeenCalled();
    // a request started after the sign-out goes as anonymous, as before
    await supabase.from('blocks').select('id');
    expect(fetch).toHaveBeenCalledTimes(1);
    // nor does a late one go as whoever signed in meanwhile
    getSession.mockImplementationOnce(() => new Promise((r) => (session = r)) as never);
    const another = supabase
      .from('blocks')
      .select('id')
      .then((r) => r);
    await vi.waitFor(() => expect(getSession).toHaveBeenCalledTimes(3));
    await supabase.signedOutWhenIdle(50);
    session({ data: { session: { access_token: 'next-user' } }, error: null });
    expect((await another).error?.message).toMatch(/AbortError/);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('a read not sent as anon', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('is not sent, nor its token read, once its signal is aborted (the sign-out aborts it)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('[]', { status: 200 }))),
    );
    const getSession = vi.spyOn(supabase.auth, 'getSession');
    const reads = new AbortController();
    reads.abort();
    const { error } = await supabase.from('profiles').select('*').abortSignal(reads.signal);
    expect(error?.message).toMatch(/AbortError/);
    expect(getSession).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("drops the owner's next read instead of sending it as anon, until the page's sign-out", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn((_input: RequestInfo | URL, _init?: RequestInit) =>
        Promise.resolve(new Response('[]', { status: 200 })),
      ),
    );
    const getSession = vi
      .spyOn(supabase.auth, 'getSession')
      .mockResolvedValue({ data: { session: storedSession }, error: null } as never);
    const signOut = vi.spyOn(supabase.auth, 'signOut').mockResolvedValue({ error: null });
    await supabase.from('blocks').select('id');
    expect(fetch).toHaveBeenCalledTimes(1);
    // the block logged out: the store holds no session, and the page has not signed out yet
    getSession.mockResolvedValue({ data: { session: null }, error: null } as never);
    const { error } = await supabase.from('blocks').select('id');
    expect(error?.message).toMatch(/AbortError/);
    expect(fetch).toHaveBeenCalledTimes(1);
    // the page's sign-out (gone): nothing sent to /logout, the block ended the session there
    // (50 ms: a test above leaves a read that never answers under way)
    await supabase.signedOutWhenIdle(50, { gone: true });
    expect(signOut).toHaveBeenCalledExactlyOnceWith({ scope: 'local' });
    // from then on a request without a session goes as anon, as on any signed-out page
    await supabase.from('blocks').select('id');
    expect(fetch).toHaveBeenCalledTimes(2);
    const [, init] = vi.mocked(fetch).mock.calls[1]!;
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer test-anon-key');
    // signed in again meanwhile (another tab): that session is not signed out
    getSession.mockResolvedValue({ data: { session: storedSession }, error: null } as never);
    await supabase.signedOutWhenIdle(50, { gone: true });
    expect(signOut).toHaveBeenCalledTimes(1);
  });
});

describe('signedOutWhenIdle after the account was deleted', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await sealedStorage.removeItem(AUTH_STORAGE_KEY);
  });

  it('forgets the session without sending it to /logout (a deleted user gets a 403 there)', async () => {
    // GoTrue's answer to a deleted user's token, which the browser logs as a console error
    const requests: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        requests.push(input instanceof Request ? input.url : String(input));
        return new Response(JSON.stringify({ code: 403, error_code: 'user_not_found' }), {
          status: 403,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const events: string[] = [];
    const { data } = supabase.auth.onAuthStateChange((event) => void events.push(event));
    try {
      // a plain sign-out asks the server to end the session
      await sealedStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify(storedSession));
      // (50 ms: a test above leaves a read that never answers under way)
      await supabase.signedOutWhenIdle(50);
      expect(requests.filter((url) => url.includes('/auth/v1/logout'))).toHaveLength(1);
      expect((await supabase.auth.getSession()).data.session).toBeNull();

      // the account's deletion ended it already: nothing is sent, the session is gone all the same
      requests.length = 0;
      events.length = 0;
      await sealedStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify(storedSession));
      expect((await supabase.auth.getSession()).data.session?.access_token).toBe('eyJ.access');
      const { error } = await supabase.signedOutWhenIdle(50, { deleted: true });
      expect(error).toBeNull();
      expect(requests).toEqual([]);
      expect((await supabase.auth.getSession()).data.session).toBeNull();
      expect(await sealedStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
      expect(events).toContain('SIGNED_OUT');
    } finally {
      data.subscription.unsubscribe();
    }
  });
});

describe('invokeFunction', () => {
  afterEach(() => vi.restoreAllMocks());

  it("throws the server's message with its status and code", async () => {
    const body = { error: { code: 'payment_failed', message: 'Failed to payment: Declined' } };
    const context = new Response(JSON.stringify(body), { status: 402 });
    vi.spyOn(supabase.functions, 'invoke').mockResolvedValue({
      data: null,
      error: Object.assign(new Error('Edge Function returned a non-2xx status code'), { context }),
      response: context,
    } as never);
    await expect(invokeFunction('check-iamport-payment')).rejects.toMatchObject({
      message: 'Failed to payment: Declined',
      status: 402,
      code: 'payment_failed',
    });
  });
});
