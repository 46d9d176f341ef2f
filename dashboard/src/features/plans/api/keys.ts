// The plan screens' query keys, under the owner: a payment, a change, a stop or a coupon marks
// them all stale (usePlanWrites).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSession } from '../../../lib/session';

export const planKeys = {
  all: (ownerId: string) => ['plans', ownerId] as const,
  overview: (ownerId: string) => ['plans', ownerId, 'overview'] as const,
  active: (ownerId: string) => ['plans', ownerId, 'active'] as const,
  history: (ownerId: string) => ['plans', ownerId, 'history'] as const,
};

/** After a write that changed the plan: every plan read again, and the profile's limits. */
export function useInvalidatePlans() {
  const client = useQueryClient();
  const { user, refreshProfile } = useSession();
  const ownerId = user?.id ?? '';
  return useCallback(() => {
    void client.invalidateQueries({ queryKey: planKeys.all(ownerId) });
    void refreshProfile();
  }, [client, ownerId, refreshProfile]);
}
