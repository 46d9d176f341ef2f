// The dashboard's session storage (auth-js adapter over the SDK's sealed store). jsdom has no
// IndexedDB, so no key can be kept here: values live for the page and nothing is written, least
// of all in plain; the sealing itself is tested in Chromium (sdk/src/core/storage.test.ts) and
// end to end (e2e/own-block.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { sessionKey, write } from '../../../sdk/src/core/storage';
import { storedSession } from '../test/utils';
import { AUTH_STORAGE_KEY, LEGACY_AUTH_STORAGE_KEY, mayHaveSession } from './auth-storage';
import { env } from './env';
import { onSessionStored, sealedStorage } from './sealed-storage';

afterEach(async () => {
  await sealedStorage.removeItem(AUTH_STORAGE_KEY);
  window.localStorage.clear();
});

describe('sealedStorage', () => {
  it("is the SDK's session key for this project, so the elements on this origin share it", () => {
    expect(AUTH_STORAGE_KEY).toBe(sessionKey(env.supabaseUrl));
    expect(AUTH_STORAGE_KEY).toBe('reaction-blocks.session:http://127.0.0.1:54321');
  });

  it('gives back what auth-js stores, and never writes it in plain', async () => {
    await sealedStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify(storedSession));
    expect(JSON.parse((await sealedStorage.getItem(AUTH_STORAGE_KEY))!)).toEqual(storedSession);
    // no IndexedDB here, so no key: kept for the page only
    expect(Object.values(window.localStorage).join()).not.toContain('refresh-1');
    await sealedStorage.removeItem(AUTH_STORAGE_KEY);
    expect(await sealedStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
  });

  it('takes the session the dashboard kept in plain before, once, and removes the plain copy', async () => {
    window.localStorage.setItem(LEGACY_AUTH_STORAGE_KEY, JSON.stringify(storedSession));
    expect(mayHaveSession('', '')).toBe(true);
    expect(JSON.parse((await sealedStorage.getItem(AUTH_STORAGE_KEY))!)).toEqual(storedSession);
    expect(window.localStorage.getItem(LEGACY_AUTH_STORAGE_KEY)).toBeNull();
    expect(Object.values(window.localStorage).join()).not.toContain('refresh-1');
  });

  it('drops a corrupt plain session', async () => {
    window.localStorage.setItem(LEGACY_AUTH_STORAGE_KEY, '{not json');
    expect(await sealedStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
    expect(window.localStorage.getItem(LEGACY_AUTH_STORAGE_KEY)).toBeNull();
  });

  it("hears the SDK's elements change the session (a block's Log out), and only that key", async () => {
    let heard = 0;
    const off = onSessionStored(() => heard++);
    try {
      write(sessionKey('https://other-project.example'), storedSession);
      expect(heard).toBe(0);
      write(AUTH_STORAGE_KEY, storedSession);
      write(AUTH_STORAGE_KEY, null);
      expect(heard).toBe(2);
    } finally {
      off();
    }
  });
});
