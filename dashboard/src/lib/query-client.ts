// The dashboard's server state: one TanStack Query client for every signed-in screen. Each
// feature names its queries under its own first key (['blocks', ownerId], ['plans', ...]) in
// its api/ files and invalidates them after its writes.
import { QueryClient } from '@tanstack/react-query';
import { isTransient, retryAfterOf } from './errors';
import { onUserChange } from './session';

/** Two more tries for a transient failure (after 1 s and 2 s), none otherwise. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < 2 && isTransient(error);
}

/** TanStack's wait before another try (1 s, 2 s, ...), never sooner than the answer's Retry-After. */
export function retryDelay(failureCount: number, error: unknown): number {
  return Math.max(Math.min(1000 * 2 ** failureCount, 30_000), (retryAfterOf(error) ?? 0) * 1000);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay,
        // a screen opened again within 30 s shows what it read without asking again
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

// Nothing read for one user stays for the next (a sign-out, another account in this browser).
// Keys of the owner's data name the owner too, so nothing shows in between.
onUserChange(() => queryClient.clear());
