// The client signs out only once the API requests under way have answered (lib/supabase.ts
// signedOutWhenIdle): a read that took its token after the sign-out went as anon and got a 401.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { supabase } from './supabase';

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
});
