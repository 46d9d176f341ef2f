// The block's results summary (block_results_summary): one query, shared by the summary and the
// list's "N responses" heading so both show the same count. A delete or an approval marks it
// stale (api/delete-response.ts, api/approve-responses.ts), and both read the new figures. Not
// read again on a mere focus: the list it counts is not (use-paged-query.ts), and a count above
// the rows shown, with "All responses are shown", would say the list is whole when it is not.
import { useQuery } from '@tanstack/react-query';
import { resultKeys } from '../api/keys';
import type { ResultsApi } from '../api/results-api';
import { browserTimeZone } from '../api/results-summary';

export function useResultsSummary(blockId: string, api: Pick<ResultsApi, 'summary'>) {
  const timeZone = browserTimeZone();
  return useQuery({
    queryKey: resultKeys.summary(blockId, timeZone),
    queryFn: ({ signal }) => api.summary({ blockId, timeZone }, signal),
    refetchOnWindowFocus: false,
  });
}
