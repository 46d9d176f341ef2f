// `npm run bench:realtime-busy`: whether a Realtime join on a starved machine is LOST (never
// answered however long one waits) or only slow. BENCH_LOOPS busy loops (node processes spinning,
// started and ended by this script) keep the cores busy beside the stack; then BENCH_JOINS
// sockets open at once through the gateway (from a process of their own), each joining a comment
// block's public topic as sdk/src/core/live.ts does as soon as it is open. Each socket's fate is
// counted at 30, 60 and 120 s and at BENCH_WAIT_S: answered (ok or refused), open with no answer
// yet, never opened, or closed/failed (and with what). The viewers send heartbeats, as the hub
// does, so the server's idle sweep (60 s) never closes a waiting socket for silence.
//
//   npm run bench:realtime-busy                    # prints only
//   npm run bench:realtime-busy -- --write         # and writes "Realtime joins on a busy machine"
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { blockJoinFrame, readFrame, realtimeUrl } from './realtime-join.ts';
import { connectDb, int, loadNow, machineLine, runBench, setting } from './support.ts';

const LOOPS = setting('BENCH_LOOPS', 4);
const JOINS = setting('BENCH_JOINS', 1000);
const WAIT_S = setting('BENCH_WAIT_S', 180);
const MARKS = [30, 60, 120, WAIT_S].filter((s, i, a) => s <= WAIT_S && a.indexOf(s) === i);

type Fate = 'answered' | 'open, no answer' | 'never opened' | 'closed or failed';
interface Socket {
  opened?: number;
  answered?: number;
  status?: string;
  failed?: string;
}

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The clients' process: opens the sockets, answers `report` with each one's times (ms from start). */
function clients(url: string, block: string): void {
  const t0 = now();
  const sockets: Socket[] = Array.from({ length: JOINS }, () => ({}));
  sockets.forEach((s) => {
    const ws = new WebSocket(url);
    ws.on('open', () => {
      s.opened = now() - t0;
      ws.send(blockJoinFrame(block));
      setInterval(() => ws.send(JSON.stringify([null, 'hb', 'phoenix', 'heartbeat', {}])), 25_000);
    });
    ws.on('message', (data) => {
      const { event, payload } = readFrame(data);
      if (event === 'phx_reply' && s.answered === undefined && payload.status) {
        s.answered = now() - t0;
        s.status = payload.status;
      }
    });
    ws.on('error', (err) => (s.failed ??= `error: ${err.message}`));
    ws.on('close', (code) => (s.failed ??= `closed ${code}`));
  });
  process.on('message', () => process.send!({ type: 'report', sockets }));
  process.send!({ type: 'started' });
}

if (process.argv[2] === '--clients') {
  clients(process.argv[3]!, process.argv[4]!);
} else {
  await runBench(
    { name: 'realtime-busy', section: 'Realtime joins on a busy machine' },
    async ({ stack, load }) => {
      const db = await connectDb(stack.dbUrl);
      const owner = randomUUID();
      await db.query(
        "insert into auth.users (id, aud, role, email, raw_app_meta_data) values ($1, 'authenticated', 'authenticated', $2, '{\"owner\": true}')",
        [owner, `busy-${owner.slice(0, 8)}@bench.local`],
      );
      const block = (
        await db.query<{ id: string }>(
          "insert into public.blocks (owner_id, type, name) values ($1, 'comment', 'busy') returning id",
          [owner],
        )
      ).rows[0]!.id;
      await db.end();
      const loops: ChildProcess[] = Array.from({ length: LOOPS }, () =>
        spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
      );
      let child: ChildProcess | undefined;
      try {
        await sleep(5000); // the loops take their share of the cores
        const loadBusy = loadNow();
        child = fork(
          fileURLToPath(import.meta.url),
          ['--clients', realtimeUrl(stack.apiUrl, stack.anonKey), block],
          { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
        );
        const report = () =>
          new Promise<Socket[]>((resolve) => {
            child!.once('message', (m: { sockets: Socket[] }) => resolve(m.sockets));
            child!.send('report');
          });
        // the marks count from the clients' first socket (their process starts slowly when starved)
        await new Promise((resolve) => child!.once('message', resolve));
        const t0 = now();
        const rows: string[] = [];
        let last: Socket[] = [];
        for (const mark of MARKS) {
          await sleep(mark * 1000 - (now() - t0));
          last = await report();
          const count = (f: Fate) =>
            last.filter((s) => {
              const fate: Fate =
                s.answered !== undefined
                  ? 'answered'
                  : s.failed
                    ? 'closed or failed'
                    : s.opened !== undefined
                      ? 'open, no answer'
                      : 'never opened';
              return fate === f;
            }).length;
          rows.push(
            `| ${mark} s | ${int(count('answered'))} | ${int(count('open, no answer'))} | ${int(count('never opened'))} | ${int(count('closed or failed'))} | ${loadNow()} |`,
          );
          process.stderr.write(`${rows.at(-1)}\n`);
        }
        const refused = last.filter((s) => s.status && s.status !== 'ok').length;
        const failures = new Map<string, number>();
        for (const s of last)
          if (s.failed) failures.set(s.failed, (failures.get(s.failed) ?? 0) + 1);
        const opened = last.filter((s) => s.opened !== undefined).map((s) => s.opened!);
        const quantile = (xs: number[], q: number) =>
          [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))] ?? NaN;
        const waits = last
          .filter((s) => s.answered !== undefined && s.opened !== undefined)
          .map((s) => s.answered! - s.opened!);
        const body = [
          `${int(JOINS)} sockets opened at once through the gateway, each joining one comment block's public`,
          `topic as sdk/src/core/live.ts does once open (and sending heartbeats), while ${LOOPS} busy loops (node`,
          `processes spinning) compete for the cores with the stack, the gateway and the clients' process.`,
          `Each socket's state at each mark (from the moment the sockets are opened). \`npm run bench:realtime-busy -- --write\`.`,
          '',
          '| after | answered | open, no answer yet | not open yet | closed or failed |  load (1 / 5 / 15 min) |',
          '|---|---|---|---|---|---|',
          ...rows,
          '',
          `Refused joins: ${refused}. Closed or failed: ${[...failures].map(([k, v]) => `${v} ${k}`).join(', ') || 'none'}. Sockets open (the gateway's accept, its hand-off to the stack's process, the handshake's answer) after ${(quantile(opened, 0.5) / 1000).toFixed(1)} s p50, the last at ${(Math.max(0, ...opened) / 1000).toFixed(1)} s; from open to the join's answer ${(quantile(waits, 0.5) / 1000).toFixed(1)} s p50, longest ${(Math.max(0, ...waits) / 1000).toFixed(1)} s.`,
          '',
          `${machineLine(load)} With the loops running, before the joins: ${loadBusy}.`,
        ].join('\n');
        return { body };
      } finally {
        child?.kill();
        for (const l of loops) l.kill();
      }
    },
  );
}
