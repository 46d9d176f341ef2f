// An editor's first read through TanStack Query, and the draft seeded from it once. The read has
// the client's retries and is dropped with the rest of the cache when the user changes; it is made
// when the editor opens (never from a copy read before: no cache time) and not again behind the
// owner's back (no refetch on focus). `saved` is the stored copy and follows the query, which a
// save replaces (`setSaved`); `base` (what the draft is compared with) and `draft` start from the
// first answer for this key and are the editor's own from then on.
import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useState } from 'react';

export type DraftStatus = 'loading' | 'ready' | 'missing';

export interface DraftQueryOptions<T, D> {
  queryKey: QueryKey;
  /** The stored copy, or null when there is none for this user. */
  queryFn: () => Promise<T | null>;
  enabled: boolean;
  /** Whether this editor edits what was read (a letter block is not the reaction editor's). */
  usable: (data: T) => boolean;
  toDraft: (data: T) => D;
  /** Named in the console when the read fails. */
  what: string;
}

export function useDraftQuery<T, D>(options: DraftQueryOptions<T, D>) {
  const { queryKey, queryFn, enabled, usable, toDraft, what } = options;
  const client = useQueryClient();
  const hash = JSON.stringify(queryKey);
  const query = useQuery({
    queryKey,
    queryFn: async () => {
      try {
        return await queryFn();
      } catch (cause) {
        console.error(`[reaction-dashboard] ${what} load failed`, cause);
        throw cause;
      }
    },
    enabled,
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const data = query.data;
  const status: DraftStatus =
    data === undefined
      ? query.isError
        ? 'missing'
        : 'loading'
      : data === null || !usable(data)
        ? 'missing'
        : 'ready';

  const [seededFor, setSeededFor] = useState<string | null>(null);
  const [base, setBase] = useState<D | null>(null);
  const [draft, setDraft] = useState<D | null>(null);
  // Seeded while rendering (React's pattern for state that follows a prop), so the first frame
  // with the data already shows the draft.
  if (status === 'ready' && seededFor !== hash) {
    const start = toDraft(data!);
    setSeededFor(hash);
    setBase(start);
    setDraft(start);
  }

  const setSaved = useCallback(
    (update: T | ((saved: T) => T)) =>
      client.setQueryData<T | null>(JSON.parse(hash) as QueryKey, (current) =>
        typeof update === 'function'
          ? current
            ? (update as (saved: T) => T)(current)
            : current
          : update,
      ),
    [client, hash],
  );

  const seeded = status === 'ready' && seededFor === hash;
  return {
    status,
    saved: status === 'ready' ? (data as T) : null,
    setSaved,
    base: seeded ? base : null,
    setBase,
    draft: seeded ? draft : null,
    setDraft,
  };
}
