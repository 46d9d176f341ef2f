// The plan screens' reads as queries: the active rows with the usage and the PayPal payments not
// given back (the top of /profile/plan), the active rows alone (/purchase), and the history's pages.
import { useQuery } from '@tanstack/react-query';
import { usePagedQuery } from '../../../lib/use-paged-query';
import type { PlanRow } from '../model/plans';
import { planKeys } from './keys';
import {
  HISTORY_PAGE_SIZE,
  listActivePlans,
  listFailedRefunds,
  listPlanHistory,
  loadUsage,
} from './plans';

export function usePlanOverview(ownerId: string | undefined) {
  return useQuery({
    queryKey: planKeys.overview(ownerId ?? ''),
    queryFn: async ({ signal }) => {
      const [active, usage, failedRefunds] = await Promise.all([
        listActivePlans(signal),
        loadUsage(ownerId!, signal),
        listFailedRefunds(signal),
      ]);
      return { active, usage, failedRefunds };
    },
    enabled: !!ownerId,
  });
}

export function useActivePlans(ownerId: string | undefined) {
  return useQuery({
    queryKey: planKeys.active(ownerId ?? ''),
    queryFn: ({ signal }) => listActivePlans(signal),
    enabled: !!ownerId,
  });
}

/** The history, 10 rows a page, newest first (page numbers: the rows are ranges). */
export function usePlanHistory(ownerId: string | undefined) {
  return usePagedQuery<PlanRow, number>({
    queryKey: planKeys.history(ownerId ?? ''),
    fetchPage: (page, signal) => listPlanHistory(page, signal),
    initialPageParam: 0,
    nextPageParam: (_last, pages) => pages.length,
    pageSize: HISTORY_PAGE_SIZE,
    enabled: !!ownerId,
  });
}
