// The last gate of the letter pipeline: the rendered letter (our own 600 px table with its CSS
// inlined) reduced to an allow-list, over parse5 as _shared/sanitize-html.ts does for
// descriptions. Whatever a page contained, and whatever a bug upstream let through, what comes
// out is only:
//   - the elements a mail layout needs (tables, headings, paragraphs, lists, quotes, code, images,
//     links, rules, a few inline marks), with the attributes listed per element;
//   - `style` with allowed properties only, and no value that can load or run anything (url(),
//     expression(), javascript:, @import, escapes, comments);
//   - links with an absolute http, https or mailto href (as the URL parser reads it);
//   - images whose src is https, or on an origin the caller allows (the project's storage,
//     which is http on a local stack).
// Script-like and foreign elements go with their content; other elements are unwrapped; comments
// and every other attribute (on*, srcset, formaction, ...) go.
import { defaultTreeAdapter, type DefaultTreeAdapterTypes } from 'parse5';
import { NON_PROSE_TAGS, safeHref } from '@reaction-blocks/contracts/html';
import { cleanUntilStable, HTML_NS, isElement, type ParentNode } from '../html-fragment.ts';

const COMMON = ['style'];
/** Elements kept, with the attributes each may keep. */
const ALLOWED: Record<string, readonly string[]> = {
  table: [...COMMON, 'width', 'cellpadding', 'cellspacing', 'border', 'role', 'align', 'bgcolor'],
  tbody: COMMON,
  thead: COMMON,
  tr: COMMON,
  td: [...COMMON, 'width', 'align', 'valign', 'colspan', 'bgcolor'],
  th: [...COMMON, 'width', 'align', 'valign', 'colspan', 'bgcolor'],
  div: COMMON,
  center: COMMON,
  p: COMMON,
  h1: COMMON,
  h2: COMMON,
  h3: COMMON,
  blockquote: COMMON,
  ul: COMMON,
  ol: [...COMMON, 'start'],
  li: COMMON,
  pre: COMMON,
  code: COMMON,
  span: COMMON,
  strong: COMMON,
  b: COMMON,
  em: COMMON,
  i: COMMON,
  u: COMMON,
  s: COMMON,
  br: [],
  hr: COMMON,
  a: [...COMMON, 'href'],
  img: [...COMMON, 'src', 'alt', 'width', 'height', 'border'],
};

/** Removed with their content: what is never prose, and form controls (a letter is read, not filled in). */
const DROPPED: ReadonlySet<string> = new Set([...NON_PROSE_TAGS, 'button', 'form']);

/** CSS properties a mail layout uses. */
const CSS_PROPERTIES = new Set([
  'color',
  'background-color',
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'line-height',
  'letter-spacing',
  'text-align',
  'text-decoration',
  'text-transform',
  'vertical-align',
  'white-space',
  'word-break',
  'overflow-wrap',
  'word-wrap',
  'margin',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'padding',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'border',
  'border-top',
  'border-right',
  'border-bottom',
  'border-left',
  'border-radius',
  'border-collapse',
  'border-spacing',
  'width',
  'max-width',
  'min-width',
  'height',
  'max-height',
  'display',
  'list-style-type',
  'list-style-position',
  'table-layout',
]);

/** Anything in a value that could fetch or run something, or hide from this check. */
const FORBIDDEN_IN_VALUE = [
  'url(',
  'expression',
  'javascript:',
  '@import',
  '\\',
  '/*',
  '<',
  '>',
  'behavior',
  'image-set',
  'var(',
];

/**
 * A style attribute reduced to allowed declarations. Declarations are split on `;` outside
 * quotes and parentheses (a tokenizer, not a pattern); anything doubtful is dropped.
 */
export function cleanStyle(style: string): string {
  const declarations: string[] = [];
  let current = '';
  let quote: string | null = null;
  let depth = 0;
  for (const ch of style) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === ';' && depth === 0) {
      declarations.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  declarations.push(current);
  const kept: string[] = [];
  for (const declaration of declarations) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    const lower = value.toLowerCase();
    if (!CSS_PROPERTIES.has(property) || value === '' || value.length > 300) continue;
    if (FORBIDDEN_IN_VALUE.some((f) => lower.includes(f))) continue;
    if (
      property === 'display' &&
      !['block', 'inline-block', 'inline', 'none', 'table'].includes(lower)
    )
      continue;
    kept.push(`${property}: ${value}`);
  }
  return kept.join('; ');
}

export interface LetterSanitizeOptions {
  /** Origins (e.g. the project's storage) whose images may be http; https is always allowed. */
  imageOrigins?: readonly string[];
}

function safeSrc(raw: string | undefined, origins: readonly string[]): string | null {
  if (raw === undefined) return null;
  try {
    const url = new URL(raw);
    if (url.protocol === 'https:') return url.href;
    return origins.some((o) => url.origin === new URL(o).origin) ? url.href : null;
  } catch {
    return null;
  }
}

function clean(from: ParentNode, to: ParentNode, opts: LetterSanitizeOptions): void {
  for (const child of from.childNodes) {
    if (child.nodeName === '#text') {
      defaultTreeAdapter.insertText(to, (child as DefaultTreeAdapterTypes.TextNode).value);
      continue;
    }
    if (!isElement(child)) continue;
    const tag = child.tagName;
    if (child.namespaceURI !== HTML_NS || DROPPED.has(tag)) continue;
    const allowed = ALLOWED[tag];
    if (!allowed) {
      clean(child, to, opts);
      continue;
    }
    const attrs: { name: string; value: string }[] = [];
    for (const a of child.attrs) {
      if (!allowed.includes(a.name)) continue;
      if (a.name === 'style') {
        const style = cleanStyle(a.value);
        if (style) attrs.push({ name: 'style', value: style });
      } else if (a.name === 'href') {
        const href = safeHref(a.value);
        if (href) attrs.push({ name: 'href', value: href });
      } else if (a.name === 'src') {
        const src = safeSrc(a.value, opts.imageOrigins ?? []);
        if (src) attrs.push({ name: 'src', value: src });
      } else if (/^[\w %#.,-]{0,40}$/.test(a.value)) {
        // width, align, role ...: short plain values only
        attrs.push({ name: a.name, value: a.value });
      }
    }
    if (tag === 'img' && !attrs.some((a) => a.name === 'src')) continue;
    if (tag === 'a') {
      if (!attrs.some((a) => a.name === 'href')) {
        clean(child, to, opts);
        continue;
      }
      attrs.push(
        { name: 'target', value: '_blank' },
        { name: 'rel', value: 'noopener noreferrer' },
      );
    }
    const copy = defaultTreeAdapter.createElement(tag, HTML_NS, attrs);
    if (tag !== 'br' && tag !== 'img' && tag !== 'hr') clean(child, copy, opts);
    defaultTreeAdapter.appendChild(to, copy);
  }
}

/** A letter's HTML fragment reduced to the allow-list; stable (sanitising again changes nothing). */
export function sanitizeLetterHtml(input: string, opts: LetterSanitizeOptions = {}): string {
  return cleanUntilStable(input, (from, to) => clean(from, to, opts));
}
