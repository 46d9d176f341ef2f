// The view the preview element renders: the block as saved with the draft applied, so unsaved
// edits show at once. The shape is the SDK's BlockView (what get_block_view answers).
import type { TEndingDraft, TQuestionDraft } from '@reaction-blocks/contracts/schemas';
import type { WorkspaceBlockRow } from '../api/types';
import type { SettingsDraft } from './settings';

export interface PreviewView {
  block: Record<string, unknown> & { id: string; type: string };
  questions: (Omit<TQuestionDraft, 'options'> & { options: TQuestionDraft['options'] })[];
  endings: TEndingDraft[];
  messages: never[];
  me: { liked: boolean; liked_message_ids: string[] };
}

export function previewView(input: {
  block: WorkspaceBlockRow;
  settings: SettingsDraft;
  questions?: readonly TQuestionDraft[];
  endings?: readonly TEndingDraft[];
  /** An ending to show instead of the questions (form and ab editors). */
  endingIndex?: number | null;
}): PreviewView {
  const { block, settings, endingIndex = null } = input;
  const questions = (input.questions ?? [])
    .filter((q) => !q.deleted)
    .sort((a, b) => a.index - b.index)
    .map((q) => ({ ...q, options: q.options.filter((o) => !o.deleted) }));
  const endings = [...(input.endings ?? [])].sort((a, b) => a.index - b.index);
  const ending = endingIndex === null ? undefined : endings[endingIndex];
  return {
    block: {
      ...block,
      ...settings,
      // the elements read these two to show an ending in the editor preview (spec: block fields
      // mode and endingMode)
      mode: ending ? 'ending' : null,
      ending_mode: ending ? String(ending.index) : null,
      // the preview lists no messages (`messages` below): its count says the same, not the
      // block's real count above an empty list ("35 messages", then "No messages yet")
      response_count: 0,
    },
    questions,
    endings,
    messages: [],
    me: { liked: false, liked_message_ids: [] },
  };
}
