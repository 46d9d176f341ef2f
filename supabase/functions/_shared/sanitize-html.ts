// The last gate for owner-written HTML (a form's description today; letters later): an
// allow-list over a real HTML parser (parse5, the WHATWG parsing algorithm browsers use), never
// regular expressions. What comes out is only:
//   p, br, strong, b, em, i, ul, ol, li   with no attributes;
//   a                                      with an http, https or mailto href (as the URL
//                                          parser reads it), target="_blank" and rel set here.
// Everything else goes: script-like and foreign elements (script, style, svg, math, iframe,
// template, ...) with their content; any other element is unwrapped (its content stays);
// comments, every other attribute, links with any other scheme or a relative URL (the link
// text stays). Text is escaped by the serializer, so nothing in it can become markup.
//
// The output is stable: sanitising it again gives the same string (tested), so a browser that
// parses it builds the tree that was checked here.
import {
  defaultTreeAdapter,
  html,
  parseFragment,
  serialize,
  type DefaultTreeAdapterTypes,
} from 'parse5';

type Node = DefaultTreeAdapterTypes.Node;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;
type Element = DefaultTreeAdapterTypes.Element;

const HTML_NS = html.NS.HTML;

/** Elements kept as they are (their attributes go). */
export const ALLOWED_TAGS: ReadonlySet<string> = new Set([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'a',
  'ul',
  'ol',
  'li',
]);

/** Link schemes an href may have. */
export const ALLOWED_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:']);

/** The attributes every kept link gets (the owner's own are never kept). */
export const LINK_ATTRIBUTES = { target: '_blank', rel: 'noopener noreferrer nofollow' } as const;

/**
 * Elements whose content is code, styling, raw text, a form control or another vocabulary, never
 * prose: both sanitisers (this one and the letters') remove them with everything inside
 * (unwrapping <script> would keep its code as visible text).
 */
export const NON_PROSE_TAGS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'plaintext',
  'textarea',
  'select',
  'option',
  'optgroup',
  'datalist',
  'title',
  'head',
  'meta',
  'link',
  'base',
  'svg',
  'math',
  'canvas',
  'audio',
  'video',
  'picture',
  'source',
  'track',
  'input',
]);

/** Removed with everything inside here: the above, and images and rules (a description has none). */
const DROPPED_TAGS: ReadonlySet<string> = new Set([...NON_PROSE_TAGS, 'img', 'image', 'hr']);

/**
 * Other block-level elements: a paragraph of their own where a paragraph may stand (so a pasted
 * heading or <div> line does not run into the next one), unwrapped where it may not.
 */
const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'div',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'section',
  'article',
  'header',
  'footer',
  'aside',
  'nav',
  'main',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'dl',
  'dt',
  'dd',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'center',
]);

/** Elements that hold paragraphs rather than text. */
const CONTAINS_BLOCKS = new Set(['p', 'ul', 'ol', 'li', ...BLOCK_TAGS]);

const isElement = (node: Node): node is Element => 'tagName' in node;
const isText = (node: Node): node is DefaultTreeAdapterTypes.TextNode => node.nodeName === '#text';

/** The href as a browser would follow it, when its scheme is allowed; otherwise null. */
export function safeHref(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  let url: URL;
  try {
    // absolute URLs only: a relative one would resolve against whatever page shows it
    url = new URL(raw);
  } catch {
    return null;
  }
  return ALLOWED_SCHEMES.has(url.protocol) ? url.href : null;
}

function hasBlockInside(element: Element): boolean {
  return element.childNodes.some(
    (child) => isElement(child) && (CONTAINS_BLOCKS.has(child.tagName) || hasBlockInside(child)),
  );
}

/** Where a paragraph may stand: the top level or a list item. */
const takesParagraphs = (parent: ParentNode) =>
  !isElement(parent as Node) || (parent as Element).tagName === 'li';

function cleanChildren(from: ParentNode, to: ParentNode): void {
  for (const child of from.childNodes) {
    if (isText(child)) {
      defaultTreeAdapter.insertText(to, child.value);
      continue;
    }
    if (!isElement(child)) continue; // comments, doctypes
    const tag = child.tagName;
    if (child.namespaceURI !== HTML_NS || DROPPED_TAGS.has(tag)) continue;
    if (BLOCK_TAGS.has(tag) && takesParagraphs(to) && !hasBlockInside(child)) {
      const paragraph = defaultTreeAdapter.createElement('p', HTML_NS, []);
      cleanChildren(child, paragraph);
      if (paragraph.childNodes.length > 0) defaultTreeAdapter.appendChild(to, paragraph);
      continue;
    }
    if (!ALLOWED_TAGS.has(tag)) {
      cleanChildren(child, to);
      continue;
    }
    let attrs: { name: string; value: string }[] = [];
    if (tag === 'a') {
      const href = safeHref(child.attrs.find((a) => a.name === 'href')?.value);
      if (href === null) {
        cleanChildren(child, to);
        continue;
      }
      attrs = [
        { name: 'href', value: href },
        { name: 'target', value: LINK_ATTRIBUTES.target },
        { name: 'rel', value: LINK_ATTRIBUTES.rel },
      ];
    }
    const copy = defaultTreeAdapter.createElement(tag, HTML_NS, attrs);
    if (tag !== 'br') {
      cleanChildren(child, copy);
      // an empty <p>, <b> or link shows nothing (an empty line is <p><br></p>)
      if (copy.childNodes.length === 0) continue;
    }
    defaultTreeAdapter.appendChild(to, copy);
  }
}

function cleanOnce(input: string): string {
  // parsed as the content of a <div>, as innerHTML does
  const context = defaultTreeAdapter.createElement('div', HTML_NS, []);
  const parsed = parseFragment(context, input, {});
  const out = defaultTreeAdapter.createDocumentFragment();
  cleanChildren(parsed, out);
  return serialize(out);
}

/**
 * Owner-written HTML reduced to the allow-list above. Runs until the result no longer changes
 * (unwrapping can leave nesting a parser would rebuild differently, like a <p> in a <p>), at
 * most a few rounds.
 */
export function sanitizeHtml(input: string): string {
  let current = cleanOnce(input);
  for (let round = 0; round < 3; round += 1) {
    const next = cleanOnce(current);
    if (next === current) return current;
    current = next;
  }
  return current;
}
