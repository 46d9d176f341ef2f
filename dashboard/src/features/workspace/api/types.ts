// What the workspace reads and what a save answers: rows of the generated database types.
import type { Database } from '../../../lib/db-types';

type Tables = Database['public']['Tables'];

export type WorkspaceBlockRow = Omit<Tables['blocks']['Row'], Tables['blocks']['ComputedFields']>; // select('*'): the columns, not the computed fields
export type WorkspacePrivateRow = Tables['block_private']['Row'];
export type WorkspaceOptionRow = Tables['options']['Row'];
export type WorkspaceConditionRow = Tables['ending_conditions']['Row'];
export type WorkspaceQuestionRow = Tables['questions']['Row'] & { options: WorkspaceOptionRow[] };
export type WorkspaceEndingRow = Tables['endings']['Row'] & {
  conditions: WorkspaceConditionRow[];
};

/** A block as the workspace edits it; also what save-block answers. */
export interface WorkspaceData {
  block: WorkspaceBlockRow;
  private: WorkspacePrivateRow | null;
  /** Not-deleted questions by index, each with its not-deleted options (form and ab). */
  questions: WorkspaceQuestionRow[];
  /** Endings by index, each with its conditions (form and ab). */
  endings: WorkspaceEndingRow[];
}
