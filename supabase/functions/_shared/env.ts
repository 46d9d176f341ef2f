// Environment of the edge functions: Supabase's own variables and ours (docs/self-hosting.md).
export function env(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

export function optionalEnv(name: string, fallback: string): string {
  const value = Deno.env.get(name);
  return value === undefined || value === '' ? fallback : value;
}

/** The dashboard's public origin, for links in mails (SITE_URL, no trailing slash). */
export function siteUrl(): string {
  return optionalEnv('SITE_URL', 'http://127.0.0.1:54323').replace(/\/+$/, '');
}

/** This project's API origin (SUPABASE_URL), for links to functions (one-click unsubscribe). */
export function apiUrl(): string {
  return env('SUPABASE_URL').replace(/\/+$/, '');
}
