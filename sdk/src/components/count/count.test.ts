import { expect, fixture, html } from '@open-wc/testing';
import './count.js';
import type ReactionCount from './count.component.js';
import { ApiError, KEY, PROJECT, mockApi, reset, until, withSession } from '../../test/mock-api.js';

/** A block id of the form the server uses; each test its own prefix (the page keeps answers). */
const uuid = (n: number, prefix = 'c') =>
  `${prefix.repeat(8)}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

interface Row {
  id: string;
  type: string;
  comments: number | null;
  likes: number | null;
  responses: number | null;
}
const row = (id: string, type: string, n: number): Row => ({
  id,
  type,
  comments: type === 'comment' || type === 'qna' ? n : null,
  likes: type === 'like' ? n : null,
  responses: ['button', 'ab', 'form'].includes(type) ? n : null,
});

/** The server: answers the ids it knows, in the order asked, and nothing for the others. */
function server(known: Record<string, Row>) {
  return mockApi({
    get_block_counts: (body) => {
      const ids = String(body.p_block_ids).replace(/[{}]/g, '').split(',').filter(Boolean);
      if (ids.length > 100) throw new ApiError(400, 'At most 100 blocks at once', '22023');
      return ids.flatMap((id) => (known[id] ? [known[id]] : []));
    },
  });
}

const text = (el: Element) => el.shadowRoot!.querySelector('[part=base]')!.textContent;
const idsOf = (call: { body: Record<string, unknown> }) =>
  String(call.body.p_block_ids).replace(/[{}]/g, '').split(',');

describe('reaction-count', () => {
  let api: ReturnType<typeof mockApi> | undefined;
  // The project as a site with the loader names it, once for the page (window.ReactionBlocks);
  // the first test names it on the tag, a later element by its properties.
  beforeEach(() => {
    reset();
    window.ReactionBlocks = { projectUrl: PROJECT, anonKey: KEY };
  });
  afterEach(() => {
    api?.restore();
    delete window.ReactionBlocks;
  });

  it('is accessible', async () => {
    delete window.ReactionBlocks; // this one names the project on its tag only
    const id = uuid(1, '0');
    api = server({ [id]: row(id, 'comment', 12) });
    const el = await fixture<ReactionCount>(
      html`<p>
        Post title ·
        <reaction-count block-id=${id} project-url=${PROJECT} anon-key=${KEY}></reaction-count>
      </p>`,
    );
    await until(() => text(el.querySelector('reaction-count')!) === '12 comments');
    await expect(el).to.be.accessible();
  });

  it('reads 50 counts of a page in one cacheable GET, with the anon key only and no sign-up', async () => {
    withSession('visitor-1'); // a visitor with a session still sends the same request as anyone
    const known: Record<string, Row> = {};
    for (let i = 0; i < 50; i++) known[uuid(i)] = row(uuid(i), 'comment', i);
    api = server(known);
    const ids = Object.keys(known).reverse(); // the page's order is not the request's
    const list = await fixture<HTMLElement>(
      html`<ul>
        ${ids.map(
          (id) =>
            html`<li>
              <reaction-count block-id=${id}></reaction-count>
            </li>`,
        )}
      </ul>`,
    );
    const els = [...list.querySelectorAll('reaction-count')];
    await until(() => els.every((el) => text(el) !== ''));
    expect(api.calls.map((c) => [c.name, c.method, c.auth])).to.deep.equal([
      ['get_block_counts', 'GET', 'Bearer ' + KEY],
    ]);
    // sorted, so the same blocks make the same URL on every page: one entry in a shared cache
    expect(idsOf(api.calls[0]!)).to.deep.equal([...ids].sort());
    expect(text(els[0]!)).to.equal('49 comments');
    expect(text(els[48]!)).to.equal('1 comment');
    expect(els[49]!.getAttribute('data-count')).to.equal('0');
  });

  it('splits more than 100 blocks into requests of 100, and never asks twice for a block', async () => {
    const known: Record<string, Row> = {};
    for (let i = 0; i < 150; i++) known[uuid(i, '9')] = row(uuid(i, '9'), 'like', 1);
    api = server(known);
    const ids = Object.keys(known);
    const list = await fixture<HTMLElement>(
      html`<div>
        ${[...ids, ids[0]!, ids[1]!].map(
          (id) => html`<reaction-count block-id=${id}></reaction-count>`,
        )}
      </div>`,
    );
    const els = [...list.querySelectorAll('reaction-count')];
    await until(() => els.every((el) => text(el) === '1 like'));
    expect(api.calls.map((c) => idsOf(c).length)).to.deep.equal([100, 50]);
    // a block already read is not asked for again by an element added later, one that names
    // the project by its properties only
    delete window.ReactionBlocks;
    const later = document.createElement('reaction-count');
    Object.assign(later, { projectUrl: PROJECT, anonKey: KEY, blockId: ids[3] });
    list.append(later);
    await until(() => text(later) === '1 like');
    expect(api.calls).to.have.length(2);
  });

  it("shows the block type's own count by default, another with kind, and the number alone", async () => {
    const [a, b, c, d] = [uuid(1, 'a'), uuid(2, 'a'), uuid(3, 'a'), uuid(4, 'a')];
    api = server({
      [a]: row(a, 'qna', 3),
      [b]: row(b, 'like', 1),
      [c]: row(c, 'form', 2),
      [d]: row(d, 'comment', 1204),
    });
    const box = await fixture<HTMLElement>(
      html`<div>
        <reaction-count block-id=${a}></reaction-count>
        <reaction-count block-id=${b}></reaction-count>
        <reaction-count block-id=${c}></reaction-count>
        <reaction-count block-id=${d} number></reaction-count>
        <reaction-count block-id=${c} kind="likes"></reaction-count>
      </div>`,
    );
    const els = [...box.querySelectorAll('reaction-count')];
    await until(() => text(els[3]!) !== '');
    expect(els.map(text)).to.deep.equal(['3 comments', '1 like', '2 responses', '1204', '']);
    // the form has no like count: nothing shows and the host carries no data-count
    expect(els[4]!.hasAttribute('data-count')).to.equal(false);
    expect(api.calls).to.have.length(1);
  });

  it('speaks Korean when the page or its lang attribute says so', async () => {
    const [a, b] = [uuid(1, 'b'), uuid(2, 'b')];
    api = server({ [a]: row(a, 'comment', 5), [b]: row(b, 'like', 2) });
    const box = await fixture<HTMLElement>(
      html`<div lang="ko">
        <reaction-count block-id=${a}></reaction-count>
        <reaction-count block-id=${b} lang="en"></reaction-count>
      </div>`,
    );
    const els = [...box.querySelectorAll('reaction-count')];
    await until(() => els.every((el) => text(el) !== ''));
    expect(els.map(text)).to.deep.equal(['댓글 5개', '2 likes']);
  });

  it('shows nothing for a missing, deactivated or malformed block, and never sends a malformed id', async () => {
    const [a, gone] = [uuid(1, 'd'), uuid(2, 'd')];
    api = server({ [a]: row(a, 'button', 7) });
    const box = await fixture<HTMLElement>(
      html`<div>
        <reaction-count block-id=${a}></reaction-count>
        <reaction-count block-id=${gone}></reaction-count>
        <reaction-count block-id="not-a-block');drop"></reaction-count>
      </div>`,
    );
    const els = [...box.querySelectorAll('reaction-count')];
    await until(() => text(els[0]!) === '7 responses');
    expect(els.slice(1).map(text)).to.deep.equal(['', '']);
    expect(api.calls).to.have.length(1);
    expect(idsOf(api.calls[0]!)).to.deep.equal([a, gone].sort());
  });

  it('a failed request shows nothing, throws nothing into the page, and is asked again later', async () => {
    const a = uuid(1, 'e');
    let fail = true;
    api = mockApi({
      get_block_counts: () => {
        if (fail) throw new ApiError(503, 'down');
        return [row(a, 'comment', 2)];
      },
    });
    const errors: unknown[] = [];
    const onError = (e: ErrorEvent) => errors.push(e.error);
    window.addEventListener('error', onError);
    try {
      const el = await fixture<ReactionCount>(
        html`<reaction-count block-id=${a}></reaction-count>`,
      );
      await until(() => api!.calls.length === 1);
      await new Promise((r) => setTimeout(r, 20));
      expect(text(el)).to.equal('');
      fail = false;
      el.blockId = a.toUpperCase(); // the same block: asked again, since the first answer failed
      await until(() => text(el) === '2 comments');
      expect(api.calls).to.have.length(2);
      expect(errors).to.deep.equal([]);
    } finally {
      window.removeEventListener('error', onError);
    }
  });

  it('renders counts as text, never as HTML', async () => {
    const a = uuid(1, 'f');
    api = mockApi({
      get_block_counts: () => [{ ...row(a, 'comment', 1), type: '<img src=x onerror=alert(1)>' }],
    });
    const el = await fixture<ReactionCount>(
      html`<reaction-count block-id=${a} kind="comments"></reaction-count>`,
    );
    await until(() => text(el) === '1 comment');
    expect(el.shadowRoot!.querySelector('img')).to.equal(null);
  });
});
