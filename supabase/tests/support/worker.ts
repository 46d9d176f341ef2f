// The jobs worker run now, as the pg_cron schedule or a kick would run it.
import { expect } from 'vitest';
import { eventually } from '../../../scripts/poll.ts';
import { backgroundEnv } from '../../local/config.ts';
import { stack } from './clients.ts';

/** The secret the schedule sends the worker (the test stack's, derived from its JWT secret). */
export const workerSecret = () => backgroundEnv(stack().jwtSecret, '').JOBS_WORKER_SECRET;

/** One POST to the worker with `secret` as the bearer: its status and what it did. */
export async function callWorker(
  secret = workerSecret(),
): Promise<{ status: number; data?: Record<string, number> }> {
  const res = await fetch(`${stack().apiUrl}/functions/v1/jobs-worker`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const json = (await res.json().catch(() => ({}))) as { data?: Record<string, number> };
  return { status: res.status, data: json.data };
}

/** Runs the worker and expects it to answer 200. */
export async function runWorker(): Promise<Record<string, number> | undefined> {
  const { status, data } = await callWorker();
  expect(status).toBe(200);
  return data;
}

/** A worker holds the job: claimed, its outcome not recorded yet. */
export const held = (job: { status: string }) =>
  job.status === 'running' || job.status === 'sending';

/**
 * The jobs `read` answers, once there are some and no worker holds any of them (each outcome
 * recorded). A job's effect (the mail in the mailbox, the call at the provider) comes before its
 * outcome, and the schedule's worker may hold the job while the test's own run finds nothing.
 */
export const recordedJobs = <T extends { status: string }>(read: () => Promise<T[]>) =>
  eventually(
    async () => {
      const jobs = await read();
      return jobs.length > 0 && !jobs.some(held) && jobs;
    },
    undefined,
    read,
  );
