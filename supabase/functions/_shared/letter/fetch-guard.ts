// Fetching a URL a user gave us (a letter's page, its images, a brunch profile) is a
// server-side request forgery risk: the function runs inside the project's network. Every such
// fetch goes through `guardedFetch`, which allows only:
//   - https, on port 443;
//   - a host the caller's policy names (the mode's hosts: *.notion.site, brunch.co.kr, ...);
//   - a host whose every address is public (no loopback, private, link-local, CGNAT, multicast,
//     documentation or other reserved range, in IPv4 or IPv6), checked by resolving it first;
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

function ipv4Parts(ip: string): number[] | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  const nums = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return nums.every((n) => n >= 0 && n <= 255) ? nums : null;
}

function publicV4([a, b, c]: number[]): boolean {
  if (a === 0 || a === 10 || a === 127) return false; // this network, private, loopback
  if (a === 100 && b! >= 64 && b! <= 127) return false; // CGNAT
  if (a === 169 && b === 254) return false; // link-local (cloud metadata)
  if (a === 172 && b! >= 16 && b! <= 31) return false; // private
  if (a === 192 && b === 168) return false; // private
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return false; // IETF, TEST-NET-1
  if (a === 198 && (b === 18 || b === 19)) return false; // benchmarking
  if (a === 198 && b === 51 && c === 100) return false; // TEST-NET-2
  if (a === 203 && b === 0 && c === 113) return false; // TEST-NET-3
  if (a! >= 224) return false; // multicast, reserved, broadcast
  return true;
}

/** The 8 groups of an IPv6 address, or null. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // an embedded IPv4 tail (::ffff:1.2.3.4)
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const p = ipv4Parts(v4[1]!);
    if (!p) return null;
    text = `${text.slice(0, -v4[1]!.length)}${((p[0]! << 8) | p[1]!).toString(16)}:${((p[2]! << 8) | p[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  const nums = groups.map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  return nums.length === 8 && nums.every((n) => !Number.isNaN(n)) ? nums : null;
}

/** Whether an IP address (v4 or v6) is a public unicast address we may connect to. */
export function isPublicAddress(ip: string): boolean {
  const v4 = ipv4Parts(ip);
  if (v4) return publicV4(v4);
  const g = ipv6Groups(ip);
  if (!g) return false;
  if (g.slice(0, 7).every((x) => x === 0) && (g[7] === 0 || g[7] === 1)) return false; // :: and ::1
  // IPv4-mapped (::ffff:a.b.c.d) and the NAT64 prefix carry an IPv4 address: judge that one
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return publicV4([g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255]);
  }
  if (g[0] === 0x64 && g[1] === 0xff9b) {
    return publicV4([g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255]);
  }
  if ((g[0]! & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if ((g[0]! & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((g[0]! & 0xff00) === 0xff00) return false; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation
  if (g[0] === 0x2002) return false; // 6to4 (may wrap a private IPv4)
  if (g[0] === 0x2001 && g[1] === 0) return false; // Teredo
  return (g[0]! & 0xe000) === 0x2000; // global unicast 2000::/3 only
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
  if (ipv4Parts(host) || host.startsWith('[') || !policy.allowHost(host)) {
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
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchRefused('scheme', 'not a URL');
  }
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
        let next: URL;
        try {
          next = new URL(res.headers.get('location')!, url);
        } catch {
          throw new FetchRefused('redirect', 'invalid redirect');
        }
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
