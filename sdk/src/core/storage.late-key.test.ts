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
import { answerLater, keyInDb, openedWith } from '../test/slow-storage.js';

/** A bound on a hung test, not a measure. */
const HUNG = 15_000;
describe('a storage key that answers late, for a new visitor', () => {
  it('keeps what the page wrote meanwhile, sealed with the key the next load finds', async () => {
    localStorage.clear();
    const answer = answerLater();
    const profile = { name: 'Slow Otter', color: '#224466' };
    write(PROFILE_KEY, profile);
    await flush(PROFILE_KEY);
    expect(await storageKey(), 'the page goes on without a key').to.equal(null);
    expect(localStorage.getItem(PROFILE_KEY), 'nothing kept yet').to.equal(null);
    expect(peek(PROFILE_KEY)).to.deep.equal(profile);
    // the key answers: what the page wrote is kept
    answer();
    await until(() => localStorage.getItem(PROFILE_KEY), HUNG);
    await flush(PROFILE_KEY);
    const raw = localStorage.getItem(PROFILE_KEY)!;
    expect(raw.startsWith('rb1.')).to.equal(true);
    expect(await openedWith(await keyInDb(), PROFILE_KEY, raw)).to.deep.equal(profile);
    // and later writes seal with it at once
    write(PROFILE_KEY, { ...profile, name: 'Quick Otter' });
    await flush(PROFILE_KEY);
    expect(localStorage.getItem(PROFILE_KEY)).to.not.equal(raw);
    expect(localStorage.getItem(PROFILE_KEY)!.startsWith('rb1.')).to.equal(true);
  });
});
