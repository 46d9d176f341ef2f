// What the SDK keeps in localStorage (the writer's profile, the Supabase session) is stored
// sealed: AES-GCM with a key no script can export (core/vault.ts, a chunk loaded only when there
// is something to open or keep). This module holds the opened values, shared by every element of
// the page (every bundle: the store lives on globalThis), read synchronously once opened. Nothing
// here ever throws: with storage blocked or unavailable the values live for the page only.
// Why and what it protects against: docs/embedding.md, section 6.

import {
  LEGACY_PROFILE_KEY,
  PROFILE_KEY,
  store as shared,
  stored,
  subscribe,
  type Entry,
  type Store,
} from './stored.js';

/** A sealed value is `rb1.<iv>.<ciphertext>` (core/vault.ts); anything else is plain JSON from before. */
export const SEALED = 'rb1.';

export { sessionKey } from './session-key.js';
export { LEGACY_PROFILE_KEY, PROFILE_KEY, stored, subscribe };

let chunk: Promise<typeof import('./vault.js')> | undefined;
/**
 * The key's chunk, loaded once: its late-key handler is registered when it first loads. An import
 * that failed (the network) is tried again by the next call, as before.
 */
const vault = () =>
  (chunk ??= import('./vault.js').then(
    (m) => (m.onLateKey(() => void adopt()), m),
    (err: unknown) => {
      chunk = undefined;
      throw err;
    },
  ));

/**
 * The key answered after the page went on without it (a slow device): every value is settled by
 * one rule, so a page never mixes two visitors (a session of one, the marks of another). A value
 * kept before (an earlier visit, another tab) that opens with the key wins, on this page too: the
 * page's own (a random name, a session it signed up meanwhile) gives way and every element hears
 * it. One that does not open (another key, altered) is dropped. Otherwise what the page wrote to
 * keep is sealed now.
 */
async function adopt(): Promise<void> {
  for (const [key, e] of store().entries) {
    const v = e.v;
    if (stored(key)?.startsWith(SEALED) && (await load(key, true)) != null) continue;
    if (e.unkept && e.v === v) write(key, e.value);
  }
}

const put = (key: string, raw: string | null): void => {
  try {
    if (raw == null) localStorage.removeItem(key);
    else localStorage.setItem(key, raw);
  } catch {
    /* blocked or full: kept for this page only */
  }
};
const parse = (s: string | null): unknown => {
  try {
    return s && JSON.parse(s);
  } catch {
    return null;
  }
};

/** The page's store (core/stored.ts), listening to other tabs' changes once this has loaded. */
const store = (): Store => {
  const s = shared();
  if (!s.listening) {
    s.listening = true;
    // another tab (the dashboard, or the same block elsewhere) changed a value: open it again
    globalThis.addEventListener?.('storage', (e) => {
      for (const key of s.entries.keys()) if (e.key === key || e.key === null) void load(key);
    });
  }
  return s;
};
const entry = (key: string): Entry => {
  const { entries } = store();
  let e = entries.get(key);
  if (!e) entries.set(key, (e = { value: null, v: 0 }));
  return e;
};
const notify = (key: string) => store().subs.forEach((fn) => fn(key));

/**
 * The value under `key`, synchronously: what was last opened or written. Plain JSON stored before
 * values were sealed is taken (and sealed, once); a sealed value not opened yet is opened in the
 * background (subscribers hear of it), and until then this answers what it replaces, or null.
 */
export function peek<T>(key: string): T | null {
  const e = entry(key);
  const raw = stored(key);
  if (!e.writing && raw !== e.raw) {
    if (raw?.startsWith(SEALED)) void load(key);
    // plain JSON is sealed; corrupt, or removed elsewhere: null (the key's owner makes a new one)
    else if (raw != null || e.value != null) write(key, parse(raw));
    else e.raw = raw;
  }
  return e.value as T | null;
}

/** The value under `key` as stored now, opened (the key's chunk loads only for a sealed value). */
export async function load<T>(key: string, again = false): Promise<T | null> {
  const e = entry(key);
  while (e.writing) await e.writing;
  const raw = stored(key);
  if ((raw === e.raw && !again) || !raw?.startsWith(SEALED)) return peek(key);
  // undefined: not opened for want of a key (or of the chunk), which says nothing of the value
  const text = await vault().then(
    (m) => m.unseal(key, raw.slice(SEALED.length)),
    () => undefined,
  );
  // written or changed while it was being opened: what is there now counts
  if (e.writing || stored(key) !== raw) return load(key);
  if (e.raw !== raw || again) {
    e.raw = raw;
    const opened = text == null ? null : parse(text);
    // sealed with a key this browser no longer has, altered, moved or not JSON: dropped; one not
    // opened for want of a key is left for a page that has it (the page goes on without it)
    if (opened == null && text !== undefined) put(key, (e.raw = null));
    // what the page wrote to keep stays the page's until a kept value opens: another tab's, which
    // this page has no key for yet, must not leave it without a session meanwhile
    if (opened != null || !e.unkept) [e.value, e.unkept] = [opened, false];
    notify(key);
  }
  return e.value as T | null;
}

/**
 * Keeps `value` under `key` (null removes it): at once for this page and every element on it,
 * sealed into localStorage in the background (see flush). With `keep` false it is the page's
 * only, when nothing is stored under the key yet. Where nothing can be sealed (no IndexedDB or
 * WebCrypto, storage blocked), it lives for this page only: nothing is ever written in plain.
 */
export function write(key: string, value: unknown, keep = true): void {
  const e = entry(key);
  if (!keep) {
    // nothing stored, or a stored value this page could not open (no key): the page's own
    const raw = stored(key);
    if (!e.writing && (raw == null || (e.raw === raw && e.value == null)))
      [e.raw, e.value] = [raw, value];
    return;
  }
  const v = ++e.v;
  e.value = value;
  e.writing =
    value == null
      ? undefined
      : vault()
          .then((m) => m.seal(key, JSON.stringify(value)))
          .catch(() => null)
          .then((sealed) => {
            if (v !== e.v) return;
            // not kept (no key, storage blocked or full): a plain value from before must not
            // outlive it; a sealed one stays for a page that can open it (the value is this page's)
            if (sealed || !stored(key)?.startsWith(SEALED)) put(key, sealed && SEALED + sealed);
            e.unkept = !sealed;
            e.raw = stored(key);
            e.writing = undefined;
          });
  if (value == null) {
    put(key, (e.raw = null));
    e.unkept = false;
  }
  notify(key);
}

/** Resolves once what was written under `key` is in localStorage (or could not be). */
export const flush = async (key: string): Promise<void> => {
  while (entry(key).writing) await entry(key).writing;
};
