// Row shapes the dashboard reads, picked from the generated database types
// (supabase/types/database.ts, `npm run gen:types`).
import type { Database } from '../../../supabase/types/database';

export type { Database };

export const REACTION_TYPES = ['comment', 'qna', 'like', 'button', 'ab', 'form'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];
export const LETTER_TYPES = ['notion_letter', 'typedream_letter', 'brunch_letter'] as const;
export type LetterType = (typeof LETTER_TYPES)[number];
export type BlockType = ReactionType | LetterType;

export function isReactionType(value: string | null | undefined): value is ReactionType {
  return (REACTION_TYPES as readonly string[]).includes(value ?? '');
}

export function isLetterType(value: string): value is LetterType {
  return (LETTER_TYPES as readonly string[]).includes(value);
}

type Tables = Database['public']['Tables'];

/** The block columns the dashboard reads (see BLOCK_COLUMNS in features/blocks/api). */
export type BlockRow = Pick<
  Tables['blocks']['Row'],
  | 'id'
  | 'owner_id'
  | 'type'
  | 'name'
  | 'created_at'
  | 'response_count'
  | 'new_response_count'
  | 'tags'
  | 'deactivated'
>;

export type ProfileRow = Pick<
  Tables['profiles']['Row'],
  | 'id'
  | 'name'
  | 'email'
  | 'photo_url'
  | 'home_url'
  | 'language'
  | 'agree'
  | 'paid'
  | 'block_limit'
  | 'block_count'
>;

export type UserTagRow = Pick<Tables['user_tags']['Row'], 'id' | 'user_id' | 'label' | 'active'>;
