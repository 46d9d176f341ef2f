// Fetching a URL a user gave us (a letter's page, its images, a brunch profile) is a
// server-side request forgery risk: the function runs inside the project's network. Every such
// fetch goes through `guardedFetch`, which allows only:
//   - https, on port 443;
//   - a host the caller's policy names (the mode's hosts: *.notion.site, brunch.co.kr, ...);
//   - a host whose every address is public (none in IANA's special-purpose registries or
//     multicast, IPv6 only in 2000::/3: ../special-addresses.ts), checked by resolving it first;
//   - redirects only to URLs that pass the same checks, at most `maxRedirects`;
//   - a body of at most `maxBytes` (read as a stream and cut off, whatever Content-Length says)
//     within `timeoutMs` for the whole exchange, redirects included;
//   - the content types the policy accepts.
// With `deps.pinned` (webhooks: any host, pinned-http.ts) the request goes to an address the
// check approved, never resolved again. With `deps.fetch` (letters, brunch) the address is
// resolved for the check and again by fetch, so a host whose DNS changes in between (rebinding)
// could differ; the host allow-list limits that to names the providers (Notion, Kakao, Typedream)
// control.
//
// `originOverride` (PAGES_ORIGIN_OVERRIDE) sends the request, after every check, to
// `<override>/<host><path>` instead: locally and in tests the providers server's `/pages` fake,
// so this code runs unchanged offline (docs/architecture.md, "Page to letter").

import { ipv4Bytes, isPublicAddress } from '../special-addresses.ts';

export type RefusalReason =
  | 'scheme'
  | 'host'
  | 'port'
  | 'address'
  | 'dns'
  | 'redirect'
  | 'size'
  | 'timeout'
  | 'status'
  | 'type'
  | 'network';

export class FetchRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

export interface GuardPolicy {
  /** Whether a (lower-case) host name may be fetched. */
  allowHost(host: string): boolean;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Whether a response's media type (lower-case, no parameters) is wanted. */
  accept(contentType: string): boolean;
}

export interface PinnedSend {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface GuardDeps {
  /** The host's IPv4 and IPv6 addresses (empty when it has none). */
  resolve(host: string): Promise<string[]>;
  fetch: typeof fetch;
  /**
   * Sends the request to one of the addresses the check approved instead of through `fetch`
   * (which would resolve the host again); answers without a body (for `statusOnly` requests).
   */
  pinned?: (url: URL, addresses: string[], init: PinnedSend) => Promise<Response>;
  /** Origin (and path prefix) every checked request is sent to instead, e.g. http://127.0.0.1:54327/pages. */
  originOverride?: string;
}

export interface Fetched {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Uint8Array;
}

/** `*.notion.site`-style rules: exact names, and suffixes written with a leading dot. */
export function hostRule(names: readonly string[]): (host: string) => boolean {
  const exact = new Set(names.filter((n) => !n.startsWith('.')));
  const suffixes = names.filter((n) => n.startsWith('.'));
  return (host) =>
    exact.has(host) || suffixes.some((s) => host.endsWith(s) && host.length > s.length);
}

/**
 * Checks one URL: scheme, port, host, and that every address of the host is public; answers
 * those addresses.
 */
async function check(url: URL, policy: GuardPolicy, deps: GuardDeps): Promise<string[]> {
  if (url.protocol !== 'https:') throw new FetchRefused('scheme', `not https: ${url.protocol}`);
  if (url.port !== '' && url.port !== '443') throw new FetchRefused('port', `port ${url.port}`);
  if (url.username || url.password) throw new FetchRefused('host', 'credentials in the URL');
  const host = url.hostname.toLowerCase();
  // an address literal is never one of the providers' names
  if (ipv4Bytes(host) || host.startsWith('[') || !policy.allowHost(host)) {
    throw new FetchRefused('host', `host not allowed: ${host}`);
  }
  let addresses: string[];
  try {
    addresses = await deps.resolve(host);
  } catch (err) {
    throw new FetchRefused('dns', `cannot resolve ${host}: ${(err as Error).message}`);
  }
  if (addresses.length === 0) throw new FetchRefused('dns', `${host} has no address`);
  const bad = addresses.find((a) => !isPublicAddress(a));
  if (bad) throw new FetchRefused('address', `${host} resolves to a non-public address (${bad})`);
  return addresses;
}

function target(url: URL, deps: GuardDeps): string {
  if (!deps.originOverride) return url.href;
  return `${deps.originOverride.replace(/\/+$/, '')}/${url.hostname}${url.pathname}${url.search}`;
}

async function readCapped(res: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new FetchRefused('size', `body of ${declared} bytes is over ${maxBytes}`);
  }
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new FetchRefused('size', `body over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return body;
}

export interface GuardedInit {
  accept?: string;
  /** GET by default; a webhook POSTs (with `maxRedirects: 0` in its policy: a POST is not followed). */
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  userAgent?: string;
  /**
   * Answer any status with an empty body instead of refusing what is not a 200 of an accepted
   * type (a webhook only needs the status; its receiver's body is not read).
   */
  statusOnly?: boolean;
}

/**
 * Fetches `raw` under the policy (GET, or POST with `init`); throws FetchRefused for anything the
 * policy does not allow.
 */
export async function guardedFetch(
  raw: string,
  policy: GuardPolicy,
  deps: GuardDeps,
  init: GuardedInit = {},
): Promise<Fetched> {
  let url = URL.parse(raw);
  if (!url) throw new FetchRefused('scheme', 'not a URL');
  const signal = AbortSignal.timeout(policy.timeoutMs);
  try {
    for (let hop = 0; ; hop++) {
      const addresses = await check(url, policy, deps);
      const method = init.method ?? 'GET';
      const headers = {
        accept: init.accept ?? '*/*',
        'user-agent': init.userAgent ?? 'ReactionBlocksLetters/1.0 (+page to letter)',
        ...init.headers,
      };
      if (deps.pinned && !init.statusOnly)
        throw new FetchRefused('network', 'a pinned request reads no body');
      let res: Response;
      try {
        res = deps.pinned
          ? await deps.pinned(url, addresses, { method, body: init.body, signal, headers })
          : await deps.fetch(target(url, deps), {
              method,
              body: init.body,
              redirect: 'manual',
              signal,
              headers,
            });
      } catch (err) {
        if (signal.aborted)
          throw new FetchRefused('timeout', `no answer in ${policy.timeoutMs} ms`);
        throw new FetchRefused('network', (err as Error).message);
      }
      if (res.status >= 300 && res.status < 400 && res.headers.has('location')) {
        await res.body?.cancel();
        if (hop >= policy.maxRedirects) throw new FetchRefused('redirect', 'too many redirects');
        const next = URL.parse(res.headers.get('location')!, url);
        if (!next) throw new FetchRefused('redirect', 'invalid redirect');
        try {
          await check(next, policy, deps);
        } catch (err) {
          const e = err as FetchRefused;
          throw new FetchRefused('redirect', `redirect refused (${e.reason}): ${e.message}`);
        }
        url = next;
        continue;
      }
      if (init.statusOnly) {
        await res.body?.cancel();
        return { url: url.href, status: res.status, contentType: '', body: new Uint8Array() };
      }
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new FetchRefused('status', `answered ${res.status}`);
      }
      const contentType = (res.headers.get('content-type') ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (!policy.accept(contentType)) {
        await res.body?.cancel();
        throw new FetchRefused('type', `content type ${contentType || 'missing'}`);
      }
      const body = await readCapped(res, policy.maxBytes);
      return { url: url.href, status: res.status, contentType, body };
    }
  } catch (err) {
    if (err instanceof FetchRefused) throw err;
    if (signal.aborted) throw new FetchRefused('timeout', `no answer in ${policy.timeoutMs} ms`);
    throw new FetchRefused('network', (err as Error).message);
  }
}
