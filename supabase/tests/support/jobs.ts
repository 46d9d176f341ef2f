// The jobs queue as the worker calls it (supabase/schemas/jobs.sql), for jobs.test.ts and
// jobs-claims.test.ts: jobs of a kind of each test's own, so parallel test files and the stack's
// worker never claim each other's jobs, and rate buckets of their own.
import { randomUUID } from 'node:crypto';
import { afterEach, expect } from 'vitest';
import { serviceClient, sql } from './clients.ts';
import type { ClaimedJob } from '../../functions/_shared/claimed-job.ts';

export const kindOf = () => `test.${randomUUID().slice(0, 8)}`;

export async function enqueue(
  kind: string,
  fields: Record<string, unknown> = {},
): Promise<number | null> {
  const { data, error } = await serviceClient().rpc('enqueue_job', { p_kind: kind, ...fields });
  expect(error).toBeNull();
  return data as number | null;
}

/** Claims due jobs of one kind (the worker and other tests never claim these kinds). */
export async function claim(kind: string, limit = 50, lockSeconds = 60): Promise<ClaimedJob[]> {
  const { data, error } = await serviceClient().rpc('claim_jobs', {
    p_limit: limit,
    p_lock_seconds: lockSeconds,
    p_kinds: [kind],
  });
  expect(error).toBeNull();
  return data as ClaimedJob[];
}

export async function finish(outcomes: Array<Record<string, unknown>>) {
  const { data, error } = await serviceClient().rpc('finish_jobs', { p_outcomes: outcomes });
  expect(error).toBeNull();
  return data as Record<string, number>;
}

/** The settings of this file's buckets, removed after each test (never another file's). */
const settingKeys: string[] = [];
afterEach(async () => {
  await sql('delete from private.settings where key = any($1)', [settingKeys.splice(0)]);
});

/**
 * A rate bucket of its own, refilled at `perSecond` up to `burst` (no setting: its default), and
 * a job kind of its own.
 */
export async function bucketKind(perSecond: number, burst?: number) {
  const bucket = `test${randomUUID().slice(0, 8)}`;
  const settings: Array<[string, number]> = [[`rate.${bucket}.per_second`, perSecond]];
  if (burst !== undefined) settings.push([`rate.${bucket}.burst`, burst]);
  for (const [key, value] of settings) {
    settingKeys.push(key);
    await sql('insert into private.settings (key, value) values ($1, $2)', [
      key,
      JSON.stringify(value),
    ]);
  }
  return { kind: kindOf(), bucket };
}

/** How many jobs of `kind` are queued, and the attempts counted on them. */
export const leftQueued = async (kind: string) =>
  (
    await sql<{ queued: string; attempts: string }>(
      `select count(*) as queued, sum(attempts) as attempts from private.jobs where kind = $1 and status = 'queued'`,
      [kind],
    )
  )[0];
