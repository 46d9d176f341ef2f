import en, { type Texts } from './locales/en.js';
import { log } from './log.js';

/**
 * A tiny i18next-compatible translator: the same resource shape, `{{var}}` interpolation and
 * `_one`/`_other` plurals. i18next itself is 13.9 KB gzip, more than the whole like-block budget,
 * so the SDK ships this instead (see docs/embedding.md). English is the fallback; Korean is a
 * separate chunk loaded only when needed.
 */
export type TextKey = keyof Texts;
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

const dicts: Record<string, Partial<Texts>> = { en };
const loaders: Record<string, () => Promise<{ default: Partial<Texts> }>> = {
  ko: () => import('./locales/ko.js'),
};
const loading: Record<string, Promise<void>> = {};

export const normalizeLang = (lang?: string | null): string =>
  (lang || 'en').toLowerCase().startsWith('ko') ? 'ko' : 'en';

export const isLoaded = (lang: string): boolean => !!dicts[lang];

export function loadLang(lang: string): Promise<void> {
  const load = loaders[lang];
  if (dicts[lang] || !load) return Promise.resolve();
  return (loading[lang] ??= load().then(
    (m) => void (dicts[lang] = m.default),
    (e) => log('could not load language', lang, e),
  ));
}

export function translator(lang: string): Translate {
  const d = (dicts[lang] || en) as Record<string, string | undefined>;
  const base = en as Record<string, string | undefined>;
  let rules: Intl.PluralRules | undefined;
  return (key, vars) => {
    let s: string | undefined;
    if (vars && typeof vars.count === 'number') {
      rules ??= new Intl.PluralRules(lang);
      const f = rules.select(vars.count) === 'one' ? '_one' : '_other';
      s = d[key + f] ?? d[key + '_other'] ?? base[key + f] ?? base[key + '_other'];
    }
    s ??= d[key] ?? base[key] ?? key;
    return vars ? s.replace(/\{\{(\w+)\}\}/g, (_, n) => String(vars[n] ?? '')) : s;
  };
}
