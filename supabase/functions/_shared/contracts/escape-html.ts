// Text put into HTML: the one escape for every page made by hand (the local servers' pages, the
// Open Graph tags of a block's page). Pure, no DOM: it runs in Node, Deno and workers.

/** `value` as HTML text or a quoted attribute value: & < > " ' escaped. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
