// Shapes the results area works with: what the workspace passes in and what a response row is.
import type { TQuestionType } from '@reaction-blocks/contracts/schemas';
import type { Database } from '../../../lib/db-types';

type Tables = Database['public']['Tables'];

/** The block fields the results list and the CSV export need. */
export type ResultsBlock = Pick<
  Tables['blocks']['Row'],
  'id' | 'owner_id' | 'type' | 'name' | 'response_count'
>;

/**
 * A question as the editor holds it (TQuestionDraft) or as a `questions` row: only these fields
 * are read. Questions with `deleted: true` are left out of the CSV columns.
 */
export interface ResultsQuestion {
  id: string;
  index: number;
  title: string;
  type: TQuestionType;
  deleted?: boolean;
}

/** The response columns the dashboard reads. */
export type ResponseRow = Pick<
  Tables['responses']['Row'],
  | 'id'
  | 'block_id'
  | 'kind'
  | 'creator_id'
  | 'creator_name'
  | 'creator_photo_url'
  | 'color'
  | 'timezone'
  | 'answers'
  | 'created_at'
  | 'page_key'
  | 'held'
>;

/** One stored answer: a snapshot of the question when it was answered, plus the value. */
export interface StoredAnswer {
  questionId: string;
  index: number;
  title: string;
  type: string;
  /** Text for text questions; the chosen option values for poll and ab. */
  value: string | string[];
}

/** Where the next page starts: the last row already read (created_at desc, id desc). */
export interface ResponsesCursor {
  created_at: string;
  id: string;
}
