// "Export CSV": reads every response of the block and downloads {blockName}_result_{YYMMDD}.csv.
import i18next from 'i18next';
import { saveBlob } from '../../../lib/download';
import { failureReason, messageOf } from '../../../lib/errors';
import { listAllResponses } from './api/list-responses';
import { supabaseResultsApi, type ResultsApi } from './api/results-api';
import type { ResultsBlock, ResultsQuestion } from './types';
import { buildResultsCsv, csvFileName, UTF8_BOM } from './utils/csv';

/** Rows per request: large blocks are read in several requests (PostgREST caps a response). */
export const EXPORT_PAGE_SIZE = 1000;

export interface ExportDeps {
  api?: Pick<ResultsApi, 'listResponses'>;
  save?: (blob: Blob, fileName: string) => void;
  now?: () => Date;
}

/**
 * Builds and downloads the CSV. Rejects with an Error whose message says what failed (reading
 * the responses or writing the file) in the current language; nothing is downloaded then.
 */
export async function exportResultsCsv(
  block: Pick<ResultsBlock, 'id'> & { name: string | null },
  questions: readonly ResultsQuestion[],
  { api = supabaseResultsApi, save = saveBlob, now = () => new Date() }: ExportDeps = {},
): Promise<void> {
  let rows;
  try {
    rows = await listAllResponses(block.id, api.listResponses, EXPORT_PAGE_SIZE);
  } catch (cause) {
    console.error('[reaction-dashboard] CSV export: reading responses failed', cause);
    throw new Error(i18next.t('results.export.readError', { message: failureReason(cause) }), {
      cause,
    });
  }
  try {
    const csv = buildResultsCsv(dedupe(rows), questions, {
      heldColumn: i18next.t('results.export.heldColumn'),
      held: i18next.t('results.held.mark'),
    });
    const blob = new Blob([UTF8_BOM + csv], { type: 'text/csv;charset=utf-8' });
    save(blob, csvFileName(block.name, now()));
  } catch (cause) {
    console.error('[reaction-dashboard] CSV export: writing the file failed', cause);
    throw new Error(i18next.t('results.export.writeError', { message: messageOf(cause) }), {
      cause,
    });
  }
}

// Keyset paging does not repeat rows, but a row inserted with an equal timestamp while the
// export runs could; one line per response id is what the owner expects.
function dedupe<T extends { id: string }>(rows: readonly T[]): T[] {
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.id) && seen.add(row.id));
}
