// Which paths the build writes as static HTML, and the lazy route modules each one needs (their
// chunks are preloaded by the page): the landing's layout and home page, then the page's own.
// Other paths get the app shell (dist/200.html).
const LANDING = 'src/app/routes/landing.tsx';

export const PRERENDERED_ROUTES = {
  '/': [LANDING],
  '/reaction': [LANDING, 'src/app/routes/reaction.tsx'],
  '/send': [LANDING, 'src/app/routes/send.tsx'],
  '/showcase': [LANDING, 'src/app/routes/showcase.tsx'],
  '/pricing': [LANDING, 'src/app/routes/pricing.tsx'],
  '/help': [LANDING, 'src/app/routes/help.tsx'],
  '/terms': [LANDING, 'src/app/routes/policies.tsx'],
  '/cookies': [LANDING, 'src/app/routes/policies.tsx'],
  '/login': ['src/app/routes/public.tsx'],
} as const;

/** The language of the prerendered pages; visitors in another language render on the client. */
export const PRERENDER_LANGUAGE = 'en';
