import { describe, expect, it } from 'vitest';
import { ZSaveBlock } from '@reaction-blocks/contracts/schemas';
import { BLOCK_ID, defaultEndingRow, endingRow, optionRow, questionRow } from '../test/fixtures';
import { formDraftFromView, formDraftToSave } from './draft';
import {
  addCondition,
  appendQuestion,
  createEnding,
  createQuestion,
  liveQuestions,
  softDeleteQuestion,
  updateCondition,
  type FormDraft,
} from './model';
import { formDraftIssues } from './validation';

/** Parses a save payload exactly as save-block does. */
const parseSave = (payload: ReturnType<typeof formDraftToSave>) =>
  ZSaveBlock.safeParse({ blockId: BLOCK_ID, ...payload });

describe('formDraftFromView', () => {
  it('sorts by index, keeps deleted rows last, puts the default ending first', () => {
    const poll = questionRow({
      type: 'poll',
      title: 'Second',
      index: 5,
      options: [optionRow('B', 1), optionRow('gone', 0, { deleted: true }), optionRow('A', 0)],
    });
    const first = questionRow({ title: 'First', index: 2 });
    const old = questionRow({ title: 'Old', index: 9999, deleted: true });
    const custom = endingRow({ title: 'Custom', index: 0 });
    const fallback = defaultEndingRow({ index: 3 });
    const draft = formDraftFromView([poll, old, first], [custom, fallback]);
    expect(draft.questions.map((q) => [q.title, q.index, q.deleted])).toEqual([
      ['First', 0, false],
      ['Second', 1, false],
      ['Old', 9999, true],
    ]);
    expect(draft.questions[1]!.options.map((o) => [o.value, o.index, o.deleted])).toEqual([
      ['A', 0, false],
      ['B', 1, false],
      ['gone', 2, true],
    ]);
    expect(draft.endings.map((e) => [e.is_default, e.index])).toEqual([
      [true, 0],
      [false, 1],
    ]);
  });

  it('ignores extra columns and coerces free-text columns to the schema', () => {
    // Rows as `*` selects them (block_id, created_at, ...), lists missing where nothing joined.
    const row = { ...questionRow({ as_visitor_info: 'phone' }), options: null };
    const ending = { ...defaultEndingRow({ open_link_type: 'other' }), conditions: null };
    const draft = formDraftFromView([row], [ending]);
    expect(draft.questions[0]).not.toHaveProperty('block_id');
    expect(draft.questions[0]!.as_visitor_info).toBeNull();
    expect(draft.endings[0]!.open_link_type).toBe('submit');
    expect(parseSave(formDraftToSave(draft)).success).toBe(true);
  });
});

describe('formDraftToSave', () => {
  function sample(): FormDraft {
    const view = formDraftFromView(
      [
        questionRow({ title: 'Name', index: 0 }),
        questionRow({
          type: 'poll',
          title: 'Pick',
          index: 1,
          options: [optionRow('Yes', 0)],
        }),
        questionRow({ type: 'mail', title: 'Mail', index: 2 }),
      ],
      [defaultEndingRow()],
    );
    return appendQuestion(view, createQuestion('ab'));
  }

  it('validates against ZSaveBlock after edits, deletes and a custom ending', () => {
    let draft = sample();
    const [name, pick] = liveQuestions(draft.questions);
    draft = softDeleteQuestion(draft, name!.id);
    const created = createEnding(draft, true);
    let ending = addCondition({ ...created.draft.endings[1]!, title: 'Yes people' });
    ending = updateCondition(ending, ending.conditions[0]!.id, {
      question_id: pick!.id,
      value: 'Yes',
    });
    draft = { ...created.draft, endings: [created.draft.endings[0]!, ending] };
    expect(formDraftIssues(draft)).toEqual([]);
    const payload = formDraftToSave(draft);
    const parsed = parseSave(payload);
    expect(parsed.success).toBe(true);
    expect(payload.questions!.map((q) => [q.title, q.index, q.deleted])).toEqual([
      ['Pick', 0, false],
      ['Mail', 1, false],
      ['', 2, false],
      ['Name', 9999, true],
    ]);
    expect(payload.endings!.map((e) => [e.is_default, e.index, e.conditions.length])).toEqual([
      [true, 0, 0],
      [false, 1, 1],
    ]);
  });

  it('removes options of questions that are not poll or ab and keeps ab at two', () => {
    let draft = sample();
    const mail = liveQuestions(draft.questions)[2]!;
    const ab = liveQuestions(draft.questions)[3]!;
    draft = {
      ...draft,
      questions: draft.questions.map((q) =>
        q.id === mail.id
          ? {
              ...q,
              options: [{ id: crypto.randomUUID(), value: 'stray', index: 0, deleted: false }],
            }
          : q.id === ab.id
            ? { ...q, options: q.options.slice(0, 1) }
            : q,
      ),
    };
    const payload = formDraftToSave(draft);
    expect(payload.questions!.find((q) => q.id === mail.id)!.options).toEqual([]);
    const abOptions = payload.questions!.find((q) => q.id === ab.id)!.options;
    expect(abOptions.filter((o) => !o.deleted).map((o) => [o.value, o.index])).toEqual([
      ['Good', 0],
      ['Bad', 1],
    ]);
    expect(parseSave(payload).success).toBe(true);
  });

  it('applies the option rules on load, so the same draft always gives the same payload', () => {
    const draft = formDraftFromView(
      [
        questionRow({ type: 'poll', title: 'Empty poll', index: 0 }),
        questionRow({
          type: 'ab',
          index: 1,
          options: [optionRow('Only', 0)],
        }),
        questionRow({ type: 'poll', index: 9999, deleted: true, options: [] }),
      ],
      [defaultEndingRow()],
    );
    expect(draft.questions[0]!.options.map((o) => o.value)).toEqual(['']);
    expect(draft.questions[1]!.options.map((o) => o.value)).toEqual(['Only', 'Bad']);
    expect(formDraftToSave(draft)).toEqual(formDraftToSave(draft));
    expect(parseSave(formDraftToSave(draft)).success).toBe(true);
  });

  it('sends no value for empty and not empty conditions', () => {
    let draft = sample();
    const name = liveQuestions(draft.questions)[0]!;
    const created = createEnding(draft, true);
    let ending = addCondition(created.draft.endings[1]!);
    ending = updateCondition(ending, ending.conditions[0]!.id, { question_id: name.id });
    ending = {
      ...ending,
      conditions: ending.conditions.map((c) => ({ ...c, type: 'empty' as const, value: 'x' })),
    };
    draft = { ...created.draft, endings: [created.draft.endings[0]!, ending] };
    expect(formDraftToSave(draft).endings![1]!.conditions[0]!.value).toBeNull();
  });

  it('an incomplete condition is reported with the spec message and refused by the schema', () => {
    const draft = sample();
    const created = createEnding(draft, true);
    const ending = addCondition(created.draft.endings[1]!);
    const incomplete = { ...created.draft, endings: [created.draft.endings[0]!, ending] };
    expect(formDraftIssues(incomplete)).toEqual([
      { kind: 'ending', id: ending.id, message: 'Please complete the condition' },
    ]);
    expect(parseSave(formDraftToSave(incomplete)).success).toBe(false);
  });

  it('leaves out the oldest deleted questions rather than exceed the list limit', () => {
    const rows = Array.from({ length: 95 }, (_, i) =>
      questionRow({ title: `old ${i}`, index: 9999, deleted: true }),
    );
    let draft = formDraftFromView(
      [...rows, ...Array.from({ length: 8 }, (_, i) => questionRow({ title: `q${i}`, index: i }))],
      [defaultEndingRow()],
    );
    draft = softDeleteQuestion(draft, liveQuestions(draft.questions)[0]!.id);
    const payload = formDraftToSave(draft);
    expect(payload.questions).toHaveLength(100);
    expect(payload.questions!.filter((q) => !q.deleted)).toHaveLength(7);
    // The question deleted in this session is still sent, so the database marks it deleted.
    expect(payload.questions!.at(-1)).toMatchObject({ title: 'q0', deleted: true });
    expect(payload.questions!.some((q) => q.title === 'old 0')).toBe(false);
    expect(parseSave(payload).success).toBe(true);
  });
});
