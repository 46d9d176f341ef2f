// A new visitor on a slow device: IndexedDB answers, but after the storage key's 3 s
// (core/vault.ts), so the page goes on without a key. Before, the key that answered late was put
// in IndexedDB and never used: the visitor's session and profile were lost at the next load, and
// they became a new anonymous user on every such load (rev-break2 S2). Now the late key is taken:
// what the page wrote to keep is sealed with it. A file of its own: the slow open replaces
// indexedDB.open for the whole page.
import { expect } from '@open-wc/testing';
import { flush, peek, write } from './storage.js';
import { PROFILE_KEY } from './stored.js';
import { storageKey } from './vault.js';
import { until } from '../test/mock-api.js';

/** A bound on a hung test, not a measure: the key answers after 3.5 s. */
const HUNG = 15_000;
const realOpen = indexedDB.open.bind(indexedDB);
const bytes = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/** The key IndexedDB holds now, read as the next page load would. */
async function keyInDb(): Promise<CryptoKey> {
  const db = await new Promise<IDBDatabase>((ok, ko) => {
    const open = realOpen('reaction-blocks', 1);
    open.onsuccess = () => ok(open.result);
    open.onerror = () => ko(open.error);
  });
  try {
    return await new Promise<CryptoKey>((ok, ko) => {
      const get = db.transaction('keys').objectStore('keys').get('storage');
      get.onsuccess = () => ok(get.result as CryptoKey);
      get.onerror = () => ko(get.error);
    });
  } finally {
    db.close();
  }
}

describe('a storage key that answers late, for a new visitor', () => {
  it('keeps what the page wrote meanwhile, sealed with the key the next load finds', async () => {
    localStorage.clear();
    (indexedDB as unknown as { open: (n: string, v?: number) => object }).open = (name, v) => {
      const late: Record<string, unknown> = {};
      setTimeout(() => {
        const open = realOpen(name, v);
        open.onupgradeneeded = () => (
          (late.result = open.result),
          (late.onupgradeneeded as () => void)?.()
        );
        open.onsuccess = () => ((late.result = open.result), (late.onsuccess as () => void)?.());
        open.onerror = () => ((late.error = open.error), (late.onerror as () => void)?.());
      }, 3500);
      return late;
    };
    const profile = { name: 'Slow Otter', color: '#224466' };
    write(PROFILE_KEY, profile);
    await flush(PROFILE_KEY);
    expect(await storageKey(), 'the page goes on without a key').to.equal(null);
    expect(localStorage.getItem(PROFILE_KEY), 'nothing kept yet').to.equal(null);
    expect(peek(PROFILE_KEY)).to.deep.equal(profile);
    // the key answers: what the page wrote is kept
    await until(() => localStorage.getItem(PROFILE_KEY), HUNG);
    await flush(PROFILE_KEY);
    const raw = localStorage.getItem(PROFILE_KEY)!;
    expect(raw.startsWith('rb1.')).to.equal(true);
    const [iv = '', data = ''] = raw.slice(4).split('.');
    const opened = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes(iv), additionalData: new TextEncoder().encode(PROFILE_KEY) },
      await keyInDb(),
      bytes(data),
    );
    expect(JSON.parse(new TextDecoder().decode(opened))).to.deep.equal(profile);
    // and later writes seal with it at once
    write(PROFILE_KEY, { ...profile, name: 'Quick Otter' });
    await flush(PROFILE_KEY);
    expect(localStorage.getItem(PROFILE_KEY)).to.not.equal(raw);
    expect(localStorage.getItem(PROFILE_KEY)!.startsWith('rb1.')).to.equal(true);
  });
});
