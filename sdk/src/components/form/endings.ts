import type { Answers, Condition, Ending, Question } from '../../core/types.js';

const asList = (v: string | string[] | undefined): string[] =>
  Array.isArray(v) ? v : v && v.trim() ? [v.trim()] : [];

/** Values a condition may name for an answer: option ids and their labels, or the text. */
function values(q: Question | undefined, answer: string | string[] | undefined): string[] {
  const list = asList(answer);
  const opts = q?.options || [];
  return list.flatMap((v) => [v, ...opts.filter((o) => o.id === v).map((o) => o.value)]);
}

export function holds(c: Condition, questions: Question[], answers: Answers): boolean {
  const q = questions.find((x) => x.id === c.question_id);
  const answer = answers[c.question_id];
  const given = asList(answer);
  const want = (c.value ?? '').trim();
  switch (c.type) {
    case 'empty':
      return given.length === 0;
    case 'not_empty':
    case 'notEmpty':
      return given.length > 0;
    case 'equal':
      return given.length === 1 && values(q, answer).includes(want);
    case 'include':
      return Array.isArray(answer)
        ? values(q, answer).includes(want)
        : !!want && values(q, answer).some((v) => v.includes(want));
    default:
      return false;
  }
}

/** The first custom ending (by index) whose conditions all hold, else the default ending. */
export function pickEnding(endings: Ending[], questions: Question[], answers: Answers): Ending {
  const sorted = [...endings].sort((a, b) => a.index - b.index);
  const custom = sorted.find(
    (e) =>
      !e.is_default &&
      (e.conditions || []).length > 0 &&
      e.conditions!.every((c) => holds(c, questions, answers)),
  );
  return (
    custom || sorted.find((e) => e.is_default) || { id: 'default', index: 0, is_default: true }
  );
}
