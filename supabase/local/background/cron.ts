// The worker of the local pg_cron stand-in (supabase/local/extensions/pg_cron--1.6.sql): what
// pg_cron's launcher does on a Supabase project. It keeps the jobs of cron.job in memory (reloaded
// when the table's trigger NOTIFYs cron_job_cache_invalidate), sleeps until the next job is due
// (no timer at all when there is no job), runs each due command on a pooled connection as the
// job's user, and records the run in cron.job_run_details like pg_cron (starting, running with
// the backend pid, then succeeded with the command tag or "N rows", or failed with the error).
// Like pg_cron it never deletes run details: the schedule `cron-history-purge` of the migrations
// does, here as on a Supabase project.
import pg from 'pg';
import { coalesced } from './coalesced.ts';
import { Listener, withTimeout, type BackgroundWorker, type WorkerOptions } from './listener.ts';
import { MINUTE, Planner, type Schedule } from './schedule.ts';

/** databaseUrl: a superuser (the worker switches to each job's user). */
export interface CronWorkerOptions extends WorkerOptions {
  /** jobs running at once (pg_cron's cron.max_running_jobs; Supabase advises at most 8) */
  maxRunning?: number;
}

interface Job {
  jobid: number;
  schedule: string;
  command: string;
  database: string;
  username: string;
  active: boolean;
  parsed: Schedule;
}

const CHANNEL = 'cron_job_cache_invalidate';
const CLOSE_WAIT_MS = 5_000;

/**
 * A job whose user is not a superuser runs inside a SECURITY DEFINER function owned by that user:
 * PostgreSQL refuses SET ROLE and SET SESSION AUTHORIZATION there, so the command cannot switch
 * back to the superuser this connection logged in as. (A superuser's job needs no such fence.)
 */
const FENCE = `
  create function pg_temp.cron_run(command text) returns bigint
  language plpgsql security definer
  as $fence$
  declare
    n bigint;
  begin
    execute command;
    get diagnostics n = row_count;
    return n;
  end
  $fence$`;

export async function startCron(opts: CronWorkerOptions): Promise<BackgroundWorker> {
  const log = opts.log;
  const pool = new pg.Pool({
    connectionString: opts.databaseUrl,
    max: opts.maxRunning ?? 8,
    idleTimeoutMillis: 60_000,
    application_name: 'pg_cron',
  });
  pool.on('error', (err) => log(`job connection: ${err.message}`));

  const planner = new Planner(Date.now());
  const jobs = new Map<number, Job>();
  const parsed = new Map<string, Schedule>();
  const runs = new Map<number, Promise<void>>();
  const runningPids = new Map<number, number>();
  const pids = new WeakMap<pg.PoolClient, number>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let ready = false;

  /** Reloads the jobs (coalescing bursts of notifications), then evaluates them. */
  const reload = coalesced(
    () => load().catch((err: Error) => log(`could not load cron.job: ${err.message}`)),
    () => !ready || closed,
    () => tick(),
  );

  const admin = await Listener.start(opts, {
    applicationName: 'pg_cron launcher',
    channels: [CHANNEL],
    // a change, or a connection back after it was lost: changes may have been missed
    onWake: () => reload(),
  });
  let database: string;
  let user: string;
  try {
    const { rows } = await admin.query<{ database: string; user: string }>(
      'select current_database() as database, current_user as user',
    );
    ({ database, user } = rows[0]!);
    // as pg_cron does at start: runs cut off by the previous stop did not finish
    await admin
      .query(
        `update cron.job_run_details set status = 'failed', return_message = 'server restarted'
         where status in ('starting', 'running')`,
      )
      .catch(() => {}); // pg_cron not installed yet
  } catch (err) {
    await admin.close();
    await pool.end();
    throw err;
  }
  ready = true;
  reload();

  async function load(): Promise<void> {
    const { rows: installed } = await admin.query<{ ok: boolean }>(
      `select to_regclass('cron.job') is not null as ok`,
    );
    const rows = installed[0]?.ok
      ? (
          await admin.query<Omit<Job, 'parsed' | 'jobid'> & { jobid: string }>(
            'select jobid, schedule, command, database, username, active from cron.job',
          )
        ).rows
      : [];
    const next: Job[] = [];
    for (const row of rows) {
      let schedule = parsed.get(row.schedule);
      if (!schedule) {
        try {
          const { rows: p } = await admin.query<{ p: Schedule }>(
            'select cron._parse_schedule($1) as p',
            [row.schedule],
          );
          schedule = p[0]!.p;
          parsed.set(row.schedule, schedule);
        } catch (err) {
          log(`job ${row.jobid} skipped: ${(err as Error).message}`);
          continue;
        }
      }
      next.push({ ...row, jobid: Number(row.jobid), parsed: schedule });
    }
    jobs.clear();
    for (const job of next) jobs.set(job.jobid, job);
    planner.setJobs(next.map((j) => ({ jobid: j.jobid, schedule: j.parsed, active: j.active })));
  }

  function tick(): void {
    if (closed) return;
    clearTimeout(timer);
    const now = Date.now();
    for (const jobid of planner.take(now)) start(jobid);
    const at = planner.nextWake(now);
    // at most a minute, so that a jump of the wall clock is noticed
    timer =
      at === undefined ? undefined : setTimeout(tick, Math.min(Math.max(at - now, 1), MINUTE));
  }

  function start(jobid: number): void {
    const job = jobs.get(jobid);
    if (!job) {
      planner.finish(jobid, Date.now());
      return;
    }
    const run = runJob(job)
      .catch((err: Error) => log(`job ${jobid}: ${err.message}`))
      .finally(() => {
        runs.delete(jobid);
        if (closed) return;
        if (planner.finish(jobid, Date.now())) start(jobid);
        tick();
      });
    runs.set(jobid, run);
  }

  async function runJob(job: Job): Promise<void> {
    const client = await pool.connect();
    let healthy = true;
    let runid: string | undefined;
    let status: 'succeeded' | 'failed' = 'failed';
    let message: string;
    try {
      const pid = await backendPid(client);
      runningPids.set(job.jobid, pid);
      const { rows } = await admin.query<{ runid: string }>(
        `insert into cron.job_run_details
           (jobid, job_pid, database, username, command, status, start_time)
         values ($1, $2, $3, $4, $5, 'running', now())
         returning runid`,
        [job.jobid, pid, job.database, job.username, job.command],
      );
      runid = rows[0]!.runid;
      message = await execute(client, job);
      status = 'succeeded';
    } catch (err) {
      message = (err as Error).message;
    } finally {
      runningPids.delete(job.jobid);
      // back to the login user, settings, temp objects, advisory locks: nothing leaks to the next job
      await client.query('discard all').catch(() => {
        healthy = false; // left inside a transaction block, for instance: drop the connection
      });
      client.release(!healthy);
    }
    if (runid) {
      await admin.query(
        `update cron.job_run_details set status = $2, return_message = $3, end_time = now()
         where runid = $1`,
        [runid, status, message],
      );
    }
  }

  async function backendPid(client: pg.PoolClient): Promise<number> {
    let pid = pids.get(client);
    if (pid === undefined) {
      pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      pids.set(client, pid);
    }
    return pid;
  }

  /** Runs the command as the job's user; returns pg_cron's return_message. */
  async function execute(client: pg.PoolClient, job: Job): Promise<string> {
    if (job.database !== database) {
      throw new Error(`the local cron worker runs the jobs of database "${database}" only`);
    }
    if (job.username === user) return describe(await client.query(job.command));
    const { rows } = await client.query<{ rolsuper: boolean }>(
      'select rolsuper from pg_catalog.pg_roles where rolname = $1',
      [job.username],
    );
    if (!rows[0]) throw new Error(`role "${job.username}" does not exist`);
    const role = client.escapeIdentifier(job.username);
    if (rows[0].rolsuper) {
      await client.query(`set session authorization ${role}`);
      return describe(await client.query(job.command));
    }
    await client.query(`${FENCE}; alter function pg_temp.cron_run(text) owner to ${role}`);
    await client.query(`set session authorization ${role}`);
    const result = await client.query<{ n: string }>('select pg_temp.cron_run($1) as n', [
      job.command,
    ]);
    return rowsMessage(Number(result.rows[0]!.n));
  }

  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      // a long command must not hold up the stack's stop: cancel it (recorded as failed)
      for (const pid of runningPids.values()) {
        await admin.query('select pg_cancel_backend($1)', [pid]).catch(() => {});
      }
      await withTimeout(Promise.allSettled(runs.values()), CLOSE_WAIT_MS);
      await withTimeout(pool.end(), CLOSE_WAIT_MS);
      await admin.close();
    },
  };
}

/** pg_cron's return_message: "N rows" for a query, else the command tag of the last statement. */
function describe(result: pg.QueryResult | pg.QueryResult[]): string {
  const last = Array.isArray(result) ? result[result.length - 1]! : result;
  if (last.fields.length > 0) return rowsMessage(last.rows.length);
  if (last.command === 'INSERT') return `INSERT 0 ${last.rowCount ?? 0}`;
  return last.rowCount === null ? last.command : `${last.command} ${last.rowCount}`;
}

const rowsMessage = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`;
