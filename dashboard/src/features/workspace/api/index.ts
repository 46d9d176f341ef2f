import { getWorkspaceBlock, type TGetWorkspaceBlockInput } from './get-workspace-block';
import { saveBlock, type TSaveBlockInput } from './save-block';
import type { WorkspaceData } from './types';

/** The server calls of the workspace; tests pass their own. */
export interface WorkspaceApi {
  load: (input: TGetWorkspaceBlockInput) => Promise<WorkspaceData | null>;
  save: (input: TSaveBlockInput) => Promise<WorkspaceData>;
}

export const supabaseWorkspaceApi: WorkspaceApi = { load: getWorkspaceBlock, save: saveBlock };

export type * from './types';
export { saveBlockProblem } from './save-block';
