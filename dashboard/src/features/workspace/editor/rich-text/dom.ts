// Between the document model (doc.ts) and the DOM: rendering, reading any DOM back (what the
// browser left after native typing, or stored HTML parsed in an inert document), and mapping
// DOM selection points to linear positions and back.
//
// Rendering: <p> or <li> (grouped in <ul>/<ol>) per block; inside, text with <a>, <strong>,
// <em> nested in that order and "\n" as <br>. An empty block, or one ending in a line break,
// gets one more <br> so the browser gives the line a height; reading drops one trailing <br>
// per block, so the two are inverse. Stored HTML is never inserted into the page: it is parsed
// with DOMParser (scripts do not run, images do not load) and only its text, marks and safe
// hrefs are rendered again with createElement and createTextNode.
import {
  blockLength,
  isEmptyDoc,
  LINK_ATTRIBUTES,
  normalizeDoc,
  NO_MARKS,
  safeHref,
  type Block,
  type BlockType,
  type Doc,
  type Marks,
} from './doc';
import { BLOCK_TAGS, DROPPED_TAGS } from '@reaction-blocks/contracts/html';

/**
 * Skipped with everything inside: what the server's sanitiser drops (contracts/html.ts), and
 * buttons (a control's label is not the owner's prose).
 */
const SKIPPED = new Set<string>([...DROPPED_TAGS, 'button']);

/** Elements that start a block of their own: the server's paragraphs and block elements. */
const BLOCKS = new Set<string>(['p', 'li', ...BLOCK_TAGS]);

/** A point of a DOM selection: a text node and an offset, or an element and a child index. */
export interface DomPoint {
  node: Node;
  offset: number;
}

function appendInline(parent: Node, text: string, marks: Marks, doc: Document) {
  let target: Node = parent;
  if (marks.href) {
    const a = doc.createElement('a');
    a.setAttribute('href', marks.href);
    a.setAttribute('target', LINK_ATTRIBUTES.target);
    a.setAttribute('rel', LINK_ATTRIBUTES.rel);
    target.appendChild(a);
    target = a;
  }
  if (marks.bold) target = target.appendChild(doc.createElement('strong'));
  if (marks.italic) target = target.appendChild(doc.createElement('em'));
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (i > 0) target.appendChild(doc.createElement('br'));
    if (line) target.appendChild(doc.createTextNode(line));
  });
}

/**
 * HTML collapses spaces at the start and end of a line and runs of spaces; a browser then puts a
 * typed character next to the wrong node (after a trailing space: inside the bold text before
 * it). Such spaces are written as no-break spaces, as browsers do when typing, and read back as
 * spaces.
 */
export function visibleSpaces(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    const before = text[i - 1];
    const after = text[i + 1];
    const collapsed =
      ch === ' ' &&
      (before === undefined ||
        before === ' ' ||
        before === '\n' ||
        after === undefined ||
        after === '\n');
    out += collapsed ? '\u00a0' : ch;
  }
  return out;
}

function renderBlock(block: Block, tag: string, doc: Document): HTMLElement {
  const el = doc.createElement(tag);
  const shown = visibleSpaces(block.runs.map((r) => r.text).join(''));
  let at = 0;
  for (const run of block.runs) {
    appendInline(el, shown.slice(at, at + run.text.length), run.marks, doc);
    at += run.text.length;
  }
  const text = block.runs.map((r) => r.text).join('');
  if (text === '' || text.endsWith('\n')) el.appendChild(doc.createElement('br'));
  return el;
}

/** The document as DOM nodes, appended to `target` (which is emptied first). */
export function renderInto(target: HTMLElement, model: Doc) {
  const doc = target.ownerDocument;
  target.replaceChildren();
  let list: HTMLElement | null = null;
  for (const block of model) {
    if (block.type === 'p') {
      list = null;
      target.appendChild(renderBlock(block, 'p', doc));
      continue;
    }
    if (!list || list.tagName.toLowerCase() !== block.type) {
      list = doc.createElement(block.type);
      target.appendChild(list);
    }
    list.appendChild(renderBlock(block, 'li', doc));
  }
}

/** The HTML the editor gives the form (what save-block stores): '' for an empty document. */
export function docToHtml(model: Doc): string {
  if (isEmptyDoc(model)) return '';
  const holder = document.createElement('div');
  renderInto(holder, model);
  return holder.innerHTML;
}

interface Reading {
  blocks: Block[];
  current: Block | null;
  /** Linear position where `current` starts. */
  base: number;
  points: Map<DomPoint, number>;
  wanted: DomPoint[];
}

const currentLength = (r: Reading) => (r.current ? blockLength(r.current) : 0);

function openBlock(r: Reading, type: BlockType) {
  if (r.current) return;
  r.current = { type, runs: [] };
  r.blocks.push(r.current);
}

function closeBlock(r: Reading) {
  if (!r.current) return;
  // one trailing <br> per block only gives an empty last line its height
  const last = r.current.runs[r.current.runs.length - 1];
  if (last?.text.endsWith('\n')) last.text = last.text.slice(0, -1);
  const end = r.base + blockLength(r.current);
  // a point after that <br> is at the end of the block
  for (const [point, position] of r.points) if (position > end) r.points.set(point, end);
  r.base = end + 1;
  r.current = null;
}

function notePoints(r: Reading, node: Node, offset: number, position: number) {
  for (const point of r.wanted) {
    if (point.node === node && point.offset === offset && !r.points.has(point)) {
      r.points.set(point, position);
    }
  }
}

function marksOf(el: Element, marks: Marks): Marks {
  const tag = el.tagName.toLowerCase();
  let next = marks;
  if (tag === 'strong' || tag === 'b') next = { ...next, bold: true };
  if (tag === 'em' || tag === 'i') next = { ...next, italic: true };
  if (tag === 'a') next = { ...next, href: safeHref(el.getAttribute('href')) ?? next.href };
  // what Chromium writes when paragraphs with bold text are merged
  const style = (el as HTMLElement).style;
  if (style) {
    const weight = style.fontWeight;
    if (weight === 'bold' || Number(weight) >= 600) next = { ...next, bold: true };
    if (style.fontStyle === 'italic') next = { ...next, italic: true };
  }
  return next;
}

function read(r: Reading, node: Node, marks: Marks, list: BlockType | null) {
  const position = () => r.base + currentLength(r);
  if (node.nodeType === Node.TEXT_NODE) {
    const text = node.nodeValue ?? '';
    if (r.wanted.some((p) => p.node === node)) {
      for (const point of r.wanted) {
        if (point.node === node)
          r.points.set(point, position() + Math.min(point.offset, text.length));
      }
    }
    if (!text) return;
    openBlock(r, list ?? 'p');
    r.current!.runs.push({ text: text.replace(/\u00a0/g, ' '), marks });
    return;
  }
  if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
  const el = node as Element;
  const tag = node.nodeType === Node.ELEMENT_NODE ? el.tagName.toLowerCase() : '#fragment';
  if (SKIPPED.has(tag)) return;
  if (tag === 'br') {
    openBlock(r, list ?? 'p');
    r.current!.runs.push({ text: '\n', marks });
    return;
  }
  const innerList = tag === 'ul' || tag === 'ol' ? tag : list;
  const isBlock = BLOCKS.has(tag);
  if (isBlock) {
    // a block inside an empty block (a <p> in an <li>) continues it; otherwise a new one
    const empty = r.current !== null && blockLength(r.current) === 0;
    const type: BlockType = tag === 'li' ? (list ?? 'ul') : empty ? r.current!.type : (list ?? 'p');
    if (r.current && !empty) closeBlock(r);
    if (r.current) r.current.type = type;
    else openBlock(r, type);
  }
  const childMarks = node.nodeType === Node.ELEMENT_NODE ? marksOf(el, marks) : marks;
  const children = Array.from(node.childNodes);
  children.forEach((child, i) => {
    notePoints(r, node, i, position());
    read(r, child, childMarks, tag === 'li' ? (list ?? 'ul') : innerList);
  });
  notePoints(r, node, children.length, position());
  if (isBlock) closeBlock(r);
}

/**
 * Reads a DOM subtree (the editor's content, or a parsed document's body) into the model, and
 * the linear positions of the given selection points.
 */
export function readDom(root: Node, wanted: DomPoint[] = []): { doc: Doc; positions: number[] } {
  const r: Reading = { blocks: [], current: null, base: 0, points: new Map(), wanted };
  notePoints(r, root, 0, 0);
  const children = Array.from(root.childNodes);
  children.forEach((child, i) => {
    notePoints(r, root, i, r.base + currentLength(r));
    read(r, child, NO_MARKS, null);
  });
  notePoints(r, root, children.length, r.base + currentLength(r));
  closeBlock(r);
  const doc = normalizeDoc(r.blocks);
  const end = Math.max(r.base - 1, 0);
  return { doc, positions: wanted.map((p) => Math.min(r.points.get(p) ?? end, end)) };
}

/** Stored HTML to the model, through an inert document (nothing in it runs or loads). */
export function htmlToDoc(html: string): Doc {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  return readDom(parsed.body).doc;
}

/** The DOM point of a linear position in content rendered by renderInto. */
export function pointAt(root: HTMLElement, pos: number): DomPoint {
  const blocks = Array.from(
    root.querySelectorAll<HTMLElement>(':scope > p, :scope > ul > li, :scope > ol > li'),
  );
  let remaining = pos;
  for (const block of blocks) {
    const length = inlineLength(block);
    if (remaining <= length) return pointInBlock(block, remaining);
    remaining -= length + 1;
  }
  const last = blocks[blocks.length - 1];
  return last ? pointInBlock(last, inlineLength(last)) : { node: root, offset: 0 };
}

/** Characters in a rendered block (its trailing placeholder <br> not counted). */
function inlineLength(block: HTMLElement): number {
  let n = 0;
  const walker = block.ownerDocument.createTreeWalker(block, NodeFilter.SHOW_ALL);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) n += node.nodeValue?.length ?? 0;
    else if (node.nodeName === 'BR') n += 1;
  }
  // the placeholder
  return block.lastChild?.nodeName === 'BR' ? n - 1 : n;
}

function pointInBlock(block: HTMLElement, offset: number): DomPoint {
  let remaining = offset;
  const walker = block.ownerDocument.createTreeWalker(block, NodeFilter.SHOW_ALL);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) {
      const length = node.nodeValue?.length ?? 0;
      if (remaining <= length) return { node, offset: remaining };
      remaining -= length;
    } else if (node.nodeName === 'BR') {
      const parent = node.parentNode!;
      const index = Array.prototype.indexOf.call(parent.childNodes, node) as number;
      if (remaining === 0) return { node: parent, offset: index };
      remaining -= 1;
      if (remaining === 0) return { node: parent, offset: index + 1 };
    }
  }
  return {
    node: block,
    offset:
      block.lastChild?.nodeName === 'BR' ? block.childNodes.length - 1 : block.childNodes.length,
  };
}
