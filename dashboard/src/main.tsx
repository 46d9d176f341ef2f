import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { initI18n } from './lib/i18n';

initI18n();

const root = document.getElementById('root');
const html = document.documentElement;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

if (root && html.hasAttribute('data-route') && html.dataset.render !== 'client') {
  // A prerendered landing page (dist/<route>/index.html) that the boot script in index.html
  // found matching this visit (same path, language and no other query): attach to its markup.
  hydrateRoot(root, app, {
    onRecoverableError(error) {
      console.error('[reaction-dashboard] hydration', error);
    },
  });
} else if (root) {
  // The app shell, or a prerendered page that cannot be reused (another language, a path it was
  // not rendered for): start from an empty root, then show it (the boot script hid it).
  root.replaceChildren();
  html.removeAttribute('data-render');
  createRoot(root).render(app);
}
