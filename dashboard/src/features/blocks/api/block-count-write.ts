import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/session';
import { blockKeys } from './keys';

/**
 * A write that changes how many blocks the owner has (a copy, a delete): once it is done, the
 * list and the profile's block count are read again.
 */
export function useBlockCountWrite<TInput, TResult>(write: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  const { refreshProfile } = useSession();
  return useMutation({
    mutationFn: write,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: blockKeys.all }), refreshProfile()]),
  });
}
