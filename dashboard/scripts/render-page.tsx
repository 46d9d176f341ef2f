// Renders one landing route of the app to HTML in Node, the way the browser will hydrate it:
// the same <App /> in StrictMode, a static router at that path, English texts, and every lazy
// route module resolved (react-dom/static waits for Suspense, unlike renderToString).
import { StrictMode, type ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { App } from '../src/app/app';
import { initI18n } from '../src/lib/i18n';
import { PRERENDER_LANGUAGE } from './prerender-routes';

export function AppAt({ path }: { path: string }) {
  const Router = ({ children }: { children: ReactNode }) => (
    <StaticRouter location={path}>{children}</StaticRouter>
  );
  return (
    <StrictMode>
      <App Router={Router} />
    </StrictMode>
  );
}

/** The markup that goes inside <div id="root"> for `path`. */
export async function renderPage(path: string): Promise<string> {
  initI18n(PRERENDER_LANGUAGE);
  const { prelude } = await prerender(<AppAt path={path} />);
  return new Response(prelude).text();
}
