// The dashboard keeps its session where and as the SDK keeps a visitor's (sdk/src/core/storage.ts):
// under the SDK's key for this project, sealed with the browser's non-extractable key. So on the
// dashboard's origin (the public /block/ pages, the workspace previews) the owner signed in here is
// the owner in the blocks too, with the Admin label, and signing out in either signs out both.
// auth-js reads and writes it through this adapter; its Web Lock on `lock:<key>` is the one the
// SDK takes to refresh, so the two never spend one refresh token twice.
import type { SupportedStorage } from '@supabase/auth-js';
import { flush, load, stored, subscribe, write } from '../../../sdk/src/core/storage';
import { AUTH_STORAGE_KEY, LEGACY_AUTH_STORAGE_KEY } from './auth-storage';

/** `text` as JSON, or `fallback` when it is not JSON. */
function parsedOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

/** A session the dashboard kept before under its own key, in plain JSON: sealed once, then removed. */
async function takeLegacy(): Promise<void> {
  const raw = stored(LEGACY_AUTH_STORAGE_KEY);
  if (raw == null) return;
  if (stored(AUTH_STORAGE_KEY) == null) {
    // a corrupt one is dropped
    write(AUTH_STORAGE_KEY, parsedOr(raw, null));
    await flush(AUTH_STORAGE_KEY);
  }
  write(LEGACY_AUTH_STORAGE_KEY, null);
}

export const sealedStorage: SupportedStorage = {
  async getItem(key) {
    if (key === AUTH_STORAGE_KEY) await takeLegacy();
    const value = await load(key);
    return value == null ? null : JSON.stringify(value);
  },
  async setItem(key, value) {
    // a value that is not JSON is kept as the string it is
    write(key, parsedOr(value, value));
    // in storage before auth-js goes on (a sign-in may leave the page right after)
    await flush(key);
  },
  async removeItem(key) {
    write(key, null);
  },
};

/**
 * Calls `fn` when the session changes outside this client: the SDK's elements on this page, or
 * any page of the origin in another tab (the block's "Log out", a visitor's first comment).
 */
export const onSessionStored = (fn: () => void): (() => void) =>
  subscribe((key) => key === AUTH_STORAGE_KEY && fn());

/**
 * auth-js keeps a started PKCE flow's verifier through this adapter under `<key>-code-verifier`
 * (the latest flow), and under `<key>-flow-<id>-code-verifier` with the index
 * `<key>-flows-code-verifier`.
 */
export const isVerifierKey = (key: string): boolean =>
  key.startsWith(`${AUTH_STORAGE_KEY}-`) && key.endsWith('-code-verifier');

/** The keys of the PKCE verifiers auth-js keeps in this browser. */
export function verifierKeys(): string[] {
  try {
    return Object.keys(window.localStorage).filter(isVerifierKey);
  } catch {
    // no storage: nothing kept
    return [];
  }
}
