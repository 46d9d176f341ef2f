import { describe, expect, it } from 'vitest';
import {
  ZEndingDraft,
  ZQuestionDraft,
  type TQuestionDraft,
} from '@reaction-blocks/contracts/schemas';
import { formDraft } from '../test/fixtures';
import {
  addCondition,
  addOption,
  appendQuestion,
  canAddCondition,
  canAddOption,
  createEnding,
  createQuestion,
  deleteCondition,
  deleteEnding,
  deleteOption,
  deletesOnBackspace,
  endingAddBlocker,
  isConditionComplete,
  liveOptions,
  liveQuestions,
  moveEnding,
  moveQuestion,
  normalizeOptions,
  questionLimitReason,
  renameOption,
  softDeleteQuestion,
  updateCondition,
  updateQuestion,
  type FormDraft,
} from './model';

function draftWith(...types: TQuestionDraft['type'][]): FormDraft {
  let draft = formDraft();
  types.forEach((type, i) => {
    draft = appendQuestion(draft, { ...createQuestion(type), title: `Q${i + 1}` });
  });
  return draft;
}

const titles = (draft: FormDraft) => liveQuestions(draft.questions).map((q) => q.title);
const values = (q: TQuestionDraft) => liveOptions(q).map((o) => o.value);

describe('createQuestion', () => {
  it('is required except description and image', () => {
    expect(createQuestion('short_text').required).toBe(true);
    expect(createQuestion('poll').required).toBe(true);
    expect(createQuestion('description').required).toBe(false);
    expect(createQuestion('image').required).toBe(false);
  });

  it('gives a poll one empty option and an ab question Good and Bad', () => {
    expect(values(createQuestion('poll'))).toEqual(['']);
    expect(values(createQuestion('ab'))).toEqual(['Good', 'Bad']);
    expect(createQuestion('mail').options).toEqual([]);
  });

  it('makes fresh ids and valid drafts for every type', () => {
    const a = createQuestion('poll');
    const b = createQuestion('poll');
    expect(a.id).not.toBe(b.id);
    expect(a.options[0]!.id).not.toBe(b.options[0]!.id);
    for (const type of ZQuestionDraft.shape.type.options) {
      expect(ZQuestionDraft.safeParse(createQuestion(type)).success).toBe(true);
    }
  });

  it('is appended at the end with the next index', () => {
    const draft = draftWith('short_text', 'poll', 'mail');
    expect(titles(draft)).toEqual(['Q1', 'Q2', 'Q3']);
    expect(liveQuestions(draft.questions).map((q) => q.index)).toEqual([0, 1, 2]);
  });
});

describe('moveQuestion', () => {
  it('moves down and up and reindexes 0..n-1', () => {
    const draft = draftWith('short_text', 'poll', 'mail', 'number');
    const down = moveQuestion(draft, 0, 2);
    expect(titles(down)).toEqual(['Q2', 'Q3', 'Q1', 'Q4']);
    expect(liveQuestions(down.questions).map((q) => q.index)).toEqual([0, 1, 2, 3]);
    expect(titles(moveQuestion(down, 3, 0))).toEqual(['Q4', 'Q2', 'Q3', 'Q1']);
  });

  it('ignores moves out of the list', () => {
    const draft = draftWith('short_text', 'poll');
    expect(moveQuestion(draft, 0, -1)).toBe(draft);
    expect(moveQuestion(draft, 1, 2)).toBe(draft);
    expect(moveQuestion(draft, 1, 1)).toBe(draft);
  });
});

describe('softDeleteQuestion', () => {
  it('marks it deleted with index 9999, keeps it, and reindexes the rest', () => {
    const draft = draftWith('short_text', 'poll', 'mail');
    const second = liveQuestions(draft.questions)[1]!;
    const next = softDeleteQuestion(draft, second.id);
    expect(titles(next)).toEqual(['Q1', 'Q3']);
    expect(liveQuestions(next.questions).map((q) => q.index)).toEqual([0, 1]);
    const deleted = next.questions.find((q) => q.id === second.id)!;
    expect(deleted).toMatchObject({ deleted: true, index: 9999 });
    expect(next.questions).toHaveLength(3);
  });

  it('keeps deleted questions out of later reorders, oldest deleted first', () => {
    let draft = draftWith('short_text', 'poll', 'mail', 'number');
    const [q1, q2] = liveQuestions(draft.questions);
    draft = softDeleteQuestion(draft, q2!.id);
    draft = softDeleteQuestion(draft, q1!.id);
    draft = moveQuestion(draft, 1, 0);
    expect(titles(draft)).toEqual(['Q4', 'Q3']);
    expect(draft.questions.filter((q) => q.deleted).map((q) => q.title)).toEqual(['Q2', 'Q1']);
  });

  it('removes the conditions that test the deleted question', () => {
    let draft = draftWith('short_text', 'mail');
    const [q1, q2] = liveQuestions(draft.questions);
    const created = createEnding(draft, true);
    let ending = created.draft.endings[created.index!]!;
    ending = addCondition(ending);
    ending = updateCondition(ending, ending.conditions[0]!.id, { question_id: q1!.id });
    ending = addCondition(updateCondition(ending, ending.conditions[0]!.id, { value: 'x' }));
    ending = updateCondition(ending, ending.conditions[1]!.id, {
      question_id: q2!.id,
      type: 'not_empty',
    });
    draft = { ...created.draft, endings: [created.draft.endings[0]!, ending] };
    const next = softDeleteQuestion(draft, q1!.id);
    expect(next.endings[1]!.conditions).toEqual([
      expect.objectContaining({ question_id: q2!.id, index: 0 }),
    ]);
  });
});

describe('options', () => {
  it('adds an empty option after a given one and at the end', () => {
    const poll = { ...createQuestion('poll'), options: [] as TQuestionDraft['options'] };
    let q = addOption(poll).question;
    q = { ...q, options: q.options.map((o) => ({ ...o, value: 'A' })) };
    q = addOption(q).question;
    q = { ...q, options: q.options.map((o, i) => (i === 1 ? { ...o, value: 'C' } : o)) };
    q = addOption(q, 0).question;
    expect(values(q)).toEqual(['A', '', 'C']);
    expect(liveOptions(q).map((o) => o.index)).toEqual([0, 1, 2]);
  });

  it('never adds or deletes options of an ab question: always two', () => {
    const ab = createQuestion('ab');
    expect(canAddOption(ab)).toBe(false);
    expect(addOption(ab).question).toBe(ab);
    expect(deleteOption(ab, ab.options[1]!.id)).toBe(ab);
    expect(
      deletesOnBackspace(
        { ...ab, options: ab.options.map((o) => ({ ...o, value: '' })) },
        ab.options[1]!.id,
      ),
    ).toBe(false);
  });

  it('backspace on an empty option deletes it, except the first', () => {
    let q = createQuestion('poll');
    q = addOption(q).question;
    q = addOption(q).question;
    const [first, second, third] = liveOptions(q);
    q = { ...q, options: q.options.map((o) => (o.id === third!.id ? { ...o, value: 'x' } : o)) };
    expect(deletesOnBackspace(q, first!.id)).toBe(false);
    expect(deletesOnBackspace(q, second!.id)).toBe(true);
    expect(deletesOnBackspace(q, third!.id)).toBe(false);
  });

  it('soft-deletes an option, keeps it, and never deletes the last one', () => {
    let q = addOption(createQuestion('poll')).question;
    const [first, second] = liveOptions(q);
    q = deleteOption(q, first!.id);
    expect(liveOptions(q).map((o) => o.id)).toEqual([second!.id]);
    expect(liveOptions(q)[0]!.index).toBe(0);
    expect(q.options.find((o) => o.id === first!.id)?.deleted).toBe(true);
    expect(deleteOption(q, second!.id)).toBe(q);
  });

  it('stops at 50 live options', () => {
    let q = createQuestion('poll');
    for (let i = 1; i < 50; i += 1) q = addOption(q).question;
    expect(liveOptions(q)).toHaveLength(50);
    expect(canAddOption(q)).toBe(false);
    expect(addOption(q).optionId).toBeNull();
    q = deleteOption(q, liveOptions(q)[3]!.id);
    expect(canAddOption(q)).toBe(true);
  });

  it('normalizes for saving: ab exactly two, poll at least one, others none', () => {
    const ab = createQuestion('ab');
    const three = {
      ...ab,
      options: [...ab.options, { id: crypto.randomUUID(), value: 'Meh', index: 2, deleted: false }],
    };
    const saved = normalizeOptions(three);
    expect(saved.filter((o) => !o.deleted).map((o) => o.value)).toEqual(['Good', 'Bad']);
    expect(saved.find((o) => o.value === 'Meh')?.deleted).toBe(true);
    expect(normalizeOptions({ ...ab, options: [] }).map((o) => o.value)).toEqual(['Good', 'Bad']);
    expect(
      normalizeOptions({ ...createQuestion('poll'), options: [] }).map((o) => o.value),
    ).toEqual(['']);
    expect(normalizeOptions({ ...createQuestion('short_text'), options: ab.options })).toEqual([]);
  });

  it('renaming an option carries the conditions that named it', () => {
    let draft = draftWith('poll');
    const poll = liveQuestions(draft.questions)[0]!;
    const option = poll.options[0]!;
    draft = renameOption(draft, poll.id, option.id, 'Yes');
    const created = createEnding(draft, true);
    let ending = addCondition(created.draft.endings[1]!);
    ending = updateCondition(ending, ending.conditions[0]!.id, { question_id: poll.id });
    ending = updateCondition(ending, ending.conditions[0]!.id, { value: 'Yes' });
    draft = { ...created.draft, endings: [created.draft.endings[0]!, ending] };
    const next = renameOption(draft, poll.id, option.id, 'Yes!');
    expect(next.endings[1]!.conditions[0]!.value).toBe('Yes!');
    expect(isConditionComplete(next.endings[1]!.conditions[0]!, next.questions)).toBe(true);
  });
});

describe('updateQuestion', () => {
  it('lets only one question capture the email', () => {
    let draft = draftWith('mail', 'mail');
    const [a, b] = liveQuestions(draft.questions);
    draft = updateQuestion(draft, a!.id, { as_visitor_info: 'email' });
    draft = updateQuestion(draft, b!.id, { as_visitor_info: 'email' });
    expect(liveQuestions(draft.questions).map((q) => q.as_visitor_info)).toEqual([null, 'email']);
  });
});

describe('question limits', () => {
  it('allows 5 questions on the free plan and 20 on a paid one', () => {
    expect(questionLimitReason(draftWith(...Array(4).fill('short_text')), false)).toBeNull();
    expect(questionLimitReason(draftWith(...Array(5).fill('short_text')), false)).toBe('free');
    expect(questionLimitReason(draftWith(...Array(5).fill('short_text')), true)).toBeNull();
    expect(questionLimitReason(draftWith(...Array(19).fill('short_text')), true)).toBeNull();
    expect(questionLimitReason(draftWith(...Array(20).fill('short_text')), true)).toBe('max');
  });

  it('does not count deleted questions', () => {
    let draft = draftWith(...Array(5).fill('short_text'));
    draft = softDeleteQuestion(draft, draft.questions[0]!.id);
    expect(questionLimitReason(draft, false)).toBeNull();
  });
});

describe('endings', () => {
  it('custom endings need a paid plan', () => {
    const draft = draftWith('short_text');
    expect(endingAddBlocker(draft, false)).toBe('paid');
    expect(createEnding(draft, false)).toEqual({ draft, index: null });
    const created = createEnding(draft, true);
    expect(created.index).toBe(1);
    expect(created.draft.endings[1]).toMatchObject({ title: '', is_default: false, index: 1 });
  });

  it('a new ending can be added only when the last one is complete', () => {
    const draft = draftWith('short_text');
    const q = draft.questions[0]!;
    const created = createEnding(draft, true);
    expect(endingAddBlocker(created.draft, true)).toBe('incomplete');
    let ending = addCondition(created.draft.endings[1]!);
    ending = updateCondition(ending, ending.conditions[0]!.id, { question_id: q.id });
    const withCondition = { ...created.draft, endings: [created.draft.endings[0]!, ending] };
    expect(endingAddBlocker(withCondition, true)).toBe('incomplete');
    ending = updateCondition(ending, ending.conditions[0]!.id, { value: 'yes' });
    const complete = { ...created.draft, endings: [created.draft.endings[0]!, ending] };
    expect(endingAddBlocker(complete, true)).toBeNull();
    expect(createEnding(complete, true).index).toBe(2);
  });

  it('keeps the default ending first and reorders custom ones', () => {
    let draft = draftWith('short_text');
    const q = draft.questions[0]!;
    for (const title of ['A', 'B', 'C']) {
      const created = createEnding(draft, true);
      let e = addCondition({ ...created.draft.endings[created.index!]!, title });
      e = updateCondition(e, e.conditions[0]!.id, { question_id: q.id, type: 'empty' });
      draft = {
        ...created.draft,
        endings: created.draft.endings.map((x) => (x.id === e.id ? e : x)),
      };
    }
    const order = (d: FormDraft) => d.endings.map((e) => (e.is_default ? 'default' : e.title));
    expect(order(draft)).toEqual(['default', 'A', 'B', 'C']);
    const moved = moveEnding(draft, 3, 1);
    expect(order(moved)).toEqual(['default', 'C', 'A', 'B']);
    expect(moved.endings.map((e) => e.index)).toEqual([0, 1, 2, 3]);
    expect(moveEnding(draft, 0, 2)).toBe(draft);
    expect(moveEnding(draft, 2, 0)).toBe(draft);
    expect(order(deleteEnding(moved, 2))).toEqual(['default', 'C', 'B']);
    expect(deleteEnding(moved, 0)).toBe(moved);
  });
});

describe('conditions', () => {
  const draft = draftWith('short_text', 'poll', 'description');
  const [text, poll, description] = liveQuestions(draft.questions);
  const pollWithYes = {
    ...poll!,
    options: poll!.options.map((o) => ({ ...o, value: 'Yes' })),
  };
  const questions = [text!, pollWithYes, description!];
  const base = addCondition({ ...createEnding(draft, true).draft.endings[1]! });
  const id = base.conditions[0]!.id;
  const condition = (patch: Parameters<typeof updateCondition>[2]) =>
    updateCondition(base, id, patch).conditions[0]!;

  it('is complete with a question, a type, and a value for equal and include', () => {
    expect(isConditionComplete(base.conditions[0]!)).toBe(false);
    expect(isConditionComplete(condition({ question_id: text!.id }))).toBe(false);
    expect(isConditionComplete(condition({ question_id: text!.id, value: '  ' }))).toBe(false);
    expect(isConditionComplete(condition({ question_id: text!.id, value: 'a' }))).toBe(true);
    expect(
      isConditionComplete(condition({ question_id: text!.id, type: 'include', value: 'a' })),
    ).toBe(true);
    expect(isConditionComplete(condition({ question_id: text!.id, type: 'empty' }))).toBe(true);
    expect(isConditionComplete(condition({ question_id: text!.id, type: 'not_empty' }))).toBe(true);
  });

  it('for a poll the value must be one of its options', () => {
    expect(isConditionComplete(condition({ question_id: poll!.id, value: 'Yes' }), questions)).toBe(
      true,
    );
    expect(isConditionComplete(condition({ question_id: poll!.id, value: 'No' }), questions)).toBe(
      false,
    );
  });

  it('cannot test a description or a deleted question', () => {
    const c = condition({ question_id: description!.id, type: 'empty' });
    expect(isConditionComplete(c, questions)).toBe(false);
    const gone = softDeleteQuestion({ ...draft, questions }, text!.id).questions;
    expect(isConditionComplete(condition({ question_id: text!.id, value: 'a' }), gone)).toBe(false);
  });

  it('clears the value when the question changes or the type needs none', () => {
    const withValue = updateCondition(base, id, { question_id: text!.id, value: 'a' });
    expect(updateCondition(withValue, id, { question_id: poll!.id }).conditions[0]!.value).toBe('');
    expect(updateCondition(withValue, id, { type: 'empty' }).conditions[0]!.value).toBeNull();
  });

  it('a condition can be added only when the last is complete, and deleted with reindex', () => {
    expect(canAddCondition(base)).toBe(false);
    expect(addCondition(base)).toBe(base);
    const complete = updateCondition(base, id, { question_id: text!.id, type: 'not_empty' });
    expect(canAddCondition(complete)).toBe(true);
    const two = addCondition(complete);
    expect(two.conditions.map((c) => c.index)).toEqual([0, 1]);
    const one = deleteCondition(two, id);
    expect(one.conditions).toHaveLength(1);
    expect(one.conditions[0]!.index).toBe(0);
    expect(canAddCondition(createEnding(draft, true).draft.endings[0]!)).toBe(false);
  });

  it('complete conditions pass the shared schema', () => {
    const ending = {
      ...base,
      conditions: [condition({ question_id: text!.id, value: 'a' })],
    };
    expect(ZEndingDraft.safeParse(ending).success).toBe(true);
    expect(ZEndingDraft.safeParse(base).success).toBe(false);
  });
});
