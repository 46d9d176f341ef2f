// The results list's data: pages of 10, newest first, with load more, retry and local removal.
import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from '../../../../lib/errors';
import type { ResultsApi } from '../api/results-api';
import type { ResponseRow, ResponsesCursor } from '../types';

/** Results page size (spec section 9). */
export const RESULTS_PAGE_SIZE = 10;

export type ResponsesStatus = 'loading' | 'ready' | 'loadingMore';

export interface ResponsesState {
  rows: ResponseRow[];
  status: ResponsesStatus;
  /** False once a page came back shorter than the page size. */
  hasMore: boolean;
  /** The message of the last failed read; the rows read before stay. */
  error: string | null;
}

const initial: ResponsesState = { rows: [], status: 'loading', hasMore: true, error: null };

export function useResponses(blockId: string, api: Pick<ResultsApi, 'listResponses'>) {
  const [state, setState] = useState<ResponsesState>(initial);
  // Refs, not state, guard against double loads: scroll events arrive faster than renders.
  const busy = useRef(false);
  const cursor = useRef<ResponsesCursor | undefined>(undefined);
  const hasMore = useRef(true);
  const generation = useRef(0);

  const load = useCallback(async () => {
    if (busy.current || !hasMore.current) return;
    busy.current = true;
    const mine = generation.current;
    const first = cursor.current === undefined;
    setState((s) => ({ ...s, status: first ? 'loading' : 'loadingMore', error: null }));
    try {
      const page = await api.listResponses({
        blockId,
        after: cursor.current,
        limit: RESULTS_PAGE_SIZE,
      });
      if (mine !== generation.current) return;
      const last = page[page.length - 1];
      if (last) cursor.current = { created_at: last.created_at, id: last.id };
      hasMore.current = page.length >= RESULTS_PAGE_SIZE;
      setState((s) => {
        const known = new Set(s.rows.map((row) => row.id));
        return {
          rows: [...s.rows, ...page.filter((row) => !known.has(row.id))],
          status: 'ready',
          hasMore: hasMore.current,
          error: null,
        };
      });
    } catch (cause) {
      if (mine !== generation.current) return;
      console.error('[reaction-dashboard] results load failed', cause);
      setState((s) => ({ ...s, status: 'ready', error: messageOf(cause) }));
    } finally {
      if (mine === generation.current) busy.current = false;
    }
  }, [api, blockId]);

  useEffect(() => {
    // A new block (or API) starts over; answers still in flight for the old one are ignored.
    generation.current += 1;
    busy.current = false;
    cursor.current = undefined;
    hasMore.current = true;
    setState(initial);
    void load();
  }, [load]);

  const remove = useCallback((id: string) => {
    setState((s) => ({ ...s, rows: s.rows.filter((row) => row.id !== id) }));
  }, []);

  return { ...state, loadMore: load, remove };
}
