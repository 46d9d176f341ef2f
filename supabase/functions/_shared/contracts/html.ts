// The allow-list of owner-written HTML (a form's question descriptions and ending texts): the
// one definition that the server's sanitiser (supabase/functions/_shared/sanitize-html.ts, over
// parse5) applies on save and the SDK's (sdk/src/core/html.ts, over the browser's own parser)
// applies again before showing it. sdk/src/core/html.test.ts runs both on the same inputs (the
// XSS payloads of supabase/tests/support/xss-payloads.ts and the editor's output) and requires
// the same HTML from each. Plain data, the rule each sanitiser applies to an element (fateOf) and
// one URL check: the SDK bundles it.

/** Elements kept as they are (their attributes go, but a link's href). */
export const ALLOWED_TAGS = ['p', 'br', 'strong', 'b', 'em', 'i', 'a', 'ul', 'ol', 'li'] as const;

/** Link schemes an href may have. */
export const LINK_SCHEMES = ['http:', 'https:', 'mailto:'] as const;

/** The attributes every kept link gets (the owner's own are never kept). */
export const LINK_ATTRIBUTES = { target: '_blank', rel: 'noopener noreferrer nofollow' } as const;

/**
 * Elements whose content is code, styling, raw text, a form control or another vocabulary, never
 * prose: every sanitiser (descriptions and letters) removes them with everything inside
 * (unwrapping <script> would keep its code as visible text).
 */
export const NON_PROSE_TAGS = [
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
] as const;

/** Removed with everything inside: the above, and images and rules (a description has none). */
export const DROPPED_TAGS = [...NON_PROSE_TAGS, 'img', 'image', 'hr'] as const;

/**
 * Other block-level elements: a paragraph of their own where a paragraph may stand (the top level
 * or a list item), so a pasted heading or <div> line does not run into the next one; unwrapped
 * where it may not.
 */
export const BLOCK_TAGS = [
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
] as const;

/** Elements that hold paragraphs rather than text. */
export const CONTAINS_BLOCKS = ['p', 'ul', 'ol', 'li', ...BLOCK_TAGS] as const;

const ALLOWED: ReadonlySet<string> = new Set(ALLOWED_TAGS);
const DROPPED: ReadonlySet<string> = new Set(DROPPED_TAGS);
const BLOCKS: ReadonlySet<string> = new Set(BLOCK_TAGS);
const HOLDS_BLOCKS: ReadonlySet<string> = new Set(CONTAINS_BLOCKS);

/** Whether an element with this tag holds paragraphs rather than text (CONTAINS_BLOCKS). */
export const holdsBlocks = (tag: string): boolean => HOLDS_BLOCKS.has(tag);

/**
 * What a sanitiser does with an element, the same on both sides (each walks its own parser's
 * tree and asks this): `drop` it with its content (not HTML, or DROPPED_TAGS), make it a
 * `paragraph` of its own (BLOCK_TAGS where a paragraph may stand and nothing inside holds
 * blocks), `keep` it (ALLOWED_TAGS; a link only when safeHref accepts its href), or `unwrap` it
 * (its content stays).
 * - `html`: the element is in the HTML namespace;
 * - `paragraphHere`: a paragraph may stand where it goes (the top level or a list item);
 * - `blockInside`: whether an element inside it holds blocks (asked only when it matters).
 */
export function fateOf(
  tag: string,
  html: boolean,
  paragraphHere: boolean,
  blockInside: () => boolean,
): 'drop' | 'paragraph' | 'keep' | 'unwrap' {
  if (!html || DROPPED.has(tag)) return 'drop';
  if (BLOCKS.has(tag) && paragraphHere && !blockInside()) return 'paragraph';
  return ALLOWED.has(tag) ? 'keep' : 'unwrap';
}

/**
 * The href as a browser would follow it, when it is absolute and its scheme is allowed; otherwise
 * null (a relative URL would resolve against whatever page shows it).
 */
export function safeHref(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  return (LINK_SCHEMES as readonly string[]).includes(url.protocol) ? url.href : null;
}
