import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
// before the router's: the leave guard sees a Back first
import './lib/popstate-first';
import { currentLanguage, initI18n, loadLanguage } from './lib/i18n';

initI18n();

const root = document.getElementById('root');
const html = document.documentElement;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

function start() {
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
}

// A Korean reader waits for the Korean texts (a page in the wrong language would flash by
// otherwise); the prerendered pages are English and start at once.
loadLanguage(currentLanguage()).then(start, (cause: unknown) => {
  console.error('[reaction-dashboard] texts failed to load', cause);
  start();
});
