// What the tests of a slow or earlier-kept storage key share (core/storage.*.test.ts): an
// IndexedDB that answers late, the key an earlier visit left, and values sealed as core/vault.ts
// seals them, written and read here with WebCrypto directly, not through the code under test.

const realOpen = indexedDB.open.bind(indexedDB);
const base64 = (b: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(b)));
const bytes = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const aad = (slot: string) => new TextEncoder().encode(slot);

/**
 * From now on the page's IndexedDB opens wait until the test says (the returned `answer`): they
 * work, but late. A state, not a time: the page gives up the key at its own 3 s bound, the test
 * waits for that (storageKey() answering null), does what it must while the page is keyless, then
 * lets IndexedDB answer.
 */
export function answerLater(): () => void {
  let answered = false;
  const waiting: (() => void)[] = [];
  (indexedDB as unknown as { open: (n: string, v?: number) => object }).open = (name, v) => {
    const late: Record<string, unknown> = {};
    const go = () => {
      const open = realOpen(name, v);
      open.onupgradeneeded = () => (
        (late.result = open.result),
        (late.onupgradeneeded as () => void)?.()
      );
      open.onsuccess = () => ((late.result = open.result), (late.onsuccess as () => void)?.());
      open.onerror = () => ((late.error = open.error), (late.onerror as () => void)?.());
    };
    if (answered) go();
    else waiting.push(go);
    return late;
  };
  return () => {
    answered = true;
    waiting.splice(0).forEach((go) => go());
  };
}

async function keys<T>(mode: IDBTransactionMode, use: (store: IDBObjectStore) => IDBRequest<T>) {
  const db = await new Promise<IDBDatabase>((ok, ko) => {
    const open = realOpen('reaction-blocks', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('keys');
    open.onsuccess = () => ok(open.result);
    open.onerror = () => ko(open.error);
  });
  try {
    return await new Promise<T>((ok, ko) => {
      const request = use(db.transaction('keys', mode).objectStore('keys'));
      request.onsuccess = () => ok(request.result);
      request.onerror = () => ko(request.error);
    });
  } finally {
    db.close();
  }
}

/** A storage key as an earlier visit left it in IndexedDB (`inDb`), or one this browser lost. */
export async function earlierKey(inDb = true): Promise<CryptoKey> {
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
  if (inDb) await keys('readwrite', (store) => store.put(key, 'storage'));
  return key;
}

/** The key IndexedDB holds now, read as the next page load would. */
export const keyInDb = (): Promise<CryptoKey> =>
  keys('readonly', (store) => store.get('storage') as IDBRequest<CryptoKey>);

/** `value` sealed with `key` for `slot`, as storage.ts keeps it (`rb1.<iv>.<data>`). */
export async function sealedWith(key: CryptoKey, slot: string, value: unknown): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: aad(slot) },
    key,
    new TextEncoder().encode(JSON.stringify(value)),
  );
  return `rb1.${base64(iv)}.${base64(data)}`;
}

/** What `raw` (as stored under `slot`) holds, opened with `key`. */
export async function openedWith(key: CryptoKey, slot: string, raw: string): Promise<unknown> {
  const [iv = '', data = ''] = raw.slice(4).split('.');
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes(iv), additionalData: aad(slot) },
    key,
    bytes(data),
  );
  return JSON.parse(new TextDecoder().decode(plain));
}
