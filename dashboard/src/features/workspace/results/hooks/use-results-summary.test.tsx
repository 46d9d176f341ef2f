import { focusManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useResultsSummary } from './use-results-summary';

describe('useResultsSummary', () => {
  it('is not read again when the window regains focus, as the list it counts is not', async () => {
    // stale at once and retried never: any focus refetch would show as a second call
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 0, retry: false } } });
    const summary = vi.fn(async () => ({ totals: { responses: 2 } }) as never);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useResultsSummary('b1', { summary }), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(summary).toHaveBeenCalledTimes(1);
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(summary).toHaveBeenCalledTimes(1);
    focusManager.setFocused(undefined);
  });
});
