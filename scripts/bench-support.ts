// Helpers the stack benchmarks share: calling the stack as its clients do, and a small pool.
import type { Stack } from '../supabase/local/stack.ts';

export interface Session {
  access_token: string;
  user: { id: string };
}

export async function api<T>(
  stack: Stack,
  method: string,
  path: string,
  body: unknown,
  token: string,
  prefer?: string,
): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: {
      apikey: stack.anonKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(prefer ? { prefer } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** Runs `task` over `items` with at most `limit` at a time, keeping the order of results. */
export async function pool<I, O>(
  items: I[],
  limit: number,
  task: (item: I) => Promise<O>,
): Promise<O[]> {
  const out = new Array<O>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return out;
}
