// Replaces one "## <title>" section of docs/benchmarks.md (up to the next "## "), keeping the rest,
// but only when asked: `--write` on the command line or BENCH_WRITE=1 (`npm run bench -- --write`
// passes it to every benchmark). Otherwise the figures are only printed and the tree stays clean.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const file = join(
  fileURLToPath(new URL('.', import.meta.url)),
  '..',
  '..',
  'docs',
  'benchmarks.md',
);

/** Whether this run may write docs/benchmarks.md. */
export const writeRequested = (): boolean =>
  process.argv.includes('--write') || process.env.BENCH_WRITE === '1';

export function writeBenchmarkSection(title: string, body: string): void {
  if (!writeRequested()) {
    console.log(
      `(docs/benchmarks.md "${title}" not written: pass --write to record these figures)`,
    );
    return;
  }
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const heading = `## ${title}\n`;
  const section = `${heading}\n${body.trim()}\n\n`;
  const start = text.indexOf(heading);
  if (start === -1) {
    writeFileSync(file, `${text.trimEnd()}\n\n${section}`);
    console.log(`written to docs/benchmarks.md ("${title}")`);
    return;
  }
  const next = text.indexOf('\n## ', start + heading.length);
  writeFileSync(file, text.slice(0, start) + section + (next === -1 ? '' : text.slice(next + 1)));
  console.log(`written to docs/benchmarks.md ("${title}")`);
}
