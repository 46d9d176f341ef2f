// Where the blocks live. Served by `npm start`, the page's /env.js names the local stack's project
// URL and anon key; anywhere else the build-time defaults apply
// (RB_PROJECT_URL=… RB_ANON_KEY=… npm run build -w @reaction-blocks/example-react).

declare global {
  interface Window {
    /** Written by the local web server's /env.js. */
    __REACTION_ENV__?: { supabaseUrl?: string; anonKey?: string };
  }
}

// Replaced by rollup; see rollup.config.mjs.
declare const __RB_PROJECT_URL__: string;
declare const __RB_ANON_KEY__: string;

export interface Project {
  projectUrl: string;
  anonKey: string;
}

export function projectFromPage(): Project {
  const env = window.__REACTION_ENV__ ?? {};
  return {
    projectUrl: env.supabaseUrl || __RB_PROJECT_URL__,
    anonKey: env.anonKey || __RB_ANON_KEY__,
  };
}

/** The demo owner's blocks from supabase/seed/01-demo-owner.sql (see docs/data-model.md). */
export const DEMO_OWNER = '00000000-0000-4000-8000-000000000001';
export const DEMO_BLOCKS = {
  comment: '00000000-0000-4000-8000-000000000101',
  qna: '00000000-0000-4000-8000-000000000102',
  like: '00000000-0000-4000-8000-000000000103',
  button: '00000000-0000-4000-8000-000000000104',
  ab: '00000000-0000-4000-8000-000000000105',
  form: '00000000-0000-4000-8000-000000000106',
} as const;
