// The one Supabase client of the dashboard.
import { createClient } from '@supabase/supabase-js';
import { AUTH_STORAGE_KEY } from './auth-storage';
import type { Database } from './db-types';
import { env } from './env';

if (!env.anonKey) {
  console.warn(
    '[reaction-dashboard] no anon key configured; set it in /env.js or SUPABASE_ANON_KEY',
  );
}

export const supabase = createClient<Database>(env.supabaseUrl, env.anonKey || 'missing-anon-key', {
  auth: {
    flowType: 'pkce',
    persistSession: true,
    detectSessionInUrl: true,
    storageKey: AUTH_STORAGE_KEY,
  },
});

/**
 * Calls an edge function that answers `{ data }` or `{ error: { code, message } }` and returns
 * the data, throwing an Error with the server's message on failure.
 */
export async function invokeFunction<T>(
  name: string,
  body: Record<string, unknown> = {},
): Promise<T> {
  const { data, error } = await supabase.functions.invoke(name, { body });
  if (error) {
    let message = error.message;
    const context = (error as { context?: unknown }).context;
    if (context instanceof Response) {
      try {
        const payload = (await context.clone().json()) as { error?: { message?: string } };
        if (payload.error?.message) message = payload.error.message;
      } catch {
        // not JSON; keep the client's message
      }
    }
    throw new Error(message);
  }
  const payload = data as { data?: T; error?: { message?: string } } | null;
  if (payload && typeof payload === 'object' && payload.error) {
    throw new Error(payload.error.message ?? 'Request failed');
  }
  return (
    payload && typeof payload === 'object' && 'data' in payload ? payload.data : payload
  ) as T;
}
