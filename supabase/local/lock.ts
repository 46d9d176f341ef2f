// One stack per data directory: a second `npm start` (or a reset) must not touch a running one's
// files. The lock file names its holder by pid and the pid's start time, so a lock left by a
// stack that died (even by SIGKILL) is recognised as stale, also when its pid has been reused.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** A process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat), or ''. */
function startTimeOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: count from the last ')'
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder named in a lock file, if that very process still runs. */
function liveHolder(text: string): number | undefined {
  const [pidText = '', started = ''] = text.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
  // an older lock without a start time: the pid alone decides
  if (started && startTimeOf(pid) !== started) return undefined;
  return pid;
}

export interface Lock {
  release(): void;
  /** The lock was left by a stack that is gone (its children may still be stopping). */
  recovered: boolean;
}

export function takeLock(file: string): Lock {
  mkdirSync(dirname(file), { recursive: true });
  let recovered = false;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid} ${startTimeOf(process.pid)}\n`);
      closeSync(fd);
      return { release: () => rmSync(file, { force: true }), recovered };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        // removed meanwhile: try again
      }
      const pid = liveHolder(text);
      if (pid) {
        console.error(
          `Reaction Blocks is already running (pid ${pid}) with this data directory.\n` +
            `Stop it first (Ctrl-C in its terminal, or kill ${pid}), or start another copy on other ports with DATA_DIR set.`,
        );
        process.exit(1);
      }
      rmSync(file, { force: true }); // stale lock from a run that died
      recovered = true;
    }
  }
  throw new Error(`could not take the lock ${file}`);
}
