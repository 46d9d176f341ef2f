// Row shapes the dashboard reads. Replace with the generated supabase/types/database.ts
// (`npm run gen:types`) once the migrations land; these mirror the columns it relies on.

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

export interface BlockRow {
  id: string;
  owner_id: string;
  type: BlockType;
  name: string | null;
  created_at: string;
  response_count: number;
  new_response_count: number;
  tags: string[] | null;
  deactivated: boolean;
}

export interface ProfileRow {
  id: string;
  name: string | null;
  email: string | null;
  photo_url: string | null;
  home_url: string | null;
  language: string | null;
  agree: boolean;
  paid: boolean;
  block_limit: number;
  block_count: number;
}

export interface UserTagRow {
  id: string;
  user_id: string;
  label: string;
  active: boolean;
}
