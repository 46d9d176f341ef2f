// Drains the jobs queue for a few seconds: called by the schedule (pg_cron + pg_net, every few
// seconds while jobs are due) and kicked by functions right after they enqueue. Not a user call:
// verify_jwt is off and the caller must present JOBS_WORKER_SECRET, the secret the schedule
// reads from Vault.
import { serviceClient } from '../_shared/clients.ts';
import { env, optionalEnv } from '../_shared/env.ts';
import { json, retriedFailure } from '../_shared/http.ts';
import { drain } from '../_shared/jobs.ts';
import { handlers } from '../_shared/job-handlers.ts';
import { sesMailer } from '../_shared/mail.ts';
import { kickWorker } from '../_shared/background.ts';

const encoder = new TextEncoder();

/** Constant-time comparison of the presented secret with ours. */
async function sameSecret(presented: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all(
    [presented, expected].map((s) => crypto.subtle.digest('SHA-256', encoder.encode(s))),
  );
  const x = new Uint8Array(a!);
  const y = new Uint8Array(b!);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

const numberEnv = (name: string, fallback: number) => {
  const value = Number(optionalEnv(name, String(fallback)));
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

Deno.serve(async (req) => {
  if (req.method !== 'POST')
    return json(405, { error: { code: 'method_not_allowed', message: 'Use POST' } });
  const presented = /^Bearer\s+(.+)$/i.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
  if (!presented || !(await sameSecret(presented, env('JOBS_WORKER_SECRET')))) {
    return json(401, { error: { code: 'unauthorized', message: 'Not the scheduler' } });
  }
  await req.body?.cancel();
  try {
    const summary = await drain(
      handlers,
      { db: serviceClient(), mailer: sesMailer() },
      {
        budgetMs: numberEnv('JOBS_BUDGET_MS', 8_000),
        batchSize: numberEnv('JOBS_BATCH_SIZE', 50),
        concurrency: numberEnv('JOBS_CONCURRENCY', 16),
        lockSeconds: 120,
      },
    );
    // a full last batch: more is waiting, so hand over to a fresh run instead of waiting for the tick
    if (summary.more) kickWorker();
    return json(200, { data: summary });
  } catch (err) {
    return retriedFailure(err, 'jobs-worker', {
      code: 'worker_failed',
      message: 'The worker stopped early',
    });
  }
});
