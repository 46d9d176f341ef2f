// The results list's data: pages of 10, newest first (keyset paging after the last row), with
// load more, retry and local removal.
import { usePagedQuery } from '../../../../lib/use-paged-query';
import type { ResultsApi } from '../api/results-api';
import { resultKeys } from '../api/keys';
import type { ResponseRow, ResponsesCursor } from '../types';

/** Results page size (spec section 9). */
export const RESULTS_PAGE_SIZE = 10;

export function useResponses(blockId: string, api: Pick<ResultsApi, 'listResponses'>) {
  return usePagedQuery<ResponseRow, ResponsesCursor | undefined>({
    queryKey: resultKeys.responses(blockId),
    fetchPage: (after, signal) =>
      api.listResponses({ blockId, after, limit: RESULTS_PAGE_SIZE }, signal),
    initialPageParam: undefined,
    nextPageParam: (last) => {
      const row = last[last.length - 1]!;
      return { created_at: row.created_at, id: row.id };
    },
    pageSize: RESULTS_PAGE_SIZE,
  });
}
