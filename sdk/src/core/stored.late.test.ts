// A reader loads none of the sealed store's code (core/storage.ts, core/vault.ts): with nothing
// stored an element carries only core/stored.ts. A session another tab keeps before this page has
// loaded that code is opened all the same (core/session.ts onAuthChange), and the element hears of
// it. In a browser of its own (the web-test-runner group first-interaction): another page's copy
// of the module in the cache would be taken without a request.
import { expect } from '@open-wc/testing';
import { fakeJwt, PROJECT, until } from '../test/mock-api.js';
import { modulePath, mountLike, requested, itLate } from '../test/request-control.js';
import { sessionKey } from './session-key.js';

const STORAGE = modulePath('./storage.js', import.meta.url);
const VAULT = modulePath('./vault.js', import.meta.url);

describe('the sealed store and a reader', () => {
  itLate(
    'is not loaded for a reader; a session another tab keeps is opened and heard',
    async () => {
      const { el, api } = await mountLike();
      try {
        expect(await requested(STORAGE)).to.equal(0);
        expect(await requested(VAULT)).to.equal(0);
        expect(el['_session']).to.equal(null);
        // another tab signs in: its session lands in localStorage (here as an older SDK kept it, in
        // plain JSON, which this page seals) and this page hears the storage event
        const key = sessionKey(PROJECT);
        const raw = JSON.stringify({
          access_token: fakeJwt('u-other'),
          refresh_token: 'r',
          expires_at: Date.now() / 1000 + 3600,
          user: { id: 'u-other', is_anonymous: false },
        });
        localStorage.setItem(key, raw);
        window.dispatchEvent(new StorageEvent('storage', { key, newValue: raw }));
        await until(() => el['_session']?.user.id === 'u-other', 20000);
        expect(await requested(STORAGE)).to.equal(1);
        // sealed once opened: the plain copy does not stay
        await until(() => localStorage.getItem(key)!.startsWith('rb1.'), 20000);
      } finally {
        api.restore();
      }
    },
  );
});
