/** Where the elements find the project: attribute, then window.ReactionBlocks, then the build default. */
export interface ReactionConfig {
  projectUrl?: string;
  anonKey?: string;
  /** Base URL of the dashboard, for the owner's "To Block setting" link. */
  dashboardUrl?: string;
}

declare global {
  interface Window {
    ReactionBlocks?: ReactionConfig;
  }
}

// Replaced at build time for a deployment (rollup replace); empty in source and tests.
declare const __RB_PROJECT_URL__: string | undefined;
declare const __RB_ANON_KEY__: string | undefined;
const BUILD_URL = typeof __RB_PROJECT_URL__ === 'string' ? __RB_PROJECT_URL__ : '';
const BUILD_KEY = typeof __RB_ANON_KEY__ === 'string' ? __RB_ANON_KEY__ : '';

export interface Project {
  url: string;
  key: string;
}

export function resolveProject(url?: string | null, key?: string | null): Project {
  const g = (typeof window !== 'undefined' && window.ReactionBlocks) || {};
  return {
    url: (url || g.projectUrl || BUILD_URL || '').replace(/\/+$/, ''),
    key: key || g.anonKey || BUILD_KEY || '',
  };
}

export const dashboardUrl = (): string =>
  ((typeof window !== 'undefined' && window.ReactionBlocks?.dashboardUrl) || '').replace(
    /\/+$/,
    '',
  );
