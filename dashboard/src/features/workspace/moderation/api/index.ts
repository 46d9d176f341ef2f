// The moderation view's server calls in one injectable object (tests pass their own).
import { blockWriter, type TBlockWriterInput } from './block-writer';
import { listModeration, type TListModerationInput } from './list-moderation';
import { moderateMessages, type TModerateMessagesInput } from './moderate-messages';
import { subscribeMessages, type LiveStatus, type MessageChange } from './subscribe-messages';
import type { ModerationMessage } from './types';

export interface ModerationApi {
  list: (input: TListModerationInput, signal: AbortSignal) => Promise<ModerationMessage[]>;
  moderate: (input: TModerateMessagesInput) => Promise<void>;
  blockWriter: (input: TBlockWriterInput) => Promise<void>;
  subscribe: (
    blockId: string,
    onChange: (c: MessageChange) => void,
    onStatus?: (s: LiveStatus) => void,
  ) => () => void;
}

export const supabaseModerationApi: ModerationApi = {
  list: listModeration,
  moderate: moderateMessages,
  blockWriter,
  subscribe: subscribeMessages,
};

export { MODERATION_PAGE_SIZE } from './list-moderation';
export { MODERATE_AT_ONCE } from './moderate-messages';
export type * from './types';
export { MODERATION_ACTIONS, MODERATION_FILTERS } from './types';
export type { LiveStatus, MessageChange } from './subscribe-messages';
