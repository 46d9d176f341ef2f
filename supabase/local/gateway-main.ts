// The gateway's own process (started by startGatewayProcess in gateway.ts): its options come as
// JSON in GATEWAY_OPTIONS; it stops on SIGTERM or when its parent goes away.
import { startGateway, type GatewayOptions, type Upstreams } from './gateway.ts';

const raw = process.env.GATEWAY_OPTIONS;
if (!raw) {
  console.error('GATEWAY_OPTIONS is not set: start the gateway through startGatewayProcess()');
  process.exit(2);
}
const options = JSON.parse(raw) as GatewayOptions;
const server = await startGateway(options);
// the line startGatewayProcess waits for: this process holds the port (not another one that
// took it between the stack's pick and this bind)
console.log(`gateway listening on ${options.port}`);

const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// a benchmark asks, over the websockets' IPC channel, for this process's memory after a full
// collection (node --expose-gc, startGatewayProcess): a soak tells retained memory from garbage
// and from what V8 and the allocator keep for the next burst
process.on('message', (m: { type?: string; upstreams?: Upstreams }) => {
  if (!process.send) return;
  // an upstream the stack started on another port (its own was taken): the routes read these
  // options for each request
  if (m?.type === 'upstreams' && m.upstreams) {
    Object.assign(options, m.upstreams);
    process.send({ type: 'upstreams-set' });
    return;
  }
  if (m?.type !== 'memory?') return;
  (globalThis as { gc?: () => void }).gc?.();
  process.send({ type: 'memory', usage: process.memoryUsage() });
});
// the stack's process died without stopping us (SIGKILL): do not linger holding the port
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop();
}, 1_000).unref();
