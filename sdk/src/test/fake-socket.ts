// A WebSocket stand-in for the Realtime tests (core/live.test.ts, the comment element's).

type Frame = [string | null, string, string, string, Record<string, unknown>];

/** A WebSocket stand-in that records frames and lets the test push server frames. */
export class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Frame[] = [];
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
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.();
  }
  server(frame: unknown[]) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  joins(topic?: string) {
    return this.sent.filter((f) => f[3] === 'phx_join' && (!topic || f[2] === topic));
  }
  leaves(topic: string) {
    return this.sent.filter((f) => f[3] === 'phx_leave' && f[2] === topic);
  }
  /** Accepts the last join of `topic`. */
  accept(topic: string) {
    const join = this.joins(topic).at(-1)!;
    this.server([join[0], join[1], topic, 'phx_reply', { status: 'ok', response: {} }]);
  }
  broadcast(topic: string, event: string, payload: unknown) {
    this.server([null, null, topic, 'broadcast', { type: 'broadcast', event, payload }]);
  }
}
