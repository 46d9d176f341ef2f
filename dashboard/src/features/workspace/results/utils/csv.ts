// The results CSV: columns creator, creatorName, submitted, Q_1..Q_n (spec section 7), page
// when the block is shown with page keys (a like per product page: docs/cafe24.md), and a held
// column when responses are held by escalation (issue 17: not counted until the owner approves).
import Papa from 'papaparse';
import type { ResponseRow, ResultsQuestion } from '../types';
import { answerText, currentQuestions, readAnswers } from './answers';
import { safeFileNamePart } from '../../../../lib/file-name';

/** Excel only reads a CSV as UTF-8 (Korean text) when the file starts with a byte order mark. */
export const UTF8_BOM = '\uFEFF';

/**
 * Values a spreadsheet would run as a formula (=, +, -, @, tab, carriage return at the start)
 * get a leading apostrophe, so a visitor cannot plant a formula in the owner's spreadsheet.
 * Plain numbers such as "-5" or "+82 10 1234" are left as they are.
 */
const FORMULA_START = /^(?![-+]?[\d .-]*$)[=+\-@\t\r]/;

/** The held column's header and its mark (results.export.heldColumn, results.held.mark). */
export interface HeldLabels {
  heldColumn: string;
  held: string;
}

/**
 * The CSV text (without the byte order mark). Q_i is the answer to the i-th current question
 * (not deleted, by index); answers to questions deleted since are not exported because they
 * have no column. Several chosen options are joined with ", ". `submitted` is ISO 8601 in UTC.
 * A `page` column (after `submitted`) holds each row's page key when any row has one.
 * When any row is held by escalation, a last column (`labels.heldColumn`, in the owner's
 * language) marks each held row with `labels.held` and leaves counted rows empty.
 * Rows stay in the order given (newest first, as the list shows them).
 */
export function buildResultsCsv(
  rows: readonly ResponseRow[],
  questions: readonly ResultsQuestion[],
  labels: HeldLabels = { heldColumn: 'Held until approved', held: 'Held' },
): string {
  const columns = currentQuestions(questions);
  const paged = rows.some((row) => row.page_key);
  const anyHeld = rows.some((row) => row.held);
  const fields = [
    'creator',
    'creatorName',
    'submitted',
    ...(paged ? ['page'] : []),
    ...columns.map((_question, i) => `Q_${i + 1}`),
    ...(anyHeld ? [labels.heldColumn] : []),
  ];
  const data = rows.map((row) => {
    const answers = readAnswers(row.answers);
    return [
      row.creator_id,
      row.creator_name ?? '',
      toIso(row.created_at),
      ...(paged ? [row.page_key] : []),
      ...columns.map((question) => {
        const answer = answers.get(question.id);
        return answer ? answerText(answer.value) : '';
      }),
      ...(anyHeld ? [row.held ? labels.held : ''] : []),
    ];
  });
  return Papa.unparse({ fields, data }, { newline: '\r\n', escapeFormulae: FORMULA_START });
}

function toIso(value: string) {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** `{blockName}_result_{YYMMDD}.csv`, the date in the owner's local time zone. */
export function csvFileName(blockName: string | null | undefined, date: Date): string {
  const yy = String(date.getFullYear() % 100).padStart(2, '0');
  const mm = String(date.getMonth() + 1).padStart(2, '0');
  const dd = String(date.getDate()).padStart(2, '0');
  return `${safeFileNamePart(blockName)}_result_${yy}${mm}${dd}.csv`;
}
