// What the SDK keeps in localStorage is sealed (core/storage.ts, core/vault.ts): the writer's
// profile and the session never stand there in plain; the key cannot be exported; a corrupt,
// altered, moved or undecryptable value is replaced by a new anonymous one; plain JSON from
// before is sealed once. newPage() forgets the page's opened values, as a new page would.
import { expect } from '@open-wc/testing';
import { ensureSession } from './auth.js';
import { getSession, loadSession, sessionKey } from './session.js';
import { getIdentity, keepProfile, profileReady, setProfile } from './identity.js';
import { flush, LEGACY_PROFILE_KEY, load, PROFILE_KEY, write } from './storage.js';
import { storageKey } from './vault.js';
import { fakeJwt, KEY, mockApi, newPage, PROJECT, reset, until } from '../test/mock-api.js';
import { keyInDb } from '../test/slow-storage.js';

const p = { url: PROJECT, key: KEY };
const SESSION = sessionKey(PROJECT);

const sealed = (key: string) => {
  const raw = localStorage.getItem(key);
  expect(raw, key).to.be.a('string');
  expect(raw!.startsWith('rb1.'), raw!).to.equal(true);
  return raw!;
};

describe('sealed storage', () => {
  beforeEach(reset);

  it('keeps the profile sealed once the visitor writes, and opens it on the next page', async () => {
    const made = getIdentity();
    // answered once it is in storage (the write goes then: core/writer.ts)
    await keepProfile();
    sealed(PROFILE_KEY);
    setProfile({ homeUrl: 'https://otter.example/me', email: 'otter@example.com' });
    await flush(PROFILE_KEY);
    const raw = sealed(PROFILE_KEY);
    for (const plain of [made.name, made.color, 'otter.example', 'otter@example.com'])
      expect(raw).not.to.contain(plain);
    newPage();
    expect(await profileReady()).to.deep.equal({
      ...made,
      homeUrl: 'https://otter.example/me',
      email: 'otter@example.com',
    });
  });

  it('seals the session: no token, user id or email in localStorage, and it works after a reload', async () => {
    const api = mockApi({});
    try {
      const s = (await ensureSession(p, true))!;
      await flush(SESSION);
      const raw = sealed(SESSION);
      for (const plain of [s.access_token, s.refresh_token, s.user.id, 'eyJ'])
        expect(raw).not.to.contain(plain);
      newPage();
      expect(getSession(p)).to.equal(null); // not opened yet
      expect((await loadSession(p))!.access_token).to.equal(s.access_token);
      expect(getSession(p)!.user.id).to.equal(s.user.id);
      // no second sign-up: the stored session is used
      expect((await ensureSession(p, true))!.user.id).to.equal(s.user.id);
      expect(api.calls.filter((c) => c.name === '/auth/v1/signup')).to.have.length(1);
    } finally {
      api.restore();
    }
  });

  it('seals what was stored in plain JSON before, once, and keeps using it', async () => {
    const token = fakeJwt('old-user', { is_anonymous: true });
    localStorage.setItem(
      SESSION,
      JSON.stringify({
        access_token: token,
        refresh_token: 'r',
        expires_at: Date.now() / 1000 + 3600,
        user: { id: 'old-user', is_anonymous: true },
      }),
    );
    localStorage.setItem(LEGACY_PROFILE_KEY, JSON.stringify({ name: 'Old Owl', color: '#283593' }));
    expect(getIdentity()).to.deep.equal({ name: 'Old Owl', color: '#283593' });
    expect((await loadSession(p))!.user.id).to.equal('old-user');
    await flush(SESSION);
    await flush(PROFILE_KEY);
    await until(() => localStorage.getItem(LEGACY_PROFILE_KEY) === null);
    expect(sealed(SESSION)).not.to.contain(token);
    expect(sealed(PROFILE_KEY)).not.to.contain('Old Owl');
    newPage();
    expect((await profileReady()).name).to.equal('Old Owl');
    expect((await loadSession(p))!.access_token).to.equal(token);
  });

  it('replaces a corrupt, altered or undecryptable profile by a new anonymous one, never an error', async () => {
    setProfile({ name: 'Keeper' });
    await flush(PROFILE_KEY);
    const raw = sealed(PROFILE_KEY);
    const cases = [
      '{not json',
      JSON.stringify({ name: 5, color: 'red' }),
      'rb1.garbage',
      'rb1.' + 'A'.repeat(16) + '.' + 'B'.repeat(40),
      // one character of the ciphertext changed: GCM's tag refuses it
      raw.slice(0, -3) + (raw.at(-3) === 'A' ? 'B' : 'A') + raw.slice(-2),
    ];
    for (const bad of cases) {
      newPage();
      localStorage.setItem(PROFILE_KEY, bad);
      const id = await profileReady();
      expect(id.name, bad).not.to.equal('Keeper');
      expect(id.color, bad).to.match(/^#[0-9a-f]{6}$/);
      // the bad value is gone: nothing stored, or the new profile, sealed
      await flush(PROFILE_KEY);
      const now = localStorage.getItem(PROFILE_KEY);
      expect(now, bad).not.to.equal(bad);
      if (now != null) expect(now.startsWith('rb1.'), bad).to.equal(true);
    }
  });

  it('refuses a sealed value moved into another slot', async () => {
    setProfile({ name: 'Mover' });
    await flush(PROFILE_KEY);
    newPage();
    localStorage.setItem(SESSION, sealed(PROFILE_KEY));
    expect(await loadSession(p)).to.equal(null);
    expect(localStorage.getItem(SESSION)).to.equal(null);
  });

  it("never hands a project's session to an element of another project on the same page", async () => {
    const api = mockApi({});
    try {
      const s = (await ensureSession(p, true))!;
      const other = { url: 'https://attacker.example', key: 'their-key' };
      expect(getSession(other)).to.equal(null);
      expect(await loadSession(other)).to.equal(null);
      expect(await ensureSession(other, false)).to.equal(null);
      expect(sessionKey(other.url)).not.to.equal(SESSION);
      // a trailing slash is the same project
      expect(sessionKey(PROJECT + '/')).to.equal(SESSION);
      expect(getSession({ url: PROJECT, key: KEY })!.access_token).to.equal(s.access_token);
    } finally {
      api.restore();
    }
  });

  it('uses a key no script can export, kept in IndexedDB, the same for every script of the origin', async () => {
    const key = (await storageKey())!;
    expect(key.extractable).to.equal(false);
    expect(key.algorithm.name).to.equal('AES-GCM');
    let exported = true;
    await crypto.subtle.exportKey('raw', key).catch(() => (exported = false));
    expect(exported).to.equal(false);
    const stored = await keyInDb();
    expect(stored.extractable).to.equal(false);
    // a value sealed with this key opens with the stored one (what another bundle would use)
    const data = new TextEncoder().encode('x');
    const iv = new Uint8Array(12);
    const ct = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, data);
    const back = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, stored, ct);
    expect(new TextDecoder().decode(back)).to.equal('x');
  });

  it('tells every element of the page, and other tabs, when a value changes', async () => {
    const seen: string[] = [];
    const { subscribe } = await import('./storage.js');
    const off = subscribe((k) => seen.push(k));
    try {
      write(SESSION, { access_token: 'a', refresh_token: 'r', expires_at: 1, user: { id: 'u' } });
      expect(seen).to.deep.equal([SESSION]);
      await flush(SESSION);
      // another tab signs out: the storage event reaches the page, the value is read again
      const before = localStorage.getItem(SESSION);
      localStorage.removeItem(SESSION);
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION, oldValue: before }));
      await until(() => seen.length === 2);
      expect(await load(SESSION)).to.equal(null);
    } finally {
      off();
    }
  });
});
