// The local stand-ins for pg_cron, pg_net and supabase_vault (supabase/local/extensions/) and the
// workers that run them (supabase/local/background/), through the real stack: schedules written
// with cron.schedule fire and are recorded, net.http_post reaches a real HTTP server (here, one in
// this test process) and its outcome is recorded, Vault keeps secrets encrypted, and the client
// roles cannot reach any of it. The schedule parser is the SQL one (cron._parse_schedule); the
// timing rules are the pure Planner, driven here with a fake clock so no test waits for a minute.
//
// Nothing here asserts how long something took: tests wait (with a deadline) for an outcome, and
// prove that something did NOT happen by ordering (a later event that must come after it).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MINUTE,
  Planner,
  matchesMinute,
  type CronFields,
  type Schedule,
} from '../local/background/schedule.ts';
import { startNet } from '../local/background/net.ts';
import { anonClient, newUser, serviceClient, sql, sqlValue, stack } from './support/clients.ts';
import { eventually } from './support/providers.ts';

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

/** Runs `text` on one connection after `set role`, as a client role would through SQL. */
async function asRole(role: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: stack().dbUrl });
  await client.connect();
  try {
    await client.query(`set role ${role}`);
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** The first row of a query that returns one. */
async function one<T extends Record<string, unknown>>(text: string, params: unknown[] = []) {
  const [row] = await sql<T>(text, params);
  if (!row) throw new Error(`no row from: ${text}`);
  return row;
}

const parse = (schedule: string) =>
  sqlValue<Schedule>('select cron._parse_schedule($1)', [schedule]);

interface RunRow {
  runid: string;
  status: string;
  return_message: string;
  command: string;
  username: string;
  job_pid: number | null;
  start_time: Date;
  end_time: Date | null;
}

const finishedRuns = (jobid: string) =>
  sql<RunRow>(
    `select * from cron.job_run_details where jobid = $1 and end_time is not null order by runid`,
    [jobid],
  );

/** Waits until the job has `n` finished runs and returns them. */
const runsOf = (jobid: string, n: number) =>
  eventually(
    async () => {
      const rows = await finishedRuns(jobid);
      return rows.length >= n ? rows : undefined;
    },
    60_000,
    () => `${n} runs of job ${jobid}`,
  );

const unique = (label: string) => `rb-test-${label}-${randomUUID().slice(0, 8)}`;

/** Schedules `command` as the job `name` (cron.schedule) and returns the job's id. */
async function scheduleJob(name: string, schedule: string, command: string): Promise<string> {
  const args = [name, schedule, command];
  return (await one<{ jobid: string }>('select cron.schedule($1, $2, $3) as jobid', args)).jobid;
}

/** A local HTTP server that records what it receives and answers as told by the path. */
interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let server: Server;
let baseUrl: string;
const received: Received[] = [];
const hanging = new Set<() => void>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ method: req.method ?? '', path, headers: req.headers, body });
      if (path.startsWith('/hang')) {
        hanging.add(() => res.end());
        return;
      }
      if (path.startsWith('/empty')) {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json', 'x-reply': 'yes' });
      res.end(JSON.stringify({ ok: true, method: req.method }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const end of hanging) end();
  await new Promise<void>((r) => server.close(() => r()));
  await sql(`delete from cron.job where jobname like 'rb-test-%'`);
  await sql(`delete from vault.secrets where name like 'rb-test-%'`);
});

const requestsTo = (path: string) => received.filter((r) => r.path === path);

interface ResponseRow {
  id: string;
  status_code: number | null;
  content_type: string | null;
  headers: Record<string, string> | null;
  content: string | null;
  timed_out: boolean | null;
  error_msg: string | null;
}

const responseOf = (id: string) =>
  eventually(
    async () => {
      const rows = await sql<ResponseRow>('select * from net._http_response where id = $1', [id]);
      return rows[0];
    },
    60_000,
    () => `the response to request ${id}`,
  );

// ---------------------------------------------------------------------------------------------
// schedules: the SQL parser (cron._parse_schedule, behind cron.schedule)
// ---------------------------------------------------------------------------------------------

describe('cron schedules', () => {
  it('parses cron expressions: steps, ranges, lists, names, Sunday as 0 or 7, $', async () => {
    expect(await parse('*/15 1-5 * * 1-5')).toMatchObject({
      minutes: [0, 15, 30, 45],
      hours: [1, 2, 3, 4, 5],
      weekdays: [1, 2, 3, 4, 5],
      daysStar: true,
      weekdaysStar: false,
    });
    expect(await parse('5,10-20/5 0 1,15 */3 *')).toMatchObject({
      minutes: [5, 10, 15, 20],
      hours: [0],
      days: [1, 15],
      months: [1, 4, 7, 10],
      daysStar: false,
      weekdaysStar: true,
    });
    expect(await parse('0 0 * * 7')).toMatchObject({ weekdays: [0] });
    expect(await parse('0 0 * * 0,7')).toMatchObject({ weekdays: [0] });
    expect(await parse('0 0 * * 5-7')).toMatchObject({ weekdays: [0, 5, 6] });
    expect(await parse('0 12 * jan,JUL Mon-wed')).toMatchObject({
      months: [1, 7],
      weekdays: [1, 2, 3],
    });
    expect(await parse('30 23 $ * *')).toMatchObject({ days: [], lastDay: true });
    expect(await parse('  0 0 * * *  ')).toMatchObject({ minutes: [0], hours: [0] });
    expect(await parse('@hourly')).toMatchObject({ minutes: [0], hours: expect.any(Array) });
    expect(((await parse('@hourly')) as CronFields).hours).toHaveLength(24);
    expect(await parse('@daily')).toMatchObject({ minutes: [0], hours: [0] });
    expect(await parse('@weekly')).toMatchObject({ weekdays: [0], daysStar: true });
    expect(await parse('@monthly')).toMatchObject({ days: [1] });
    expect(await parse('@yearly')).toMatchObject({ days: [1], months: [1] });
    expect(await parse('@reboot')).toEqual({ reboot: true });
  });

  it('parses pg_cron interval schedules from 1 to 59 seconds', async () => {
    expect(await parse('5 seconds')).toEqual({ seconds: 5 });
    expect(await parse('1 second')).toEqual({ seconds: 1 });
    expect(await parse('59 Seconds')).toEqual({ seconds: 59 });
    expect(await parse('10seconds')).toEqual({ seconds: 10 });
  });

  it.each([
    '',
    'every minute',
    '* * * *',
    '* * * * * *',
    '60 * * * *',
    '* 24 * * *',
    '* * 0 * *',
    '* * 32 * *',
    '* * * 13 *',
    '* * * * 8',
    '5-1 * * * *',
    '1/5 * * * *',
    '*/0 * * * *',
    '*/60 * * * *',
    '1,,2 * * * *',
    'mon * * * *',
    '* * * foo *',
    '* * * * mon-xyz',
    '0 seconds',
    '60 seconds',
    '5 minutes',
    '@often',
  ])('cron.schedule refuses %j as pg_cron does', async (schedule) => {
    const name = unique('invalid');
    await expect(
      sql('select cron.schedule($1, $2, $3)', [name, schedule, 'select 1']),
    ).rejects.toThrow(`invalid schedule: ${schedule}`);
    await expect(sql('select cron.schedule($1, $2)', [schedule, 'select 1'])).rejects.toThrow(
      'invalid schedule',
    );
    expect(await sql('select 1 from cron.job where jobname = $1', [name])).toEqual([]);
  });

  it('checks the schedule on every write of cron.job, alter_job included', async () => {
    const name = unique('alter');
    const jobid = await scheduleJob(name, '0 3 * * *', 'select 1');
    await expect(
      sql(`select cron.alter_job($1, schedule := '99 * * * *')`, [jobid]),
    ).rejects.toThrow('invalid schedule');
    await expect(
      sql(`update cron.job set schedule = 'nope' where jobid = $1`, [jobid]),
    ).rejects.toThrow('invalid schedule');
    await sql(`select cron.alter_job($1, schedule := '0 4 * * *', active := false)`, [jobid]);
    expect(await sql('select schedule, active from cron.job where jobid = $1', [jobid])).toEqual([
      { schedule: '0 4 * * *', active: false },
    ]);
    await expect(sql(`select cron.alter_job($1)`, [jobid])).rejects.toThrow('no updates specified');
    await expect(sql(`select cron.alter_job(-1, active := true)`)).rejects.toThrow(
      'does not exist',
    );
    await sql('select cron.unschedule($1::bigint)', [jobid]);
  });

  it('unschedule by name or id answers like pg_cron for unknown jobs', async () => {
    await expect(sql(`select cron.unschedule('rb-test-no-such-job')`)).rejects.toThrow(
      "could not find valid entry for job 'rb-test-no-such-job'",
    );
    await expect(sql(`select cron.unschedule(-42)`)).rejects.toThrow(
      'could not find valid entry for job -42',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// when jobs are due: the Planner with a fake clock
// ---------------------------------------------------------------------------------------------

describe('cron timing (fake clock)', () => {
  const at = (iso: string) => Date.parse(iso);

  it('matches day of month and day of week as Vixie cron (OR unless one is *), in UTC', async () => {
    // 2027-03-01 is a Monday
    const either = (await parse('0 9 13 * 1')) as CronFields;
    expect(matchesMinute(either, at('2027-03-01T09:00:00Z'))).toBe(true); // Monday
    expect(matchesMinute(either, at('2027-03-13T09:00:00Z'))).toBe(true); // the 13th (Saturday)
    expect(matchesMinute(either, at('2027-03-02T09:00:00Z'))).toBe(false);
    const both = (await parse('0 9 */2 * *')) as CronFields;
    expect(matchesMinute(both, at('2027-03-03T09:00:00Z'))).toBe(true);
    expect(matchesMinute(both, at('2027-03-02T09:00:00Z'))).toBe(false);
    const sunday = (await parse('0 0 * * 7')) as CronFields;
    expect(matchesMinute(sunday, at('2027-03-07T00:00:00Z'))).toBe(true);
    expect(matchesMinute(sunday, at('2027-03-06T00:00:00Z'))).toBe(false);
    const last = (await parse('0 0 $ * *')) as CronFields;
    expect(matchesMinute(last, at('2027-02-28T00:00:00Z'))).toBe(true);
    expect(matchesMinute(last, at('2028-02-28T00:00:00Z'))).toBe(false); // leap year
    expect(matchesMinute(last, at('2028-02-29T00:00:00Z'))).toBe(true);
    const workHours = (await parse('*/15 9-17 * * mon-fri')) as CronFields;
    expect(matchesMinute(workHours, at('2027-03-01T17:45:00Z'))).toBe(true);
    expect(matchesMinute(workHours, at('2027-03-01T18:00:00Z'))).toBe(false);
    expect(matchesMinute(workHours, at('2027-03-01T09:10:00Z'))).toBe(false);
  });

  it('runs a cron job once per matching minute, never in the minute it started in', async () => {
    const schedule = await parse('* * * * *');
    let now = at('2027-03-01T10:00:30Z');
    const planner = new Planner(now);
    planner.setJobs([{ jobid: 1, schedule, active: true }]);
    expect(planner.take(now)).toEqual([]);
    expect(planner.nextWake(now)).toBe(at('2027-03-01T10:01:00Z'));
    now = at('2027-03-01T10:01:00.003Z');
    expect(planner.take(now)).toEqual([1]);
    expect(planner.finish(1, now + 10)).toBe(false);
    expect(planner.take(now + 20)).toEqual([]); // same minute: no second run
    expect(planner.take(at('2027-03-01T10:02:00Z'))).toEqual([1]);
  });

  it('a job due while it runs runs once more when it finishes, not once per missed tick', async () => {
    const schedule = await parse('2 seconds');
    let now = at('2027-03-01T10:00:00Z');
    const planner = new Planner(now);
    planner.setJobs([{ jobid: 7, schedule, active: true }]);
    expect(planner.take(now)).toEqual([7]); // a new interval job starts at once
    expect(planner.nextWake(now)).toBeUndefined(); // running: finish() takes it up again
    for (let i = 0; i < 5; i++) {
      now += 2_000;
      expect(planner.take(now)).toEqual([]); // still running: one pending run, no pile
    }
    expect(planner.finish(7, now)).toBe(true); // the pending run starts now
    expect(planner.finish(7, now + 100)).toBe(false);
    expect(planner.nextWake(now + 100)).toBe(now + 2_000);
    expect(planner.take(now + 1_999)).toEqual([]);
    expect(planner.take(now + 2_000)).toEqual([7]);
  });

  it('after a short pause each missed job runs once; after a long one only the current minute', async () => {
    const everyMinute = await parse('* * * * *');
    const atTen = await parse('10 10 * * *');
    const start = at('2027-03-01T10:05:10Z');
    const planner = new Planner(start);
    planner.setJobs([
      { jobid: 1, schedule: everyMinute, active: true },
      { jobid: 2, schedule: atTen, active: true },
    ]);
    // the process slept from 10:05 to 10:10:20: five minutes missed, each job runs once
    expect(planner.take(at('2027-03-01T10:10:20Z')).sort()).toEqual([1, 2]);
    planner.finish(1, at('2027-03-01T10:10:21Z'));
    planner.finish(2, at('2027-03-01T10:10:21Z'));
    // then slept three hours, past 11:10 and 12:10: only the current minute (13:11) counts
    expect(planner.take(at('2027-03-01T13:11:05Z'))).toEqual([1]);
  });

  it('does not run a minute again when the clock goes back', async () => {
    const schedule = await parse('* * * * *');
    const planner = new Planner(at('2027-03-01T10:00:00Z'));
    planner.setJobs([{ jobid: 1, schedule, active: true }]);
    expect(planner.take(at('2027-03-01T10:03:00Z'))).toEqual([1]);
    planner.finish(1, at('2027-03-01T10:03:01Z'));
    expect(planner.take(at('2027-03-01T10:01:30Z'))).toEqual([]);
    expect(planner.take(at('2027-03-01T10:03:30Z'))).toEqual([]);
    expect(planner.take(at('2027-03-01T10:04:00Z'))).toEqual([1]);
  });

  it('sleeps without a timer when nothing is scheduled; inactive jobs and @reboot', async () => {
    const now = at('2027-03-01T10:00:00Z');
    const planner = new Planner(now);
    expect(planner.nextWake(now)).toBeUndefined();
    planner.setJobs([
      { jobid: 1, schedule: await parse('1 seconds'), active: false },
      { jobid: 2, schedule: await parse('@reboot'), active: true },
    ]);
    expect(planner.nextWake(now)).toBeUndefined();
    expect(planner.take(now)).toEqual([2]); // @reboot: once, when the worker starts
    planner.finish(2, now);
    expect(planner.take(now + MINUTE)).toEqual([]);
    // unscheduled while running: finishes, never starts again
    planner.setJobs([{ jobid: 3, schedule: await parse('1 seconds'), active: true }]);
    expect(planner.take(now + MINUTE)).toEqual([3]);
    planner.setJobs([]);
    expect(planner.finish(3, now + MINUTE + 5_000)).toBe(false);
    expect(planner.take(now + 2 * MINUTE)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// pg_cron stand-in through the stack's worker
// ---------------------------------------------------------------------------------------------

describe('pg_cron stand-in', () => {
  it('fires an "N seconds" schedule repeatedly and records each run like pg_cron', async () => {
    const name = unique('ticks');
    const jobid = await scheduleJob(name, '1 seconds', 'select 1');
    const runs = await runsOf(jobid, 3);
    for (const run of runs.slice(0, 3)) {
      expect(run).toMatchObject({
        status: 'succeeded',
        return_message: '1 row',
        command: 'select 1',
        username: 'postgres',
      });
      expect(run.job_pid).toEqual(expect.any(Number));
      expect(run.end_time!.getTime()).toBeGreaterThanOrEqual(run.start_time.getTime());
    }
    // never two at once: each run starts after the previous one ended
    for (let i = 1; i < runs.length; i++) {
      expect(runs[i]!.start_time.getTime()).toBeGreaterThanOrEqual(
        runs[i - 1]!.end_time!.getTime(),
      );
    }
    await sql('select cron.unschedule($1)', [name]);
  });

  it('stops a job when it is unscheduled', async () => {
    const stopped = unique('stopped');
    const witness = unique('witness');
    const jobid = await scheduleJob(stopped, '1 seconds', 'select 1');
    await runsOf(jobid, 1);
    expect(await sql('select cron.unschedule($1) as ok', [stopped])).toEqual([{ ok: true }]);
    expect(await sql('select 1 from cron.job where jobid = $1', [jobid])).toEqual([]);
    // A job scheduled after the unschedule: once it has run twice the worker has reloaded the
    // jobs since; from then on, two more of its 1-second ticks pass and the unscheduled job starts
    // no run.
    const witnessId = await scheduleJob(witness, '1 seconds', 'select 2');
    const countRuns = async () =>
      (await sql('select 1 from cron.job_run_details where jobid = $1', [jobid])).length;
    await runsOf(witnessId, 2);
    const before = await countRuns();
    await runsOf(witnessId, 4);
    expect(await countRuns()).toBe(before);
    await sql('select cron.unschedule($1)', [witness]);
  });

  it('scheduling an existing name replaces the job (same id, new command and schedule)', async () => {
    const name = unique('replace');
    const jobid = await scheduleJob(name, '0 0 1 1 *', 'select 1');
    const again = await scheduleJob(name, '1 seconds', 'select 1 union all select 2');
    expect(again).toBe(jobid);
    expect(await sql('select schedule, command from cron.job where jobname = $1', [name])).toEqual([
      { schedule: '1 seconds', command: 'select 1 union all select 2' },
    ]);
    const [run] = await runsOf(jobid, 1);
    expect(run).toMatchObject({
      status: 'succeeded',
      return_message: '2 rows',
      command: 'select 1 union all select 2',
    });
    await sql('select cron.unschedule($1)', [name]);
  });

  it('keeps every run as pg_cron does; the cron-history-purge schedule deletes runs older than a week', async () => {
    const job = await one<{ schedule: string; command: string }>(
      `select schedule, command from cron.job where jobname = 'cron-history-purge'`,
    );
    expect(job.schedule).toBe('31 4 * * *');
    // runs of a job id no real job has, ended 8 days and 6 days ago
    const jobid = 900_000_000 + Math.floor(Math.random() * 1_000_000);
    await sql(
      `insert into cron.job_run_details
         (jobid, job_pid, database, username, command, status, return_message, start_time, end_time)
       select $1, 0, current_database(), 'postgres', 'select 1', 'succeeded', '1 row',
              now() - d, now() - d
       from unnest(array[interval '8 days', interval '6 days']) d`,
      [jobid],
    );
    try {
      await sql(job.command);
      const left = await sql<{ age: string }>(
        `select extract(day from now() - end_time)::int::text as age
         from cron.job_run_details where jobid = $1`,
        [jobid],
      );
      expect(left).toEqual([{ age: '6' }]);
    } finally {
      await sql('delete from cron.job_run_details where jobid = $1', [jobid]);
    }
  });

  it('records a failing command as failed with its error, and command tags as pg_cron does', async () => {
    const failing = unique('failing');
    const tagged = unique('tagged');
    const jobid = await scheduleJob(failing, '1 seconds', 'select 1/0');
    const taggedId = await scheduleJob(
      tagged,
      '1 seconds',
      `create temp table t (x int); insert into t values (1), (2)`,
    );
    const [failed] = await runsOf(jobid, 1);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed!.return_message).toContain('division by zero');
    // twice: the temp table of the first run did not leak into the second (discard all)
    const runs = await runsOf(taggedId, 2);
    expect(runs.map((r) => [r.status, r.return_message])).toEqual([
      ['succeeded', 'INSERT 0 2'],
      ['succeeded', 'INSERT 0 2'],
    ]);
    await sql('select cron.unschedule($1)', [failing]);
    await sql('select cron.unschedule($1)', [tagged]);
  });

  it("runs a job as its user, who cannot switch back to the worker's superuser", async () => {
    const role = `rb_cron_probe_${randomUUID().slice(0, 8)}`;
    await sql(`create role ${role} nologin`);
    await sql(`grant usage on schema cron to ${role}`);
    await sql(`grant select, insert, update, delete on cron.job to ${role}`);
    await sql(`grant usage on sequence cron.jobid_seq to ${role}`);
    const schedule = async (label: string, command: string) => {
      const rows = await asRole(role, `select cron.schedule($1, '1 seconds', $2) as jobid`, [
        unique(label),
        command,
      ]);
      return (rows[0] as { jobid: string }).jobid;
    };
    try {
      const whoami = await schedule(
        'whoami',
        `do $$ begin
           if session_user <> '${role}' or current_user <> '${role}' then
             raise exception 'ran as %/%', session_user, current_user;
           end if;
         end $$`,
      );
      const escalate = await schedule('escalate', 'reset session authorization');
      const setRole = await schedule('set-role', 'set role postgres');
      const superOnly = await schedule('super-only', `select pg_read_file('PG_VERSION')`);
      expect((await runsOf(whoami, 1))[0]).toMatchObject({ status: 'succeeded', username: role });
      expect((await runsOf(escalate, 1))[0]).toMatchObject({
        status: 'failed',
        return_message: expect.stringContaining('security-definer'),
      });
      expect((await runsOf(setRole, 1))[0]).toMatchObject({
        status: 'failed',
        return_message: expect.stringContaining('security-definer'),
      });
      expect((await runsOf(superOnly, 1))[0]).toMatchObject({
        status: 'failed',
        return_message: expect.stringContaining('permission denied'),
      });
      // the role sees and removes its own jobs only (pg_cron's policy)
      expect(await asRole(role, 'select count(*)::int as n from cron.job')).toEqual([{ n: 4 }]);
    } finally {
      await sql('delete from cron.job where username = $1', [role]);
      // a run that started before the delete may still own its temporary fence function
      await eventually(
        async () => {
          try {
            await sql(`drop owned by ${role}`);
            await sql(`drop role ${role}`);
            return true;
          } catch {
            return undefined;
          }
        },
        60_000,
        () => 'the probe role to be dropped',
      );
    }
  });
});

// ---------------------------------------------------------------------------------------------
// pg_net stand-in
// ---------------------------------------------------------------------------------------------

describe('pg_net stand-in', () => {
  it('net.http_post reaches the server with body and headers; the response is recorded', async () => {
    const path = `/post-${randomUUID()}`;
    const { id } = await one<{ id: string }>(
      `select net.http_post(
         url := $1,
         body := '{"hello": "world"}',
         params := '{"q": "a b/é"}',
         headers := '{"Content-Type": "application/json", "Authorization": "Bearer t0ken"}'
       ) as id`,
      [`${baseUrl}${path}`],
    );
    const response = await responseOf(id);
    const [request] = requestsTo(`${path}?q=a%20b%2F%C3%A9`);
    expect(request).toMatchObject({
      method: 'POST',
      body: '{"hello": "world"}',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t0ken' },
    });
    expect(response).toMatchObject({
      status_code: 201,
      content_type: 'application/json',
      content: '{"ok":true,"method":"POST"}',
      timed_out: false,
      error_msg: null,
    });
    expect(response.headers).toMatchObject({ 'x-reply': 'yes' });
    expect(await sql('select 1 from net.http_request_queue where id = $1', [id])).toEqual([]);
  });

  it('net.http_post adds the JSON content type and refuses another one, as pg_net', async () => {
    const path = `/default-headers-${randomUUID()}`;
    const { id } = await one<{ id: string }>(
      `select net.http_post($1, '{"n": 1}', headers := '{"X-Custom": "1"}') as id`,
      [`${baseUrl}${path}`],
    );
    await responseOf(id);
    expect(requestsTo(path)[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-custom': '1',
    });
    await expect(
      sql(`select net.http_post($1, headers := '{"content-type": "text/plain"}')`, [baseUrl]),
    ).rejects.toThrow('Content-Type header must be "application/json"');
  });

  it('net.http_get and net.http_delete send their method, params and body', async () => {
    const getPath = `/get-${randomUUID()}`;
    const deletePath = `/empty-delete-${randomUUID()}`;
    const { get, del } = await one<{ get: string; del: string }>(
      `select net.http_get($1 || '?x=1', params := '{"y": "2"}', headers := '{"X-Probe": "get"}') as get,
              net.http_delete($2, body := '{"gone": true}') as del`,
      [`${baseUrl}${getPath}`, `${baseUrl}${deletePath}`],
    );
    expect(await responseOf(get)).toMatchObject({ status_code: 201 });
    expect(await responseOf(del)).toMatchObject({ status_code: 204, content: null });
    expect(requestsTo(`${getPath}?x=1&y=2`)[0]).toMatchObject({
      method: 'GET',
      body: '',
      headers: { 'x-probe': 'get' },
    });
    expect(requestsTo(deletePath)[0]).toMatchObject({ method: 'DELETE', body: '{"gone": true}' });
  });

  it('records a timeout as timed_out and a refused connection as an error', async () => {
    // a port that was free a moment ago: nothing listens there
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const { slow, refused } = await one<{ slow: string; refused: string }>(
      `select net.http_get($1, timeout_milliseconds := 300) as slow,
              net.http_get($2) as refused`,
      [`${baseUrl}/hang-${randomUUID()}`, `http://127.0.0.1:${closedPort}/nothing-listens`],
    );
    expect(await responseOf(slow)).toMatchObject({
      status_code: null,
      timed_out: true,
      error_msg: 'Timeout of 300 ms reached',
    });
    const failed = await responseOf(refused);
    expect(failed).toMatchObject({ status_code: null, timed_out: false });
    expect(failed.error_msg).toContain('ECONNREFUSED');
  });

  it('sends only committed requests: never one rolled back, one in flight only after commit', async () => {
    const client = new pg.Client({ connectionString: stack().dbUrl });
    await client.connect();
    try {
      const rolledBack = `/rolled-back-${randomUUID()}`;
      await client.query('begin');
      await client.query('select net.http_post($1)', [`${baseUrl}${rolledBack}`]);
      await client.query('rollback');

      const late = `/late-${randomUUID()}`;
      await client.query('begin');
      await client.query('select net.http_post($1)', [`${baseUrl}${late}`]);
      // committed after the open one was queued: once it is answered, the worker has read the
      // queue since, and the uncommitted request was not visible to it
      const marker = `/marker-${randomUUID()}`;
      const { id } = await one<{ id: string }>('select net.http_post($1) as id', [
        `${baseUrl}${marker}`,
      ]);
      await responseOf(id);
      expect(requestsTo(late)).toEqual([]);
      await client.query('commit');
      await eventually(
        async () => requestsTo(late)[0],
        60_000,
        () => 'the committed request',
      );

      expect(requestsTo(rolledBack)).toEqual([]);
      expect(
        await sql('select 1 from net.http_request_queue where url = $1', [
          `${baseUrl}${rolledBack}`,
        ]),
      ).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('a worker starting reads the queue once its client is there (flaky2)', async () => {
    const lines: string[] = [];
    const worker = await startNet({ databaseUrl: stack().dbUrl, log: (l) => lines.push(l) });
    await worker.close();
    // the wake-up of its connect read the queue before its client was assigned: "could not
    // read net.http_request_queue: Cannot access 'db' before initialization"
    expect(lines.filter((l) => l.includes('before initialization'))).toEqual([]);
  });

  it('net.check_worker_is_up finds the local worker', async () => {
    await expect(sql('select net.check_worker_is_up()')).resolves.toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Vault stand-in
// ---------------------------------------------------------------------------------------------

describe('supabase_vault stand-in', () => {
  it('creates, reads back and updates a secret, stored encrypted', async () => {
    const name = unique('secret');
    const { id } = await one<{ id: string }>(
      `select vault.create_secret('s3cret value', $1, 'for a test') as id`,
      [name],
    );
    const [row] = await sql<{ secret: string; nonce: Buffer }>(
      'select secret, nonce from vault.secrets where id = $1',
      [id],
    );
    expect(row!.secret).not.toContain('s3cret');
    expect(Buffer.from(row!.secret, 'base64').toString('latin1')).not.toContain('s3cret');
    expect(
      await sql(
        'select name, description, decrypted_secret from vault.decrypted_secrets where id = $1',
        [id],
      ),
    ).toEqual([{ name, description: 'for a test', decrypted_secret: 's3cret value' }]);

    const renamed = unique('renamed');
    await sql(`select vault.update_secret($1, 'new value', $2)`, [id, renamed]);
    expect(
      await sql(
        'select name, description, decrypted_secret from vault.decrypted_secrets where id = $1',
        [id],
      ),
    ).toEqual([{ name: renamed, description: 'for a test', decrypted_secret: 'new value' }]);
    await sql(`select vault.update_secret($1, new_description := 'described')`, [id]);
    expect(
      await sql('select description, decrypted_secret from vault.decrypted_secrets where id = $1', [
        id,
      ]),
    ).toEqual([{ description: 'described', decrypted_secret: 'new value' }]);
    await expect(sql(`select vault.create_secret('x', $1)`, [renamed])).rejects.toThrow(
      'duplicate key',
    );
  });

  it('a ciphertext copied to another row does not decrypt (bound to its id)', async () => {
    const name = unique('bound');
    const { id } = await one<{ id: string }>(`select vault.create_secret('bound', $1) as id`, [
      name,
    ]);
    const client = new pg.Client({ connectionString: stack().dbUrl });
    await client.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<{ id: string }>(
        `insert into vault.secrets (name, secret, nonce)
         select $2, secret, nonce from vault.secrets where id = $1 returning id`,
        [id, unique('copy')],
      );
      await expect(
        client.query('select decrypted_secret from vault.decrypted_secrets where id = $1', [
          rows[0]!.id,
        ]),
      ).rejects.toThrow();
    } finally {
      await client.query('rollback').catch(() => {});
      await client.end();
    }
  });

  it('service_role uses the Vault as on Supabase, but never reads the root key', async () => {
    const name = unique('service');
    await asRole('service_role', `select vault.create_secret('by service', $1)`, [name]);
    expect(
      await asRole(
        'service_role',
        'select decrypted_secret from vault.decrypted_secrets where name = $1',
        [name],
      ),
    ).toEqual([{ decrypted_secret: 'by service' }]);
    await expect(asRole('service_role', 'select * from vault._root_key')).rejects.toThrow(
      'permission denied',
    );
    await expect(asRole('service_role', `select vault._secret_key('x', 'y')`)).rejects.toThrow(
      'permission denied',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// enabling them
// ---------------------------------------------------------------------------------------------

describe('enabling the extensions', () => {
  it("accepts the statements of Supabase's docs, with or without a schema, and drops cleanly", async () => {
    const database = `rb_ext_${randomUUID().slice(0, 8)}`;
    await sql(`create database ${database}`);
    const url = new URL(stack().dbUrl);
    url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const installed = async () =>
      (
        await client.query(
          `select extname, extversion from pg_extension
           where extname in ('pg_cron', 'pg_net', 'supabase_vault') order by 1`,
        )
      ).rows;
    try {
      // what a Supabase project has before its own migrations
      await client.query(`create schema extensions;
        create extension pgcrypto with schema extensions;
        create extension supabase_vault`);
      for (const statement of [
        'create extension if not exists pg_cron with schema pg_catalog',
        'create extension if not exists pg_net with schema extensions',
        'create extension if not exists supabase_vault with schema vault',
        'create extension if not exists supabase_vault',
        'create extension if not exists pg_cron',
      ]) {
        await client.query(statement);
      }
      expect(await installed()).toEqual([
        { extname: 'pg_cron', extversion: '1.6' },
        { extname: 'pg_net', extversion: '0.19.5' },
        { extname: 'supabase_vault', extversion: '0.3.1' },
      ]);
      await client.query('drop extension pg_cron, pg_net');
      await client.query('create extension pg_cron; create extension pg_net');
      expect(await installed()).toHaveLength(3);
      await client.query('drop extension pg_cron, pg_net, supabase_vault');
      expect(await installed()).toEqual([]);
      const { rows } = await client.query(
        `select nspname from pg_namespace where nspname in ('cron', 'net')`,
      );
      expect(rows).toEqual([]);
    } finally {
      await client.end();
      await sql(`drop database ${database} with (force)`);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// client roles
// ---------------------------------------------------------------------------------------------

describe('client roles cannot reach cron, net or vault', () => {
  const tables = [
    'cron.job',
    'cron.job_run_details',
    'net.http_request_queue',
    'net._http_response',
    'vault.secrets',
    'vault.decrypted_secrets',
    'vault._root_key',
  ];
  const calls = [
    `select cron.schedule('rb-test-evil', '1 seconds', 'select 1')`,
    `select cron.unschedule(1)`,
    `select net.http_post('http://127.0.0.1:9/')`,
    `select vault.create_secret('x')`,
    `select vault._crypto_aead_det_decrypt('x', 'y', 0)`,
  ];

  it.each(['anon', 'authenticated'])('%s, through SQL', async (role) => {
    for (const table of tables) {
      await expect(asRole(role, `select * from ${table}`), table).rejects.toThrow(
        /permission denied for schema (cron|net|vault)/,
      );
    }
    for (const call of calls) {
      await expect(asRole(role, call), call).rejects.toThrow(/permission denied for schema/);
    }
  });

  it('anon and a signed-in user, through supabase-js and PostgREST', async () => {
    const user = await newUser('cron-probe');
    for (const client of [anonClient(), user.client]) {
      for (const table of tables) {
        const [schema, name] = table.split('.') as [string, string];
        const { data, error } = await client.schema(schema).from(name).select('*');
        expect(data, table).toBeNull();
        expect(error, table).not.toBeNull();
      }
      const rpc = await client.schema('vault').rpc('create_secret', { new_secret: 'x' });
      expect(rpc.error).not.toBeNull();
      const post = await client.schema('net').rpc('http_post', { url: 'http://127.0.0.1:9/' });
      expect(post.error).not.toBeNull();
    }
    // the service-role key does not open them through the API either: schemas not exposed
    const service = serviceClient();
    const { error } = await service.schema('vault').from('decrypted_secrets').select('*');
    expect(error).not.toBeNull();
    expect(await sql(`select 1 from cron.job where jobname = 'rb-test-evil'`)).toEqual([]);
  });

  it('service_role has no access to cron (as on Supabase)', async () => {
    await expect(asRole('service_role', 'select * from cron.job')).rejects.toThrow(
      'permission denied for schema cron',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// the pattern the jobs queue uses
// ---------------------------------------------------------------------------------------------

describe('a schedule that posts to a URL kept in Vault', () => {
  it('reads the URL and key from vault.decrypted_secrets and posts with them', async () => {
    const urlName = unique('worker-url');
    const keyName = unique('worker-key');
    const path = `/worker-${randomUUID()}`;
    await sql(`select vault.create_secret($1, $2), vault.create_secret('k3y', $3)`, [
      `${baseUrl}${path}`,
      urlName,
      keyName,
    ]);
    const job = unique('worker');
    await scheduleJob(
      job,
      '1 seconds',
      `select net.http_post(
         url := (select decrypted_secret from vault.decrypted_secrets where name = '${urlName}'),
         headers := jsonb_build_object(
           'Content-Type', 'application/json',
           'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets where name = '${keyName}')
         ),
         body := jsonb_build_object('source', 'cron')
       ) as request_id`,
    );
    const request = await eventually(
      async () => requestsTo(path)[0],
      60_000,
      () => 'the scheduled request',
    );
    await sql('select cron.unschedule($1)', [job]);
    expect(request).toMatchObject({
      method: 'POST',
      body: '{"source": "cron"}',
      headers: { authorization: 'Bearer k3y', 'content-type': 'application/json' },
    });
  });
});
