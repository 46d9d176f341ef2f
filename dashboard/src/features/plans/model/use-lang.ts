import { useTranslation } from 'react-i18next';
import { toLanguage, type Language } from '../../../lib/i18n';

/** The reader's language and a number formatter for it (`options`: Intl's, e.g. more digits). */
export function useLang(): {
  lang: Language;
  fmt: (n: number, options?: Intl.NumberFormatOptions) => string;
} {
  const { i18n } = useTranslation();
  const lang = toLanguage(i18n.language) ?? 'en';
  return {
    lang,
    fmt: (n, options) => n.toLocaleString(lang === 'ko' ? 'ko-KR' : 'en-US', options),
  };
}
