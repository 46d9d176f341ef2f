import { getWorkspaceBlock, type TGetWorkspaceBlockInput } from './get-workspace-block';
import { resetNewResponses } from './reset-new-responses';
import { saveBlock, type TSaveBlockInput } from './save-block';
import type { WorkspaceData } from './types';

/** The server calls of the workspace; tests pass their own. */
export interface WorkspaceApi {
  load: (input: TGetWorkspaceBlockInput, signal: AbortSignal) => Promise<WorkspaceData | null>;
  save: (input: TSaveBlockInput) => Promise<WorkspaceData>;
  /** "+ N responses" back to 0: the owner has seen them. */
  resetNewResponses: (blockId: string) => Promise<void>;
}

export const supabaseWorkspaceApi: WorkspaceApi = {
  load: getWorkspaceBlock,
  save: saveBlock,
  resetNewResponses,
};

export type * from './types';
export { saveBlockProblem } from './save-block';
