// The form and A/B editor's rules as pure functions over the draft (no React), so every rule of
// spec section 4 "Question editing" / "Ending list" and section 5 can be unit tested. Every
// function returns new objects and leaves its arguments untouched.
//
// Invariants kept by every function here (formDraftFromView establishes them on load):
// - not-deleted ("live") questions have index 0..n-1 in list order; soft-deleted ones have
//   index DELETED_INDEX and stay in the list (sent back with deleted: true);
// - live options of a question have index 0..n-1; soft-deleted options stay, after them;
// - the default ending is endings[0]; custom endings follow with index 1..n.
import { BLOCK_DEFAULTS } from '@reaction-blocks/contracts/block-defaults';
import {
  BLOCK_LIMITS,
  CONDITION_TYPES,
  type TConditionDraft,
  type TConditionType,
  type TEndingDraft,
  type TOptionDraft,
  type TQuestionDraft,
  type TQuestionType,
} from '@reaction-blocks/contracts/schemas';

export type FormDraft = { questions: TQuestionDraft[]; endings: TEndingDraft[] };
export type EditorBlockType = 'form' | 'ab';

/** Index a soft-deleted question gets until the rest are reindexed (spec section 4). */
export const DELETED_INDEX = 9999;
/**
 * Option texts an ab question starts with when its block's language is not known (spec: defaults
 * Good and Bad); the editor passes those of the block's language (blockDefaults).
 */
export const DEFAULT_AB_OPTIONS = BLOCK_DEFAULTS.en.abOptions;
/** Question types that carry options. */
export const OPTION_TYPES: readonly TQuestionType[] = ['poll', 'ab'];
/** Question types a visitor does not answer: never required, never used in a condition. */
export const DISPLAY_ONLY_TYPES: readonly TQuestionType[] = ['description', 'image'];

const newId = () => crypto.randomUUID();

// ---------------------------------------------------------------------------------------------
// Questions

/** Live (not deleted) questions in list order. */
export function liveQuestions(questions: readonly TQuestionDraft[]): TQuestionDraft[] {
  return questions.filter((q) => !q.deleted).sort((a, b) => a.index - b.index);
}

/** Puts the live questions in the given order (index 0..n-1) followed by the deleted ones. */
function withOrder(live: readonly TQuestionDraft[], all: readonly TQuestionDraft[]) {
  const deleted = all.filter((q) => q.deleted);
  return [
    ...live.map((q, index) => (q.index === index ? q : { ...q, index })),
    ...deleted.map((q) => (q.index === DELETED_INDEX ? q : { ...q, index: DELETED_INDEX })),
  ];
}

/**
 * A new question of the given type (index 0 until appended). Required except description and
 * image; a poll gets one empty option, an ab question the two default options.
 */
export function createQuestion(
  type: TQuestionType,
  abOptions: readonly [string, string] = DEFAULT_AB_OPTIONS,
): TQuestionDraft {
  const values = type === 'ab' ? [...abOptions] : type === 'poll' ? [''] : [];
  return {
    id: newId(),
    type,
    title: '',
    required: !DISPLAY_ONLY_TYPES.includes(type),
    index: 0,
    placeholder: null,
    allow_multi_select: false,
    as_visitor_info: null,
    trigger_letter_block: null,
    content: type === 'description' ? '' : null,
    image_src: type === 'image' ? '' : null,
    deleted: false,
    options: values.map((value, index) => ({ id: newId(), value, index, deleted: false })),
  };
}

/** Appends a question at the end of the list. */
export function appendQuestion(draft: FormDraft, question: TQuestionDraft): FormDraft {
  const live = liveQuestions(draft.questions);
  return {
    ...draft,
    questions: withOrder([...live, { ...question, deleted: false }], draft.questions),
  };
}

/** Moves the live question at position `from` to position `to` (positions in list order). */
export function moveQuestion(draft: FormDraft, from: number, to: number): FormDraft {
  const live = liveQuestions(draft.questions);
  if (from === to || !inRange(from, live.length) || !inRange(to, live.length)) return draft;
  const [moved] = live.splice(from, 1);
  live.splice(to, 0, moved!);
  return { ...draft, questions: withOrder(live, draft.questions) };
}

/**
 * Soft delete: the question is marked deleted with index 9999 and the rest are reindexed.
 * Conditions that test it are removed, since a deleted question is never answered.
 */
export function softDeleteQuestion(draft: FormDraft, questionId: string): FormDraft {
  const target = draft.questions.find((q) => q.id === questionId);
  if (!target || target.deleted) return draft;
  // Moved to the end: deleted entries are kept oldest first (see formDraftToSave).
  const questions = [
    ...draft.questions.filter((q) => q.id !== questionId),
    { ...target, deleted: true, index: DELETED_INDEX },
  ];
  const live = liveQuestions(questions);
  const endings = draft.endings.map((ending) =>
    ending.conditions.some((c) => c.question_id === questionId)
      ? {
          ...ending,
          conditions: reindex(ending.conditions.filter((c) => c.question_id !== questionId)),
        }
      : ending,
  );
  return { questions: withOrder(live, questions), endings };
}

/** A question's fields the owner edits (its type, place and deletion have functions of their own). */
export type QuestionField =
  | 'title'
  | 'required'
  | 'placeholder'
  | 'allow_multi_select'
  | 'as_visitor_info'
  | 'trigger_letter_block'
  | 'content'
  | 'image_src';

export type QuestionPatch = Partial<Pick<TQuestionDraft, QuestionField | 'options'>>;

/**
 * Changes fields of one question. Only one question can supply the respondent's email and one
 * the name, so choosing one clears the same choice on the others.
 */
export function updateQuestion(
  draft: FormDraft,
  questionId: string,
  patch: QuestionPatch,
): FormDraft {
  const claim = patch.as_visitor_info ?? null;
  return {
    ...draft,
    questions: draft.questions.map((q) => {
      if (q.id === questionId) return { ...q, ...patch };
      if (claim && q.as_visitor_info === claim) return { ...q, as_visitor_info: null };
      return q;
    }),
  };
}

/** Which respondent field a question type may capture (the database uses email from mail). */
export function visitorInfoFor(type: TQuestionType): 'email' | 'name' | null {
  if (type === 'mail') return 'email';
  if (type === 'short_text') return 'name';
  return null;
}

// ---------------------------------------------------------------------------------------------
// Options

/** Live options of a question in order. */
export function liveOptions(question: Pick<TQuestionDraft, 'options'>): TOptionDraft[] {
  return question.options.filter((o) => !o.deleted).sort((a, b) => a.index - b.index);
}

function withOptionOrder(live: readonly TOptionDraft[], all: readonly TOptionDraft[]) {
  const deleted = all.filter((o) => o.deleted);
  return [
    ...live.map((o, index) => (o.index === index ? o : { ...o, index })),
    ...deleted.map((o, i) => ({ ...o, index: live.length + i })),
  ];
}

/** Whether another option may be added: polls only, up to the per-question limit. */
export function canAddOption(question: TQuestionDraft): boolean {
  return question.type === 'poll' && liveOptions(question).length < BLOCK_LIMITS.optionsPerQuestion;
}

/**
 * Adds an empty option after the live option at `after` (at the end when omitted). Returns the
 * question unchanged when no option may be added (ab questions always have exactly two).
 */
export function addOption(
  question: TQuestionDraft,
  after?: number,
): { question: TQuestionDraft; optionId: string | null } {
  if (!canAddOption(question)) return { question, optionId: null };
  const live = liveOptions(question);
  const option: TOptionDraft = { id: newId(), value: '', index: 0, deleted: false };
  const at = after === undefined ? live.length : Math.min(Math.max(after + 1, 0), live.length);
  live.splice(at, 0, option);
  return {
    question: { ...question, options: withOptionOrder(live, question.options.concat(option)) },
    optionId: option.id,
  };
}

export function updateOptionValue(
  question: TQuestionDraft,
  optionId: string,
  value: string,
): TQuestionDraft {
  return {
    ...question,
    options: question.options.map((o) => (o.id === optionId ? { ...o, value } : o)),
  };
}

/**
 * Renames an option of a question in the draft. Conditions that compared the question with the
 * old text follow the new one, so editing an option does not silently break an ending.
 */
export function renameOption(
  draft: FormDraft,
  questionId: string,
  optionId: string,
  value: string,
): FormDraft {
  const question = draft.questions.find((q) => q.id === questionId);
  const old = question?.options.find((o) => o.id === optionId)?.value;
  if (!question || old === undefined || old === value) return draft;
  const questions = draft.questions.map((q) =>
    q.id === questionId ? updateOptionValue(q, optionId, value) : q,
  );
  const follows = (c: TConditionDraft) =>
    c.question_id === questionId && conditionNeedsValue(c.type) && c.value === old && old !== '';
  // Another live option with the same old text keeps the conditions pointing at it.
  const stillThere = liveOptions(question).some((o) => o.id !== optionId && o.value === old);
  const endings = stillThere
    ? draft.endings
    : draft.endings.map((e) =>
        e.conditions.some(follows)
          ? { ...e, conditions: e.conditions.map((c) => (follows(c) ? { ...c, value } : c)) }
          : e,
      );
  return { questions, endings };
}

/** Options can be deleted only from polls and never the last one. */
export function canDeleteOption(question: TQuestionDraft): boolean {
  return question.type === 'poll' && liveOptions(question).length > 1;
}

/** Soft-deletes an option (it stays in the list with deleted: true) and reindexes the rest. */
export function deleteOption(question: TQuestionDraft, optionId: string): TQuestionDraft {
  const target = question.options.find((o) => o.id === optionId);
  if (!target || target.deleted || !canDeleteOption(question)) return question;
  // Moved to the end: deleted entries are kept oldest first (see formDraftToSave).
  const options = [
    ...question.options.filter((o) => o.id !== optionId),
    { ...target, deleted: true },
  ];
  return { ...question, options: withOptionOrder(liveOptions({ options }), options) };
}

/** Spec: backspace on an empty option deletes it, except the first. */
export function deletesOnBackspace(question: TQuestionDraft, optionId: string): boolean {
  const live = liveOptions(question);
  const position = live.findIndex((o) => o.id === optionId);
  return position > 0 && live[position]!.value === '' && canDeleteOption(question);
}

/**
 * The options a question is saved with: none unless poll or ab; ab exactly two live options
 * (missing ones added with the defaults, extra ones soft-deleted); a poll at least one.
 */
export function normalizeOptions(
  question: TQuestionDraft,
  abOptions: readonly [string, string] = DEFAULT_AB_OPTIONS,
): TOptionDraft[] {
  if (!OPTION_TYPES.includes(question.type)) return [];
  let live = liveOptions(question);
  let all = question.options;
  if (question.type === 'ab' && live.length > 2) {
    const extra = new Set(live.slice(2).map((o) => o.id));
    all = all.map((o) => (extra.has(o.id) ? { ...o, deleted: true } : o));
    live = live.slice(0, 2);
  }
  const wanted = question.type === 'ab' ? 2 : 1;
  while (live.length < wanted) {
    const value = question.type === 'ab' ? abOptions[live.length]! : '';
    const option = { id: newId(), value, index: 0, deleted: false };
    live = [...live, option];
    all = [...all, option];
  }
  return withOptionOrder(live, all);
}

// ---------------------------------------------------------------------------------------------
// Limits

/** How many live questions the owner may have: 5 on the free plan, 20 on a paid one. */
export function questionLimit(paid: boolean): number {
  return paid ? BLOCK_LIMITS.questionCountMax : BLOCK_LIMITS.questionCountFree;
}

/** Why a question cannot be added: 'free' (upgrade to add more), 'max' (hard limit), or null. */
export function questionLimitReason(draft: FormDraft, paid: boolean): 'free' | 'max' | null {
  const count = liveQuestions(draft.questions).length;
  if (count >= BLOCK_LIMITS.questionCountMax) return 'max';
  if (count >= questionLimit(paid)) return 'free';
  return null;
}

// ---------------------------------------------------------------------------------------------
// Endings

/** The default ending first, then custom endings by index; indexes rewritten 0..n-1. */
export function orderEndings(endings: readonly TEndingDraft[]): TEndingDraft[] {
  const sorted = [...endings].sort(
    (a, b) => Number(b.is_default) - Number(a.is_default) || a.index - b.index,
  );
  return sorted.map((e, index) => (e.index === index ? e : { ...e, index }));
}

export function customEndingCount(draft: FormDraft): number {
  return draft.endings.filter((e) => !e.is_default).length;
}

/** A new custom ending: empty title, no conditions, defaults of the database. */
export function newEnding(): TEndingDraft {
  return {
    id: newId(),
    is_default: false,
    index: 0,
    title: '',
    closing_text: '',
    open_url: null,
    open_link_type: 'submit',
    open_url_text: null,
    resubmit_text: null,
    block_submit_another: false,
    conditions: [],
  };
}

/** Why a custom ending cannot be added: 'paid', 'max', 'incomplete' (the last one), or null. */
export function endingAddBlocker(
  draft: FormDraft,
  paid: boolean,
): 'paid' | 'max' | 'incomplete' | null {
  if (!paid) return 'paid';
  if (draft.endings.length >= BLOCK_LIMITS.endingsMax) return 'max';
  const customs = draft.endings.filter((e) => !e.is_default);
  const last = customs[customs.length - 1];
  if (last && !isEndingComplete(last, draft.questions)) return 'incomplete';
  return null;
}

/** Appends a custom ending; `index` is its position in `endings` (null when refused). */
export function createEnding(
  draft: FormDraft,
  paid: boolean,
): { draft: FormDraft; index: number | null } {
  if (endingAddBlocker(draft, paid)) return { draft, index: null };
  const endings = orderEndings([...draft.endings, { ...newEnding(), index: DELETED_INDEX }]);
  return { draft: { ...draft, endings }, index: endings.length - 1 };
}

/**
 * Moves a custom ending among the custom endings. The default ending stays first: it is not a
 * rule the viewer evaluates (it shows when no custom ending matches), so its place never matters.
 */
export function moveEnding(draft: FormDraft, from: number, to: number): FormDraft {
  const endings = orderEndings(draft.endings);
  const hasDefault = endings[0]?.is_default === true;
  const first = hasDefault ? 1 : 0;
  if (from === to || from < first || to < first) return draft;
  if (!inRange(from, endings.length) || !inRange(to, endings.length)) return draft;
  const [moved] = endings.splice(from, 1);
  endings.splice(to, 0, moved!);
  return { ...draft, endings: endings.map((e, index) => ({ ...e, index })) };
}

/** Deletes a custom ending (the default ending cannot be deleted). */
export function deleteEnding(draft: FormDraft, index: number): FormDraft {
  const target = draft.endings[index];
  if (!target || target.is_default) return draft;
  return { ...draft, endings: orderEndings(draft.endings.filter((_, i) => i !== index)) };
}

export type EndingPatch = Partial<Omit<TEndingDraft, 'id' | 'is_default' | 'index'>>;

export function updateEnding(draft: FormDraft, index: number, patch: EndingPatch): FormDraft {
  if (!draft.endings[index]) return draft;
  return {
    ...draft,
    endings: draft.endings.map((e, i) => (i === index ? { ...e, ...patch } : e)),
  };
}

// ---------------------------------------------------------------------------------------------
// Conditions

/** Questions a condition may test: live ones a visitor answers. */
export function conditionQuestions(questions: readonly TQuestionDraft[]): TQuestionDraft[] {
  return liveQuestions(questions).filter((q) => !DISPLAY_ONLY_TYPES.includes(q.type));
}

export function conditionNeedsValue(type: TConditionType): boolean {
  return type === 'equal' || type === 'include';
}

/**
 * Spec section 5: complete when a question and a type are chosen and, for equal and include, a
 * value is given. With `questions`, the question must also still be one a visitor answers.
 */
export function isConditionComplete(
  condition: TConditionDraft,
  questions?: readonly TQuestionDraft[],
): boolean {
  if (!condition.question_id) return false;
  if (questions && !conditionQuestions(questions).some((q) => q.id === condition.question_id)) {
    return false;
  }
  if (!CONDITION_TYPES.includes(condition.type)) return false;
  if (!conditionNeedsValue(condition.type)) return true;
  const value = (condition.value ?? '').trim();
  if (value === '') return false;
  // A poll or ab value must still be one of the question's options, or it can never hold.
  const choices = questions
    ? conditionValueChoices(questions.find((q) => q.id === condition.question_id))
    : null;
  return !choices || choices.includes(condition.value ?? '');
}

/**
 * A custom ending is complete when it has at least one condition and all are complete: the
 * viewer only shows a custom ending whose conditions all hold, so one without any never shows.
 */
export function isEndingComplete(
  ending: TEndingDraft,
  questions?: readonly TQuestionDraft[],
): boolean {
  if (ending.is_default) return true;
  return (
    ending.conditions.length > 0 &&
    ending.conditions.every((c) => isConditionComplete(c, questions))
  );
}

/** A condition can be added only when the last one is complete (and below the limit). */
export function canAddCondition(
  ending: TEndingDraft,
  questions?: readonly TQuestionDraft[],
): boolean {
  if (ending.is_default) return false;
  if (ending.conditions.length >= BLOCK_LIMITS.conditionsPerEnding) return false;
  const last = ending.conditions[ending.conditions.length - 1];
  return !last || isConditionComplete(last, questions);
}

/** A new condition: no question yet, type equal (the commonest), empty value. */
export function addCondition(ending: TEndingDraft): TEndingDraft {
  if (!canAddCondition(ending)) return ending;
  const condition: TConditionDraft = {
    id: newId(),
    index: ending.conditions.length,
    question_id: '',
    type: 'equal',
    value: '',
  };
  return { ...ending, conditions: [...ending.conditions, condition] };
}

/**
 * Changes a condition. Choosing another question clears the value (a poll's value must be one
 * of its options); a type without a value clears it too.
 */
export function updateCondition(
  ending: TEndingDraft,
  conditionId: string,
  patch: Partial<Pick<TConditionDraft, 'question_id' | 'type' | 'value'>>,
): TEndingDraft {
  return {
    ...ending,
    conditions: ending.conditions.map((c) => {
      if (c.id !== conditionId) return c;
      const next = { ...c, ...patch };
      const otherQuestion = patch.question_id !== undefined && patch.question_id !== c.question_id;
      if (otherQuestion && patch.value === undefined) next.value = '';
      if (!conditionNeedsValue(next.type)) next.value = null;
      else if (next.value === null) next.value = '';
      return next;
    }),
  };
}

export function deleteCondition(ending: TEndingDraft, conditionId: string): TEndingDraft {
  return { ...ending, conditions: reindex(ending.conditions.filter((c) => c.id !== conditionId)) };
}

/** Poll and ab conditions compare with an option's text: the choices offered as values. */
export function conditionValueChoices(question: TQuestionDraft | undefined): string[] | null {
  if (!question || !OPTION_TYPES.includes(question.type)) return null;
  return [
    ...new Set(
      liveOptions(question)
        .map((o) => o.value)
        .filter((v) => v.trim() !== ''),
    ),
  ];
}

// ---------------------------------------------------------------------------------------------

function inRange(position: number, length: number) {
  return Number.isInteger(position) && position >= 0 && position < length;
}

function reindex<T extends { index: number }>(items: readonly T[]): T[] {
  return items.map((item, index) => (item.index === index ? item : { ...item, index }));
}
