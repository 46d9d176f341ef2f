// Where the Supabase session is kept, known without loading supabase-js: the landing pages ask
// "could this visitor be signed in?" before deciding to download the client (about 56 KB gzip).
import { readStored } from './storage';

/** The supabase-js `storageKey` of the dashboard's client (see supabase.ts). */
export const AUTH_STORAGE_KEY = 'reaction.auth';

/**
 * True when this visit may carry a session: one is stored, or the page is the return from a
 * provider (PKCE `?code=`, an `error` query, or tokens in the hash).
 */
export function mayHaveSession(search: string, hash: string): boolean {
  if (readStored(AUTH_STORAGE_KEY)) return true;
  const query = new URLSearchParams(search);
  if (query.has('code') || query.has('error') || query.has('error_description')) return true;
  return /(?:^#|&)(?:access_token|error)=/.test(hash);
}
