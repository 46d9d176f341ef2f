import { expect } from '@open-wc/testing';
import { until } from '../test/mock-api.js';

type W = Window & {
  __reactionBlocksLoader?: boolean;
  ReactionBlocks?: { projectUrl?: string; anonKey?: string };
};

// The loader is served as a classic script; the element chunks it asks for do not exist next to
// the source, so each import fails and is logged (never thrown): the log tells which chunk it chose.
function addLoader(): void {
  const s = document.createElement('script');
  s.src = new URL('./loader.ts', import.meta.url).href;
  s.dataset.projectUrl = 'http://cfg.test';
  s.dataset.anonKey = 'k';
  document.head.append(s);
}

describe('cdn loader', () => {
  it('imports only the chunk of the tag on the page, reads data-* config and is safe when loaded twice', async () => {
    const logged: string[] = [];
    const warn = console.warn;
    console.warn = (...a: unknown[]) => void logged.push(a.map(String).join(' '));
    try {
      document.body.append(document.createElement('reaction-like'));
      addLoader();
      addLoader();
      await until(() => logged.length > 0);
      await new Promise((r) => setTimeout(r, 100));
      expect(logged.length).to.equal(1);
      expect(logged[0]).to.contain('[reaction-blocks]').and.contain('/like.js');
      const w = window as W;
      expect(w.ReactionBlocks).to.deep.equal({ projectUrl: 'http://cfg.test', anonKey: 'k' });
      // Two new tag types at once: one bundle with all of them.
      document.body.append(
        document.createElement('reaction-form'),
        document.createElement('reaction-comment'),
      );
      await until(() => logged.length > 1);
      await new Promise((r) => setTimeout(r, 100));
      expect(logged.length).to.equal(2);
      expect(logged[1]).to.contain('/block.js');
    } finally {
      console.warn = warn;
    }
  });
});
