// A paged list read through TanStack Query's useInfiniteQuery: the rows of every page read so
// far (each id once), whether more may come (a page shorter than the page size is the last),
// loadMore (which also retries a failed first page), and rows removed or replaced on screen
// after a delete or an edit.
import {
  useInfiniteQuery,
  useQueryClient,
  type InfiniteData,
  type QueryKey,
} from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { failureReason } from './errors';

export type PagedStatus = 'loading' | 'ready' | 'loadingMore';

export interface PagedQueryOptions<T, P> {
  queryKey: QueryKey;
  /**
   * One page: the first with `initialPageParam`, then with what `nextPageParam` gives. `signal`
   * goes to its request (as in lib/use-query.ts): cancelled at sign-out, nothing is sent after.
   */
  fetchPage: (param: P, signal: AbortSignal) => Promise<T[]>;
  initialPageParam: P;
  /**
   * Where the page after `last` starts (a cursor from its last row, or a page number), or
   * undefined when no page may follow (a display limit reached).
   */
  nextPageParam: (last: T[], pages: T[][]) => P | undefined;
  pageSize: number;
  enabled?: boolean;
  /** Reads the pages again this often (ms), for counts that move by themselves. */
  refetchInterval?: number;
  /** How long pages read count as fresh (the client's default: 30 s). */
  staleTime?: number;
}

export function usePagedQuery<T extends { id: string }, P>(options: PagedQueryOptions<T, P>) {
  const { queryKey, fetchPage, nextPageParam, pageSize } = options;
  const client = useQueryClient();
  const query = useInfiniteQuery<T[], Error, InfiniteData<T[], P>, QueryKey, P>({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam as P, signal),
    initialPageParam: options.initialPageParam,
    getNextPageParam: (last, pages) =>
      last.length < pageSize ? undefined : nextPageParam(last, pages),
    enabled: options.enabled,
    refetchInterval: options.refetchInterval,
    // only when given: an undefined here would replace the client's default
    ...(options.staleTime !== undefined ? { staleTime: options.staleTime } : {}),
    // every page would be read again: not on a mere focus
    refetchOnWindowFocus: false,
  });
  // Deleted on screen: hidden at once; the list is read again the next time it is shown.
  const [removed, setRemoved] = useState<ReadonlySet<string>>(() => new Set());
  const rows = useMemo(() => {
    const seen = new Set<string>();
    const out: T[] = [];
    for (const page of query.data?.pages ?? [])
      for (const row of page) {
        if (seen.has(row.id) || removed.has(row.id)) continue;
        seen.add(row.id);
        out.push(row);
      }
    return out;
  }, [query.data, removed]);

  const { data, hasNextPage, isFetching, fetchNextPage, refetch } = query;
  const loadMore = useCallback(async () => {
    if (isFetching) return;
    if (!data) await refetch();
    else if (hasNextPage) await fetchNextPage();
  }, [data, hasNextPage, isFetching, fetchNextPage, refetch]);

  const remove = useCallback(
    (id: string) => {
      setRemoved((s) => new Set(s).add(id));
      void client.invalidateQueries({ queryKey, refetchType: 'none' });
    },
    [client, queryKey],
  );
  /**
   * Shows `row` in place of the row with id `id` in the pages this list read, or drops it there
   * (null: it no longer belongs to this list, say after an edit moved it to another filter).
   */
  const replace = useCallback(
    (id: string, row: T | null) =>
      client.setQueryData<InfiniteData<T[], P>>(queryKey, (d) =>
        d
          ? {
              ...d,
              pages: d.pages.map((page) =>
                page.flatMap((x) => (x.id !== id ? [x] : row ? [row] : [])),
              ),
            }
          : d,
      ),
    [client, queryKey],
  );

  const status: PagedStatus =
    !data && isFetching ? 'loading' : query.isFetchingNextPage ? 'loadingMore' : 'ready';
  return {
    rows,
    status,
    /** False once a page came back shorter than the page size. */
    hasMore: !data || hasNextPage,
    /** Why the last read failed, in the reader's language; the rows read before stay. */
    error: query.error ? failureReason(query.error) : null,
    loadMore,
    remove,
    replace,
    /** Reads every page again (after a write that changes them). */
    refetch,
    query,
  };
}
