// The moderation list's state: the filter and search, the messages read (newest first, pages of
// 50, through usePagedQuery under ['moderation', block, filter, search]), the selection, and the
// writes. Live: a change of the block's messages reads again the pages on screen (debounced), so
// new messages appear and other tabs' actions show; `onArrived` says how many new ones came.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { usePagedQuery } from '../../../../lib/use-paged-query';
import { MODERATION_PAGE_SIZE, type LiveStatus, type ModerationApi } from '../api';
import type { ModerationAction, ModerationFilter, ModerationMessage } from '../api';

export type ModerationStatus = 'loading' | 'ready' | 'loadingMore';

/** Live changes arriving close together cause one re-read. */
const LIVE_DEBOUNCE_MS = 250;

export const moderationKeys = {
  list: (blockId: string, filter: ModerationFilter, search: string) =>
    ['moderation', blockId, filter, search] as const,
};

export function useModeration(
  blockId: string,
  api: ModerationApi,
  onArrived: (count: number) => void = () => {},
) {
  const [filter, setFilter] = useState<ModerationFilter>('all');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [live, setLive] = useState<LiveStatus>('connecting');
  const list = usePagedQuery<ModerationMessage, string | undefined>({
    queryKey: moderationKeys.list(blockId, filter, search),
    fetchPage: (before, signal) =>
      api.list(
        {
          blockId,
          filter,
          search: search || undefined,
          limit: MODERATION_PAGE_SIZE,
          before,
        },
        signal,
      ),
    initialPageParam: undefined,
    nextPageParam: (last) => last.at(-1)!.created_at,
    pageSize: MODERATION_PAGE_SIZE,
    // a filter shown again is read again (its cached pages shown meanwhile): live changes
    // re-read only the list on screen
    staleTime: 0,
  });
  const { rows, query } = list;
  const { refetch } = query;
  // refs for the live callback: events come faster than renders
  const rowsRef = useRef<ModerationMessage[]>(rows);
  /** The list's first page has been read (new arrivals are announced only after it). */
  const loadedRef = useRef(false);
  const arrivedRef = useRef(onArrived);
  useEffect(() => {
    arrivedRef.current = onArrived;
    rowsRef.current = rows;
    loadedRef.current = query.data !== undefined;
  });
  // the selection keeps only what is on screen
  const selected = useMemo(() => {
    const ids = new Set(rows.map((r) => r.id));
    const kept = [...chosen].filter((id) => ids.has(id));
    return kept.length === chosen.size ? chosen : new Set(kept);
  }, [rows, chosen]);

  /** A new filter or search starts the list over, with nothing selected. */
  const changeFilter = useCallback((next: ModerationFilter) => {
    setChosen(new Set());
    setFilter(next);
  }, []);
  const changeSearch = useCallback((next: string) => {
    setChosen(new Set());
    setSearch(next);
  }, []);

  useEffect(() => {
    if (query.error) console.error('[reaction-dashboard] moderation load failed', query.error);
  }, [query.error]);

  /** Reads again the pages shown; answers how many messages are new. Throws a failed read. */
  const refresh = useCallback(async (): Promise<number> => {
    const known = new Set(rowsRef.current.map((r) => r.id));
    const newest = rowsRef.current[0]?.created_at ?? '';
    const result = await refetch();
    if (result.error) throw result.error;
    const now = result.data?.pages.flat() ?? [];
    return now.filter((r) => !known.has(r.id) && r.created_at > newest).length;
  }, [refetch]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const catchUp = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        // before the first page is read, every row would count as new: announce nothing then
        const announce = loadedRef.current;
        refresh().then(
          (n) => announce && n > 0 && arrivedRef.current(n),
          (cause: unknown) =>
            console.error('[reaction-dashboard] moderation refresh failed', cause),
        );
      }, LIVE_DEBOUNCE_MS);
    };
    let wasLive = false;
    const off = api.subscribe(blockId, catchUp, (s) => {
      setLive(s);
      // joined (or joined again): what changed while joining is read now
      if (s === 'live' && !wasLive) catchUp();
      wasLive = s === 'live';
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, [api, blockId, refresh]);

  /** Acts on messages, then shows the list as it is now. Throws the server's refusal. */
  const act = useCallback(
    async (ids: readonly string[], action: ModerationAction) => {
      await api.moderate({ ids: [...ids], action });
      if (action === 'delete') setChosen(new Set());
      await refresh();
    },
    [api, refresh],
  );

  const setWriterBlocked = useCallback(
    async (userId: string, blocked: boolean, hideMessages = false) => {
      await api.blockWriter({ blockId, userId, blocked, hideMessages });
      await refresh();
    },
    [api, blockId, refresh],
  );

  const toggle = useCallback((id: string) => {
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  const selectAll = useCallback((on: boolean) => {
    setChosen(on ? new Set(rowsRef.current.map((r) => r.id)) : new Set());
  }, []);

  return {
    live,
    filter,
    setFilter: changeFilter,
    search,
    setSearch: changeSearch,
    rows,
    status: list.status as ModerationStatus,
    /** Why the list could not be read (the failure itself: the view says it), or null. */
    error: query.error,
    hasMore: query.data !== undefined && list.hasMore,
    selected,
    toggle,
    selectAll,
    loadMore: list.loadMore,
    retry: refresh,
    act,
    setWriterBlocked,
  };
}
