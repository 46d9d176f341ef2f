// An editor's first read through TanStack Query, and the draft seeded from it once. The read has
// the client's retries and is dropped with the rest of the cache when the user changes; it is made
// when the editor opens (never from a copy read before: no cache time) and not again behind the
// owner's back (no refetch on focus). `saved` is the stored copy and follows the query, which a
// save replaces (`setSaved`); `base` (what the draft is compared with) and `draft` start from the
// first answer for this key and are the editor's own from then on.
import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useState, type SetStateAction } from 'react';

export type DraftStatus = 'loading' | 'ready' | 'missing';

export interface DraftQueryOptions<T, D> {
  queryKey: QueryKey;
  /**
   * The stored copy, or null when there is none for this user; `signal` goes to its requests (as
   * in lib/use-query.ts).
   */
  queryFn: (signal: AbortSignal) => Promise<T | null>;
  enabled: boolean;
  /** Whether this editor edits what was read (a letter block is not the reaction editor's). */
  usable: (data: T) => boolean;
  toDraft: (data: T) => D;
  /** What the draft is compared with at first, when it is not the draft itself. */
  toBase?: (data: T) => D;
  /** Named in the console when the read fails. */
  what: string;
}

export function useDraftQuery<T, D>(options: DraftQueryOptions<T, D>) {
  const { queryKey, queryFn, enabled, usable, toDraft, toBase, what } = options;
  const client = useQueryClient();
  const hash = JSON.stringify(queryKey);
  const query = useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      try {
        return await queryFn(signal);
      } catch (cause) {
        // given up (a sign-out, the editor closed): no failure
        if (!signal.aborted) console.error(`[reaction-dashboard] ${what} load failed`, cause);
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

  // The key seeded for, `base` and `draft` are one state: seeded while rendering (React's pattern
  // for state that follows a prop, so the first frame with the data already shows the draft),
  // which React does not keep when it later replays an update that was waiting on the same state
  // at a lower priority (such as the letter workspace's senders effect, queued before the answer
  // rendered): it replays from the state before that update, without the seed. Held apart, the
  // key stayed seeded while base and draft went back to null ("Loading the letter…" for good
  // after Back and Forward); together, the seed is lost with its key and made again.
  const [seed, setSeed] = useState<Seed<D>>(UNSEEDED);
  if (status === 'ready' && seed.for !== hash) {
    const draft = toDraft(data!);
    setSeed({ for: hash, base: toBase ? toBase(data!) : draft, draft });
  }
  const setBase = useCallback(
    (update: SetStateAction<D | null>) => setSeed((s) => withPart(s, 'base', update)),
    [],
  );
  const setDraft = useCallback(
    (update: SetStateAction<D | null>) => setSeed((s) => withPart(s, 'draft', update)),
    [],
  );

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

  const seeded = status === 'ready' && seed.for === hash;
  return {
    status,
    saved: status === 'ready' ? (data as T) : null,
    setSaved,
    base: seeded ? seed.base : null,
    setBase,
    draft: seeded ? seed.draft : null,
    setDraft,
  };
}

interface Seed<D> {
  /** The query key's hash base and draft were seeded for. */
  for: string | null;
  base: D | null;
  draft: D | null;
}

const UNSEEDED: Seed<never> = { for: null, base: null, draft: null };

function withPart<D>(seed: Seed<D>, part: 'base' | 'draft', update: SetStateAction<D | null>) {
  const next =
    typeof update === 'function' ? (update as (value: D | null) => D | null)(seed[part]) : update;
  return next === seed[part] ? seed : { ...seed, [part]: next };
}
