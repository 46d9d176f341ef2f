// The workspace's texts load with the workspace route, not with the landing: each area owns one
// file and they are merged into the app's single `translation` namespace under their prefix.
import i18next from 'i18next';
import { registerIntegrationTranslations } from '../../../components/integrations/texts';
import { textRegistration, type Language } from '../../../lib/i18n';
import * as editor from './editor';
import * as moderation from './moderation';
import * as results from './results';
import * as workspace from './workspace';

const texts = (lng: Language) => ({
  workspace: workspace[lng],
  editor: editor[lng],
  results: results[lng],
  moderation: moderation[lng],
});
const registerOwn = textRegistration({ en: texts('en'), ko: texts('ko') });

export function registerWorkspaceTranslations(i18n = i18next) {
  registerIntegrationTranslations(i18n);
  registerOwn(i18n);
}
