// The comment list's watcher follows its element on and off the page (comment.watch.ts): moved to
// another parent, or taken off and put back, it joins its topic again and reads the list again
// once joined, so nothing said meanwhile is lost.
import { expect } from '@open-wc/testing';
import './comment.js';
import { block, mockApi, reset, until } from '../../test/mock-api.js';
import { mountReady } from '../../test/mount.js';
import { message } from '../../test/fixtures.js';
import { FakeSocket } from '../../test/fake-socket.js';

const TOPIC = 'realtime:block:b1';
const sent = (event: string) =>
  FakeSocket.all.flatMap((s) => s.sent).filter((f) => f[3] === event && f[2] === TOPIC);
const socket = () => FakeSocket.all.at(-1)!;

describe('reaction-comment: live updates follow the element', () => {
  const real = window.WebSocket;
  beforeEach(() => {
    reset();
    FakeSocket.all = [];
    (window as unknown as { WebSocket: unknown }).WebSocket = FakeSocket;
  });
  afterEach(() => {
    window.WebSocket = real;
    document.querySelectorAll('reaction-comment, section').forEach((e) => e.remove());
  });

  it('joins again after a move and after being taken off and put back, and reads the list again', async () => {
    const view = () => ({ block: block({ type: 'comment' }), messages: [message('m1')] });
    const api = mockApi({ get_block_view: view, get_block_public: view, list_messages: () => [] });
    try {
      const el = await mountReady<HTMLElement & { updateComplete: Promise<unknown> }>(
        'reaction-comment',
      );
      await until(() => sent('phx_join').length === 1, 4000);
      socket().accept(TOPIC);
      const reads = () => api.rpcNames().filter((n) => n === 'get_block_view').length;
      const before = reads();

      const other = document.createElement('section');
      document.body.append(other);
      other.append(el);
      await until(() => sent('phx_join').length === 2, 4000);
      expect(sent('phx_leave')).to.have.length(1);
      socket().accept(TOPIC);
      await until(() => reads() === before + 1, 4000);

      el.remove();
      expect(sent('phx_leave')).to.have.length(2);
      document.body.append(el);
      await until(() => sent('phx_join').length === 3, 4000);
      socket().accept(TOPIC);
      await until(() => reads() === before + 2, 4000);
    } finally {
      api.restore();
    }
  });
});
