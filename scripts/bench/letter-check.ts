// `npm run bench:letter-check`: the check of a stored letter before it is sent
// (storedLetterRefusal in supabase/functions/_shared/letter/calls.ts: save-letter's schema over
// the stored model, subject, sender and page address), for models of about 1 MB
// (LETTER_LIMITS.modelChars), the largest save-letter stores. No stack: the check is a function
// of the row. Three shapes of model, each as large as the limit lets it be:
//   - linked spans: paragraphs of 50 bold, linked words (a link check per span);
//   - linked cells: tables of 5 rows of 12 cells, a mailto link in each;
//   - plain text: 400 paragraphs of one long span.
// For each, the first check in the process and the median of 5 more, and JSON.parse of the row's
// model (what reading it costs the worker besides). A form's automatic letter is checked for every
// response unless the verdict is known (letterToSend's reuseVerdict, docs/architecture.md).
//
//   npm run bench:letter-check [-- --write]
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { LETTER_LIMITS, type TLetterModel } from '@reaction-blocks/contracts/letters';
import { storedLetterRefusal } from '../../supabase/functions/_shared/letter/calls.ts';
import { writeBenchmarkSection } from './docs-section.ts';

type Blocks = TLetterModel['blocks'];

const linkedSpans = (): Blocks =>
  Array.from({ length: LETTER_LIMITS.blocks }, (_, b) => ({
    id: `p${b}`,
    type: 'paragraph' as const,
    spans: Array.from({ length: 50 }, (_, s) => ({
      text: `word ${b * 50 + s} `,
      marks: ['b' as const],
      href: `https://example.com/p/${b * 50 + s}`,
    })),
  }));

const linkedCells = (): Blocks =>
  Array.from({ length: LETTER_LIMITS.blocks }, (_, b) => ({
    id: `t${b}`,
    type: 'table' as const,
    header: true,
    rows: Array.from({ length: 5 }, (_, r) =>
      Array.from({ length: 12 }, (_, c) => [{ text: `${r}.${c}`, href: 'mailto:a@example.com' }]),
    ),
  }));

const plainText = (): Blocks =>
  Array.from({ length: LETTER_LIMITS.blocks }, (_, b) => ({
    id: `x${b}`,
    type: 'paragraph' as const,
    spans: [{ text: 'x'.repeat(2_400) }],
  }));

/** The model with as many of `blocks` as fit in LETTER_LIMITS.modelChars, as JSON. */
function modelJson(blocks: Blocks): string {
  const model: TLetterModel = {
    version: 1,
    source: { mode: 'notion', url: 'https://writer.notion.site/Weekly' },
    blocks,
    cta: { text: 'Read more', link: 'https://example.com' },
    imageButton: null,
  };
  while (JSON.stringify(model).length > LETTER_LIMITS.modelChars) model.blocks.pop();
  return JSON.stringify(model);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`;

const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(' / ');
const rows: string[] = [];
for (const [name, blocks] of [
  ['linked spans', linkedSpans()],
  ['linked cells', linkedCells()],
  ['plain text', plainText()],
] as const) {
  const json = modelJson(blocks);
  const checks: number[] = [];
  const parses: number[] = [];
  for (let run = 0; run < 6; run++) {
    const parsed = performance.now();
    const letter = JSON.parse(json) as unknown;
    const start = performance.now();
    const refusal = storedLetterRefusal({
      letter,
      mail_title: 'Weekly letter',
      mail_from: 'writer@example.com',
      mail_name: 'Letter Writer',
      page_url: 'https://writer.notion.site/Weekly',
    });
    checks.push(performance.now() - start);
    parses.push(start - parsed);
    if (refusal) throw new Error(`${name}: refused (${refusal})`);
  }
  const kept = (JSON.parse(json) as TLetterModel).blocks.length;
  rows.push(
    `| ${name} (${kept} parts) | ${(json.length / 1e6).toFixed(2)} M | ${ms(checks[0]!)} | ${ms(median(checks.slice(1)))} | ${ms(median(parses))} |`,
  );
}

const body = `Measured by \`npm run bench:letter-check\` (scripts/bench/letter-check.ts) on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores, load average before ${load}, Node ${process.version}.

The check a send makes of the stored letter before anything is reserved (\`storedLetterRefusal\`: save-letter's schema over the stored model, subject, sender and page address), for models as large as save-letter stores (\`LETTER_LIMITS.modelChars\`, 1,000,000 characters of JSON), one process, one run: the first check, then the median of 5 more; "JSON.parse" is the model's share of reading the row. A form's automatic letter made this check, and read the model, for every response; the worker now keeps the verdict per letter and private row's \`updated_at\` (docs/architecture.md, "A letter a form sends by itself").

| model | JSON | first check | check (median of 5) | JSON.parse (median) |
| --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
console.log(body);
writeBenchmarkSection('Checking a stored letter', body);
