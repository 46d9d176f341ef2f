// Sample rows and questions shared by the results tests.
import type { ResponseRow, ResultsQuestion } from './types';

export const Q1 = '10000000-0000-4000-8000-000000000001';
export const Q2 = '10000000-0000-4000-8000-000000000002';
export const Q3 = '10000000-0000-4000-8000-000000000003';
export const Q_DELETED = '10000000-0000-4000-8000-000000000009';
export const BLOCK_ID = '20000000-0000-4000-8000-000000000001';

/** Given out of order on purpose: Q_n follows `index`, not the array order. */
export const questions: ResultsQuestion[] = [
  { id: Q2, index: 1, title: 'Favourite colours', type: 'poll' },
  { id: Q_DELETED, index: 2, title: 'Old question', type: 'short_text', deleted: true },
  { id: Q1, index: 0, title: 'Your name', type: 'short_text' },
  { id: Q3, index: 3, title: 'Comment', type: 'long_text' },
];

let serial = 0;
/** A response row with a unique id and a created_at one minute older than the previous one. */
export function responseRow(overrides: Partial<ResponseRow> = {}): ResponseRow {
  serial += 1;
  const id = `30000000-0000-4000-8000-${String(serial).padStart(12, '0')}`;
  return {
    id,
    block_id: BLOCK_ID,
    kind: 'form',
    creator_id: `40000000-0000-4000-8000-${String(serial).padStart(12, '0')}`,
    creator_name: `Visitor ${serial}`,
    creator_photo_url: null,
    color: '#2e7d32',
    timezone: 'Asia/Seoul',
    answers: {},
    created_at: new Date(Date.UTC(2025, 0, 1, 12, 0) - serial * 60_000).toISOString(),
    page_key: '',
    held: false,
    ...overrides,
  };
}

export function answer(
  index: number,
  title: string,
  type: string,
  value: string | string[],
  optionIds?: string[],
) {
  return {
    index,
    title,
    type,
    value,
    ...(optionIds ? { option_ids: optionIds } : {}),
    as_visitor_info: null,
  };
}

/** A summary as block_results_summary answers it (form with a poll, a number and a text question). */
export function summaryOf(
  overrides: Partial<import('./api/results-summary').TResultsSummary> = {},
): import('./api/results-summary').TResultsSummary {
  return {
    block: { id: BLOCK_ID, type: 'form', response_count: 25, like_count: 0 },
    timezone: 'Asia/Seoul',
    totals: {
      responses: 25,
      last_7_days: 9,
      first_at: '2026-11-01T01:00:00Z',
      last_at: '2026-11-03T09:05:00Z',
      held: 0,
    },
    timeline: {
      unit: 'day',
      points: [
        { t: '2026-11-01', n: 10 },
        { t: '2026-11-02', n: 6 },
        { t: '2026-11-03', n: 9 },
      ],
    },
    questions: [
      {
        id: Q2,
        index: 1,
        title: 'Favourite colours',
        type: 'poll',
        multi: true,
        answered: 20,
        options: [
          { id: 'o1', value: 'Red', deleted: false, count: 15 },
          { id: 'o2', value: 'Blue', deleted: false, count: 5 },
          { id: 'o3', value: 'Green', deleted: true, count: 1 },
        ],
      },
      {
        id: 'n1',
        index: 2,
        title: 'Age',
        type: 'number',
        multi: false,
        answered: 4,
        number: { count: 4, mean: 30.5, median: 29, min: 20, max: 44 },
      },
      {
        id: Q3,
        index: 3,
        title: 'Comment',
        type: 'long_text',
        multi: false,
        answered: 2,
        latest: [
          { value: '정말 좋아요', created_at: '2026-11-03T09:05:00Z' },
          { value: 'Nice', created_at: '2026-11-02T01:00:00Z' },
        ],
      },
    ],
    ...overrides,
  };
}
