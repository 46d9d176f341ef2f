// /login and /not_supported: no zod and no schemas, so the sign-in page stays light.
import { registerPublicPageTranslations } from '../../locales/public-pages';

registerPublicPageTranslations();

export { LoginPage, NotSupportedPage } from '../../features/auth';
