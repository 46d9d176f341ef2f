import { html, type TemplateResult } from 'lit/html.js';

const URL_RE = /\bhttps?:\/\/[^\s<>"']+/gi;

/** A safe http(s) URL or '' (javascript:, data: and anything unparsable are dropped). */
export function safeUrl(raw?: string | null, addScheme = false): string {
  if (!raw) return '';
  let s = raw.trim();
  if (addScheme && s && !/^[a-z][\w+.-]*:/i.test(s)) s = 'https://' + s.replace(/^\/+/, '');
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : '';
  } catch {
    return '';
  }
}

/** A link out of the page to what a visitor wrote (a link in a message, a writer's website). */
export const link = (href: string, text: string): TemplateResult =>
  html`<a href=${href} target="_blank" rel="noopener noreferrer nofollow ugc">${text}</a>`;

/** Message text as text; http(s) links become anchors. Nothing is parsed as HTML. */
export function linkify(text: string): Array<string | TemplateResult> {
  const out: Array<string | TemplateResult> = [];
  let last = 0;
  for (const m of text.matchAll(URL_RE)) {
    let raw = m[0];
    const trail = /[.,;:!?)\]]+$/.exec(raw);
    if (trail) raw = raw.slice(0, -trail[0].length);
    const href = safeUrl(raw);
    if (!href) continue;
    out.push(text.slice(last, m.index), link(href, raw));
    last = (m.index ?? 0) + raw.length;
  }
  out.push(text.slice(last));
  return out;
}

/** Replaces the spec's $responseCount$ token. */
export const fill = (s: string | null | undefined, count = 0): string =>
  (s || '').replace(/\$responseCount\$/g, String(count));

/** YY.MM.DD as the spec shows dates. */
export function shortDate(iso: string): string {
  const d = new Date(iso);
  if (isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getFullYear() % 100)}.${p(d.getMonth() + 1)}.${p(d.getDate())}`;
}
