// Where a flow may send the browser back to, as GoTrue decides it, and the two ways of adding
// the outcome to that address (query for PKCE, fragment for the implicit flow).
import type { AuthSettings } from './context.ts';

function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        out += '.*';
        i++;
      } else out += '[^./]*';
    } else if (ch === '?') out += '[^./]';
    else out += ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** GoTrue's rule: same hostname as the site URL, or a match in the allow list; else the site URL. */
export function validRedirect(settings: AuthSettings, raw: string | null | undefined): string {
  const { siteUrl, allowList } = settings;
  if (!raw) return siteUrl;
  const url = URL.parse(raw);
  if (!url) return siteUrl;
  const webScheme = url.protocol === 'http:' || url.protocol === 'https:';
  try {
    if (webScheme && url.hostname === new URL(siteUrl).hostname) return raw;
  } catch {
    // an unparsable site URL matches nothing
  }
  for (const entry of allowList) {
    if (entry.includes('*') || entry.includes('?')) {
      // a pattern without a path ("http://localhost:*") allows any path on the origins it matches
      const originOnly = !entry.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').includes('/');
      if (globToRegExp(entry).test(originOnly && webScheme ? url.origin : raw)) return raw;
      continue;
    }
    if (raw === entry) return raw;
    try {
      if (webScheme && new URL(entry).origin === url.origin) return raw;
    } catch {
      // ignore a malformed allow-list entry
    }
  }
  return siteUrl;
}

export function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

export function withFragment(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  url.hash = new URLSearchParams(params).toString();
  return url.toString();
}
