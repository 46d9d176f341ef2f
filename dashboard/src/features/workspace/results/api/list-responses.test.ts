import { describe, expect, it, vi } from 'vitest';
import { BLOCK_ID } from '../test-data';

/** Records the PostgREST builder calls; awaiting it gives `result`. */
const calls: Array<[string, unknown[]]> = [];
let result: { data: unknown; error: unknown } = { data: [], error: null };
function builder() {
  const b: Record<string, unknown> = {};
  for (const name of ['select', 'eq', 'or', 'order', 'limit', 'abortSignal', 'delete']) {
    b[name] = (...args: unknown[]) => {
      calls.push([name, args]);
      return b;
    };
  }
  b.then = (resolve: (v: unknown) => unknown) => Promise.resolve(resolve(result));
  return b;
}
vi.mock('../../../../lib/supabase', () => ({
  supabase: {
    from: (table: string) => {
      calls.push(['from', [table]]);
      return builder();
    },
  },
}));

const { listResponses, afterFilter } = await import('./list-responses');
const { deleteResponse } = await import('./delete-response');

const after = {
  created_at: '2025-01-01T00:00:00.123456+00:00',
  id: '30000000-0000-4000-8000-000000000001',
};

describe('listResponses', () => {
  it('reads newest first after the cursor (created_at, then id) with the page size', async () => {
    calls.length = 0;
    result = { data: [{ id: 'r1' }], error: null };
    const { signal } = new AbortController();
    await expect(listResponses({ blockId: BLOCK_ID, after, limit: 10 }, signal)).resolves.toEqual([
      { id: 'r1' },
    ]);
    expect(calls.map(([name]) => name)).toEqual([
      'from',
      'select',
      'eq',
      'or',
      'order',
      'order',
      'limit',
      'abortSignal',
    ]);
    expect(calls[0]![1]).toEqual(['responses']);
    expect(calls[2]![1]).toEqual(['block_id', BLOCK_ID]);
    expect(calls[3]![1]).toEqual([
      'created_at.lt."2025-01-01T00:00:00.123456+00:00",and(created_at.eq."2025-01-01T00:00:00.123456+00:00",id.lt.30000000-0000-4000-8000-000000000001)',
    ]);
    expect(calls[4]![1]).toEqual(['created_at', { ascending: false }]);
    expect(calls[5]![1]).toEqual(['id', { ascending: false }]);
    expect(calls[6]![1]).toEqual([10]);
    // the list's query's signal: the read is aborted with it (a sign-out)
    expect(calls[7]![1][0]).toBe(signal);
    expect(afterFilter(after)).toBe(calls[3]![1][0]);
  });

  it('has no cursor filter on the first page and throws the server error', async () => {
    calls.length = 0;
    result = { data: null, error: { message: 'permission denied' } };
    await expect(listResponses({ blockId: BLOCK_ID, limit: 10 })).rejects.toEqual({
      message: 'permission denied',
    });
    expect(calls.some(([name]) => name === 'or')).toBe(false);
  });

  it('refuses a cursor that could change the filter', async () => {
    calls.length = 0;
    await expect(
      listResponses({
        blockId: BLOCK_ID,
        after: { created_at: '2025-01-01T00:00:00Z),or(id.neq.x', id: after.id },
        limit: 10,
      }),
    ).rejects.toThrow();
    await expect(
      listResponses({ blockId: BLOCK_ID, after: { ...after, id: 'x,id.neq.y' }, limit: 10 }),
    ).rejects.toThrow();
    expect(calls).toEqual([]);
  });
});

describe('deleteResponse', () => {
  it('reports a delete that removed nothing (not the owner, or already gone)', async () => {
    result = { data: [], error: null };
    await expect(deleteResponse({ id: after.id })).rejects.toThrow(
      'The response no longer exists or you may not delete it.',
    );
    result = { data: [{ id: after.id }], error: null };
    await expect(deleteResponse({ id: after.id })).resolves.toBeUndefined();
  });
});
