// The viewers of `npm run bench:realtime`, in a process of their own so that their sockets never
// share an event loop with the stack they measure (the stack's own process serves Realtime).
// Driven over IPC by scripts/bench/realtime.ts: `connect` opens one WebSocket per viewer through
// the gateway and joins its block's public topic as sdk/src/core/live.ts does (waves of 200);
// every hint heard is stamped with the wall clock (performance.timeOrigin + performance.now(),
// the same clock as the parent's); `report` sends the stamps back; `close` ends the sockets.
import WebSocket from 'ws';
import { blockJoinFrame, readFrame } from './realtime-join.ts';

interface Connect {
  type: 'connect';
  url: string;
  /** the block of each viewer */
  blocks: string[];
}
type Command = Connect | { type: 'report' } | { type: 'close' };

const now = () => performance.timeOrigin + performance.now();
let sockets: WebSocket[] = [];
/** per viewer: [hint id, when] */
let heard: Array<Array<[string, number]>> = [];

function join(url: string, block: string, i: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    let opened = false;
    const timer = setTimeout(
      () => reject(new Error(`join timed out (${opened ? 'open, no reply' : 'never opened'})`)),
      120_000,
    );
    ws.on('error', reject);
    // closed before the join's answer (by the server, or the gateway): said at once, with its code,
    // not as a join that timed out
    ws.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`closed (${code}) before the join's answer`));
    });
    ws.on('open', () => {
      opened = true;
      ws.send(blockJoinFrame(block));
    });
    ws.on('message', (data) => {
      const t = now();
      const { event, payload } = readFrame(data);
      if (event === 'phx_reply') {
        clearTimeout(timer);
        if (payload.status === 'ok') resolve();
        else reject(new Error(`join refused: ${JSON.stringify(payload)}`));
      } else if (event === 'broadcast' && payload.event === 'hint' && payload.payload?.id) {
        heard[i]!.push([payload.payload.id, t]);
      }
    });
    sockets[i] = ws;
  });
}

process.on('message', (cmd: Command) => {
  void (async () => {
    if (cmd.type === 'connect') {
      sockets = [];
      heard = cmd.blocks.map(() => []);
      const t0 = now();
      for (let i = 0; i < cmd.blocks.length; i += 200)
        await Promise.all(cmd.blocks.slice(i, i + 200).map((b, k) => join(cmd.url, b, i + k)));
      process.send!({ type: 'joined', ms: now() - t0 });
    } else if (cmd.type === 'report') {
      process.send!({ type: 'report', heard });
    } else {
      for (const ws of sockets) ws.terminate();
      sockets = [];
      process.send!({ type: 'closed' });
    }
  })().catch((err: Error) => process.send!({ type: 'error', message: err.message }));
});
