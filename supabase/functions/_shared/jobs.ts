// The worker side of the jobs queue (supabase/schemas/jobs.sql): claim a
// batch, prepare each job (database reads, no side effects), mark the ones about to call a
// provider as `sending` in one call, deliver them with bounded concurrency, and record every
// outcome in one call. A worker that dies between `sending` and the record leaves jobs that the
// next claim marks `unknown` instead of sending them again.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { ClaimedJob } from './claimed-job.ts';
import type { Mailer } from './mail.ts';
import { failureText, inTransit, isUnavailable, unavailable } from './errors.ts';
import { mapLimit } from './map-limit.ts';

export type { ClaimedJob } from './claimed-job.ts';

/** What finish_jobs records of a mail handed to the provider (private.outbound_mails). */
export interface MailRecord {
  to: string;
  from: string;
  subject: string;
  kind: string;
  provider_message_id?: string;
  user_id?: string;
  sender_user_id?: string;
  block_id?: string;
  delivery_id?: string;
}

export type Outcome =
  | { status: 'done'; result?: unknown; mail?: MailRecord }
  | { status: 'retry'; error: string; retry_in?: number }
  | { status: 'failed'; error: string }
  | { status: 'unknown'; error: string; mail?: MailRecord }
  | { status: 'defer'; run_at: string };

/** A job ready to call its provider: `deliver` is the side effect, run after `sending` is recorded. */
export interface Delivery {
  deliver(): Promise<Outcome>;
}

export interface WorkerDeps {
  db: SupabaseClient;
  mailer: Mailer;
}

export interface JobHandler {
  /**
   * Reads what the jobs need (the claimed jobs of the handler's kinds in one batch, so one
   * database call can serve them all); answers, per job and in order, a final outcome (skip,
   * defer) or a delivery.
   */
  prepare(jobs: ClaimedJob[], deps: WorkerDeps): Promise<Array<Outcome | Delivery>>;
}

export interface DrainOptions {
  /** Stop claiming new batches after this much wall time (edge functions have a few seconds of CPU). */
  budgetMs: number;
  batchSize: number;
  concurrency: number;
  lockSeconds: number;
}

export interface DrainSummary {
  batches: number;
  claimed: number;
  done: number;
  retried: number;
  failed: number;
  unknown: number;
  deferred: number;
  /** The last batch was full when the budget ran out: more work is probably waiting. */
  more: boolean;
}

const isDelivery = (p: Outcome | Delivery): p is Delivery => 'deliver' in p;

/**
 * A call of the worker or a handler's prepare: its data, or the database's error thrown, named
 * (the error itself its cause); one that failed in transit is an `unavailable` of it (the
 * worker's 503; a job records the named cause).
 */
export async function rpc<T>(
  db: SupabaseClient,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const { data, error, status } = await db.rpc(name, args);
  if (!error) return data as T;
  const failure = new Error(`${name}: ${error.message}`, { cause: error });
  throw inTransit(error, status) ? unavailable(failure, name) : failure;
}

export async function drain(
  handlers: Record<string, JobHandler>,
  deps: WorkerDeps,
  options: DrainOptions,
): Promise<DrainSummary> {
  const started = Date.now();
  const summary: DrainSummary = {
    batches: 0,
    claimed: 0,
    done: 0,
    retried: 0,
    failed: 0,
    unknown: 0,
    deferred: 0,
    more: false,
  };
  const kinds = Object.keys(handlers);
  while (Date.now() - started < options.budgetMs) {
    const jobs = await rpc<ClaimedJob[]>(deps.db, 'claim_jobs', {
      p_limit: options.batchSize,
      p_lock_seconds: options.lockSeconds,
      p_kinds: kinds,
    });
    if (jobs.length === 0) {
      summary.more = false;
      break;
    }
    summary.batches++;
    summary.claimed += jobs.length;

    // one prepare call per handler for all its jobs in the batch
    const prepared = new Array<Outcome | Delivery>(jobs.length);
    const byHandler = new Map<JobHandler, number[]>();
    jobs.forEach((job, i) => {
      const handler = handlers[job.kind]!;
      byHandler.set(handler, [...(byHandler.get(handler) ?? []), i]);
    });
    await Promise.all(
      [...byHandler].map(async ([handler, indexes]) => {
        const mine = indexes.map((i) => jobs[i]!);
        try {
          const answers = await handler.prepare(mine, deps);
          indexes.forEach((i, n) => (prepared[i] = answers[n]!));
        } catch (err) {
          // nothing left the building: safe to try again later
          console.error(`[jobs] prepare ${mine[0]!.kind} (${mine.length} jobs):`, err);
          const error = `prepare failed: ${failureText(err)}`.slice(0, 500);
          for (const i of indexes) prepared[i] = { status: 'retry', error };
        }
      }),
    );

    const sendingIds = jobs.filter((_, i) => isDelivery(prepared[i]!)).map((j) => j.id);
    let markedSending = true;
    if (sendingIds.length > 0) {
      try {
        await rpc(deps.db, 'mark_jobs_sending', { p_ids: sendingIds });
      } catch (err) {
        // without the mark a crash could re-send: do not call the provider this round
        console.error('[jobs] mark_jobs_sending failed:', err);
        markedSending = false;
      }
    }

    const pairs = jobs.map((job, i) => ({ job, p: prepared[i]! }));
    const outcomes = await mapLimit(pairs, options.concurrency, async ({ job, p }) => {
      if (!isDelivery(p)) return p;
      if (!markedSending)
        return { status: 'retry', error: 'could not record the send; not sent' } as Outcome;
      try {
        return await p.deliver();
      } catch (err) {
        console.error(`[jobs] deliver ${job.kind} #${job.id}:`, err);
        return {
          status: 'unknown',
          error: `deliver failed: ${failureText(err)}`.slice(0, 500),
        } as Outcome;
      }
    });

    const payload = jobs.map((job, i) => ({ id: job.id, ...outcomes[i] }));
    let counts: Record<string, number> | undefined;
    let failure: unknown;
    for (let attempt = 0; attempt < 3 && !counts; attempt++) {
      try {
        counts = await rpc<Record<string, number>>(deps.db, 'finish_jobs', { p_outcomes: payload });
      } catch (err) {
        console.error('[jobs] finish_jobs failed:', err);
        failure = err;
        await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
      }
    }
    // the last failure in transit stays one (the worker's 503)
    if (!counts)
      throw isUnavailable(failure)
        ? failure
        : new Error('could not record the outcomes of a batch');
    summary.done += counts.done ?? 0;
    summary.retried += counts.retried ?? 0;
    summary.failed += counts.failed ?? 0;
    summary.unknown += counts.unknown ?? 0;
    summary.deferred += counts.deferred ?? 0;
    summary.more = jobs.length === options.batchSize;
  }
  return summary;
}
