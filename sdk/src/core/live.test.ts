import { expect } from '@open-wc/testing';
import { watchBlock, type Change, type Counts, type Watcher } from './live.js';
import { mockApi, until, wait } from '../test/mock-api.js';
import { FakeSocket } from '../test/fake-socket.js';

/** What one element's watcher heard. */
function recorder() {
  const got = { changes: [] as Change[], counts: [] as Counts[], resyncs: 0 };
  const w: Watcher = {
    change: (c) => got.changes.push(c),
    counts: (c) => got.counts.push(c),
    resync: () => got.resyncs++,
  };
  return { got, w };
}

/** An element on screen, or far below the fold. */
function box(onScreen: boolean): HTMLElement {
  const el = document.createElement('div');
  el.style.cssText = `position:absolute;left:0;width:50px;height:50px;top:${onScreen ? 0 : 20000}px`;
  document.body.append(el);
  return el;
}

const HINT = '00000000-0000-4000-8000-000000000000';

let visibility: DocumentVisibilityState = 'visible';
// this file's page only: the test decides whether the page is hidden
Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
function setVisibility(v: DocumentVisibilityState) {
  visibility = v;
  document.dispatchEvent(new Event('visibilitychange'));
}

describe('live (Realtime client)', () => {
  const real = window.WebSocket;
  let project = 0;
  /** A project of its own per test: the page-wide socket registry is keyed by project. */
  const newProject = (scheme = 'https') => ({ url: `${scheme}://p${++project}.test`, key: 'anon' });
  const boxes: HTMLElement[] = [];
  const onScreen = (yes = true) => {
    const el = box(yes);
    boxes.push(el);
    return el;
  };
  /** An element on screen watching block `b`, its topic joined: what it heard, and the socket. */
  const joined = async (b: string) => {
    const { got, w } = recorder();
    const stop = watchBlock(newProject(), b, onScreen(), w);
    await until(() => FakeSocket.all[0]?.joins().length);
    const ws = FakeSocket.all[0]!;
    ws.accept('realtime:block:' + b);
    return { got, stop, ws };
  };
  beforeEach(() => {
    FakeSocket.all = [];
    (window as unknown as { WebSocket: unknown }).WebSocket = FakeSocket;
  });
  afterEach(() => {
    window.WebSocket = real;
    setVisibility('visible');
    for (const el of boxes.splice(0)) el.remove();
  });

  it('applies no change from a transaction ended before the data on screen was read: a replayed hint (break9 C2)', async () => {
    // a change id's last 48 bits are its transaction: 0x10 and 0x30 around read_xmin 0x20
    const [old, late] = [
      '00000001-0000-4000-8000-000000000010',
      '00000001-0000-4000-8000-000000000030',
    ];
    const row = { id: 'spam', content: 'SPAM', parent_id: null };
    const api = mockApi({
      get_block_change: (b) =>
        b.p_id === old
          ? { event: 'change', payload: { type: 'INSERT', row } }
          : { event: 'counts', payload: { id: 'm1', likes: 1, like_count: 4 } },
    });
    try {
      const { got, w } = recorder();
      watchBlock(newProject(), 'b1', onScreen(), w, '', true, { read_xmin: 0x20 });
      await until(() => FakeSocket.all[0]?.joins().length);
      const ws = FakeSocket.all[0]!;
      ws.accept('realtime:block:b1');
      ws.broadcast('realtime:block:b1', 'hint', { id: old });
      ws.broadcast('realtime:block:b1', 'hint', { id: late });
      await until(() => got.counts.length === 1);
      await wait(20);
      // on main the deleted message's INSERT came back (a spam message shown again, count +1)
      expect(got.changes).to.deep.equal([]);
      expect(got.counts).to.deep.equal([{ id: 'm1', likes: 1, like_count: 4 }]);
    } finally {
      api.restore();
    }
  });

  it('joins the public block topic without a token and applies what its hints name, in order', async () => {
    const id = (n: number) => `0000000${n}-0000-4000-8000-000000000000`;
    const [u1, u2, u3, u4] = [id(1), id(2), id(3), id(4)] as const;
    const changes: Record<string, unknown> = {
      [u1]: { event: 'change', payload: { type: 'INSERT', row: { id: 'm1', content: 'hi' } } },
      [u2]: { event: 'counts', payload: { id: 'm1', likes: 1, like_count: 3 } },
      [u3]: { event: 'change', payload: { type: 'REMOVE', row: { id: 'm0', parent_id: null } } },
    };
    const api = mockApi({
      get_block_change: async (b) => {
        if (b.p_id === u1) await wait(40); // read last, applied first
        return changes[b.p_id as string] ?? null;
      },
    });
    try {
      const heard: unknown[] = [];
      const w: Watcher = {
        change: (c) => heard.push(c),
        counts: (c) => heard.push(c),
        resync: () => heard.push('resync'),
      };
      const p = newProject();
      const stop = watchBlock(p, 'b1', onScreen(), w);
      await until(() => FakeSocket.all[0]?.joins().length);
      const ws = FakeSocket.all[0]!;
      expect(ws.url).to.equal(`wss://p${project}.test/realtime/v1/websocket?apikey=anon&vsn=2.0.0`);
      const [joinRef, ref, topic, event, payload] = ws.joins()[0]!;
      expect([topic, event, joinRef === ref]).to.deep.equal([
        'realtime:block:b1',
        'phx_join',
        true,
      ]);
      expect(payload).to.not.have.property('access_token');
      expect((payload.config as { private: boolean }).private).to.equal(false);
      ws.accept(topic);
      ws.broadcast(topic, 'hint', { id: u1 });
      ws.broadcast(topic, 'hint', { id: u2 });
      ws.broadcast(topic, 'hint', { id: u1 }); // heard twice: read once
      ws.broadcast(topic, 'hint', { id: 'not-a-uuid' }); // never read
      ws.broadcast(topic, 'hint', { id: u4 }); // names nothing: read, nothing applied
      // anyone may send on a public topic: content on it is never applied
      ws.broadcast(topic, 'change', { type: 'INSERT', row: { id: 'forged' } });
      ws.broadcast(topic, 'counts', { id: 'm1', likes: 100, like_count: 100 });
      ws.broadcast(topic, 'hint', { id: u3 });
      ws.broadcast('realtime:block:other', 'hint', { id: u2 });
      await until(() => heard.length === 3);
      await wait(20);
      expect(heard).to.deep.equal([
        { type: 'INSERT', row: { id: 'm1', content: 'hi' }, live: true },
        { id: 'm1', likes: 1, like_count: 3 },
        { type: 'REMOVE', row: { id: 'm0', parent_id: null }, live: true },
      ]);
      // each read is the same cacheable GET for every viewer: the block and the change, the anon key
      expect(
        api.rpcCalls().map((c) => [c.method, c.name, c.body.p_block_id, c.body.p_id, c.auth]),
      ).to.deep.equal(
        [u1, u2, u4, u3].map((id) => ['GET', 'get_block_change', 'b1', id, 'Bearer anon']),
      );
      stop();
      expect(ws.leaves(topic).length).to.equal(1);
    } finally {
      api.restore();
    }
  });

  it('made-up hints cannot push a read change out of the seen list to have it applied again', async () => {
    // a real change (approved: counted +1), then 200 made-up ids, then the real one replayed once
    // the read budget is back: on main the made-up ids filled the seen list before they were read
    const real = '00000002-0000-4000-8000-000000000abc';
    const change = { type: 'UPDATE', row: { id: 'm1', status: 'published' }, published: true };
    const api = mockApi({
      get_block_change: (b) => (b.p_id === real ? { event: 'change', payload: change } : null),
    });
    const now = Date.now;
    try {
      const { got, stop, ws } = await joined('b1');
      ws.broadcast('realtime:block:b1', 'hint', { id: real });
      await until(() => got.changes.length === 1);
      for (let n = 1; n <= 200; n++)
        ws.broadcast('realtime:block:b1', 'hint', {
          id: '00000000-0000-4000-8000-' + n.toString(16).padStart(12, '0'),
        });
      // a minute on: the read budget is full again
      Date.now = () => now() + 60000;
      ws.broadcast('realtime:block:b1', 'hint', { id: real });
      ws.broadcast('realtime:block:b1', 'hint', { id: HINT });
      await until(() => api.rpcCalls().some((c) => c.body.p_id === HINT));
      await wait(20);
      expect(got.changes.length).to.equal(1);
      // the made-up ids cost the reads budget as before: 9 read, the rest dropped
      expect(api.rpcCalls().filter((c) => c.body.p_id === real).length).to.equal(1);
      expect(api.rpcCalls().length).to.equal(11);
      stop();
    } finally {
      Date.now = now;
      api.restore();
    }
  });

  it("a hint replayed on another page's topic applies nothing of that page's thread", async () => {
    // a change of page p2's thread (or the block's own), heard on block:b9:page:p2 (or block:b9)
    // by anyone, and sent again on block:b9:page:p1: the read checks the block, not the page
    const id = (n: number) => `0000000${n}-0000-4000-8000-00000000000${n}`;
    const changes: Record<string, unknown> = {
      [id(1)]: {
        event: 'change',
        payload: { type: 'INSERT', row: { id: 'm2', content: 'on p2', page_key: 'p2' } },
      },
      [id(2)]: {
        event: 'change',
        payload: { type: 'INSERT', row: { id: 'm0', content: 'own thread', page_key: '' } },
      },
      [id(3)]: {
        event: 'change',
        payload: { type: 'INSERT', row: { id: 'm1', content: 'on p1', page_key: 'p1' } },
      },
      [id(4)]: { event: 'change', payload: { type: 'DELETE', row: { id: 'm1', parent_id: null } } },
    };
    const api = mockApi({ get_block_change: async (b) => changes[b.p_id as string] ?? null });
    try {
      const { got, w } = recorder();
      const stop = watchBlock(newProject(), 'b9', onScreen(), w, 'p1');
      await until(() => FakeSocket.all[0]?.joins().length);
      const ws = FakeSocket.all[0]!;
      const topic = 'realtime:block:b9:page:p1';
      expect(ws.joins()[0]![2]).to.equal(topic);
      ws.accept(topic);
      for (const n of [1, 2, 3, 4]) ws.broadcast(topic, 'hint', { id: id(n) });
      await until(() => api.rpcCalls().length === 4);
      await until(() => got.changes.length === 2);
      await wait(20);
      expect(got.changes.map((c) => c.row.id)).to.deep.equal(['m1', 'm1']);
      stop();
    } finally {
      api.restore();
    }
  });

  it('shares one socket per page between elements, one join per block', async function (this: {
    timeout(ms: number): void;
  }) {
    this.timeout(10000); // the socket lingers 5 s after the last topic
    const p = newProject();
    const a = recorder();
    const b = recorder();
    const c = recorder();
    const stops = [
      watchBlock(p, 'b1', onScreen(), a.w),
      watchBlock(p, 'b2', onScreen(), b.w),
      watchBlock(p, 'b1', onScreen(), c.w),
    ];
    await until(() => (FakeSocket.all[0]?.joins().length || 0) >= 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(FakeSocket.all.length).to.equal(1);
    const ws = FakeSocket.all[0]!;
    expect(ws.joins().map((f) => f[2])).to.deep.equal(['realtime:block:b1', 'realtime:block:b2']);
    ws.accept('realtime:block:b1');
    ws.accept('realtime:block:b2');
    const api = mockApi({
      get_block_change: () => ({ event: 'change', payload: { type: 'INSERT', row: { id: 'm1' } } }),
    });
    ws.broadcast('realtime:block:b1', 'hint', { id: HINT });
    await until(() => a.got.changes.length === 1);
    api.restore();
    expect(api.rpcCalls().length).to.equal(1); // one read for the page, whatever its elements
    expect(c.got.changes.length).to.equal(1);
    expect(b.got.changes.length).to.equal(0);
    // the first element of b1 leaves: the topic stays joined for the other one
    stops[0]!();
    expect(ws.leaves('realtime:block:b1').length).to.equal(0);
    stops[2]!();
    expect(ws.leaves('realtime:block:b1').length).to.equal(1);
    stops[1]!();
    // no topic left: the socket closes after a short linger
    await until(() => ws.readyState === 3, 7000);
  });

  it('joins only while the element is on screen, and catches up when it comes into view', async () => {
    const { got, w } = recorder();
    const el = onScreen(false);
    const stop = watchBlock(newProject(), 'b1', el, w);
    // once an observer of our own has heard where the element is, the hub's (made before it) has
    // too: a fixed 150 ms was not always enough on a busy machine (CI at load ~20), and the
    // element then came into view still 'fresh', with no catch-up
    await new Promise<void>((r) =>
      new IntersectionObserver((_, o) => {
        o.disconnect();
        r();
      }).observe(el),
    );
    expect(FakeSocket.all.length).to.equal(0); // off screen: no socket at all
    el.style.top = '0px';
    await until(() => FakeSocket.all[0]?.joins().length);
    const ws = FakeSocket.all[0]!;
    ws.accept('realtime:block:b1');
    // it loaded while off screen: what happened meanwhile is read again
    expect(got.resyncs).to.equal(1);
    el.style.top = '20000px';
    await until(() => ws.leaves('realtime:block:b1').length === 1);
    el.style.top = '0px';
    await until(() => ws.joins().length === 2);
    ws.accept('realtime:block:b1');
    expect(got.resyncs).to.equal(2);
    stop();
  });

  it('leaves while the page is hidden and rejoins with a catch-up when it shows again', async () => {
    const { got, w } = recorder();
    const stop = watchBlock(newProject(), 'b1', onScreen(), w);
    await until(() => FakeSocket.all[0]?.joins().length);
    const ws = FakeSocket.all[0]!;
    ws.accept('realtime:block:b1');
    expect(got.resyncs).to.equal(0);
    setVisibility('hidden');
    expect(ws.leaves('realtime:block:b1').length).to.equal(1);
    // changes while hidden are not delivered (the topic is left)
    const api = mockApi({});
    ws.broadcast('realtime:block:b1', 'hint', { id: HINT });
    await wait(20);
    api.restore();
    expect(api.calls.length).to.equal(0);
    expect(got.changes.length).to.equal(0);
    setVisibility('visible');
    await until(() => ws.joins().length === 2);
    ws.accept('realtime:block:b1');
    expect(got.resyncs).to.equal(1);
    stop();
  });

  it('a flood of made-up hints from anyone costs each viewer ten reads, then one catch-up', async function (this: {
    timeout(ms: number): void;
  }) {
    this.timeout(20000);
    const api = mockApi({ get_block_change: async () => null });
    try {
      const { got, stop, ws } = await joined('b5');
      // anyone may send on the public topic: 500 hints, each naming another (made-up) change
      for (let i = 0; i < 500; i++) {
        const id = `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
        ws.broadcast('realtime:block:b5', 'hint', { id });
      }
      await wait(50);
      const reads = () => api.rpcCalls().filter((c) => c.name === 'get_block_change').length;
      // the budget, and perhaps a read it got back while the flood was read
      expect(reads()).to.be.within(10, 11);
      expect(got.resyncs).to.equal(0);
      // once, a while later, the element reads its list again instead
      await until(() => got.resyncs === 1, 10000);
      await wait(100);
      expect(got.resyncs).to.equal(1);
      expect(reads()).to.be.within(10, 11);
      stop();
    } finally {
      api.restore();
    }
  });

  it('reconnects after the server closes the socket or refuses the join, then catches up', async () => {
    const { got, w } = recorder();
    const stop = watchBlock(newProject('http'), 'b2', onScreen(), w);
    await until(() => FakeSocket.all[0]?.joins().length);
    const ws = FakeSocket.all[0]!;
    expect(ws.url.startsWith(`ws://p${project}.test/`)).to.equal(true);
    const join = ws.joins()[0]!;
    ws.server([
      join[0],
      join[1],
      join[2],
      'phx_reply',
      { status: 'error', response: { reason: 'no' } },
    ]);
    await until(() => ws.joins().length === 2, 3000); // joined again after a back-off
    ws.accept('realtime:block:b2');
    expect(got.resyncs).to.equal(1);
    ws.close();
    await until(() => FakeSocket.all.length === 2, 3000);
    await until(() => FakeSocket.all[1]!.joins().length === 1);
    FakeSocket.all[1]!.accept('realtime:block:b2');
    expect(got.resyncs).to.equal(2);
    stop();
  });
});
