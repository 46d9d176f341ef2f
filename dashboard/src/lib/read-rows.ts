// A PostgREST read as the screens take it: its rows, or its error thrown (the TanStack query's
// failure: lib/use-query.ts says it in the reader's language). Kept apart from lib/supabase.ts,
// which the tests replace with their fakes: the reads' own code stays in what they test.
import type { PostgrestError } from '@supabase/postgrest-js';

/** The rows `request` answers (an empty list when it answers none), or its error thrown. */
export async function readRows<Row>(
  request: PromiseLike<{ data: Row[] | null; error: PostgrestError | null }>,
): Promise<Row[]> {
  const { data, error } = await request;
  if (error) throw error;
  return data ?? [];
}
