// A job as claim_jobs answers it (supabase/schemas/jobs.sql). Its own module, without imports, so
// the Node tests (jobs.test.ts, jobs-claims.test.ts) read the worker's type without jobs.ts's Deno-only imports.
export interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  group_key: string | null;
  /** When the job was enqueued (claim_jobs answers it). */
  created_at: string;
}
