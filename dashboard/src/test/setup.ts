import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetNavigation } from '../components/ui/page-heading';
import { registerLandingPageTranslations } from '../features/landing';
import { registerWorkspaceTranslations } from '../features/workspace/locales';
import { initI18n, loadLanguage, setLanguage } from '../lib/i18n';
import { registerConsentTranslations } from '../locales/consent';
import { registerPublicPageTranslations } from '../locales/public-pages';
import { registerSignedInTranslations } from '../locales/signed-in';

// Lazy routes import their modules on first render; on a busy machine (CI shares its cores) that
// can take many seconds, far more than testing-library's default second for a findBy/waitFor. A
// wait bound, not a timing assertion: passing tests finish as soon as the element shows. Below
// the test timeout (vitest.config.ts), so a wait that fails says what it waited for.
configure({ asyncUtilTimeout: 45_000 });

initI18n('en');
// Korean is a lazy chunk in the app; tests switch languages at once, so it is there from the start.
await loadLanguage('ko');
registerWorkspaceTranslations();
registerSignedInTranslations();
registerLandingPageTranslations();
registerPublicPageTranslations();
registerConsentTranslations();

afterEach(async () => {
  cleanup();
  resetNavigation();
  await setLanguage('en', false);
  if (typeof window !== 'undefined') {
    window.localStorage.clear();
    window.sessionStorage.clear();
  }
});

// jsdom does not implement scrolling; the router scrolls to the top on navigation. (Tests of code
// that runs outside a browser, such as the edge worker, use the node environment: no window.)
if (typeof window !== 'undefined') {
  window.scrollTo = (() => {}) as typeof window.scrollTo;
  // nor an element's (the rich-text editor brings its caret's line into view on focus)
  Element.prototype.scrollIntoView = () => {};
}
