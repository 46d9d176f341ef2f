// The texts a new block starts with, in the block's language (spec: a block's language defaults
// to its owner's, and so do its default texts): its name, the suffix of a duplicate's name, the
// default ending's text and the two options of an ab question. Plain data.
//
// The database writes them (public.create_block, public.duplicate_block and the blocks insert
// trigger read private.block_defaults, the same table in SQL); the dashboard shows them (a new ab
// question in the editor). supabase/tests/functions.test.ts checks that the two tables agree for
// every language of the language_code enum.
import type { TLanguage } from './enums.ts';

export const BLOCK_DEFAULTS = {
  en: { name: 'Untitled', copySuffix: ' Copy', ending: 'Thank you', abOptions: ['Good', 'Bad'] },
  ko: {
    name: '제목 없음',
    copySuffix: ' 사본',
    ending: '감사합니다',
    abOptions: ['좋아요', '별로예요'],
  },
} as const satisfies Record<
  TLanguage,
  { name: string; copySuffix: string; ending: string; abOptions: readonly [string, string] }
>;

export type TBlockDefaults = (typeof BLOCK_DEFAULTS)[keyof typeof BLOCK_DEFAULTS];

/** The defaults of a block's language (English when it has none yet). */
export function blockDefaults(language: TLanguage | null | undefined): TBlockDefaults {
  return BLOCK_DEFAULTS[language ?? 'en'];
}
