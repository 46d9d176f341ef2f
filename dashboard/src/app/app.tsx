import type { ComponentType, ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './providers';
import { AppRoutes } from './router';

export interface AppProps {
  /**
   * The router around the routes: the browser's history by default; the build's prerender step
   * passes a static router for the path it renders (scripts/prerender.tsx).
   */
  Router?: ComponentType<{ children: ReactNode }>;
}

export function App({ Router = BrowserRouter }: AppProps) {
  return (
    <AppProviders>
      <Router>
        <AppRoutes />
      </Router>
    </AppProviders>
  );
}
