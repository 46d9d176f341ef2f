// Loads a block for the workspace: the row, its private settings, its questions with options and
// its endings with conditions. The block must be the signed-in owner's: any signed-in user can
// read published blocks, so the owner filter is what keeps others' blocks out of the workspace.
import { z } from 'zod';
import { readOwnBlock } from '../../../lib/own-block';
import { supabase } from '../../../lib/supabase';
import type {
  WorkspaceData,
  WorkspaceEndingRow,
  WorkspacePrivateRow,
  WorkspaceQuestionRow,
} from './types';

export const ZGetWorkspaceBlockInput = z.object({
  blockId: z.uuid(),
  ownerId: z.string().min(1),
});
export type TGetWorkspaceBlockInput = z.infer<typeof ZGetWorkspaceBlockInput>;

const byIndex = <T extends { index: number; created_at: string }>(a: T, b: T) =>
  a.index - b.index || a.created_at.localeCompare(b.created_at);

/**
 * The row, and its exact counts: while a block is busy its counters wait up to five seconds
 * beside the row before they are folded in (docs/data-model.md, "Counters without hot rows"); the computed fields
 * add them, as the block list does.
 */
const BLOCK_COLUMNS = '*, live_response_count, live_new_response_count';
type LiveBlockRow = WorkspaceData['block'] & {
  live_response_count: number | null;
  live_new_response_count: number | null;
};

/** The block, or null when it does not exist or is not the owner's. */
export async function getWorkspaceBlock(
  input: TGetWorkspaceBlockInput,
  signal: AbortSignal,
): Promise<WorkspaceData | null> {
  const parsed = ZGetWorkspaceBlockInput.safeParse(input);
  if (!parsed.success) return null;
  const { blockId, ownerId } = parsed.data;
  // Four reads in parallel rather than one embedded select: questions reference blocks twice
  // (block_id and trigger_letter_block), which would make the embedding ambiguous.
  const [[block, priv], questions, endings] = await Promise.all([
    readOwnBlock<LiveBlockRow>(blockId, ownerId, BLOCK_COLUMNS, signal),
    supabase
      .from('questions')
      .select('*, options(*)')
      .eq('block_id', blockId)
      .eq('deleted', false)
      .order('index')
      .abortSignal(signal),
    supabase
      .from('endings')
      .select('*, conditions:ending_conditions(*)')
      .eq('block_id', blockId)
      .order('index')
      .abortSignal(signal),
  ]);
  const error = block.error ?? priv.error ?? questions.error ?? endings.error;
  if (error) throw error;
  if (!block.data) return null;
  const { live_response_count, live_new_response_count, ...row } = block.data;
  return {
    block: {
      ...row,
      response_count: live_response_count ?? row.response_count,
      new_response_count: live_new_response_count ?? row.new_response_count,
    },
    private: (priv.data as WorkspacePrivateRow | null) ?? null,
    questions: ((questions.data ?? []) as unknown as WorkspaceQuestionRow[])
      .map((q) => ({ ...q, options: (q.options ?? []).filter((o) => !o.deleted).sort(byIndex) }))
      .sort(byIndex),
    endings: ((endings.data ?? []) as unknown as WorkspaceEndingRow[])
      .map((e) => ({ ...e, conditions: [...(e.conditions ?? [])].sort(byIndex) }))
      .sort(byIndex),
  };
}
