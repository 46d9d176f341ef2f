// From database rows to the editor's draft, and from the draft to the save-block payload.
import {
  BLOCK_LIMITS,
  CONDITION_TYPES,
  QUESTION_TYPES,
  type TConditionDraft,
  type TEndingDraft,
  type TOptionDraft,
  type TQuestionDraft,
  type TSaveBlock,
} from '@reaction-blocks/contracts/schemas';
import type { Database } from '../../../lib/db-types';
import {
  DEFAULT_AB_OPTIONS,
  DELETED_INDEX,
  liveQuestions,
  normalizeOptions,
  OPTION_TYPES,
  orderEndings,
  type FormDraft,
  type QuestionField,
} from './model';

type Tables = Database['public']['Tables'];

/** Option columns the editor reads (`options(*)` may bring more; they are ignored). */
export type OptionRow = Pick<Tables['options']['Row'], 'id' | 'value' | 'index' | 'deleted'>;
export type QuestionRow = Pick<
  Tables['questions']['Row'],
  'id' | 'type' | 'index' | 'deleted' | QuestionField
>;
/** A question as selected with `questions(*, options(*))`. */
export type QuestionRowWithOptions = QuestionRow & { options?: OptionRow[] | null };

export type ConditionRow = Pick<
  Tables['ending_conditions']['Row'],
  'id' | 'index' | 'question_id' | 'type' | 'value'
>;
export type EndingRow = Pick<
  Tables['endings']['Row'],
  | 'id'
  | 'is_default'
  | 'index'
  | 'title'
  | 'closing_text'
  | 'open_url'
  | 'open_link_type'
  | 'open_url_text'
  | 'resubmit_text'
  | 'block_submit_another'
>;
/** An ending as selected with `endings(*, conditions:ending_conditions(*))`. */
export type EndingRowWithConditions = EndingRow & { conditions?: ConditionRow[] | null };

const byIndex = <T extends { index: number }>(a: T, b: T) => a.index - b.index;

function optionFromRow(row: OptionRow): TOptionDraft {
  return { id: row.id, value: row.value ?? '', index: row.index, deleted: row.deleted === true };
}

function questionFromRow(row: QuestionRowWithOptions): TQuestionDraft {
  const options = [...(row.options ?? [])].map(optionFromRow).sort(byIndex);
  const live = options.filter((o) => !o.deleted);
  const deleted = options.filter((o) => o.deleted);
  return {
    id: row.id,
    type: row.type,
    title: row.title ?? '',
    required: row.required === true,
    index: row.index,
    placeholder: row.placeholder ?? null,
    allow_multi_select: row.allow_multi_select === true,
    as_visitor_info:
      row.as_visitor_info === 'email' || row.as_visitor_info === 'name'
        ? row.as_visitor_info
        : null,
    trigger_letter_block: row.trigger_letter_block ?? null,
    content: row.content ?? null,
    image_src: row.image_src ?? null,
    deleted: row.deleted === true,
    options: [...live, ...deleted].map((o, index) => ({ ...o, index })),
  };
}

function conditionFromRow(row: ConditionRow): TConditionDraft {
  return {
    id: row.id,
    index: row.index,
    question_id: row.question_id,
    type: row.type,
    value: row.value ?? null,
  };
}

function endingFromRow(row: EndingRowWithConditions): TEndingDraft {
  return {
    id: row.id,
    is_default: row.is_default === true,
    index: row.index,
    title: row.title ?? '',
    closing_text: row.closing_text ?? '',
    open_url: row.open_url ?? null,
    open_link_type: row.open_link_type === 'button' ? 'button' : 'submit',
    open_url_text: row.open_url_text ?? null,
    resubmit_text: row.resubmit_text ?? null,
    block_submit_another: row.block_submit_another === true,
    conditions: [...(row.conditions ?? [])]
      .map(conditionFromRow)
      .sort(byIndex)
      .map((c, index) => ({ ...c, index })),
  };
}

/**
 * The draft of rows as read from the database. Questions are sorted by index (live ones
 * reindexed 0..n-1); soft-deleted questions and options are kept, hidden by the editor, so a
 * save sends the complete lists back unchanged. The default ending comes first.
 */
export function formDraftFromView(
  questions: readonly QuestionRowWithOptions[],
  endings: readonly EndingRowWithConditions[],
  abOptions: readonly [string, string] = DEFAULT_AB_OPTIONS,
): FormDraft {
  const all = questions
    .filter((q) => (QUESTION_TYPES as readonly string[]).includes(q.type))
    .map(questionFromRow);
  // The option rules hold from the start (a poll with no option gets one, ab gets two), so
  // formDraftToSave never has to invent options with fresh ids: the same draft always gives
  // the same payload, which the workspace compares to know whether anything changed.
  const live = liveQuestions(all).map((q, index) => ({
    ...q,
    index,
    options: normalizeOptions(q, abOptions),
  }));
  const deleted = all.filter((q) => q.deleted).map((q) => ({ ...q, index: DELETED_INDEX }));
  return {
    questions: [...live, ...deleted],
    endings: orderEndings(
      endings.map(endingFromRow).map((e) => ({
        ...e,
        conditions: e.conditions.filter((c) => CONDITION_TYPES.includes(c.type)),
      })),
    ),
  };
}

/** Keeps the newest `room` soft-deleted entries: they are listed oldest first. */
function keepDeleted<T extends { deleted: boolean }>(items: readonly T[], room: number): T[] {
  const live = items.filter((i) => !i.deleted);
  const deleted = items.filter((i) => i.deleted);
  return [...live, ...deleted.slice(Math.max(0, deleted.length - Math.max(0, room - live.length)))];
}

/** Upper bound of ZSaveBlock's question list (live and deleted together). */
const SAVE_QUESTION_LIST_MAX = 100;

/**
 * The `questions` and `endings` of a save-block call, with the save rules applied: live
 * questions reindexed 0..n-1 in list order, deleted ones sent with deleted: true; options only
 * for poll and ab, ab with exactly two, options reindexed; multi-select only on polls; the
 * default ending first and the custom ones after it; conditions reindexed, without a value for
 * empty and not empty.
 *
 * The lists have upper bounds (100 questions, 50 options a question). Soft-deleted entries are
 * kept oldest first, so in the rare case of overflow the oldest deleted ones (already deleted
 * in the database) are left out rather than refusing the save.
 */
export function formDraftToSave(
  draft: FormDraft,
  abOptions: readonly [string, string] = DEFAULT_AB_OPTIONS,
): Pick<TSaveBlock, 'questions' | 'endings'> {
  const live = liveQuestions(draft.questions);
  const deleted = draft.questions.filter((q) => q.deleted);
  const questions = keepDeleted(
    [
      ...live.map((q, index) => ({ ...q, index })),
      ...deleted.map((q) => ({ ...q, index: DELETED_INDEX })),
    ],
    SAVE_QUESTION_LIST_MAX,
  ).map((q) => ({
    ...q,
    allow_multi_select: q.type === 'poll' && q.allow_multi_select,
    // A deleted question is never shown again: its options go back as they are.
    options: keepDeleted(
      q.deleted ? (OPTION_TYPES.includes(q.type) ? q.options : []) : normalizeOptions(q, abOptions),
      BLOCK_LIMITS.optionsPerQuestion,
    ),
  }));
  const endings = orderEndings(draft.endings).map((e) => ({
    ...e,
    conditions: e.is_default
      ? []
      : e.conditions.map((c, index) => ({
          ...c,
          index,
          value: c.type === 'empty' || c.type === 'not_empty' ? null : (c.value ?? ''),
        })),
  }));
  return { questions, endings };
}
