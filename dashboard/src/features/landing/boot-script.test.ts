// The boot script of index.html decides, before the first paint, whether a prerendered page is
// kept and hydrated or hidden and rendered from scratch. Its language rule must be i18n.ts's.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_RETURN_KEY } from '../../lib/auth-storage';
import { pendingSignInReturn } from '../../lib/sign-in-return';
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
  /** Other localStorage keys present (a PKCE verifier). */
  keys?: string[];
}

/** Runs the boot script for one visit: what it kept in sessionStorage, and the address after. */
function run({
  route = '/',
  url,
  stored = null,
  browser = 'en-US',
  storageWorks = true,
  keys = [],
}: Visit) {
  const html = document.createElement('html');
  html.setAttribute('data-route', route);
  html.setAttribute('data-lang', 'en');
  const location = new URL(url, 'https://app.example');
  const items = new Map<string, string>(stored ? [['reaction.language', stored]] : []);
  for (const key of keys) items.set(key, 'rb1.sealed');
  const localStorage = {
    get length() {
      return items.size;
    },
    key: (i: number) => [...items.keys()][i] ?? null,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (!storageWorks) throw new Error('SecurityError');
      items.set(key, value);
    },
    removeItem: (key: string) => items.delete(key),
  };
  const session = new Map<string, string>();
  const sessionStorage = {
    setItem: (key: string, value: string) => {
      if (!storageWorks) throw new Error('SecurityError');
      session.set(key, value);
    },
  };
  let address = location.pathname + location.search + location.hash;
  const history = {
    state: null,
    replaceState: (_state: unknown, _title: string, next: string) => {
      address = next;
      const moved = new URL(next, location.href);
      location.search = moved.search;
    },
  };
  const script = new Function(
    'document',
    'location',
    'localStorage',
    'sessionStorage',
    'history',
    'navigator',
    source,
  );
  script({ documentElement: html }, location, localStorage, sessionStorage, history, {
    language: browser,
  });
  return { render: html.getAttribute('data-render'), session, address };
}

/** Runs the boot script for one visit and returns the <html> element it may have marked. */
const boot = (visit: Visit) => run(visit).render;

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

describe('boot script: a provider sign-in return', () => {
  const verifier = 'reaction-blocks.session:https://api.example-code-verifier';

  it('moves the code of a flow started here into sessionStorage, where the app reads it', () => {
    const visit = run({
      route: '/',
      url: '/dashboard/reaction?code=c0de&sb_flow_id=f1&locale=ko#main',
      keys: [verifier],
    });
    const kept = JSON.parse(visit.session.get(SIGN_IN_RETURN_KEY) ?? 'null') as {
      code: string;
      at: number;
    };
    expect(kept.code).toBe('c0de');
    expect(Date.now() - kept.at).toBeLessThan(60_000);
    expect(visit.address).toBe('/dashboard/reaction?locale=ko#main');
    // what the app's client then finds (lib/sign-in-return.ts finishSignIn)
    window.sessionStorage.setItem(SIGN_IN_RETURN_KEY, visit.session.get(SIGN_IN_RETURN_KEY)!);
    try {
      expect(pendingSignInReturn()).toBe('c0de');
    } finally {
      window.sessionStorage.removeItem(SIGN_IN_RETURN_KEY);
    }
  });

  it("leaves a code alone when no flow was started here, on an integration's return, or without storage", () => {
    for (const visit of [
      run({ url: '/dashboard/reaction?code=c0de' }),
      run({ url: '/oauth/notion?code=c0de&state=s', keys: [verifier] }),
      run({ url: '/dashboard/reaction?code=c0de', keys: [verifier], storageWorks: false }),
    ]) {
      expect(visit.session.size).toBe(0);
      expect(visit.address).toContain('code=c0de');
    }
  });
});
