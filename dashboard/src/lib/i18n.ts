// i18next setup: en and ko, en fallback. The English texts every page needs are in the main chunk
// (the rest load with their routes: locales/signed-in.ts, locales/public-pages.ts, the features'
// own); Korean is a chunk of its own that loadLanguage() fetches before it is shown, so English
// readers never download it. The `locale` query parameter, then the remembered
// choice, then the browser language pick the first language; a signed-in user's saved language
// replaces it once the profile loads (see session.tsx), unless the address the page was opened
// with named one: that wins for the visit (a support or shared ?locale=en link), the profile
// unchanged (docs/dashboard.md, Language).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en';
import { LANGUAGES, type TLanguage } from '@reaction-blocks/contracts/enums';
import { readStored, writeStored } from './storage';

/** The languages the dashboard speaks: the database's language_code. */
export { LANGUAGES };
export type Language = TLanguage;
const STORAGE_KEY = 'reaction.language';

export function toLanguage(value: string | null | undefined): Language | null {
  if (!value) return null;
  const short = value.toLowerCase().slice(0, 2);
  return (LANGUAGES as readonly string[]).includes(short) ? (short as Language) : null;
}

export function detectLanguage(
  search: string,
  stored: string | null,
  browser: string | undefined,
): Language {
  const fromQuery = toLanguage(new URLSearchParams(search).get('locale'));
  return fromQuery ?? toLanguage(stored) ?? toLanguage(browser) ?? 'en';
}

let fromAddress: Language | null = null;
/** The language the address the page was opened with named (`?locale=`), until another is set. */
export const addressLanguage = () => fromAddress;

export function initI18n(lng?: Language) {
  const fromQuery =
    typeof window === 'undefined'
      ? null
      : toLanguage(new URLSearchParams(window.location.search).get('locale'));
  // A `locale` link is a choice: remember it, so it survives the sign-in redirect.
  if (!lng) {
    fromAddress = fromQuery;
    if (fromQuery) writeStored(STORAGE_KEY, fromQuery);
  }
  const language =
    lng ??
    (typeof window === 'undefined'
      ? 'en'
      : detectLanguage(window.location.search, readStored(STORAGE_KEY), navigator.language));
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources: { en: { translation: en } },
      lng: language,
      fallbackLng: 'en',
      supportedLngs: [...LANGUAGES],
      interpolation: { escapeValue: false },
      returnObjects: false,
      react: { useSuspense: false },
      initAsync: false,
      showSupportNotice: false,
    });
  } else if (i18next.language !== language) {
    void i18next.changeLanguage(language);
  }
  syncDocumentLanguage(language);
  return i18next;
}

let korean: Promise<void> | null = null;

/**
 * Makes the app's texts in `lng` available (Korean is fetched once). Features' own texts are
 * registered with their chunks; merging keeps them.
 */
export function loadLanguage(lng: Language): Promise<void> {
  if (lng !== 'ko') return Promise.resolve();
  korean ??= import('../locales/ko').then(({ default: ko }) => {
    i18next.addResourceBundle('ko', 'translation', ko, true, false);
  });
  return korean;
}

export async function setLanguage(lng: Language, remember = true) {
  // a language chosen now (the footer's picker, a saved profile) is newer than the address's
  fromAddress = null;
  if (remember) writeStored(STORAGE_KEY, lng);
  await loadLanguage(lng);
  syncDocumentLanguage(lng);
  await i18next.changeLanguage(lng);
}

function syncDocumentLanguage(lng: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

export function currentLanguage(): Language {
  return toLanguage(i18next.language) ?? 'en';
}

/** The Korean texts' type: the English texts' shape, with any string in place of each string. */
export type SameShape<T> = T extends string
  ? string
  : T extends readonly (infer U)[]
    ? SameShape<U>[]
    : { [K in keyof T]: SameShape<T[K]> };

/**
 * A chunk's own texts, registered when the chunk loads (once; a test may pass its own instance):
 * merged into the app's single `translation` namespace under their prefixes, or all under
 * `prefix` when one is given (`textRegistration({ en, ko }, 'plans')` for `plans.*`).
 */
export function textRegistration(texts: Record<Language, object>, prefix?: string) {
  let registered = false;
  return (i18n = i18next) => {
    if (registered && i18n === i18next) return;
    registered = true;
    for (const lng of LANGUAGES) {
      const bundle = prefix ? { [prefix]: texts[lng] } : texts[lng];
      i18n.addResourceBundle(lng, 'translation', bundle, true, true);
    }
  };
}
