// One stack per data directory: a second `npm start` (or a reset) must not touch a running one's files.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export function takeLock(file: string): () => void {
  mkdirSync(dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (pid && isAlive(pid)) {
        console.error(
          `Reaction Blocks is already running (pid ${pid}) with this data directory.\n` +
            `Stop it first (Ctrl-C in its terminal, or kill ${pid}), or start another copy on other ports with DATA_DIR set.`,
        );
        process.exit(1);
      }
      rmSync(file, { force: true }); // stale lock from a crashed run
    }
  }
  throw new Error(`could not take the lock ${file}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
