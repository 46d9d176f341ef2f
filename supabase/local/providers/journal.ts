// An append-only journal of JSON lines in the providers' state directory: what a fake must not
// forget when the stack dies (the mailbox's mail, the SES fake's events not yet delivered). A line
// is appended with one write(2), so a process killed with SIGKILL leaves every line it wrote (the
// kernel has it) and at most the one being written cut short, which `read` skips; `sync()` makes
// what was written survive the machine too (fdatasync, one for every caller waiting at that
// moment), for an answer that promises it. The owner replays the lines at start and rewrites the
// file as what it still holds (`rewrite`: a temporary file, fsync'd, renamed over the old one).
import {
  closeSync,
  existsSync,
  fdatasync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { Log } from '../process.ts';

export class Journal {
  private fd: number | undefined;
  private written = 0;
  /** The fdatasync under way, and the one queued after it for writes it may not cover. */
  private syncing: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(
    readonly file: string,
    private readonly log?: Log,
  ) {}

  /** The lines an earlier run wrote, in order; a line cut short by a crash is skipped. */
  read(): unknown[] {
    if (!existsSync(this.file)) return [];
    const lines: unknown[] = [];
    let bad = 0;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        lines.push(JSON.parse(line));
      } catch {
        bad++;
      }
    }
    if (bad) this.log?.('providers', `skipped ${bad} unreadable line(s) of ${this.file}`);
    return lines;
  }

  /** Replaces the file by `lines` (durably), and appends to it from now on. */
  rewrite(lines: Iterable<unknown>): void {
    const tmp = `${this.file}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      let text = '';
      for (const line of lines) {
        text += `${JSON.stringify(line)}\n`;
        if (text.length > 1 << 20) {
          writeSync(fd, text);
          text = '';
        }
      }
      if (text) writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
    const dir = openSync(dirname(this.file), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
    this.release();
    this.fd = openSync(this.file, 'a');
    this.written = 0;
  }

  /** Appends one line (after `rewrite`; before it, or after `close`, nothing is written). */
  append(line: unknown): void {
    if (this.fd === undefined) return;
    this.written += writeSync(this.fd, `${JSON.stringify(line)}\n`);
  }

  /** Bytes appended since the last rewrite (the owner rewrites when they outgrow what it holds). */
  get appended(): number {
    return this.written;
  }

  /** Resolves once every line appended before the call is on the disk. */
  sync(): Promise<void> {
    const fd = this.fd;
    if (fd === undefined) return Promise.resolve();
    if (!this.syncing) {
      this.syncing = new Promise<void>((resolve, reject) =>
        fdatasync(fd, (err) => (err ? reject(err) : resolve())),
      ).finally(() => (this.syncing = undefined));
      return this.syncing;
    }
    // the sync under way may have started before this caller's write: one more after it,
    // shared by everyone who asks meanwhile
    this.queued ??= this.syncing
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.sync();
      });
    return this.queued;
  }

  /** Stops appending (the server is closing). */
  close(): void {
    this.release();
  }

  /** Closes the file once no fdatasync on it is under way. */
  private release(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return;
    if (this.syncing) void this.syncing.catch(() => undefined).then(() => closeSync(fd));
    else closeSync(fd);
  }
}
