// The block's results summary (block_results_summary): one query, shared by the summary and the
// list's "N responses" heading so both show the same count. A delete or an approval marks it
// stale (api/delete-response.ts, api/approve-responses.ts), and both read the new figures.
import { useQuery } from '@tanstack/react-query';
import { resultKeys } from '../api/keys';
import type { ResultsApi } from '../api/results-api';
import { browserTimeZone } from '../api/results-summary';

export function useResultsSummary(blockId: string, api: Pick<ResultsApi, 'summary'>) {
  const timeZone = browserTimeZone();
  return useQuery({
    queryKey: resultKeys.summary(blockId, timeZone),
    queryFn: () => api.summary({ blockId, timeZone }),
  });
}
