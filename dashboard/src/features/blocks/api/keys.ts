// The blocks feature's query keys. The first part is shared (lib/query-keys.ts), so a write in
// another feature (a rename in the workspace, a deleted response) can mark the list stale.
import { queryRoots } from '../../../lib/query-keys';

export const blockKeys = {
  /** Every owner's block list. */
  all: queryRoots.blocks,
  list: (ownerId: string) => [...queryRoots.blocks, ownerId] as const,
  tags: (userId: string) => ['user-tags', userId] as const,
};
