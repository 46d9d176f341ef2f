// npm run size: gzip sizes of the CDN loader and of each element with everything it loads
// (static and dynamic chunks; the Korean texts are listed apart since English pages never load them).
// Writes the "SDK sizes" section of docs/benchmarks.md and exits 1 when a budget is exceeded.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { BUDGETS } from './budgets.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// this release's CDN files (dist/cdn/v<version>/)
const cdn = join(root, `dist/cdn/v${version}`);
const docs = resolve(root, '../docs/benchmarks.md');
if (!existsSync(join(cdn, 'reaction.js'))) {
  console.error('[size] run `npm run build` first');
  process.exit(1);
}

const gz = (f) => gzipSync(readFileSync(f), { level: 9 }).length;
const kb = (n) => (n / 1024).toFixed(2) + ' KB';
const isLocale = (f) => /\/chunks\/ko-/.test(f);
// the captcha (core/captcha.ts) loads only when a visitor trips a rate limit on a block with the
// captcha on: listed apart, like the Korean texts
const isCaptcha = (f) => /\/chunks\/captcha-/.test(f);
// the custom theme's derived colours (core/custom-theme.ts) load only for a block in the custom
// theme (before it shows): listed apart too, with their size under the table
const isCustom = (f) => /\/chunks\/custom-theme-/.test(f);
// the writer's code (core/writer.ts: loaded on a visitor's first interaction with a block), the
// session's (core/auth.ts), the writer's profile, the sealed store, its seal, the list of blocks
// written to and the joining of a visitor's own part to the view (core/identity.ts,
// core/storage.ts, core/vault.ts, core/marks.ts, core/view.ts) and the form's endings
// (components/form/endings.ts) load only for a visitor who is about to write, or who wrote before (something stored to open): listed apart, since a reader
// never loads them; so does the form's sanitiser (components/form/rich.ts) for a form without a
// description question (one with loads it before its first data: a row of its own)
const isWriter = (f) =>
  /\/chunks\/(writer|[a-z]+\.writer|auth|identity|storage|vault|marks|view|endings|rich)-/.test(f);
const isRich = (f) => /\/chunks\/rich-/.test(f);
// what a reader loads after the first data shows: realtime (core/live.ts) with what a change does
// to the comment list (comment.changes.ts) and Lit's repeat, one chunk (comment.realtime.ts), and
// the list's reading again on a resync (comment.read.ts)
const isRealtime = (f) => /\/chunks\/(live|comment\.realtime)-/.test(f);
const isLater = (f) => isRealtime(f) || /\/chunks\/comment\.read-/.test(f);

/** The file and every chunk it imports, statically or dynamically. */
function closure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const src = readFileSync(file, 'utf8');
  // static imports, dynamic ones, and the retrying dynamic imports' new URL("./chunks/...")
  for (const m of src.matchAll(/(?:from|import|URL)\s*\(?\s*["'](\.{1,2}\/[^"']+\.js)["']/g))
    closure(resolve(dirname(file), m[1]), seen);
  return seen;
}

/**
 * What a page with these element files loads (their chunks counted once); `described`: its form
 * has a description question, so the sanitiser loads before the first data.
 */
function measure(entries, described = false) {
  const files = [...[entries].flat().reduce((seen, e) => closure(join(cdn, e), seen), new Set())];
  const rare = (f) =>
    isLocale(f) || isCaptcha(f) || isCustom(f) || (isWriter(f) && !(described && isRich(f)));
  const first = files.filter((f) => !isLater(f) && !rare(f));
  const total = files.filter((f) => !rare(f)).reduce((n, f) => n + gz(f), 0);
  return {
    initial: first.reduce((n, f) => n + gz(f), 0),
    total,
    ko: files.filter(isLocale).reduce((n, f) => n + gz(f), 0),
    captcha: files.filter(isCaptcha).reduce((n, f) => n + gz(f), 0),
    writer: files
      .filter((f) => isWriter(f) && !(described && isRich(f)))
      .reduce((n, f) => n + gz(f), 0),
    live: files.filter(isRealtime).reduce((n, f) => n + gz(f), 0),
    custom: files.filter(isCustom).reduce((n, f) => n + gz(f), 0),
  };
}

/** A script that loads nothing more (the loaders): its size is all there is. */
const standalone = (file) => {
  const size = gz(join(cdn, file));
  return { initial: size, total: size, ko: 0, captcha: 0, writer: 0 };
};

const rows = [
  ['CDN loader (reaction.js)', standalone('reaction.js'), BUDGETS.loader],
  // what a pinned loader asks for before its first import (the hashes of the release's files)
  [
    'its integrity table, pinned loader only (integrity-*.js)',
    standalone(readdirSync(cdn).find((f) => /^integrity-.*\.js$/.test(f))),
    null,
  ],
  ['like (like.js)', measure('like.js'), BUDGETS.like],
  ['button (button.js)', measure('button.js'), BUDGETS.button],
  ['ab (ab.js)', measure('ab.js'), null],
  ['form (form.js)', measure('form.js'), null],
  ['form with a description question (form.js)', measure('form.js', true), null],
  ['comment with realtime (comment.js)', measure('comment.js'), BUDGETS.comment],
  ['qna with realtime (qna.js)', measure('qna.js'), BUDGETS.qna],
  // a page with several types loads each type's file in shared/, which share Lit and the core
  // (src/cdn/loader.ts), or six.js when it has a form and a comment or Q&A
  [
    'like and comment on one page (shared/)',
    measure(['shared/like.js', 'shared/comment.js']),
    null,
  ],
  [
    'like, button and A/B on one page (shared/)',
    measure(['shared/like.js', 'shared/button.js', 'shared/ab.js']),
    null,
  ],
  [
    'all six in shared/ (for comparison: the loader takes six.js)',
    measure(['like', 'button', 'ab', 'form', 'comment', 'qna'].map((e) => `shared/${e}.js`)),
    null,
  ],
  ['a page with all six (six.js)', measure('six.js'), BUDGETS.all],
  ['all six, the form with a description question (six.js)', measure('six.js', true), null],
  ['the viewer, all six (block.js)', measure('block.js'), BUDGETS.viewer],
  ['count (count.js)', measure('count.js'), BUDGETS.count],
  // installed in Cafe24 malls; reaction.js and the elements load after it
  ['Cafe24 loader (cafe24.js)', standalone('cafe24.js'), BUDGETS.cafe24],
];

let failed = false;
// a budget is for the total, or { first, total }: before the first data as well
const lines = rows.map(([name, s, budget]) => {
  const { first, total } = typeof budget === 'number' ? { total: budget } : (budget ?? {});
  const ok = (total == null || s.total <= total) && (first == null || s.initial <= first);
  if (!ok) failed = true;
  const limit = [first && `<= ${kb(first)} before data`, total && `<= ${kb(total)}`]
    .filter(Boolean)
    .join(', ');
  return `| ${name} | ${kb(s.initial)} | ${kb(s.total)} | ${s.writer ? '+' + kb(s.writer) : '-'} | ${s.ko ? '+' + kb(s.ko) : '-'} | ${s.captcha ? '+' + kb(s.captcha) : '-'} | ${limit || '-'} | ${budget ? (ok ? 'ok' : '**over**') : ''} |`;
});
const live = rows.find(([name]) => name.startsWith('comment'))[1];
const section = `## SDK sizes

Measured by \`npm run size -w @reaction-blocks/sdk -- --write\` on ${new Date().toISOString().slice(0, 10)} from \`sdk/dist/cdn/v${version}\` (rollup + terser, gzip -9).
"Before data" is what loads before the first data shows (besides the loader: one self-contained
file for a page with one block type; for several, each type's file in \`shared/\` and the chunks
they share, Lit and the core once, or six.js, all six in one file, for a page with a form and a
comment or Q&A; \`<reaction-block>\`, block.js); "total"
adds what loads after (comment/qna: the realtime chunk with what a change does to the list, and reading the list again on a resync or Load more). Korean texts are a separate chunk, and
so is the captcha, loaded only when a visitor trips a rate limit on a block with the captcha on.
"Writer" is what a visitor loads on their first interaction with a block (pointer down, focus or
a key on it; or when they wrote before: a profile or session is stored, sealed): the write paths
(core/writer.ts), making and refreshing the session (core/auth.ts), the writer's profile, the
sealed store, its seal, the list of blocks written to and the joining of their own part to the
view (core/identity.ts, core/storage.ts, core/vault.ts, core/marks.ts, core/view.ts), and which
of a form's endings the answers reach (components/form/endings.ts) with the sanitiser of the
endings' texts (components/form/rich.ts; a form with a description question loads that one before
its first data: its rows say so). A reader never loads it; the budgets are for what a reader loads (its total; a page with all six
also before its first data: the issue's 22 KB), and a writer's total is the sum.

| bundle | before data (gzip) | total (gzip) | writer | Korean | captcha | budget | |
|---|---|---|---|---|---|---|---|
${lines.join('\n')}

A block in the custom theme loads a ${kb(live.custom)} chunk before it shows: the colours its
owner's four do not set, derived from them (core/custom-theme.ts; light and dark never load it).

Live updates use a ${kb(live.live)} chunk: the Realtime client (sdk/src/core/live.ts) and the list's
watcher (comment.watch.ts) with what a change does to the comment list (comment.changes.ts) and
Lit's repeat, which keeps a message's DOM
with it when the list moves (comment.live.ts byId; before that chunk nothing moves the list, and
the first page is drawn with a plain map), what the comment element loads after its first data
(comment.realtime.ts). When it was chosen, \`@supabase/realtime-js\`
2.119 with \`@supabase/phoenix\` measured about 17 KB gzip (the comment element over its budget).
`;

// the budgets are checked on every run (npm test); docs/benchmarks.md is rewritten only when
// asked (`npm run size -w @reaction-blocks/sdk -- --write`), so a test run leaves the tree clean
if (process.argv.includes('--write')) {
  let doc = existsSync(docs) ? readFileSync(docs, 'utf8') : '# Benchmarks\n';
  const re = /## SDK sizes\n[\s\S]*?(?=\n## |$)/;
  doc = re.test(doc) ? doc.replace(re, section) : doc.trimEnd() + '\n\n' + section;
  writeFileSync(docs, doc);
}
console.log(section);
if (failed) {
  console.error('[size] a budget is exceeded');
  process.exit(1);
}
