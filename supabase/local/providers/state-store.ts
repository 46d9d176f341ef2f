// What the fakes remember across restarts of the stack, so that they remember what the database
// remembers (a verified sender, a connected Notion workspace, a billing key): one JSON file per
// fake in the state directory (beside the database's data directory), written a moment after a
// change and when the server closes, through a temporary file and a rename, so a crash leaves the
// previous file or the new one, never half of one.
import { mkdirSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Log } from '../process.ts';

/** How long after a change its file is written (changes in between are written together). */
const WRITE_DELAY_MS = 300;

export class StateStore {
  private readonly sources = new Map<string, () => unknown>();
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly dir: string,
    private readonly log: Log,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** The state saved under `name` by an earlier run, or undefined (none, or unreadable). */
  read(name: string): unknown {
    let text: string;
    try {
      text = readFileSync(this.file(name), 'utf8');
    } catch {
      return undefined;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      this.log('providers', `ignoring unreadable saved state ${name}: ${(err as Error).message}`);
      return undefined;
    }
  }

  /** Saves `save()` under `name` whenever `changed(name)` is called. */
  register(name: string, save: () => unknown): void {
    this.sources.set(name, save);
  }

  changed(name: string): void {
    if (!this.sources.has(name)) return;
    this.dirty.add(name);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), WRITE_DELAY_MS);
      this.timer.unref?.();
    }
  }

  /** Writes every changed state now; resolves when the files are in place. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const names = [...this.dirty];
    this.dirty.clear();
    this.writing = this.writing.then(async () => {
      for (const name of names) {
        const save = this.sources.get(name)!;
        const tmp = `${this.file(name)}.tmp`;
        try {
          await writeFile(tmp, JSON.stringify(save()));
          await rename(tmp, this.file(name));
        } catch (err) {
          this.log('providers', `could not save ${name}: ${(err as Error).message}`);
        }
      }
    });
    return this.writing;
  }

  private file(name: string): string {
    return join(this.dir, `${name}.json`);
  }
}

/** A Map as JSON (its entries), and back into the same Map. */
export const entriesOf = <V>(map: Map<string, V>): Array<[string, V]> => [...map.entries()];

export function refill<V>(map: Map<string, V>, entries: unknown): void {
  map.clear();
  if (!Array.isArray(entries)) return;
  for (const entry of entries) {
    if (Array.isArray(entry) && typeof entry[0] === 'string') map.set(entry[0], entry[1] as V);
  }
}
