// Saves the workspace in one call to the save-block edge function: settings, private settings
// and, for form and ab, the question and ending lists, in one database transaction. The body is
// checked with ZSaveBlock first, the schema the function validates with, so the owner sees the
// same message either way.
import { ZSaveBlock, type TSaveBlock } from '@reaction-blocks/contracts/schemas';
import { invokeFunction } from '../../../lib/supabase';
import type { WorkspaceData } from './types';

export const ZSaveBlockInput = ZSaveBlock;
export type TSaveBlockInput = TSaveBlock;

/** The first problem of a payload, as the function would word it; null when it is valid. */
export function saveBlockProblem(input: unknown): string | null {
  const parsed = ZSaveBlockInput.safeParse(input);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  if (!issue) return 'Invalid input';
  const field = issue.path.join('.');
  return `${issue.message}${field ? ` (${field})` : ''}`;
}

/** Saves and answers the block as stored, so the draft can start again from it. */
export async function saveBlock(input: TSaveBlockInput): Promise<WorkspaceData> {
  const body = ZSaveBlockInput.parse(input);
  const data = await invokeFunction<WorkspaceData>('save-block', body);
  return { ...data, private: data.private ?? null };
}
