// Which paths the build writes as static HTML, and the lazy route module each one needs (its chunk
// is preloaded by the page). Other paths get the app shell (dist/200.html).
export const PRERENDERED_ROUTES = {
  '/': 'src/app/routes/landing.tsx',
  '/reaction': 'src/app/routes/landing.tsx',
  '/send': 'src/app/routes/landing.tsx',
  '/showcase': 'src/app/routes/landing.tsx',
  '/pricing': 'src/app/routes/landing.tsx',
  '/help': 'src/app/routes/landing.tsx',
  '/terms': 'src/app/routes/landing.tsx',
  '/cookies': 'src/app/routes/landing.tsx',
  '/login': 'src/app/routes/public.tsx',
} as const;

/** The language of the prerendered pages; visitors in another language render on the client. */
export const PRERENDER_LANGUAGE = 'en';
