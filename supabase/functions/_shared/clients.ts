// The two Supabase clients a function may use. The service-role client bypasses row-level
// security: it lives here only, and only functions that must act beyond the caller's rights use it.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { env } from './env.ts';

const noSession = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
};

export function userClient(authorization: string): SupabaseClient {
  return createClient(env('SUPABASE_URL'), env('SUPABASE_ANON_KEY'), {
    ...noSession,
    global: { headers: { Authorization: authorization } },
  });
}

let service: SupabaseClient | undefined;
export function serviceClient(): SupabaseClient {
  service ??= createClient(env('SUPABASE_URL'), env('SUPABASE_SERVICE_ROLE_KEY'), noSession);
  return service;
}
