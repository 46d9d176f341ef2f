// A small concurrency limit: the jobs worker's deliveries and handlers, and the bench scripts.

/** Runs fn over items, at most `limit` at a time, keeping the order of results. */
export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}
