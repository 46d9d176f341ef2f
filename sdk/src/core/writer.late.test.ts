// A visitor's first action before the writer's code (core/writer.ts) has arrived is not lost: it
// shows at once, waits for the code, and is sent once. Keyboard only: focusing the block starts
// the load. In a browser of its own (the web-test-runner group first-interaction), so nothing has
// the writer's code in its cache; the code failing to load is tested on the built CDN files
// (e2e/stack.e2e.ts).
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { $, until } from '../test/mock-api.js';
import { holdNext, modulePath, mountLike, release, requested } from '../test/request-control.js';

const WRITER = modulePath('./writer.js', import.meta.url);

describe('a click before the writer arrives', () => {
  it('shows at once, waits for the code, then sends the one like (keyboard only)', async function (this: {
    timeout(ms: number): void;
  }) {
    this.timeout(30000);
    localStorage.clear();
    const { el, api, btn } = await mountLike();
    try {
      expect(await requested(WRITER)).to.equal(0);
      await holdNext(WRITER);
      // Tab to the button: the focus starts loading the writer's code
      await sendKeys({ press: 'Tab' });
      await until(() => el.shadowRoot!.activeElement === btn, 10000);
      for (let n = 0; (await requested(WRITER)) !== 1; n++)
        if (n > 200) throw new Error('the focus did not start loading the code');
      await sendKeys({ press: 'Enter' });
      await until(() => btn.getAttribute('aria-pressed') === 'true', 10000);
      expect(btn.textContent!.trim()).to.equal('8 Likes');
      expect(api.rpcNames()).to.deep.equal(['get_block_public']);
      await release(WRITER);
      await until(() => api.rpcNames().includes('toggle_block_like'), 10000);
      await until(() => btn.textContent!.trim() === '8 Likes' && !$(el, '[role=alert]'), 10000);
      expect(api.rpcNames().filter((n) => n === 'toggle_block_like')).to.have.length(1);
      expect(api.calls.find((c) => c.name === 'toggle_block_like')!.body.p_liked).to.equal(true);
      expect(await requested(WRITER)).to.equal(1);
    } finally {
      api.restore();
    }
  });
});
