// A compressing reverse proxy in front of the local stack's web server. The local server sends
// files uncompressed (fine on loopback), but every real host of static files compresses text, and
// under an emulated slow network the difference between raw and gzip bytes would dominate the
// figures. Text answers are gzipped (level 9, like a precompressed CDN); everything else passes
// through unchanged.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|manifest\+json)|image\/svg\+xml)/;

export interface GzipProxy {
  url: string;
  close(): Promise<void>;
}

export function startGzipProxy(target: string): Promise<GzipProxy> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const forward = http.request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: upstream.host, 'accept-encoding': 'identity' },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const headers = { ...answer.headers };
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          const type = String(headers['content-type'] ?? '');
          const accepts = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
          if (accepts && COMPRESSIBLE.test(type) && body.length > 0) {
            const packed = gzipSync(body, { level: 9 });
            res.writeHead(answer.statusCode ?? 200, {
              ...headers,
              'content-encoding': 'gzip',
              'content-length': packed.length,
              vary: 'accept-encoding',
            });
            res.end(packed);
            return;
          }
          res.writeHead(answer.statusCode ?? 200, { ...headers, 'content-length': body.length });
          res.end(body);
        });
        answer.on('error', (error) => res.destroy(error));
      },
    );
    forward.on('error', (error) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(forward);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
