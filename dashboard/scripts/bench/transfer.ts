// What a page load actually fetches from the dashboard's origin, by kind, with gzip -9 sizes of
// each body (what a compressing host sends). Only requests the browser made count, so chunks
// that are built but never loaded for that page are left out.
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';

export type AssetKind = 'html' | 'css' | 'js' | 'sdk';

export interface Asset {
  /** Path on the dashboard's origin, e.g. /assets/react-CH1AMJxX.js. */
  path: string;
  kind: AssetKind;
  /** gzip -9 size of the body in bytes. */
  gzip: number;
}

export interface Transfer {
  assets: Asset[];
  bytes: Record<AssetKind, number>;
}

function kindOf(response: Response): AssetKind | null {
  const type = response.request().resourceType();
  const path = new URL(response.url()).pathname;
  if (type === 'document') return 'html';
  if (type === 'stylesheet') return 'css';
  if (type === 'script') return path.startsWith('/sdk/') ? 'sdk' : 'js';
  return null;
}

export function summarise(assets: Asset[]): Transfer {
  const bytes: Record<AssetKind, number> = { html: 0, css: 0, js: 0, sdk: 0 };
  for (const asset of assets) bytes[asset.kind] += asset.gzip;
  return { assets, bytes };
}

/**
 * Records every html/css/js answer from `origin` while `run` drives the page, then waits for the
 * network to go quiet (lazy chunks loaded after the first paint count too).
 */
export async function recordTransfer(
  page: Page,
  origin: string,
  run: () => Promise<void>,
): Promise<Transfer> {
  const pending: Promise<Asset | null>[] = [];
  const onResponse = (response: Response) => {
    const url = new URL(response.url());
    const kind = kindOf(response);
    if (url.origin !== origin || !kind || response.status() >= 300) return;
    pending.push(
      response
        .body()
        .then((body) => ({ path: url.pathname, kind, gzip: gzipSync(body, { level: 9 }).length }))
        .catch(() => null),
    );
  };
  page.on('response', onResponse);
  try {
    await run();
    // Network idle alone can come too early: a prerendered page is idle while the CPU hydrates,
    // before the session check asks for supabase-js. Wait until nothing new came for 2 s.
    let seen = -1;
    while (seen !== pending.length) {
      seen = pending.length;
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(2000);
    }
  } finally {
    page.off('response', onResponse);
  }
  const assets = (await Promise.all(pending)).filter((a): a is Asset => a !== null);
  return summarise(assets);
}

/**
 * What loading `path` fetches with the browser's cache off: a cold load that keeps the context's
 * session (cookies and storage stay).
 */
export async function recordColdLoad(
  page: Page,
  origin: string,
  path: string,
  ready: (page: Page) => Promise<void>,
): Promise<Transfer> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  try {
    return await recordTransfer(page, origin, async () => {
      await page.goto(`${origin}${path}`);
      await ready(page);
    });
  } finally {
    await cdp.detach();
  }
}

/** Chunk name of a hashed asset path: /assets/react-CH1AMJxX.js -> react. */
export function chunkName(path: string): string {
  if (!path.startsWith('/assets/')) return path;
  const file = path.split('/').pop() ?? path;
  return file.replace(/-[A-Za-z0-9_-]{8}\.(js|css)$/, '').replace(/\.(js|css|html)$/, '');
}
