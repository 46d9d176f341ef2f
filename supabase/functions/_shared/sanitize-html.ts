// The last gate for owner-written HTML (a form's question descriptions and ending texts, on
// save): the allow-list of contracts/html.ts and its rule for each element (fateOf) over a real
// HTML parser (parse5, the WHATWG parsing algorithm browsers use), never regular expressions. The
// SDK applies the same rule with the browser's parser (sdk/src/core/html.ts; html.test.ts there
// requires the same output). What comes out is only:
//   p, br, strong, b, em, i, ul, ol, li   with no attributes;
//   a                                      with an http, https or mailto href (as the URL
//                                          parser reads it), target="_blank" and rel set here.
// Everything else goes: script-like and foreign elements (script, style, svg, math, iframe,
// template, ...) with their content; any other element is unwrapped (its content stays);
// comments, every other attribute, links with any other scheme or a relative URL (the link
// text stays). Text is escaped by the serializer, so nothing in it can become markup.
//
// The output is stable: sanitising it again gives the same string (tested), so a browser that
// parses it builds the tree that was checked here (html-fragment.ts).
import { defaultTreeAdapter, type DefaultTreeAdapterTypes } from 'parse5';
import { fateOf, holdsBlocks, LINK_ATTRIBUTES, safeHref } from '@reaction-blocks/contracts/html';

import {
  cleanUntilStable,
  HTML_NS,
  isElement,
  type Element,
  type Node,
  type ParentNode,
} from './html-fragment.ts';

export { safeHref };

const isText = (node: Node): node is DefaultTreeAdapterTypes.TextNode => node.nodeName === '#text';

function hasBlockInside(element: Element): boolean {
  return element.childNodes.some(
    (child) => isElement(child) && (holdsBlocks(child.tagName) || hasBlockInside(child)),
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
    const fate = fateOf(tag, child.namespaceURI === HTML_NS, takesParagraphs(to), () =>
      hasBlockInside(child),
    );
    if (fate === 'drop') continue;
    if (fate === 'paragraph') {
      const paragraph = defaultTreeAdapter.createElement('p', HTML_NS, []);
      cleanChildren(child, paragraph);
      if (paragraph.childNodes.length > 0) defaultTreeAdapter.appendChild(to, paragraph);
      continue;
    }
    if (fate === 'unwrap') {
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

/**
 * Owner-written HTML reduced to the allow-list above, until stable. Parsed with scripting off, as
 * a browser parses HTML that is not in a live page (the SDK parses in an inert document, and a
 * DOMParser does too): <noscript> content is then markup, which the allow-list removes with the
 * element.
 */
export function sanitizeHtml(input: string): string {
  return cleanUntilStable(input, cleanChildren, false);
}
