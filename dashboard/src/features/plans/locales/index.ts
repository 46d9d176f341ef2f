// Texts of /profile/plan, /purchase and /purchase/payment, loaded with those routes.
import { textRegistration } from '../../../lib/i18n';
import { en } from './en';
import { ko } from './ko';

export { en, ko };

export const registerPlanTranslations = textRegistration({ en, ko }, 'plans');
