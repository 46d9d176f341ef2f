// The `webhook` job (registered in job-handlers.ts; docs/webhooks.md): one per delivery, written
// with the response, message or unsubscribe that caused it. Webhooks are delivered at least once
// (the receiver deduplicates by webhook-id), so the POST is made while preparing and the job
// answers a final outcome, as the plan jobs do: a worker that dies half way leaves a job that
// runs again. Retries follow a schedule close to what receivers expect of Standard Webhooks
// senders: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (eight attempts over about a day).
import { serviceClient } from './clients.ts';
import { dbError } from './errors.ts';
import { type JobHandler, type Outcome } from './jobs.ts';
import { mapLimit } from './map-limit.ts';
import { deliverWebhook } from './webhooks.ts';

/** Seconds before the next attempt, after attempt n (1-based). */
export const RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;

interface DeliveryContext {
  delivery_id: string;
  event_type: string;
  payload: Record<string, unknown>;
  attempts: number;
  url: string | null;
  secrets: string[] | null;
  skip: string | null;
}

async function rpc<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const { data, error, status } = await serviceClient().rpc(name, args);
  // send-test-webhook's request path comes here too: a failure in transit is its 503
  if (error) throw dbError(error, status, new Error(`${name}: ${error.message}`));
  return data as T;
}

/** The delivery contexts of some deliveries, by id. */
export async function webhookContexts(ids: string[]): Promise<Map<string, DeliveryContext>> {
  const rows = await rpc<DeliveryContext[]>('webhook_delivery_context', { p_delivery_ids: ids });
  return new Map(rows.map((r) => [r.delivery_id, r]));
}

const webhook: JobHandler = {
  async prepare(jobs) {
    const contexts = await webhookContexts(jobs.map((j) => String(j.payload.delivery_id)));
    const results: Array<Record<string, unknown>> = [];
    const outcomes = await mapLimit(jobs, 8, async (job): Promise<Outcome> => {
      const ctx = contexts.get(String(job.payload.delivery_id));
      if (!ctx) return { status: 'done', result: { skipped: 'the delivery was deleted' } };
      if (ctx.skip) return { status: 'done', result: { skipped: ctx.skip } };
      const attempt = await deliverWebhook(
        ctx.url!,
        ctx.delivery_id,
        ctx.payload,
        ctx.secrets ?? [],
      );
      const last = job.attempts >= job.max_attempts || !attempt.retry;
      results.push({
        delivery_id: ctx.delivery_id,
        ok: attempt.ok,
        status: attempt.status,
        error: attempt.error,
        final: !attempt.ok && last,
      });
      if (attempt.ok) return { status: 'done', result: { status: attempt.status } };
      if (last) return { status: 'failed', error: attempt.error ?? 'failed' };
      return {
        status: 'retry',
        error: attempt.error ?? 'failed',
        retry_in: RETRY_SCHEDULE[Math.min(job.attempts, RETRY_SCHEDULE.length) - 1],
      };
    });
    // the log says what the receiver answered, before the queue records the job
    if (results.length > 0) await rpc('record_webhook_attempts', { p_results: results });
    return outcomes;
  },
};

export const webhookJobHandlers: Record<string, JobHandler> = { webhook };
