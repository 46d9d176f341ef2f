// useDraftQuery's seeding against an update to the draft that waits at a lower priority: the
// order of events that left the letter workspace on "Loading the letter…" after Back and Forward
// (its senders effect queues setBase/setDraft at the default priority; the read's answer renders
// first, synchronously, and seeds the draft while rendering).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { describe, expect, it } from 'vitest';
import { useDraftQuery } from './use-draft-query';

interface Stored {
  text: string;
}

describe('useDraftQuery', () => {
  it('keeps the seeded draft when an update queued before the answer renders after it', async () => {
    const client = new QueryClient();
    const key = ['draft-test', 'owner', 'block'];
    const states: Array<{ status: string; base: string | null; draft: string | null }> = [];
    let hook!: ReturnType<typeof useDraftQuery<Stored, string>>;
    function Editor() {
      hook = useDraftQuery<Stored, string>({
        queryKey: key,
        queryFn: () => new Promise<Stored>(() => {}), // answered below, with setQueryData
        enabled: true,
        usable: () => true,
        toDraft: (data) => data.text,
        what: 'test',
      });
      states.push({ status: hook.status, base: hook.base, draft: hook.draft });
      return null;
    }
    let rerender!: () => void;
    function Page() {
      const [, setTick] = useState(0);
      rerender = () => setTick((n) => n + 1);
      return <Editor />;
    }
    render(
      <QueryClientProvider client={client}>
        <Page />
      </QueryClientProvider>,
    );
    expect(hook.status).toBe('loading');

    act(() => {
      // what the letter workspace's senders effect does at mount: an updater, default priority
      hook.setBase((d) => d);
      hook.setDraft((d) => d);
      // the answer arrives and renders synchronously before that update is processed
      client.setQueryData(key, { text: 'stored' });
      flushSync(() => rerender());
      expect(hook.status).toBe('ready');
      expect(hook.draft).toBe('stored');
    });

    expect(hook.status).toBe('ready');
    expect(hook.base).toBe('stored');
    expect(hook.draft).toBe('stored');
    expect(states.at(-1)).toEqual({ status: 'ready', base: 'stored', draft: 'stored' });
  });
});
