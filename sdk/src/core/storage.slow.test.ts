// IndexedDB that works but answers after the storage key's 3 s (core/vault.ts): the page goes on
// without a key, and what a visit before kept stays for a page that can open it. Before: the
// kept profile and session were read as sealed with a lost key and deleted (rev-break2 S1). A file
// of its own: the slow open replaces indexedDB.open for the whole page.
import { expect } from '@open-wc/testing';
import { getIdentity } from './identity.js';
import { flush, load, peek, write } from './storage.js';
import { PROFILE_KEY } from './stored.js';
import { storageKey } from './vault.js';
import { until } from '../test/mock-api.js';
import { answerLater, earlierKey, sealedWith } from '../test/slow-storage.js';

/** A bound on a hung test, not a measure. */
const HUNG = 15_000;

/** A visit before this one: its key in IndexedDB, `profile` sealed with it in localStorage. */
async function keptBefore(profile: object): Promise<string> {
  const sealed = await sealedWith(await earlierKey(), PROFILE_KEY, profile);
  localStorage.setItem(PROFILE_KEY, sealed);
  return sealed;
}

describe('storage that answers after the key gave up', () => {
  it('keeps what a visit before kept; this page writes for itself, under one name', async () => {
    const sealed = await keptBefore({ name: 'Blue Fox', color: '#123456' });
    // this visit: IndexedDB answers, but only after the page gave the key up
    const answer = answerLater();
    expect(await load(PROFILE_KEY), 'not opened without a key').to.equal(null);
    expect(localStorage.getItem(PROFILE_KEY), 'the kept profile').to.equal(sealed);
    // the page's own new profile: the same name every time it is asked
    const name = getIdentity().name;
    expect(getIdentity().name).to.equal(name);
    expect(localStorage.getItem(PROFILE_KEY)).to.equal(sealed);
    // a write of this page lives for the page, and leaves the kept one
    write(PROFILE_KEY, { name: 'Page Only', color: '#654321' });
    await flush(PROFILE_KEY);
    expect(peek(PROFILE_KEY)).to.deep.equal({ name: 'Page Only', color: '#654321' });
    expect(localStorage.getItem(PROFILE_KEY), 'the kept profile after a write').to.equal(sealed);
    // the key answers late: the kept profile stays as it is, and opens on this page too
    answer();
    await until(async () => (await storageKey()) != null, HUNG);
    await until(() => getIdentity().name === 'Blue Fox', HUNG);
    await flush(PROFILE_KEY);
    expect(localStorage.getItem(PROFILE_KEY), 'the kept profile after the key').to.equal(sealed);
  });
});
