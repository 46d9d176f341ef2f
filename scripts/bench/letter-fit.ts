// `npm run bench:letter-fit`: fitting a loaded page into one email (letterFitter in
// supabase/functions/_shared/letter/render.ts: the first parts whose mail and model are within
// what save-letter takes). No stack: the fit is a function of the model. Pages within 400 parts
// whose mail is longer than one email holds:
//   - 400 paragraphs of 5,000 characters (2 M of text: the text part is what runs out);
//   - 80 paragraphs of 5,000 characters;
//   - 400 paragraphs of 150 code marks (the HTML runs out: each mark is ~150 characters of it).
// Each is fitted both ways in one process, turn about, so both see the same machine load: by
// renders alone (a binary search, each step a render: how it was done before) and measured on
// one render of its first parts (each block's row, then one render to confirm). Renders counted through the
// fitter's render seam; the first fit of each, then the median of 3 more.
//
//   npm run bench:letter-fit [-- --write]
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { LETTER_LIMITS, type TLetterModel } from '@reaction-blocks/contracts/letters';
import { letterFitter, renderLetter } from '../../supabase/functions/_shared/letter/render.ts';
import { writeBenchmarkSection } from './docs-section.ts';

type Blocks = TLetterModel['blocks'];

const paragraphs = (count: number): Blocks =>
  Array.from({ length: count }, (_, b) => ({
    id: `p${b}`,
    type: 'paragraph' as const,
    spans: [{ text: `${b} ${'x'.repeat(LETTER_LIMITS.spanText - 6)}` }],
  }));

const codeMarks = (): Blocks =>
  Array.from({ length: LETTER_LIMITS.blocks }, (_, b) => ({
    id: `c${b}`,
    type: 'paragraph' as const,
    spans: Array.from({ length: 300 }, (_, s) =>
      s % 2 ? { text: ' ' } : { text: `c${s}`, marks: ['code' as const] },
    ),
  }));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => (x < 10 ? `${x.toFixed(1)} ms` : `${Math.round(x)} ms`);

const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(' / ');
const rows: string[] = [];
for (const [name, blocks] of [
  ['400 paragraphs of 5,000 characters', paragraphs(400)],
  ['80 paragraphs of 5,000 characters', paragraphs(80)],
  ['400 paragraphs of 150 code marks', codeMarks()],
] as const) {
  const model: TLetterModel = {
    version: 1,
    source: { mode: 'notion', url: 'https://writer.notion.site/Long' },
    blocks,
    cta: null,
    imageButton: null,
  };
  const runs = { before: [] as number[], now: [] as number[] };
  const renders = { before: 0, now: 0 };
  const cuts = new Set<number | null>();
  for (let run = 0; run < 4; run++) {
    for (const way of ['before', 'now'] as const) {
      let count = 0;
      const render: typeof renderLetter = (...args) => {
        count++;
        return renderLetter(...args);
      };
      const start = performance.now();
      const fitted = letterFitter('Long', {}, { render, measure: way === 'now' })(model);
      runs[way].push(performance.now() - start);
      renders[way] = count;
      cuts.add(fitted.cutAt);
    }
  }
  if (cuts.size !== 1) throw new Error(`${name}: the two ways cut differently (${[...cuts]})`);
  const cut = [...cuts][0];
  rows.push(
    `| ${name} | ${cut} | ${renders.before} | ${ms(runs.before[0]!)} | ${ms(median(runs.before.slice(1)))} | ${renders.now} | ${ms(runs.now[0]!)} | ${ms(median(runs.now.slice(1)))} |`,
  );
}

const body = `Measured by \`npm run bench:letter-fit\` (scripts/bench/letter-fit.ts) on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores, load average before ${load}, Node ${process.version}.

Fitting a loaded page into one email (\`letterFitter\`, supabase/functions/_shared/letter/render.ts; docs/architecture.md, "Page to letter"): the first parts whose mail (HTML 1,000,000, text 300,000 characters) and model (1,000,000 characters of JSON) are within what save-letter takes, with room for the longest subject, call to action and image button. Each page fitted both ways in one process, turn about: **before**, a binary search in which every step is a render (juice and the sanitiser over the letter so far); **now**, one render of the first parts as far as their JSON goes a quarter past what the text part holds (the whole letter when that is all of it, or when those parts fit), measured by its rows (each part is one row of the letter's table), then one render of the parts kept to confirm. Renders include the two small ones without parts that measure the room; the first fit, then the median of 3 more. The same cut both ways (the run stops otherwise).

| page | parts kept | renders before | first | median | renders now | first | median |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
console.log(body);
writeBenchmarkSection('Letters: fitting a page into one email', body);
