// The moderation list's state: the filter and search, the messages read (newest first, pages of
// 50), the selection, and the writes. Live: a change of the block's messages re-reads what is on
// screen (debounced), so new messages appear and other tabs' actions show; `onArrived` says how
// many new ones came.
import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from '../../../../lib/errors';
import { MODERATION_PAGE_SIZE, type LiveStatus, type ModerationApi } from '../api';
import type { ModerationAction, ModerationFilter, ModerationMessage } from '../api';

export type ModerationStatus = 'loading' | 'ready' | 'loadingMore';

/** Live changes arriving close together cause one re-read. */
const LIVE_DEBOUNCE_MS = 250;

export function useModeration(
  blockId: string,
  api: ModerationApi,
  onArrived: (count: number) => void = () => {},
) {
  const [filter, setFilter] = useState<ModerationFilter>('all');
  const [search, setSearch] = useState('');
  const [rows, setRows] = useState<ModerationMessage[]>([]);
  const [status, setStatus] = useState<ModerationStatus>('loading');
  const [error, setError] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [live, setLive] = useState<LiveStatus>('connecting');
  // refs for the live callback and the guards: events come faster than renders
  const rowsRef = useRef<ModerationMessage[]>([]);
  const generation = useRef(0);
  /** The list's first page has been read (new arrivals are announced only after it). */
  const loadedRef = useRef(false);
  const arrivedRef = useRef(onArrived);
  useEffect(() => {
    arrivedRef.current = onArrived;
  });

  const show = useCallback((next: ModerationMessage[], more: boolean) => {
    rowsRef.current = next;
    setRows(next);
    setHasMore(more);
    setSelected((s) => {
      const ids = new Set(next.map((r) => r.id));
      const kept = [...s].filter((id) => ids.has(id));
      return kept.length === s.size ? s : new Set(kept);
    });
  }, []);

  const read = useCallback(
    (limit: number, before?: string) =>
      api.list({ blockId, filter, search: search || undefined, limit, before }),
    [api, blockId, filter, search],
  );

  /** A new filter or search starts the list over (the effect below reads it). */
  const startOver = useCallback(() => {
    rowsRef.current = [];
    loadedRef.current = false;
    setRows([]);
    setSelected(new Set());
    setStatus('loading');
    setError(null);
  }, []);
  const changeFilter = useCallback(
    (next: ModerationFilter) => {
      if (next === filter) return;
      startOver();
      setFilter(next);
    },
    [filter, startOver],
  );
  const changeSearch = useCallback(
    (next: string) => {
      if (next === search) return;
      startOver();
      setSearch(next);
    },
    [search, startOver],
  );

  useEffect(() => {
    const mine = ++generation.current;
    read(MODERATION_PAGE_SIZE).then(
      (page) => {
        if (mine !== generation.current) return;
        show(page, page.length >= MODERATION_PAGE_SIZE);
        loadedRef.current = true;
        setStatus('ready');
      },
      (cause: unknown) => {
        if (mine !== generation.current) return;
        console.error('[reaction-dashboard] moderation load failed', cause);
        setError(messageOf(cause));
        setStatus('ready');
      },
    );
  }, [read, show]);

  /** Reads again as many as are shown (up to 100); answers how many are new. */
  const refresh = useCallback(async (): Promise<number> => {
    const mine = generation.current;
    const limit = Math.min(100, Math.max(MODERATION_PAGE_SIZE, rowsRef.current.length));
    const page = await read(limit);
    if (mine !== generation.current) return 0;
    const known = new Set(rowsRef.current.map((r) => r.id));
    const newest = rowsRef.current[0]?.created_at ?? '';
    show(page, page.length >= limit);
    setError(null);
    return page.filter((r) => !known.has(r.id) && r.created_at > newest).length;
  }, [read, show]);

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

  const loadMore = useCallback(async () => {
    const last = rowsRef.current[rowsRef.current.length - 1];
    if (!last || status !== 'ready') return;
    const mine = generation.current;
    setStatus('loadingMore');
    try {
      const page = await read(MODERATION_PAGE_SIZE, last.created_at);
      if (mine !== generation.current) return;
      const known = new Set(rowsRef.current.map((r) => r.id));
      show(
        [...rowsRef.current, ...page.filter((r) => !known.has(r.id))],
        page.length >= MODERATION_PAGE_SIZE,
      );
      setError(null);
    } catch (cause) {
      if (mine === generation.current) setError(messageOf(cause));
    } finally {
      if (mine === generation.current) setStatus('ready');
    }
  }, [read, show, status]);

  /** Acts on messages, then shows the list as it is now. Throws the server's refusal. */
  const act = useCallback(
    async (ids: readonly string[], action: ModerationAction) => {
      await api.moderate({ ids: [...ids], action });
      if (action === 'delete') setSelected(new Set());
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
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  const selectAll = useCallback((on: boolean) => {
    setSelected(on ? new Set(rowsRef.current.map((r) => r.id)) : new Set());
  }, []);

  return {
    live,
    filter,
    setFilter: changeFilter,
    search,
    setSearch: changeSearch,
    rows,
    status,
    error,
    hasMore,
    selected,
    toggle,
    selectAll,
    loadMore,
    retry: refresh,
    act,
    setWriterBlocked,
  };
}
