// The form's sanitiser (rich.ts) loads only for a form that shows owner-written HTML: a form
// without a description question shows its first data without it; one with a description keeps
// its skeleton until it is here, so the description never appears after the rest. In a browser of
// its own (the web-test-runner group first-interaction): another page's copy of the module in the
// cache would be taken without a request. The chunk failing to load is tested on the built CDN
// files (e2e/stack.e2e.ts).
import { expect, fixture, html } from '@open-wc/testing';
import './form.js';
import type ReactionForm from './form.component.js';
import type { Question } from '../../core/types.js';
import { B1, $, KEY, PROJECT, block, mockApi, until } from '../../test/mock-api.js';
import {
  holdNext,
  modulePath,
  release,
  requested,
  requestedOnce,
  itLate,
} from '../../test/request-control.js';

const RICH = modulePath('./rich.js', import.meta.url);
const poll: Question = {
  id: 'poll',
  type: 'poll',
  title: 'Pick',
  index: 0,
  required: true,
  options: [{ id: 'a', value: 'Apple', index: 0 }],
};
const description: Question = {
  id: 'desc',
  type: 'description',
  title: 'About',
  index: 1,
  content: '<p>Hi <b>there</b><img src=x onerror="window.__x=1"></p>',
};

async function mount(questions: Question[]) {
  const api = mockApi({
    get_block_view: () => ({ block: block({ type: 'form' }), questions, endings: [] }),
  });
  const el = await fixture<ReactionForm>(
    html`<reaction-form block-id=${B1} project-url=${PROJECT} anon-key=${KEY}></reaction-form>`,
  );
  return { el, api };
}

describe("the form's sanitiser", () => {
  itLate(
    'is not loaded for a form without a description; one with keeps its skeleton until it is here',
    async () => {
      const plain = await mount([poll]);
      try {
        await until(() => plain.el['_status'] === 'ready', 20000);
        await plain.el.updateComplete;
        expect($(plain.el, '[part=choice]')).to.not.equal(null);
        expect(await requested(RICH)).to.equal(0);
      } finally {
        plain.api.restore();
      }
      await holdNext(RICH);
      const described = await mount([poll, description]);
      try {
        await requestedOnce(RICH, 'the description');
        await described.el.updateComplete;
        expect(described.el['_status']).to.equal('loading');
        expect($(described.el, '[part~=skeleton]')).to.not.equal(null);
        expect($(described.el, '[part=choice]')).to.equal(null);
        await release(RICH);
        await until(() => described.el['_status'] === 'ready', 20000);
        await described.el.updateComplete;
        const desc = $(described.el, '[part=description]');
        expect(desc.innerHTML).to.contain('<b>there</b>');
        expect(desc.querySelector('img,[onerror]')).to.equal(null);
        expect($(described.el, '[part=choice]')).to.not.equal(null);
      } finally {
        described.api.restore();
      }
    },
  );
});
