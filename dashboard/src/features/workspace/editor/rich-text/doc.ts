// The description editor's document: paragraphs and list items made of text runs with marks
// (bold, italic, link). Every command is a pure function of the document and a range given as
// linear positions: each block counts its characters (a line break inside a block is "\n",
// one character) and one more for the boundary after it. The editor's DOM is always rendered
// from this model, never edited by the browser's formatting commands, so its HTML is one
// canonical shape: the allow-list the server keeps (contracts/html.ts).
//
// Invariants (normalizeDoc): at least one block; runs have text and differ in marks from their
// neighbours.
import { LINK_ATTRIBUTES, safeHref } from '@reaction-blocks/contracts/html';

export interface Marks {
  bold: boolean;
  italic: boolean;
  /** An http, https or mailto URL (safeHref), or null. */
  href: string | null;
}

export interface Run {
  text: string;
  marks: Marks;
}

/** A paragraph, or an item of a bulleted (ul) or numbered (ol) list. */
export type BlockType = 'p' | 'ul' | 'ol';

export interface Block {
  type: BlockType;
  runs: Run[];
}

export type Doc = Block[];

export type MarkName = 'bold' | 'italic';

export const NO_MARKS: Marks = { bold: false, italic: false, href: null };

// What every link gets and which hrefs are kept: the allow-list the server's sanitiser applies
// (so a saved link reads back equal, and a link it would drop is dropped here).
export { LINK_ATTRIBUTES, safeHref };

/** What the owner typed in the link field: a bare "example.com" means https. */
export function hrefFromInput(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  return safeHref(/^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`);
}

export const sameMarks = (a: Marks, b: Marks) =>
  a.bold === b.bold && a.italic === b.italic && a.href === b.href;

export const blockLength = (block: Block) => block.runs.reduce((n, r) => n + r.text.length, 0);

export const blockText = (block: Block) => block.runs.map((r) => r.text).join('');

/** Total length: every block and the boundary after each but the last. */
export const docLength = (doc: Doc) =>
  doc.reduce((n, b) => n + blockLength(b), 0) + Math.max(doc.length - 1, 0);

export const emptyDoc = (): Doc => [{ type: 'p', runs: [] }];

export function isEmptyDoc(doc: Doc) {
  return doc.length === 1 && doc[0]!.type === 'p' && blockLength(doc[0]!) === 0;
}

function normalizeRuns(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    if (!run.text) continue;
    const last = out[out.length - 1];
    if (last && sameMarks(last.marks, run.marks)) last.text += run.text;
    else out.push({ text: run.text, marks: { ...run.marks } });
  }
  return out;
}

export function normalizeDoc(doc: Doc): Doc {
  const blocks = doc.map((b) => ({ type: b.type, runs: normalizeRuns(b.runs) }));
  return blocks.length > 0 ? blocks : emptyDoc();
}

/** Where each block starts (linear position of its first character). */
export function blockStarts(doc: Doc): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const block of doc) {
    starts.push(at);
    at += blockLength(block) + 1;
  }
  return starts;
}

/** The block holding a position and the offset in it (a boundary belongs to the block before). */
export function locate(doc: Doc, pos: number): { index: number; offset: number } {
  const starts = blockStarts(doc);
  for (let i = doc.length - 1; i >= 0; i -= 1) {
    if (pos >= starts[i]!) {
      return { index: i, offset: Math.min(pos - starts[i]!, blockLength(doc[i]!)) };
    }
  }
  return { index: 0, offset: 0 };
}

/** A block's runs cut at `offset` (runs are copied). */
function splitRuns(runs: Run[], offset: number): [Run[], Run[]] {
  const before: Run[] = [];
  const after: Run[] = [];
  let at = 0;
  for (const run of runs) {
    const end = at + run.text.length;
    if (end <= offset) before.push({ ...run });
    else if (at >= offset) after.push({ ...run });
    else {
      before.push({ text: run.text.slice(0, offset - at), marks: run.marks });
      after.push({ text: run.text.slice(offset - at), marks: run.marks });
    }
    at = end;
  }
  return [before, after];
}

/** Applies `change` to the marks of every character in [from, to). */
function mapMarks(doc: Doc, from: number, to: number, change: (m: Marks) => Marks): Doc {
  const starts = blockStarts(doc);
  return normalizeDoc(
    doc.map((block, i) => {
      const start = starts[i]!;
      const a = Math.max(from - start, 0);
      const b = Math.min(to - start, blockLength(block));
      if (b <= a) return block;
      const [head, rest] = splitRuns(block.runs, a);
      const [middle, tail] = splitRuns(rest, b - a);
      return {
        type: block.type,
        runs: [...head, ...middle.map((r) => ({ ...r, marks: change(r.marks) })), ...tail],
      };
    }),
  );
}

/** Every character in [from, to) (line breaks aside); empty when the range is. */
function charsIn(doc: Doc, from: number, to: number): Marks[] {
  const starts = blockStarts(doc);
  const out: Marks[] = [];
  doc.forEach((block, i) => {
    let at = starts[i]!;
    for (const run of block.runs) {
      for (const ch of run.text) {
        if (at >= from && at < to && ch !== '\n') out.push(run.marks);
        at += 1;
      }
    }
  });
  return out;
}

/** The marks typing at a collapsed position continues: the character before it in its block. */
export function marksAt(doc: Doc, pos: number): Marks {
  const { index, offset } = locate(doc, pos);
  let at = 0;
  let found: Marks = NO_MARKS;
  for (const run of doc[index]!.runs) {
    if (at < offset) found = run.marks;
    at += run.text.length;
  }
  if (offset === 0) found = doc[index]!.runs[0]?.marks ?? NO_MARKS;
  return found;
}

/** What the toolbar shows as pressed for a selection. */
export function activeFormats(doc: Doc, from: number, to: number) {
  const chars = from === to ? [marksAt(doc, from)] : charsIn(doc, from, to);
  const all = (test: (m: Marks) => boolean) => chars.length > 0 && chars.every(test);
  const types = blocksIn(doc, from, to).map((i) => doc[i]!.type);
  return {
    bold: all((m) => m.bold),
    italic: all((m) => m.italic),
    link: all((m) => m.href !== null),
    ul: types.length > 0 && types.every((t) => t === 'ul'),
    ol: types.length > 0 && types.every((t) => t === 'ol'),
  };
}

/** Bold or italic on when any character in the range lacks it, off otherwise. */
export function toggleMark(doc: Doc, from: number, to: number, mark: MarkName): Doc {
  if (from >= to) return doc;
  const on = !charsIn(doc, from, to).every((m) => m[mark]);
  return mapMarks(doc, from, to, (m) => ({ ...m, [mark]: on }));
}

/** Links the range to `href` (null removes links from it). */
export function setLink(doc: Doc, from: number, to: number, href: string | null): Doc {
  if (from >= to) return doc;
  return mapMarks(doc, from, to, (m) => ({ ...m, href }));
}

/** The whole link around a position (for editing or removing it from a collapsed caret). */
export function linkRangeAt(doc: Doc, pos: number): { from: number; to: number } | null {
  const { index, offset } = locate(doc, pos);
  const start = blockStarts(doc)[index]!;
  const spans: { from: number; to: number; href: string | null }[] = [];
  let at = 0;
  for (const run of doc[index]!.runs) {
    spans.push({ from: at, to: at + run.text.length, href: run.marks.href });
    at += run.text.length;
  }
  // inside a link or just after it, else just before it
  const hit =
    spans.find((s) => s.href && s.from < offset && offset <= s.to) ??
    spans.find((s) => s.href && s.from === offset);
  return hit ? { from: start + hit.from, to: start + hit.to } : null;
}

/** Indexes of the blocks a range touches (a collapsed range: its block). */
export function blocksIn(doc: Doc, from: number, to: number): number[] {
  const starts = blockStarts(doc);
  const out: number[] = [];
  doc.forEach((block, i) => {
    const start = starts[i]!;
    const end = start + blockLength(block);
    if (start <= to && end >= from) out.push(i);
  });
  return out.length > 0 ? out : [locate(doc, from).index];
}

/** The touched blocks become items of `list`, or paragraphs when they all already are. */
export function toggleList(doc: Doc, from: number, to: number, list: 'ul' | 'ol'): Doc {
  const touched = new Set(blocksIn(doc, from, to));
  const off = [...touched].every((i) => doc[i]!.type === list);
  return doc.map((block, i) =>
    touched.has(i) ? { type: off ? 'p' : list, runs: block.runs } : block,
  );
}

/** Removes [from, to); the blocks it spans merge into the first one. */
export function deleteRange(doc: Doc, from: number, to: number): Doc {
  if (from >= to) return doc;
  const a = locate(doc, from);
  const b = locate(doc, to);
  const [head] = splitRuns(doc[a.index]!.runs, a.offset);
  const [, tail] = splitRuns(doc[b.index]!.runs, b.offset);
  const merged: Block = { type: doc[a.index]!.type, runs: [...head, ...tail] };
  return normalizeDoc([...doc.slice(0, a.index), merged, ...doc.slice(b.index + 1)]);
}

/**
 * Inserts text at a position with the given marks. With `paragraphs` (paste) every line of the
 * text is a block of its own; without (typing, Shift+Enter) a "\n" stays a line break inside
 * the block. Returns the document and the position after the text.
 */
export function insertText(
  doc: Doc,
  pos: number,
  text: string,
  marks: Marks,
  paragraphs = false,
): { doc: Doc; pos: number } {
  const { index, offset } = locate(doc, pos);
  const block = doc[index]!;
  const [head, tail] = splitRuns(block.runs, offset);
  const lines = paragraphs ? text.replace(/\r\n?/g, '\n').split('\n') : [text];
  const blocks: Block[] = lines.map((line, i) => ({
    type: block.type,
    runs: [
      ...(i === 0 ? head : []),
      { text: line, marks },
      ...(i === lines.length - 1 ? tail : []),
    ],
  }));
  const next = normalizeDoc([...doc.slice(0, index), ...blocks, ...doc.slice(index + 1)]);
  return { doc: next, pos: pos + text.replace(/\r\n?/g, '\n').length };
}
