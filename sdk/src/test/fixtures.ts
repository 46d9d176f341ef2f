// Rows the SDK's tests build their views from: one definition each, with what a test changes.
import type { Message, Question, QuestionType } from '../core/types.js';

/** A message of block b1 by Someone ('message <id>'), or as `over` says. */
export function message(id: string, over: Partial<Message> = {}): Message {
  return {
    id,
    block_id: 'b1',
    parent_id: null,
    creator_id: 'someone',
    creator_name: 'Someone',
    content: 'message ' + id,
    created_at: '2024-05-06T10:00:00Z',
    replies: [],
    ...over,
  };
}

/** The A/B question 'Cats or dogs?' (q), options a and b; with their response counts when given. */
export function catsOrDogs(counts?: [number, number]): Question {
  const option = (id: string, value: string, index: number) => ({
    id,
    value,
    index,
    ...(counts ? { response_count: counts[index] } : {}),
  });
  return {
    id: 'q',
    type: 'ab',
    title: 'Cats or dogs?',
    index: 0,
    options: [option('a', 'Cats', 0), option('b', 'Dogs', 1)],
  };
}

/**
 * The question 'Which one?' (q1) of this type, with an option per [value, response count]:
 * o1, o2, ... in that order.
 */
export function whichOne(
  type: QuestionType,
  options: [value: string, count: number][],
  required = false,
): Question {
  return {
    id: 'q1',
    type,
    title: 'Which one?',
    index: 0,
    required,
    options: options.map(([value, response_count], index) => ({
      id: `o${index + 1}`,
      value,
      index,
      response_count,
    })),
  };
}

/**
 * A block's captcha with a stand-in widget as a data: script (no network): one button, "pass
 * check", which solves it with a new token.
 */
export const captcha = {
  provider: 'turnstile' as const,
  site_key: 'site',
  script_url: `data:text/javascript,${encodeURIComponent(`
    window.turnstile = {
      render(el, p) {
        const ok = document.createElement('button');
        ok.textContent = 'pass check';
        ok.onclick = () => p.callback('token-' + Math.random());
        el.append(ok);
        window.__widgetParams = p;
        return 'w1';
      },
      reset() {},
      remove() {},
    };`)}`,
};
