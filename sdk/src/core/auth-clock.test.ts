// rev-visitor4 (outside tester): a device whose clock is ahead of the auth server's by more than
// the token's life minus a minute never had a "fresh" session, because auth.ts kept the server's
// `expires_at` (the server's clock) and compared it with Date.now(). Measured on the local stack
// through a proxy (device about an hour fast): the first like worked, every later write said
// "Couldn't reach the server", each try spent a refresh, and on reload the visitor was shown
// signed out. The session's life is now counted from `expires_in` on this device's clock.
import { expect } from '@open-wc/testing';
import { ensureSession } from './auth.js';
import { fakeJwt, KEY, PROJECT, reset } from '../test/mock-api.js';

describe('session life and the device clock', () => {
  beforeEach(reset);

  it('takes a session as fresh for expires_in on this clock when the server clock is behind', async () => {
    const real = window.fetch;
    // the auth server's clock two hours behind this device's
    const serverNow = Math.floor(Date.now() / 1000) - 2 * 3600;
    let calls = 0;
    window.fetch = async (u, i) => {
      if (!String(u).includes('/auth/v1/')) return real(u, i);
      calls++;
      return Response.json({
        access_token: fakeJwt('u1', { exp: serverNow + 3600 }),
        refresh_token: 'r' + calls,
        expires_in: 3600,
        expires_at: serverNow + 3600,
        user: { id: 'u1', is_anonymous: true },
      });
    };
    try {
      const p = { url: PROJECT, key: KEY };
      const first = await ensureSession(p, true);
      expect(first).to.not.equal(null);
      // the next write within the hour uses the same session, with no refresh
      const next = await ensureSession(p, true);
      expect(next?.refresh_token).to.equal(first!.refresh_token);
      expect(calls).to.equal(1);
    } finally {
      window.fetch = real;
    }
  });
});
