import { fateOf, holdsBlocks, LINK_ATTRIBUTES, safeHref } from '@reaction-blocks/contracts/html';

const HTML_NS = 'http://www.w3.org/1999/xhtml';

const isElement = (n: Node): n is Element => n.nodeType === 1;

const hasBlockInside = (el: Element): boolean =>
  [...el.children].some((c) => holdsBlocks(c.localName) || hasBlockInside(c));

/** Where a paragraph may stand: the top level or a list item. */
const takesParagraphs = (parent: ParentNode) =>
  !isElement(parent as Node) || (parent as Element).localName === 'li';

function clean(doc: Document, from: ParentNode, to: ParentNode): void {
  for (const child of from.childNodes) {
    if (child.nodeType === 3) {
      to.append((child as Text).data);
      continue;
    }
    if (!isElement(child)) continue; // comments
    const tag = child.localName;
    const fate = fateOf(tag, child.namespaceURI === HTML_NS, takesParagraphs(to), () =>
      hasBlockInside(child),
    );
    if (fate === 'drop') continue;
    if (fate === 'paragraph') {
      const p = doc.createElement('p');
      clean(doc, child, p);
      if (p.hasChildNodes()) to.append(p);
      continue;
    }
    if (fate === 'unwrap') {
      clean(doc, child, to);
      continue;
    }
    const copy = doc.createElement(tag);
    if (tag === 'a') {
      const href = safeHref(child.getAttribute('href'));
      if (href === null) {
        clean(doc, child, to);
        continue;
      }
      copy.setAttribute('href', href);
      copy.setAttribute('target', LINK_ATTRIBUTES.target);
      copy.setAttribute('rel', LINK_ATTRIBUTES.rel);
    }
    if (tag !== 'br') {
      clean(doc, child, copy);
      // an empty <p>, <b> or link shows nothing (an empty line is <p><br></p>)
      if (!copy.hasChildNodes()) continue;
    }
    to.append(copy);
  }
}

let inert: Document | undefined;

function cleanOnce(input: string): string {
  // Parsed as the content of a <div>, as the server parses it, in a document with no browsing
  // context: nothing in it loads or runs (an <img onerror> included).
  inert ??= document.implementation.createHTMLDocument('');
  const parsed = inert.createElement('div');
  parsed.innerHTML = input;
  const out = inert.createDocumentFragment();
  clean(inert, parsed, out);
  const serializer = inert.createElement('div');
  serializer.append(out);
  return serializer.innerHTML;
}

/**
 * Owner-written HTML (question descriptions, ending texts) reduced to the allow-list of the
 * contracts (contracts/html.ts), as the server reduced it on save: the same elements and links,
 * the same HTML out (html.test.ts runs both). Runs until the result no longer changes, as the
 * server's does.
 */
export function sanitize(input: string | null | undefined): string {
  if (!input) return '';
  let current = cleanOnce(input);
  for (let round = 0; round < 3; round += 1) {
    const next = cleanOnce(current);
    if (next === current) return current;
    current = next;
  }
  return current;
}
