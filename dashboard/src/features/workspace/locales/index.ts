// The workspace's texts load with the workspace route, not with the landing: each area owns one
// file and they are merged into the app's single `translation` namespace under their prefix.
import i18next from 'i18next';
import { registerIntegrationTranslations } from '../../../components/integrations/texts';
import * as editor from './editor';
import * as moderation from './moderation';
import * as results from './results';
import * as workspace from './workspace';

let registered = false;

export function registerWorkspaceTranslations(i18n = i18next) {
  if (registered && i18n === i18next) return;
  registered = true;
  registerIntegrationTranslations(i18n);
  for (const lng of ['en', 'ko'] as const) {
    i18n.addResourceBundle(
      lng,
      'translation',
      {
        workspace: workspace[lng],
        editor: editor[lng],
        results: results[lng],
        moderation: moderation[lng],
      },
      true,
      true,
    );
  }
}
