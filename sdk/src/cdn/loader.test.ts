import { expect } from '@open-wc/testing';
import { SKELETON_HEIGHTS, reservedHeightsCss } from '../core/skeleton-heights.js';
import { until } from '../test/mock-api.js';

type W = Window & {
  __reactionBlocksLoader?: boolean;
  ReactionBlocks?: { projectUrl?: string; anonKey?: string };
};

// The loader is served as the CDN serves it, a bundled classic script (/__cdn/reaction.js, see
// web-test-runner.config.mjs); the element chunks it asks for do not exist next to it, so each
// import fails and is logged (never thrown): the log tells which chunk it chose.
function addLoader(): void {
  const s = document.createElement('script');
  s.src = '/__cdn/reaction.js';
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
      // Two new tag types at once: each type's file in shared/ (they share Lit and the core).
      document.body.append(
        document.createElement('reaction-ab'),
        document.createElement('reaction-comment'),
      );
      await until(() => logged.length > 2);
      await new Promise((r) => setTimeout(r, 100));
      expect(logged.length).to.equal(3);
      expect(logged.slice(1).join(' '))
        .to.contain('/shared/ab.js')
        .and.contain('/shared/comment.js');
      // one more type on the page: its file in shared/ too (Lit and the core already there)
      document.body.append(document.createElement('reaction-button'));
      await until(() => logged.length > 3);
      expect(logged[3]).to.contain('/shared/button.js');
      // <reaction-block>: block.js, with all six; nothing more is asked for after it
      document.body.append(document.createElement('reaction-block'));
      await until(() => logged.length > 4);
      document.body.append(document.createElement('reaction-form'));
      await new Promise((r) => setTimeout(r, 100));
      expect(logged.length).to.equal(5);
      expect(logged[4]).to.contain('/block.js');
    } finally {
      console.warn = warn;
    }
  });

  it('gives a page with a form and a comment or Q&A six.js, one file lighter than their shared ones', async () => {
    const logged: string[] = [];
    const warn = console.warn;
    console.warn = (...a: unknown[]) => void logged.push(a.map(String).join(' '));
    // a page of its own: the loader of the test above has taken block.js already
    const frame = document.createElement('iframe');
    try {
      document.body.append(frame);
      const doc = frame.contentDocument!;
      (frame.contentWindow as unknown as { console: Console }).console.warn = console.warn;
      doc.body.append(doc.createElement('reaction-form'), doc.createElement('reaction-qna'));
      const s = doc.createElement('script');
      s.src = '/__cdn/reaction.js';
      doc.head.append(s);
      await until(() => logged.length > 0);
      await new Promise((r) => setTimeout(r, 100));
      expect(logged.length).to.equal(1);
      expect(logged[0]).to.contain('/six.js');
      // the viewer still loads block.js on such a page
      doc.body.append(doc.createElement('reaction-block'));
      await until(() => logged.length > 1);
      expect(logged[1]).to.contain('/block.js');
    } finally {
      console.warn = warn;
      frame.remove();
    }
  });

  it('loads count.js for <reaction-count> beside any other chunk, with no height reserved', async () => {
    const logged: string[] = [];
    const warn = console.warn;
    console.warn = (...a: unknown[]) => void logged.push(a.map(String).join(' '));
    try {
      // block.js was already asked for above: the count still gets its own small chunk
      const count = document.createElement('reaction-count');
      document.body.append(count, document.createElement('reaction-qna'));
      await until(() => logged.length > 0);
      await new Promise((r) => setTimeout(r, 100));
      expect(logged.length).to.equal(1);
      expect(logged[0]).to.contain('/count.js');
      // an inline count in a line of text: it keeps no skeleton's height
      expect(getComputedStyle(count).display).to.equal('inline');
    } finally {
      console.warn = warn;
    }
  });

  it('reserves each tag the height of its skeleton until its code arrives', async () => {
    addLoader(); // a second copy: the first one already ran and set the style up
    for (const [kind, h] of Object.entries(SKELETON_HEIGHTS)) {
      const el = document.createElement('reaction-' + kind);
      document.body.append(el);
      expect(customElements.get('reaction-' + kind), kind).to.equal(undefined);
      expect(el.getBoundingClientRect().height, kind).to.equal(h);
      el.remove();
    }
  });

  it("reserves the page's own heights: --reaction-height for a panel, --reaction-form-height for a form", async () => {
    for (const [kind, prop] of [
      ['comment', '--reaction-height'],
      ['qna', '--reaction-height'],
      ['form', '--reaction-form-height'],
    ]) {
      const el = document.createElement('reaction-' + kind);
      el.style.setProperty(prop!, '700px');
      document.body.append(el);
      expect(el.getBoundingClientRect().height, kind).to.equal(700);
      el.remove();
    }
  });
  /**
   * A page of its own (an iframe) painted with a line of text and a <reaction-like> before the
   * loader runs, as with defer or async; `head` is put in its <head> first. Answers what the
   * loader warned and the block's height just before the loader ran.
   */
  async function loadAfterPaint(head: string): Promise<{ warned: string[]; height: number }> {
    const warned: string[] = [];
    const frame = document.createElement('iframe');
    try {
      document.body.append(frame);
      const win = frame.contentWindow!;
      const doc = frame.contentDocument!;
      (win as unknown as { console: Console }).console.warn = (...a: unknown[]) =>
        void warned.push(a.map(String).join(' '));
      doc.head.innerHTML = head;
      const p = doc.createElement('p');
      p.textContent = 'A post';
      const like = doc.createElement('reaction-like');
      doc.body.append(p, like);
      await until(() => win.performance.getEntriesByType('paint').length > 0);
      const height = like.getBoundingClientRect().height;
      const s = doc.createElement('script');
      s.src = '/__cdn/reaction.js';
      doc.head.append(s);
      await until(() => warned.some((w) => w.includes('/like.js')));
      return { warned, height };
    } finally {
      frame.remove();
    }
  }

  it('warns when it runs after the first paint with a block laid out and no height reserved', async () => {
    const { warned, height } = await loadAfterPaint('');
    expect(height).to.equal(0);
    expect(warned.join('\n')).to.contain('ran after the page was painted');
  });

  it("does not warn when the page's <head> reserves the heights itself (the docs' deferred snippet)", async () => {
    const { warned, height } = await loadAfterPaint(`<style>${reservedHeightsCss()}</style>`);
    expect(height).to.equal(SKELETON_HEIGHTS.like);
    expect(warned.join('\n')).not.to.contain('painted');
  });
});
