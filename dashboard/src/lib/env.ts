// Runtime configuration. The server may answer /env.js with window.__REACTION_ENV__; otherwise
// the values replaced at build time (SUPABASE_URL, SUPABASE_ANON_KEY, SDK_URL) are used.

export interface ReactionEnv {
  supabaseUrl: string;
  anonKey: string;
  /** URL of the SDK bundle that defines the <reaction-*> elements (optional). */
  sdkUrl?: string;
  /** Owner and block ids of the public demo blocks shown on /reaction (optional). */
  demo?: { ownerId: string; blocks: Partial<Record<string, string>> };
}

declare global {
  interface Window {
    __REACTION_ENV__?: Partial<ReactionEnv>;
  }
}

export function readEnv(): ReactionEnv {
  const runtime = (typeof window !== 'undefined' && window.__REACTION_ENV__) || {};
  return {
    supabaseUrl: runtime.supabaseUrl || process.env.SUPABASE_URL || 'http://127.0.0.1:54321',
    anonKey: runtime.anonKey || process.env.SUPABASE_ANON_KEY || '',
    sdkUrl: runtime.sdkUrl || process.env.SDK_URL || undefined,
    demo: runtime.demo,
  };
}

export const env = readEnv();
