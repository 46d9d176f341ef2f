// /reaction: a landing page in a chunk of its own, with the landing pages' texts, so the home page
// loads neither.
import { registerLandingPageTranslations } from '../../features/landing';

registerLandingPageTranslations();

export { ReactionPage } from '../../features/landing';
