// Supabase Auth's limit on anonymous sign-ins (GoTrue RATE_LIMIT_ANONYMOUS_USERS, a project's
// `rate_limit_anonymous_users`): a token bucket per client address, that many an hour with a
// burst of as many. The client address is the socket's peer, or, when the peer is a trusted
// proxy (GoTrue reads it from the header named by RATE_LIMIT_HEADER behind Supabase's gateway),
// the last X-Forwarded-For entry that is not itself a trusted proxy: a client cannot choose it
// by sending the header itself.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** `::ffff:1.2.3.4` (IPv4 on an IPv6 socket) as `1.2.3.4`; anything that is not an address as ''. */
export function normaliseAddress(raw: string | undefined): string {
  const text = (raw ?? '').trim().replace(/^\[|\]$/g, '');
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  const address = v4 ? v4[1]! : text;
  return isIP(address) ? address.toLowerCase() : '';
}

/** The client's address: see the header. */
export function clientAddress(req: IncomingMessage, trustedProxies: ReadonlySet<string>): string {
  const peer = normaliseAddress(req.socket.remoteAddress) || 'unknown';
  if (!trustedProxies.has(peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const chain = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map(normaliseAddress);
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = chain[i]!;
    // an unparsable entry ends the trusted chain: what is left of it is the client's say
    if (!hop) break;
    if (!trustedProxies.has(hop)) return hop;
  }
  return peer;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Per-key token buckets: `perHour` an hour, a burst of as many. */
export class HourlyLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly perHour: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token for `key`; false when its bucket is empty. A limit of 0 means no limit. */
  take(key: string): boolean {
    if (this.perHour <= 0) return true;
    const now = this.now();
    const rate = this.perHour / 3_600_000;
    const bucket = this.buckets.get(key);
    const tokens = bucket
      ? Math.min(this.perHour, bucket.tokens + (now - bucket.at) * rate)
      : this.perHour;
    if (tokens < 1) {
      if (bucket) Object.assign(bucket, { tokens, at: now });
      return false;
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    if (this.buckets.size > 50_000) this.forgetFull(now);
    return true;
  }

  /** Buckets that filled up again are the same as no bucket. */
  private forgetFull(now: number): void {
    const rate = this.perHour / 3_600_000;
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * rate >= this.perHour) this.buckets.delete(key);
    }
  }
}
