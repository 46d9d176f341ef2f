// The functions' own code run in the test's process against the stack, with the PostgREST calls it
// makes recorded: how many round trips a path takes, and what each read asks for (a call count is
// behaviour). The code reads its settings from Deno.env; here that is the stack's, as
// local/stack.ts gives the functions (the database through the gateway, SES through its fake).
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { vi } from 'vitest';
import { backgroundEnv, LOCAL_AWS } from '../../local/config.ts';
import { stack } from './clients.ts';

declare global {
  /** What the functions' code run here reads of the edge runtime's global (env.ts, mail.ts). */
  var Deno: { env: { get(name: string): string | undefined } };
}

/** Gives the functions' code run here the stack's Deno.env (and the AWS SDK its keys). */
export function useFunctionEnv(): void {
  const s = stack();
  const env: Record<string, string> = {
    SUPABASE_URL: s.apiUrl,
    SUPABASE_ANON_KEY: s.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: s.serviceRoleKey,
    ...backgroundEnv(s.jwtSecret, ''),
    SES_ENDPOINT: `${s.providersUrl}/ses`,
    AWS_REGION: LOCAL_AWS.region,
    SES_CONFIGURATION_SET: LOCAL_AWS.configurationSet,
  };
  vi.stubGlobal('Deno', { env: { get: (name: string) => env[name] } });
  // the SDK reads its keys from the process's environment, as it does in the edge runtime
  vi.stubEnv('AWS_ACCESS_KEY_ID', LOCAL_AWS.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', LOCAL_AWS.secretAccessKey);
}

/** One PostgREST call: `GET blocks`, `POST rpc/reserve_letter`, and the columns a read selected. */
export interface RestCall {
  call: string;
  select: string | null;
}

/**
 * The calls a send makes before it reserves (send-letter, publish-letter, a form's automatic
 * letter), sorted: the letter block with its private row, the owner's name, the sender's row and
 * its status. Before 2026-11-29 the stored letter's check read block_private once more.
 */
export const SEND_CHECK_CALLS = [
  'GET blocks',
  'GET profiles',
  'GET sender_emails',
  'POST rpc/mail_sender_status',
];

/** A service-role client (as serviceClient() in the functions) recording its PostgREST calls. */
export function recordingClient(): { db: SupabaseClient; calls: RestCall[] } {
  const calls: RestCall[] = [];
  const db = createClient(stack().apiUrl, stack().serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: {
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
        const path = url.pathname.replace(/^\/rest\/v1\//, '');
        calls.push({ call: `${method} ${path}`, select: url.searchParams.get('select') });
        return fetch(input, init);
      },
    },
  });
  return { db, calls };
}
