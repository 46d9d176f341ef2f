import { expect } from '@open-wc/testing';
import { subscribeMessages, type Change } from './live.js';
import { until } from '../test/mock-api.js';

/** A WebSocket stand-in that records frames and lets the test push server frames. */
class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[][] = [];
  onopen?: () => void;
  onmessage?: (e: { data: string }) => void;
  onclose?: () => void;
  constructor(public url: string) {
    FakeSocket.all.push(this);
    setTimeout(() => {
      this.readyState = 1;
      this.onopen?.();
    });
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  server(frame: unknown[]) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

describe('live (Realtime client)', () => {
  const real = window.WebSocket;
  beforeEach(() => {
    FakeSocket.all = [];
    (window as unknown as { WebSocket: unknown }).WebSocket = FakeSocket;
  });
  afterEach(() => (window.WebSocket = real));

  it('joins like realtime-js, applies postgres_changes of its topic only, and closes', async () => {
    const changes: Change[] = [];
    const stop = subscribeMessages(
      { url: 'https://p.test', key: 'anon' },
      async () => 'user-token',
      'b1',
      (c) => changes.push(c),
    );
    await until(() => FakeSocket.all[0]?.sent.length);
    const ws = FakeSocket.all[0]!;
    expect(ws.url).to.equal('wss://p.test/realtime/v1/websocket?apikey=anon&vsn=2.0.0');
    const [joinRef, ref, topic, event, payload] = ws.sent[0] as [
      string,
      string,
      string,
      string,
      Record<string, unknown>,
    ];
    expect([joinRef, ref, topic, event]).to.deep.equal([
      '1',
      '1',
      'realtime:reaction-block:b1',
      'phx_join',
    ]);
    expect(payload.access_token).to.equal('user-token');
    expect((payload.config as { postgres_changes: unknown }).postgres_changes).to.deep.equal([
      { event: '*', schema: 'public', table: 'messages', filter: 'block_id=eq.b1' },
    ]);
    ws.server([
      '1',
      '1',
      topic,
      'phx_reply',
      { status: 'ok', response: { postgres_changes: [{ id: 7 }] } },
    ]);
    ws.server([
      null,
      null,
      topic,
      'postgres_changes',
      { ids: [7], data: { type: 'INSERT', record: { id: 'm1', content: 'hi' } } },
    ]);
    ws.server([
      null,
      null,
      topic,
      'postgres_changes',
      { ids: [7], data: { type: 'DELETE', old_record: { id: 'm0' } } },
    ]);
    ws.server([
      null,
      null,
      'realtime:other',
      'postgres_changes',
      { data: { type: 'INSERT', record: { id: 'x' } } },
    ]);
    expect(changes).to.deep.equal([
      { type: 'INSERT', row: { id: 'm1', content: 'hi' } },
      { type: 'DELETE', row: { id: 'm0' } },
    ]);
    stop();
    expect(ws.readyState).to.equal(3);
    await new Promise((r) => setTimeout(r, 1100));
    expect(FakeSocket.all.length).to.equal(1); // no reconnect after stop
  });

  it('reconnects after the server closes the socket or refuses the join', async () => {
    const stop = subscribeMessages(
      { url: 'http://p.test', key: 'anon' },
      async () => 'anon',
      'b2',
      () => {},
    );
    await until(() => FakeSocket.all[0]?.sent.length);
    const ws = FakeSocket.all[0]!;
    expect(ws.url.startsWith('ws://p.test/')).to.equal(true);
    ws.server([
      '1',
      '1',
      'realtime:reaction-block:b2',
      'phx_reply',
      { status: 'error', response: { reason: 'no' } },
    ]);
    expect(ws.readyState).to.equal(3);
    await until(() => FakeSocket.all.length === 2, 3000);
    stop();
  });
});
