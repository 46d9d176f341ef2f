// Production path for the Open Graph tags of shared block links: an edge function in front of
// the static dashboard (Cloudflare Workers' module syntax; Deno Deploy, Netlify and Vercel edge
// functions take the same Request -> Response handler). It answers /block/ itself: the static
// page from the origin, the block read through the project's API as anon, the tags rendered by
// the same function as the local web server (@reaction-blocks/contracts/open-graph). Every other path goes to the
// origin untouched. Supabase's own edge functions cannot serve this page on the default
// *.supabase.co domain (they answer text/html as text/plain); see docs/self-hosting.md.
//
//   wrangler deploy dashboard/viewer/edge/block-page-worker.ts --name reaction-blocks-og \
//     --route 'app.example.com/block/*' --var SUPABASE_URL:https://<ref>.supabase.co \
//     --var SUPABASE_ANON_KEY:<anon key>
import { blockPageHtml } from '@reaction-blocks/contracts/open-graph';

export interface BlockPageEnv {
  SUPABASE_URL: string;
  SUPABASE_ANON_KEY: string;
  /** Where the static site is served when the worker is not on a route in front of it. */
  STATIC_ORIGIN?: string;
}

/** Seconds a CDN and a crawler may keep the page (an owner's new preview shows within this). */
export const BLOCK_PAGE_MAX_AGE = 300;

export async function handleRequest(
  request: Request,
  env: BlockPageEnv,
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  const url = new URL(request.url);
  const origin = env.STATIC_ORIGIN?.replace(/\/+$/, '');
  const upstream = (path: string) =>
    origin ? new Request(`${origin}${path}`, request) : new Request(new URL(path, url), request);
  const isBlockPage = url.pathname === '/block/' || url.pathname === '/block/index.html';
  if (!isBlockPage || (request.method !== 'GET' && request.method !== 'HEAD')) {
    return fetchImpl(origin ? upstream(`${url.pathname}${url.search}`) : request);
  }
  const page = await fetchImpl(upstream('/block/index.html'));
  if (!page.ok) return page;
  const template = await page.text();
  const html = await blockPageHtml(
    template,
    { url: request.url, origin: url.origin },
    { url: env.SUPABASE_URL, anonKey: env.SUPABASE_ANON_KEY, fetch: fetchImpl },
  );
  return new Response(request.method === 'HEAD' ? null : html, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': `public, max-age=${BLOCK_PAGE_MAX_AGE}`,
      'x-content-type-options': 'nosniff',
    },
  });
}

export default {
  fetch: (request: Request, env: BlockPageEnv) => handleRequest(request, env),
};
