// Public interface of the workspace's results area (used by the workspace page).
export { ResultsView, type ResultsViewProps } from './components/results-view';
export { exportResultsCsv, EXPORT_PAGE_SIZE, type ExportDeps } from './export-results-csv';
export { buildResultsCsv, csvFileName, UTF8_BOM } from './utils/csv';
export { supabaseResultsApi, type ResultsApi } from './api/results-api';
export type { ResultsBlock, ResultsQuestion, ResponseRow } from './types';
