// The boot script of index.html decides, before the first paint, whether a prerendered page is
// kept and hydrated or hidden and rendered from scratch. Its language rule must be i18n.ts's.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../../lib/i18n';

const indexHtml = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'index.html'),
  'utf8',
);
const source = /<script id="boot">([\s\S]*?)<\/script>/.exec(indexHtml)?.[1] ?? '';

interface Visit {
  route?: string;
  url: string;
  stored?: string | null;
  browser?: string;
  storageWorks?: boolean;
}

/** Runs the boot script for one visit and returns the <html> element it may have marked. */
function boot({ route = '/', url, stored = null, browser = 'en-US', storageWorks = true }: Visit) {
  const html = document.createElement('html');
  html.setAttribute('data-route', route);
  html.setAttribute('data-lang', 'en');
  const location = new URL(url, 'https://app.example');
  const items = new Map<string, string>(stored ? [['reaction.language', stored]] : []);
  const localStorage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (!storageWorks) throw new Error('SecurityError');
      items.set(key, value);
    },
    removeItem: (key: string) => items.delete(key),
  };
  const run = new Function('document', 'location', 'localStorage', 'navigator', source);
  run({ documentElement: html }, location, localStorage, { language: browser });
  return html.getAttribute('data-render');
}

describe('boot script', () => {
  it('is in index.html', () => {
    expect(source).toContain('data-render');
  });

  it('keeps a prerendered page visited at its path in English', () => {
    expect(boot({ url: '/' })).toBeNull();
    expect(boot({ route: '/pricing', url: '/pricing/' })).toBeNull();
    expect(boot({ route: '/reaction', url: '/reaction?locale=en' })).toBeNull();
    expect(boot({ route: '/reaction', url: '/reaction#main' })).toBeNull();
  });

  it('renders on the client for another path, query, hash parameters or no storage', () => {
    expect(boot({ route: '/', url: '/dashboard/reaction' })).toBe('client');
    // The prerendered page shows the default tab; another one must not flash by first.
    expect(boot({ route: '/reaction', url: '/reaction?focus=button' })).toBe('client');
    expect(boot({ route: '/login', url: '/login?error=access_denied' })).toBe('client');
    expect(boot({ route: '/login', url: '/login#error=server_error' })).toBe('client');
    expect(boot({ url: '/', storageWorks: false })).toBe('client');
  });

  it.each([
    ['/?locale=ko', null, 'en-US'],
    ['/?locale=en', 'ko', 'ko-KR'],
    ['/?locale=fr', 'ko', 'en-US'],
    ['/', 'ko', 'en-US'],
    ['/', 'EN', 'ko-KR'],
    ['/', 'de', 'ko-KR'],
    ['/', null, 'ko'],
    ['/', null, 'fr-FR'],
    ['/?locale=', null, 'en-GB'],
  ])('agrees with detectLanguage for %s, saved %s, browser %s', (url, stored, browser) => {
    const language = detectLanguage(new URL(url, 'https://x').search, stored, browser);
    expect(boot({ url, stored, browser })).toBe(language === 'en' ? null : 'client');
  });
});
