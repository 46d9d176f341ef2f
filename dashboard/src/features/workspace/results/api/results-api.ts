// The data calls of the results area in one injectable object, so the list and the export can
// be tested (and reused) without the network.
import type { ResponseRow } from '../types';
import { approveResponses, type TApproveResponsesInput } from './approve-responses';
import { deleteResponse, type TDeleteResponseInput } from './delete-response';
import { listResponses, type TListResponsesInput } from './list-responses';
import {
  getResultsSummary,
  type TResultsSummary,
  type TResultsSummaryInput,
} from './results-summary';

export interface ResultsApi {
  /** `signal`: the list's query's (the CSV export gives none). */
  listResponses: (input: TListResponsesInput, signal?: AbortSignal) => Promise<ResponseRow[]>;
  deleteResponse: (input: TDeleteResponseInput) => Promise<void>;
  /** Approves responses held by escalation; answers how many were approved. */
  approveResponses: (input: TApproveResponsesInput) => Promise<number>;
  summary: (input: TResultsSummaryInput, signal: AbortSignal) => Promise<TResultsSummary>;
}

export const supabaseResultsApi: ResultsApi = {
  listResponses,
  deleteResponse,
  approveResponses,
  summary: getResultsSummary,
};
