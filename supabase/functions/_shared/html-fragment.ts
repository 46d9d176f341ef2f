// The frame both sanitisers share (sanitize-html.ts for descriptions, letter/sanitize-letter.ts
// for letters): an HTML fragment parsed with parse5 as a <div>'s content, as innerHTML does, what
// `clean` keeps copied into a new fragment and serialised (text escaped by the serialiser). Then
// again until the result no longer changes (unwrapping can leave nesting a parser would rebuild
// differently, like a <p> in a <p>), at most a few rounds, so what a browser builds from the
// output is the tree that was checked.
import {
  defaultTreeAdapter,
  html,
  parseFragment,
  serialize,
  type DefaultTreeAdapterTypes,
} from 'parse5';

export type Node = DefaultTreeAdapterTypes.Node;
export type ParentNode = DefaultTreeAdapterTypes.ParentNode;
export type Element = DefaultTreeAdapterTypes.Element;

export const HTML_NS = html.NS.HTML;

export const isElement = (node: Node): node is Element => 'tagName' in node;

/**
 * `input` cleaned by `clean` (which copies what it keeps of `from` into `to`) until stable.
 * `scriptingEnabled` is parse5's: whether <noscript> content is text (on) or markup (off).
 */
export function cleanUntilStable(
  input: string,
  clean: (from: ParentNode, to: ParentNode) => void,
  scriptingEnabled = true,
): string {
  const once = (fragment: string) => {
    const context = defaultTreeAdapter.createElement('div', HTML_NS, []);
    const parsed = parseFragment(context, fragment, { scriptingEnabled });
    const out = defaultTreeAdapter.createDocumentFragment();
    clean(parsed, out);
    return serialize(out);
  };
  let current = once(input);
  for (let round = 0; round < 3; round++) {
    const next = once(current);
    if (next === current) return current;
    current = next;
  }
  return current;
}
