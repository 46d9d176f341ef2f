// Put around each signed-in route module (and the public pages that read data), so the landing
// and /login never load TanStack Query. Every provider shares the one client, so the cache
// survives going from the dashboard to a workspace and back.
import { QueryClientContext, QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useContext, type ReactNode } from 'react';
import { queryClient } from './query-client';

export function QueryProvider({
  children,
  client = queryClient,
}: {
  children: ReactNode;
  client?: QueryClient;
}) {
  const outer = useContext(QueryClientContext);
  // one provider at the top (a test's own client, when it gives one)
  if (outer) return <>{children}</>;
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
