// Supabase Auth's per-address limits (GoTrue's RATE_LIMIT_* settings, a project's
// `rate_limit_*`): token buckets per client address. The client address is the socket's peer,
// or, when the peer is a trusted proxy (the local gateway, which appends the peer it saw to
// X-Forwarded-For; GoTrue reads Sb-Forwarded-For or RATE_LIMIT_HEADER behind Supabase's own
// edge), the right-most X-Forwarded-For entry that is not itself a trusted proxy: a client
// cannot choose it by sending the header itself.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { ipv6Words, normaliseAddress } from '../http.ts';

export interface TrustedHops {
  /**
   * The local gateway's own addresses: a request from one of them carries the peer the gateway
   * saw as the last X-Forwarded-For entry. These addresses are not skipped inside the chain, so a
   * client on the gateway's machine cannot hide behind them.
   */
  gateway: ReadonlySet<string>;
  /** Proxies in front (a reverse proxy, a CDN): their entries are skipped, and what they add believed. */
  proxies: ReadonlySet<string>;
}

/** The client's address: see the header. */
export function clientAddress(req: IncomingMessage, trusted: TrustedHops): string {
  const peer = normaliseAddress(req.socket.remoteAddress) || 'unknown';
  if (!trusted.gateway.has(peer) && !trusted.proxies.has(peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const chain = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map(normaliseAddress);
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = chain[i]!;
    // an unparsable entry ends the trusted chain: what is left of it is the client's say
    if (!hop) break;
    if (!trusted.proxies.has(hop)) return hop;
  }
  return peer;
}

/**
 * What an address's limits count under: an IPv4 address itself (an IPv4-mapped IPv6 one too), or
 * an IPv6 address's /64, written as `2001:db8:1:2::/64`: one host gets a whole /64 to pick
 * addresses from, so ten addresses of one /64 are one budget. '' for no address. The same rule
 * and text as SQL's private.address_group (supabase/schemas/client-address.sql), which keys the
 * API's per-address shares; address-group.test.ts checks that both group the same inputs.
 */
export function addressGroup(raw: string): string {
  const address = normaliseAddress(raw);
  if (isIP(address) !== 6) return address;
  // the network's first four words, then `::` for the zeros after the last one that is not
  // (the longest run of zeros, as Postgres writes it)
  const head = ipv6Words(address).slice(0, 4);
  while (head.length > 0 && head[head.length - 1] === 0) head.pop();
  return `${head.map((w) => w.toString(16)).join(':')}::/64`;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Per-key token buckets, as GoTrue's limiters (tollbooth): `burst` tokens, refilled at `limit`
 * per `windowMs`. A limit of 0 means no limit.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    private readonly limit: number,
    windowMs: number,
    private readonly burst: number = limit,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = limit / windowMs;
  }

  /** `limit` an hour with a burst of as many (RATE_LIMIT_ANONYMOUS_USERS). */
  static perHour(limit: number, now?: () => number): RateLimiter {
    return new RateLimiter(limit, 3_600_000, limit, now);
  }

  /** `limit` per five minutes with a burst of 30 (RATE_LIMIT_OTP, _VERIFY, _TOKEN_REFRESH). */
  static perFiveMinutes(limit: number, now?: () => number): RateLimiter {
    return new RateLimiter(limit, 300_000, Math.min(30, Math.max(limit, 1)), now);
  }

  /** Takes a token for `key`; false when its bucket is empty. */
  take(key: string): boolean {
    if (this.limit <= 0) return true;
    const now = this.now();
    const bucket = this.buckets.get(key);
    const tokens = bucket
      ? Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs)
      : this.burst;
    if (tokens < 1) {
      if (bucket) Object.assign(bucket, { tokens, at: now });
      return false;
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    if (this.buckets.size > 50_000) this.forgetFull(now);
    return true;
  }

  /** Seconds until `key`'s bucket has a token again (0 when it has one now). */
  retryAfter(key: string): number {
    if (this.limit <= 0) return 0;
    const bucket = this.buckets.get(key);
    if (!bucket) return 0;
    const tokens = Math.min(this.burst, bucket.tokens + (this.now() - bucket.at) * this.perMs);
    return tokens >= 1 ? 0 : (1 - tokens) / this.perMs / 1000;
  }

  /** Buckets that filled up again are the same as no bucket. */
  private forgetFull(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.perMs >= this.burst) this.buckets.delete(key);
    }
  }
}
