// Replaces one "## <title>" section of docs/benchmarks.md (up to the next "## "), keeping the rest.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const file = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'docs', 'benchmarks.md');

export function writeBenchmarkSection(title: string, body: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const heading = `## ${title}\n`;
  const section = `${heading}\n${body.trim()}\n\n`;
  const start = text.indexOf(heading);
  if (start === -1) {
    writeFileSync(file, `${text.trimEnd()}\n\n${section}`);
    return;
  }
  const next = text.indexOf('\n## ', start + heading.length);
  writeFileSync(file, text.slice(0, start) + section + (next === -1 ? '' : text.slice(next + 1)));
}
