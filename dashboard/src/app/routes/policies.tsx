// /terms and /cookies: a landing page in a chunk of its own, with the landing pages' texts, so the home page
// loads neither.
import { registerLandingPageTranslations } from '../../features/landing';
import { registerConsentTranslations } from '../../locales/consent';

registerLandingPageTranslations();
registerConsentTranslations();

export { TermsPage, CookiePage } from '../../features/landing';
