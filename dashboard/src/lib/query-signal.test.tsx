// The shared query hooks (use-query, use-paged-query, use-draft-query) hand TanStack's signal to
// their read, which passes it to every request: a read under way at sign-out is aborted (the
// sign-out cancels the queries before the session goes: lib/session.tsx, lib/query-client.ts),
// the sign-out does not wait for it, and a read it would have made next is never sent, as anon.
import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSessionProvider, storedSession } from '../test/utils';
import { QueryProvider } from './query-provider';
import { useSession } from './session';
import { supabase } from './supabase';
import { useDraftQuery } from './use-draft-query';
import { usePagedQuery } from './use-paged-query';
import { useQuery } from './use-query';

vi.mock('./auth-storage', async (original) => ({
  ...(await original<typeof import('./auth-storage')>()),
  mayHaveSession: () => true,
}));

/** Two reads one after the other, as several screens make them (the first one hangs). */
async function twoReads(first: 'blocks' | 'payments' | 'questions', signal: AbortSignal) {
  await supabase.from(first).select('id').abortSignal(signal);
  await supabase.from('user_tags').select('id').abortSignal(signal);
  return [];
}

function Screens() {
  const signedIn = useSession().status === 'signedIn';
  useQuery(['owner-1', 'list'], (signal) => twoReads('blocks', signal), { enabled: signedIn });
  usePagedQuery({
    queryKey: ['owner-1', 'pages'],
    fetchPage: (_page: number, signal) => twoReads('payments', signal),
    initialPageParam: 0,
    nextPageParam: () => undefined,
    pageSize: 10,
    enabled: signedIn,
  });
  useDraftQuery({
    queryKey: ['owner-1', 'draft'],
    queryFn: (signal) => twoReads('questions', signal),
    enabled: signedIn,
    usable: () => true,
    toDraft: (rows) => rows,
    what: 'test',
  });
  return null;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a query under way at sign-out', () => {
  it('is aborted, not waited for, and sends nothing after the session has gone', async () => {
    const sent: Array<{ table: string; bearer: string | null }> = [];
    const aborted: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
        const table = new URL(String(input)).pathname.split('/').pop()!;
        sent.push({ table, bearer: new Headers(init?.headers).get('Authorization') });
        const json = (body: unknown) =>
          new Response(JSON.stringify(body), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          });
        if (table === 'profiles') return Promise.resolve(json({ id: 'owner-1', agree: true }));
        // the screens' first reads hang until they are aborted
        return new Promise<Response>((_answer, fail) =>
          init?.signal?.addEventListener('abort', () => {
            aborted.push(table);
            fail(new DOMException('The operation was aborted.', 'AbortError'));
          }),
        );
      }),
    );
    vi.spyOn(supabase.auth, 'getSession').mockResolvedValue({
      data: { session: storedSession as never },
      error: null,
    });
    const signOut = vi.spyOn(supabase.auth, 'signOut').mockResolvedValue({ error: null });
    const error = vi.spyOn(console, 'error');
    const session = renderSessionProvider(
      <QueryProvider>
        <Screens />
      </QueryProvider>,
    );
    await waitFor(() =>
      expect(sent.map((r) => r.table).sort()).toEqual([
        'blocks',
        'payments',
        'profiles',
        'questions',
      ]),
    );

    const started = Date.now();
    await act(() => session().signOut());
    expect(signOut).toHaveBeenCalledTimes(1);
    // the sign-out waits for the requests under way (signedOutWhenIdle, up to 3 s): aborted,
    // there is nothing to wait for
    expect(Date.now() - started).toBeLessThan(1500);
    expect(aborted.sort()).toEqual(['blocks', 'payments', 'questions']);
    await new Promise((r) => setTimeout(r, 50));
    // the reads after the aborted ones were not sent, with the session or without it
    expect(sent.map((r) => r.table)).not.toContain('user_tags');
    expect(sent.every((r) => r.bearer === `Bearer ${storedSession.access_token}`)).toBe(true);
    // an aborted read is no failure to report
    expect(error).not.toHaveBeenCalled();
  });
});
