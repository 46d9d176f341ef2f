// Row shapes the dashboard reads, picked from the generated database types
// (supabase/types/database.ts, `npm run gen:types`).
import type { Database } from '../../../supabase/types/database';

export type { Database };

// The block types, from the database's enum (through the contracts), under the dashboard's names.
export {
  isLetterType,
  isReactionType,
  LETTER_TYPES,
  REACTION_BLOCK_TYPES as REACTION_TYPES,
  type TBlockType as BlockType,
  type TLetterType as LetterType,
  type TReactionType as ReactionType,
} from '@reaction-blocks/contracts/enums';

type Tables = Database['public']['Tables'];

/** A row of what the database function `name` returns (a `returns table` RPC). */
export type RpcRow<name extends keyof Database['public']['Functions']> =
  Database['public']['Functions'][name]['Returns'] extends ReadonlyArray<infer Row> ? Row : never;

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
