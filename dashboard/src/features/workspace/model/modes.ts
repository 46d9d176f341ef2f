// The workspace's modes per block type (spec: workspace section 2, "Mode tabs by type").
import type { ReactionType } from '../../../lib/db-types';

export const WORKSPACE_MODES = ['edit', 'preview', 'result', 'comments'] as const;
export type WorkspaceMode = (typeof WORKSPACE_MODES)[number];

const MODES_BY_TYPE: Record<ReactionType, readonly WorkspaceMode[]> = {
  // comments: the owner's moderation (issue 9), labelled Comments or Questions
  comment: ['edit', 'comments'],
  qna: ['edit', 'comments'],
  like: ['edit', 'result'],
  button: ['edit', 'preview', 'result'],
  ab: ['edit', 'preview', 'result'],
  form: ['edit', 'preview', 'result'],
};

export function modesFor(type: ReactionType): readonly WorkspaceMode[] {
  return MODES_BY_TYPE[type];
}

/**
 * The mode a URL segment stands for: none is edit; a mode the type does not have is null (the
 * page then redirects to edit).
 */
export function parseMode(type: ReactionType, segment: string | undefined): WorkspaceMode | null {
  if (segment === undefined || segment === '') return 'edit';
  return (modesFor(type) as readonly string[]).includes(segment)
    ? (segment as WorkspaceMode)
    : null;
}

/**
 * Whether opening this mode shows the owner the block's new responses, so its "+ N responses"
 * goes back to 0: the results of like, button, ab and form; for comment and qna, whose messages
 * are what the workspace shows, any mode of their workspace.
 */
export function resetsNewResponses(type: ReactionType, mode: WorkspaceMode | string): boolean {
  if (type === 'comment' || type === 'qna') return true;
  return mode === 'result';
}

/** The translation key of a mode's tab: the moderation mode is named after the block type. */
export function modeLabelKey(type: ReactionType, mode: WorkspaceMode): string {
  return mode === 'comments' ? `moderation.mode.${type}` : `workspace.modes.${mode}`;
}
