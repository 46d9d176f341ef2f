// Reads a block's responses newest first, one page at a time (keyset paging on created_at, id).
import { z } from 'zod';
import { readRows } from '../../../../lib/read-rows';
import { supabase } from '../../../../lib/supabase';
import type { ResponseRow, ResponsesCursor } from '../types';

export const RESPONSE_COLUMNS =
  'id, block_id, kind, creator_id, creator_name, creator_photo_url, color, timezone, answers, created_at, page_key, held';

// The cursor is written into a PostgREST filter string, so it must be exactly a timestamp and a
// uuid: anything else could change the filter.
const ZCursor = z.strictObject({
  created_at: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/),
  id: z.guid(),
});

export const ZListResponsesInput = z.strictObject({
  blockId: z.guid(),
  after: ZCursor.optional(),
  limit: z.int().min(1).max(1000),
});
export type TListResponsesInput = z.infer<typeof ZListResponsesInput>;

/**
 * One page of responses after `after` (exclusive). Keyset rather than offset paging, so rows
 * deleted or added while the owner scrolls neither skip nor repeat rows.
 */
export async function listResponses(
  input: TListResponsesInput,
  signal = new AbortController().signal,
): Promise<ResponseRow[]> {
  const { blockId, after, limit } = ZListResponsesInput.parse(input);
  let query = supabase.from('responses').select(RESPONSE_COLUMNS).eq('block_id', blockId);
  if (after) query = query.or(afterFilter(after));
  const rows = await readRows(
    query
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(limit)
      .abortSignal(signal),
  );
  return rows as ResponseRow[];
}

/** "older than the cursor, or as old with a smaller id"; values quoted for PostgREST. */
export function afterFilter(after: ResponsesCursor) {
  const at = `"${after.created_at}"`;
  return `created_at.lt.${at},and(created_at.eq.${at},id.lt.${after.id})`;
}

/** Every response of the block, read `pageSize` at a time (the CSV export). */
export async function listAllResponses(
  blockId: string,
  list: (input: TListResponsesInput) => Promise<ResponseRow[]> = listResponses,
  pageSize = 1000,
): Promise<ResponseRow[]> {
  const all: ResponseRow[] = [];
  let after: ResponsesCursor | undefined;
  for (;;) {
    const page = await list({ blockId, after, limit: pageSize });
    all.push(...page);
    const last = page[page.length - 1];
    if (page.length < pageSize || !last) return all;
    after = { created_at: last.created_at, id: last.id };
  }
}
