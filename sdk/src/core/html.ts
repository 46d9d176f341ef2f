import { safeUrl } from './text.js';

const ALLOWED = new Set(
  'P BR B STRONG I EM U S A UL OL LI H1 H2 H3 H4 SPAN BLOCKQUOTE CODE PRE DIV HR'.split(' '),
);
const DROP = new Set(
  'SCRIPT STYLE IFRAME OBJECT EMBED TEMPLATE SVG MATH FORM INPUT TEXTAREA SELECT BUTTON LINK META'.split(
    ' ',
  ),
);

/** http(s) links (opened in a new tab) and mailto links, as the server's sanitiser keeps them. */
function linkOf(raw: string | null): { href: string; newTab: boolean } | null {
  const web = safeUrl(raw);
  if (web) return { href: web, newTab: true };
  try {
    const u = new URL((raw ?? '').trim());
    return u.protocol === 'mailto:' ? { href: u.href, newTab: false } : null;
  } catch {
    return null;
  }
}

/**
 * Owner-written HTML (descriptions, ending texts) reduced to a small allow-list: no attributes but
 * safe http(s) and mailto links, no scripts, styles or embeds. Unknown elements keep only their text.
 */
export function sanitize(input: string | null | undefined): string {
  if (!input) return '';
  const t = document.createElement('template');
  t.innerHTML = input;
  const walk = (parent: ParentNode) => {
    for (const n of [...parent.childNodes]) {
      if (n.nodeType === 8) n.remove();
      if (n.nodeType !== 1) continue;
      const el = n as Element;
      if (DROP.has(el.tagName)) {
        el.remove();
        continue;
      }
      walk(el);
      if (!ALLOWED.has(el.tagName)) {
        el.replaceWith(...el.childNodes);
        continue;
      }
      const link = el.tagName === 'A' ? linkOf(el.getAttribute('href')) : null;
      for (const a of [...el.attributes]) el.removeAttribute(a.name);
      if (link) {
        el.setAttribute('href', link.href);
        if (link.newTab) {
          el.setAttribute('target', '_blank');
          el.setAttribute('rel', 'noopener noreferrer nofollow');
        }
      }
    }
  };
  walk(t.content);
  return t.innerHTML;
}
