// Static file server for the dashboard (single-page app), the examples and the SDK's CDN build.
//   /                 dashboard/dist (prerendered pages as <path>/index.html; the app shell
//                     200.html, or index.html in an older build, for every other path)
//   /examples/react/  examples/react/dist (the React app's build)
//   /examples/...     examples/ (the html page)
//   /sdk/...          sdk/dist (the CDN script is /sdk/cdn/reaction.js)
//   /env.js           window.__REACTION_ENV__ with the project URL, anon key and payment settings
//   /block/?id=&block_id=  the block's public page with its Open Graph tags filled in (the block
//                     read through the API as anon), as production serves it from an edge
//                     function (@reaction-blocks/contracts/open-graph, which the dashboard's
//                     edge worker uses too)
import type http from 'node:http';
import { pipeline } from 'node:stream';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { blockPageHtml } from '@reaction-blocks/contracts/open-graph';
import { HttpError, listen, requestHost, requestUrl, serve } from './http.ts';
import { paths } from './paths.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.csv': 'text/csv; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

export interface WebOptions {
  port: number;
  apiUrl: string;
  anonKey: string;
  /** The payment providers' browser settings (the `payments` key of /env.js). */
  payments?: unknown;
  /** The dashboard's build (default dashboard/dist); tests serve a directory of their own. */
  dashboardDist?: string;
}

/** Resolves `rel` inside `root`, refusing anything that climbs out of it. */
function inside(root: string, rel: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rel);
  } catch {
    throw new HttpError(400, 'Bad Request: the path is not valid percent-encoding');
  }
  if (decoded.includes('\0')) throw new HttpError(400, 'Bad Request');
  const full = normalize(join(root, decoded));
  return full === root || full.startsWith(root + sep) ? full : undefined;
}

function fileAt(path: string | undefined): string | undefined {
  if (!path || !existsSync(path)) return undefined;
  const st = statSync(path);
  if (st.isFile()) return path;
  const index = join(path, 'index.html');
  return existsSync(index) ? index : undefined;
}

const reactExampleDist = join(paths.examples, 'react', 'dist');

export function startWeb(opts: WebOptions): Promise<http.Server> {
  const dashboardDist = opts.dashboardDist ?? paths.dashboardDist;
  const envJs = `window.__REACTION_ENV__ = ${JSON.stringify({ supabaseUrl: opts.apiUrl, anonKey: opts.anonKey, ...(opts.payments ? { payments: opts.payments } : {}) })};\n`;
  const server = serve(handle, {
    name: 'web',
    onError: (res, err) => {
      res.writeHead(err.status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(err.status >= 500 ? 'Internal server error' : err.message);
    },
  });
  function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = requestUrl(req);
    const send = (file: string, status = 200) => {
      res.writeHead(status, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
        // The SDK is the embed snippet's CDN: other sites import its chunks as ES modules,
        // which browsers load cross-origin only with CORS.
        ...(url.pathname.startsWith('/sdk/') ? { 'access-control-allow-origin': '*' } : {}),
      });
      // a file that goes away mid-answer cuts the answer off, nothing more
      pipeline(createReadStream(file), res, () => {});
    };
    if (url.pathname === '/env.js') {
      res.writeHead(200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'no-cache',
      });
      res.end(envJs);
      return;
    }
    if (url.pathname === '/examples/react') {
      // the app's scripts are relative to the directory
      res.writeHead(301, { location: '/examples/react/' });
      res.end();
      return;
    }
    if (url.pathname === '/block/' || url.pathname === '/block/index.html') {
      const template = join(dashboardDist, 'block', 'index.html');
      if (existsSync(template)) {
        // the page's own address for og:url; a Host that is not a plain host[:port] is ignored
        const origin = `http://${requestHost(req) ?? `127.0.0.1:${opts.port}`}`;
        void blockPageHtml(
          readFileSync(template, 'utf8'),
          { url: new URL(url.pathname + url.search, origin).href, origin },
          { url: opts.apiUrl, anonKey: opts.anonKey },
        )
          .then((html) => {
            res.writeHead(200, {
              'content-type': TYPES['.html']!,
              'cache-control': 'no-cache',
              'x-content-type-options': 'nosniff',
            });
            res.end(html);
          })
          .catch((err: unknown) => {
            res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
            res.end(`Could not render the block page: ${(err as Error).message}`);
          });
        return;
      }
    }
    let file: string | undefined;
    if (url.pathname.startsWith('/examples/react/')) {
      // the React example is served from its build, never its sources
      file = fileAt(inside(reactExampleDist, url.pathname.slice('/examples/react/'.length)));
    } else if (url.pathname.startsWith('/examples/')) {
      file = fileAt(inside(paths.examples, url.pathname.slice('/examples/'.length)));
    } else if (url.pathname.startsWith('/sdk/')) {
      file = fileAt(inside(paths.sdkDist, url.pathname.slice('/sdk/'.length)));
    } else {
      file = fileAt(inside(dashboardDist, url.pathname.slice(1)));
      // single-page app: every route that is not a file gets the app shell
      if (!file && !extname(url.pathname)) {
        file = fileAt(join(dashboardDist, '200.html')) ?? fileAt(join(dashboardDist, 'index.html'));
      }
    }
    if (file) return send(file);
    // The example pages name no icon (a site copying one should not carry a workaround for our
    // server), so the browser's own request for one is answered empty, not with a 404 on the
    // console. The dashboard's pages name theirs (/favicon.svg) and never ask.
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    const unbuilt = url.pathname.startsWith('/examples/react/')
      ? !existsSync(reactExampleDist) && 'the React example'
      : !existsSync(dashboardDist) && 'the dashboard';
    res.end(unbuilt ? `Not found (${unbuilt} is not built: npm run build)` : 'Not found');
  }
  return listen(server, opts.port);
}
