import type { ApiError } from './errors.js';
import { core, type Texts } from './locales/en.js';
import { log } from './log.js';

/**
 * A tiny i18next-compatible translator: the same resource shape, `{{var}}` interpolation and
 * `_one`/`_other` plurals. i18next itself is 13.9 KB gzip, more than the whole like-block budget,
 * so the SDK ships this instead (see docs/embedding.md). English is the fallback; Korean is a
 * separate chunk loaded only when needed. English comes in groups (locales/en.ts): `core` always,
 * plus the groups the element names.
 */
export type TextKey = keyof Texts;
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

const dicts: Record<string, Partial<Texts>> = {};
/**
 * A language's words for a 429 (what is refused and for how long: "글을 너무 빨리 쓰고 있습니다.
 * 8초 후 ..."), from its lazily loaded texts; none for English, which shows the server's.
 */
type Refusal = (e: ApiError) => string;
export const refusals: Record<string, Refusal> = {};
const loaders: Record<string, () => Promise<{ default: Partial<Texts>; refusal?: Refusal }>> = {
  ko: () => import('./locales/ko.js'),
};
const loading: Record<string, Promise<void>> = {};

export const normalizeLang = (lang?: string | null): string =>
  (lang || 'en').toLowerCase().startsWith('ko') ? 'ko' : 'en';

export const isLoaded = (lang: string): boolean => lang === 'en' || !!dicts[lang];

export function loadLang(lang: string): Promise<void> {
  const load = loaders[lang];
  if (isLoaded(lang) || !load) return Promise.resolve();
  return (loading[lang] ??= load().then(
    (m) => void ((dicts[lang] = m.default), (refusals[lang] = m.refusal!)),
    (e) => log('could not load language', lang, e),
  ));
}

/** `english`: the element's own English groups besides `core` (its `static texts`). */
export function translator(lang: string, english?: Partial<Texts>): Translate {
  type Dict = Record<string, string | undefined>;
  const d = (dicts[lang] || {}) as Dict;
  const own = (english || {}) as Dict;
  const base = core as Dict;
  const get = (k: string) => d[k] ?? own[k] ?? base[k];
  let rules: Intl.PluralRules | undefined;
  return (key, vars) => {
    let s: string | undefined;
    if (vars && typeof vars.count === 'number') {
      rules ??= new Intl.PluralRules(lang);
      const f = rules.select(vars.count) === 'one' ? '_one' : '_other';
      // the language's own plural form first, then its _other, then English's
      s = d[key + f] ?? d[key + '_other'] ?? get(key + f) ?? get(key + '_other');
    }
    s ??= get(key) ?? key;
    return vars ? s.replace(/\{\{(\w+)\}\}/g, (_, n) => String(vars[n] ?? '')) : s;
  };
}
