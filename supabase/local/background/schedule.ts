// When cron jobs are due: pure functions and a small state machine, no I/O, the clock passed in
// (so tests drive it). The schedule text is parsed once, in SQL, by cron._parse_schedule (the
// pg_cron stand-in, supabase/local/extensions/pg_cron--1.6.sql), which also refuses invalid ones
// at cron.schedule time; this file only evaluates the parsed form.
//
// Rules, as pg_cron's launcher applies them:
// - "N seconds" jobs start when N seconds have passed since their last start (at once when first
//   seen); cron expressions at minute boundaries (UTC).
// - A job never runs twice at once: a job due while it runs gets one pending run, started when it
//   finishes (never more than one, whatever was missed).
// - After a pause of the clock (a suspended laptop) of at most 5 minutes, the minutes missed are
//   checked and each job due in them runs once; after a longer pause only the current minute counts
//   (pg_cron runs each missed minute of a short gap; we coalesce, so a gap never starts a burst).
// - If the clock goes back, minutes already evaluated are not evaluated again.
// - @reboot jobs run once when the runner starts (jobs added later wait for the next start).

export interface CronFields {
  minutes: number[];
  hours: number[];
  days: number[];
  months: number[];
  /** 0-6, Sunday 0 */
  weekdays: number[];
  /** day of month `$`: the last day of the month */
  lastDay: boolean;
  daysStar: boolean;
  weekdaysStar: boolean;
}

/** What cron._parse_schedule returns. */
export type Schedule = { seconds: number } | { reboot: true } | CronFields;

export interface PlannedJob {
  jobid: number;
  schedule: Schedule;
  active: boolean;
}

export const MINUTE = 60_000;
/** Longest clock gap whose missed minutes are still checked (pg_cron's "clock progressed"). */
export const MAX_CATCH_UP_MINUTES = 5;

export const minuteStart = (ms: number): number => Math.floor(ms / MINUTE) * MINUTE;

/** Whether a cron expression selects the minute starting at `ms` (UTC). */
export function matchesMinute(s: CronFields, ms: number): boolean {
  const t = new Date(ms);
  const tomorrow = new Date(ms + 24 * 60 * MINUTE);
  const day = s.days.includes(t.getUTCDate()) || (s.lastDay && tomorrow.getUTCDate() === 1);
  const weekday = s.weekdays.includes(t.getUTCDay());
  // Vixie cron: when either day field starts with `*`, both must match; otherwise either one.
  const dayMatches = s.daysStar || s.weekdaysStar ? day && weekday : day || weekday;
  return (
    s.minutes.includes(t.getUTCMinutes()) &&
    s.hours.includes(t.getUTCHours()) &&
    s.months.includes(t.getUTCMonth() + 1) &&
    dayMatches
  );
}

interface Task {
  job: PlannedJob;
  lastStart: number | undefined;
  running: boolean;
  pending: boolean;
  /** unscheduled while running: forgotten when the run finishes */
  removed: boolean;
}

const isSeconds = (s: Schedule): s is { seconds: number } => 'seconds' in s;
const isReboot = (s: Schedule): s is { reboot: true } => 'reboot' in s;
const isCron = (s: Schedule): s is CronFields => 'minutes' in s;

export class Planner {
  private tasks = new Map<number, Task>();
  private lastMinute: number;
  private rebootDone = false;

  constructor(now: number) {
    // as pg_cron: the minute the runner starts in is not run; the next boundary is the first
    this.lastMinute = minuteStart(now);
  }

  /** Replaces the job list; a job keeps its state (last start, running) across reloads. */
  setJobs(jobs: PlannedJob[]): void {
    const next = new Map<number, Task>();
    for (const job of jobs) {
      const task = this.tasks.get(job.jobid);
      next.set(
        job.jobid,
        task
          ? { ...task, job, removed: false }
          : { job, lastStart: undefined, running: false, pending: false, removed: false },
      );
    }
    // a removed job that is running still finishes; it never starts again
    for (const [id, task] of this.tasks) {
      if (task.running && !next.has(id)) {
        next.set(id, { ...task, job: { ...task.job, active: false }, removed: true });
      }
    }
    this.tasks = next;
  }

  /** The jobs to start at `now` (marked running); jobs due while running get a pending run. */
  take(now: number): number[] {
    const due = new Set<number>();
    const active = [...this.tasks.values()].filter((t) => t.job.active);

    if (!this.rebootDone) {
      this.rebootDone = true;
      for (const t of active) if (isReboot(t.job.schedule)) due.add(t.job.jobid);
    }
    for (const t of active) {
      const s = t.job.schedule;
      if (isSeconds(s) && (t.lastStart === undefined || now - t.lastStart >= s.seconds * 1000)) {
        due.add(t.job.jobid);
      }
    }
    const minute = minuteStart(now);
    if (minute > this.lastMinute) {
      const gap = (minute - this.lastMinute) / MINUTE;
      const from = gap <= MAX_CATCH_UP_MINUTES ? this.lastMinute + MINUTE : minute;
      for (const t of active) {
        const s = t.job.schedule;
        if (!isCron(s)) continue;
        for (let m = from; m <= minute; m += MINUTE) {
          if (matchesMinute(s, m)) {
            due.add(t.job.jobid);
            break;
          }
        }
      }
      this.lastMinute = minute;
    }

    const start: number[] = [];
    for (const id of due) {
      const t = this.tasks.get(id)!;
      if (t.running) t.pending = true;
      else {
        t.running = true;
        t.lastStart = now;
        start.push(id);
      }
    }
    return start;
  }

  /** Marks a run finished; returns true when its pending run must start now (marked running). */
  finish(jobid: number, now: number): boolean {
    const t = this.tasks.get(jobid);
    if (!t) return false;
    t.running = false;
    if (t.pending && t.job.active) {
      t.pending = false;
      t.running = true;
      t.lastStart = now;
      return true;
    }
    t.pending = false;
    if (t.removed) this.tasks.delete(jobid);
    return false;
  }

  /** When `take` may next have something to start (absolute ms), or undefined: nothing scheduled. */
  nextWake(now: number): number | undefined {
    let next: number | undefined;
    const consider = (at: number) => {
      next = next === undefined ? at : Math.min(next, at);
    };
    for (const t of this.tasks.values()) {
      const s = t.job.schedule;
      if (!t.job.active) continue;
      // a running seconds job is taken up again by finish(); a cron job may become pending
      if (isSeconds(s) && !t.running) {
        consider(t.lastStart === undefined ? now : t.lastStart + s.seconds * 1000);
      } else if (isCron(s)) consider(minuteStart(now) + MINUTE);
    }
    return next;
  }
}
