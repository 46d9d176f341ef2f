import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetNavigation } from '../components/ui/page-heading';
import { registerWorkspaceTranslations } from '../features/workspace/locales';
import { initI18n, setLanguage } from '../lib/i18n';

initI18n('en');
registerWorkspaceTranslations();

afterEach(async () => {
  cleanup();
  resetNavigation();
  await setLanguage('en', false);
  window.localStorage.clear();
});

// jsdom does not implement scrolling; the router scrolls to the top on navigation.
window.scrollTo = (() => {}) as typeof window.scrollTo;
