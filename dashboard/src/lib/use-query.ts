// TanStack Query's useQuery in the shape the screens use: the data, the failure as a reason in
// the reader's language (failureReason), loading, reload, and setData for a write whose result
// the screen already knows. Caching, de-duplication and retries are TanStack's (lib/query-client.ts); the key is the feature's own
// (its first part names the feature, the owner follows where the data is the owner's).
import { useQuery as useTanstackQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { failureReason } from './errors';

export interface QueryState<T> {
  data: T | undefined;
  /** Why the last load failed, in the reader's language (the data read before stays). */
  error: string | null;
  /** The last load's failure itself, for a screen that tells the server's answers apart. */
  cause: unknown;
  loading: boolean;
  /** Loads again; resolves when done. */
  reload: () => Promise<void>;
  /** Changes the data locally (after a write the screen already knows the result of). */
  setData: (update: (data: T | undefined) => T | undefined) => void;
}

/**
 * `load` is given the query's signal: it passes it to every request it makes (`.abortSignal` on
 * PostgREST's, `signal` to invokeFunction), so a read under way when the query is cancelled (a
 * sign-out: lib/query-client.ts, or the screen gone) is aborted, and its requests not yet made
 * are not sent, as anon, after the session has gone.
 */
export function useQuery<T>(
  queryKey: QueryKey,
  load: (signal: AbortSignal) => Promise<T>,
  /** `refetchOnWindowFocus: 'always'`: read again whenever the tab comes back, however fresh. */
  options: { enabled?: boolean; refetchOnWindowFocus?: 'always' } = {},
): QueryState<T> {
  const client = useQueryClient();
  // the key's contents, not its identity (a new array every render)
  const hash = JSON.stringify(queryKey);
  const key = useMemo(() => JSON.parse(hash) as QueryKey, [hash]);
  const query = useTanstackQuery({
    queryKey,
    queryFn: ({ signal }) => load(signal),
    ...options,
  });
  const { refetch } = query;
  const reload = useCallback(async () => {
    // A read under way began before whatever made the screen reload: start a new one (refetch
    // alone would join it while nothing was read yet).
    await client.cancelQueries({ queryKey: key });
    await refetch();
  }, [client, refetch, key]);
  const setData = useCallback(
    (update: (value: T | undefined) => T | undefined) => client.setQueryData<T>(key, update),
    [client, key],
  );
  return {
    data: query.data,
    error: query.error ? failureReason(query.error) : null,
    cause: query.error,
    loading: query.isFetching,
    reload,
    setData,
  };
}
