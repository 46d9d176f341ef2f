// A returning visitor on a slow device: IndexedDB answers, but after the storage key's 3 s
// (core/vault.ts). The page goes on without a key, and meanwhile shows a random name and may sign
// up a new anonymous user. When the key answers, one rule settles every value (rev-break3 S1, S2,
// S3, S5): a value kept before that opens wins on this page too, one that does not open is dropped
// and the page's own kept in its place, and a page never ends with one visitor's session beside
// another's marks. A file of its own: the slow open replaces indexedDB.open for the whole page.
import { expect } from '@open-wc/testing';
import { getIdentity, profileReady } from './identity.js';
import { flush, load, peek, write } from './storage.js';
import { PROFILE_KEY } from './stored.js';
import { storageKey } from './vault.js';
import { until } from '../test/mock-api.js';
import { answerLater, earlierKey, sealedWith } from '../test/slow-storage.js';

/** A bound on a hung test, not a measure. */
const HUNG = 15_000;
const SESSION = 'sb-late-auth-token';
const MARKS = 'reaction-blocks.late-marks';
const STALE = 'sb-stale-auth-token';
const OTHER_TAB = 'sb-tab-auth-token';
describe('a storage key that answers late, for a returning visitor', () => {
  it('settles every value by one rule: a kept one wins, a lost one gives way', async () => {
    localStorage.clear();
    const key = await earlierKey();
    const kept = {
      [PROFILE_KEY]: await sealedWith(key, PROFILE_KEY, { name: 'Blue Fox', color: '#123456' }),
      [SESSION]: await sealedWith(key, SESSION, { user: 'S0' }),
      [MARKS]: await sealedWith(key, MARKS, { u: 'S0', b: ['liked-before'] }),
      [STALE]: await sealedWith(await earlierKey(false), STALE, { user: 'gone' }),
    };
    for (const [slot, value] of Object.entries(kept)) localStorage.setItem(slot, value);
    const answer = answerLater();

    // without the key: a random name shows, and a like signs up a new anonymous user
    const shown = await profileReady();
    expect(shown.name).to.not.equal('Blue Fox');
    expect(await load(SESSION)).to.equal(null);
    write(SESSION, { user: 'S1' });
    write(MARKS, { u: 'S1', b: ['first-like'] });
    write(STALE, { user: 'new' });
    write(OTHER_TAB, { user: 'mine' });
    await Promise.all([SESSION, MARKS, STALE, OTHER_TAB].map(flush));
    expect(await storageKey(), 'the page went on without a key').to.equal(null);
    // another tab, whose key answered, seals its session: this page keeps its own meanwhile
    const theirs = await sealedWith(key, OTHER_TAB, { user: 'theirs' });
    localStorage.setItem(OTHER_TAB, theirs);
    dispatchEvent(new StorageEvent('storage', { key: OTHER_TAB, newValue: theirs }));
    await until(() => peek(OTHER_TAB) != null);
    expect(await load(OTHER_TAB)).to.deep.equal({ user: 'mine' });

    // the key answers: what was kept opens and wins, here too; the lost one gives way
    answer();
    await until(async () => (await storageKey()) != null, HUNG);
    await until(() => getIdentity().name === 'Blue Fox', HUNG);
    await until(() => (peek(SESSION) as { user?: string } | null)?.user === 'S0');
    expect(peek(MARKS)).to.deep.equal({ u: 'S0', b: ['liked-before'] });
    expect(peek(OTHER_TAB)).to.deep.equal({ user: 'theirs' });
    for (const slot of [PROFILE_KEY, SESSION, MARKS] as const)
      expect(localStorage.getItem(slot), slot).to.equal(kept[slot]);
    expect(localStorage.getItem(OTHER_TAB)).to.equal(theirs);
    await until(() => localStorage.getItem(STALE) !== kept[STALE]);
    await flush(STALE);
    expect(peek(STALE)).to.deep.equal({ user: 'new' });
    expect(await load(STALE, true), 'sealed with the key now').to.deep.equal({ user: 'new' });

    // the page's next writes go on from the kept visitor's values: never one's session with
    // another's marks
    write(MARKS, { ...(peek(MARKS) as object), b: ['liked-before', 'second-like'] });
    await flush(MARKS);
    expect(await load(MARKS, true)).to.deep.equal({ u: 'S0', b: ['liked-before', 'second-like'] });
    expect(await load(SESSION, true)).to.deep.equal({ user: 'S0' });
  });
});
