// The seal on what the SDK keeps in localStorage (core/storage.ts): AES-GCM with a 256-bit key
// made in this browser, non-extractable (no script can read its bytes, only ask the browser to
// use it), kept in IndexedDB. Loaded only when there is something to read or keep: a reader who
// never wrote anything never loads it. Why and what it protects: docs/embedding.md, section 6.

const DB = 'reaction-blocks';
const STORE = 'keys';
const NAME = 'storage';

let key: Promise<CryptoKey | null> | undefined;

/**
 * How long the key may take before the page goes on without one. An IndexedDB whose open() never
 * answers (Safari 14.1's first open, some in-app browsers) is storage that is not there: without
 * a bound, a new visitor's first write waited on it for good (the breaker's D6). An open that
 * answers later still counts: see onLateKey.
 */
const KEY_WAIT_MS = 3000;

/**
 * The page's storage key: the one in IndexedDB, or a new one put there. Get-or-add is one
 * read-write transaction, so two scripts of the origin starting at once agree on one key. Null
 * when IndexedDB or WebCrypto is unavailable (private modes, blocked storage) or has not answered
 * within KEY_WAIT_MS: nothing is kept, the page's session and profile live for the page only, until
 * a key answering late is taken (onLateKey).
 */
export function storageKey(): Promise<CryptoKey | null> {
  return (key ??= new Promise((done) => {
    let gaveUp = false;
    const late = setTimeout(() => ((gaveUp = true), done(null)), KEY_WAIT_MS);
    openKey()
      .catch(() => null)
      .then((found) => {
        clearTimeout(late);
        if (!gaveUp) done(found);
        // answered after the page went on without it (a slow device, rev-break2 S2): from now on
        // the page seals with it, and keeps what it wrote meanwhile (storage.ts)
        else if (found) {
          key = Promise.resolve(found);
          lateKey?.();
        }
      });
  }));
}

let lateKey: (() => void) | undefined;
/** `fn` is called if the key answers after the page went on without one. */
export const onLateKey = (fn: () => void): void => void (lateKey = fn);

async function openKey(): Promise<CryptoKey> {
  const fresh = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
  const open = indexedDB.open(DB, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  const db = await new Promise<IDBDatabase>((ok, ko) => {
    open.onsuccess = () => ok(open.result);
    open.onerror = () => ko(open.error);
    open.onblocked = () => ko(new Error('IndexedDB blocked'));
  });
  try {
    return await new Promise<CryptoKey>((ok, ko) => {
      const tx = db.transaction(STORE, 'readwrite');
      const store = tx.objectStore(STORE);
      const get = store.get(NAME);
      let chosen = fresh;
      get.onsuccess = () => {
        if (get.result instanceof CryptoKey) chosen = get.result;
        else store.put(fresh, NAME);
      };
      // resolved once committed: a key that was never stored must never seal anything
      tx.oncomplete = () => ok(chosen);
      tx.onerror = tx.onabort = () => ko(tx.error);
    });
  } finally {
    db.close();
  }
}

const bytes = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const text = (b: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(b)));
// the slot's name is authenticated with the data: a value copied into another slot is refused
const params = (iv: Uint8Array, slot: string): AesGcmParams => ({
  name: 'AES-GCM',
  iv: iv as Uint8Array<ArrayBuffer>,
  additionalData: new TextEncoder().encode(slot),
});

/**
 * `plain` sealed for `slot` (its localStorage key) as `<iv>.<ciphertext>` in base64 (storage.ts
 * puts its format's prefix before it), or null when nothing can be kept.
 */
export async function seal(slot: string, plain: string): Promise<string | null> {
  const k = await storageKey();
  if (!k) return null;
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(params(iv, slot), k, new TextEncoder().encode(plain));
  return text(iv) + '.' + text(data);
}

/**
 * What seal() made, opened; null when it cannot be (another key, altered, another slot);
 * undefined when there is no key to try (storage blocked, or not answering in time): the value may
 * well be good, and must not be dropped for it.
 */
export async function unseal(slot: string, sealed: string): Promise<string | null | undefined> {
  try {
    const [iv = '', data = ''] = sealed.split('.');
    const k = await storageKey();
    if (!k) return undefined;
    return new TextDecoder().decode(
      await crypto.subtle.decrypt(params(bytes(iv), slot), k, bytes(data)),
    );
  } catch {
    return null;
  }
}
