// The Cafe24 fake's state: one mall per mall id, created on first use (so tests sharing the
// stack each use a mall of their own), with the app's tokens, its script tags and the API call
// bucket. Times follow Cafe24: an authorisation code lives one minute, an access token two hours,
// a refresh token two weeks; using a refresh token issues a new one and ends the old one.
import { randomBytes } from 'node:crypto';

export const CODE_TTL_MS = 60_000;
export const ACCESS_TTL_MS = 2 * 3600_000;
export const REFRESH_TTL_MS = 14 * 24 * 3600_000;
/** Cafe24's leaky bucket of Admin API calls per mall and app: 40 deep, 2 calls a second out. */
export const BUCKET_SIZE = 40;
export const BUCKET_LEAK_PER_SECOND = 2;

/** A mall id as Cafe24 accepts it (the host `{mall_id}.cafe24api.com`). */
export const MALL_ID = /^[a-z0-9]{4,16}$/;

/** The screens a script tag may be shown on, as the Admin API's display_location codes. */
export const DISPLAY_LOCATIONS = new Set([
  'all',
  'ALL',
  'MAIN',
  'PRODUCT_LIST',
  'PRODUCT_DETAIL',
  'ORDER_BASKET',
  'ORDER_ORDERFORM',
  'ORDER_ORDERRESULT',
  'MYSHOP_MAIN',
]);

export interface CodeRecord {
  code: string;
  mallId: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  userId: string;
  expires: number;
  used: boolean;
}

export interface TokenRecord {
  accessToken: string;
  refreshToken: string;
  clientId: string;
  scopes: string[];
  userId: string;
  issuedAt: number;
  accessExpires: number;
  refreshExpires: number;
  /** The refresh token was used (a newer pair exists) or the app was removed. */
  ended: boolean;
}

export interface ScriptTag {
  shop_no: number;
  script_no: string;
  client_id: string;
  src: string;
  display_location: string[];
  exclude_path: string[];
  skin_no: number[];
  integrity: string | null;
  created_date: string;
  updated_date: string;
}

/**
 * 'outage': every OAuth token and Admin call answers 503; 'lost': every write (a token grant, a
 * script tag's POST, PUT or DELETE) is carried out and its answer never comes (the connection
 * closes), reads answer as usual.
 */
export type Failure = 'outage' | 'lost' | null;

export interface Mall {
  id: string;
  shopName: string;
  tokens: TokenRecord[];
  scriptTags: Map<string, ScriptTag>;
  nextScriptNo: number;
  /** Leaky bucket level at `bucketAt`. */
  bucket: number;
  bucketAt: number;
  failure: Failure;
  /** Refresh grants answer invalid_grant (the shop's admin revoked the app's access). */
  refuseRefresh: boolean;
  log: Array<{ at: string; method: string; path: string; status: number }>;
  /** Products of the stand-in storefront. */
  products: Array<{ no: number; name: string; description: string }>;
}

export function newMall(id: string): Mall {
  return {
    id,
    shopName: `${id} shop`,
    tokens: [],
    scriptTags: new Map(),
    nextScriptNo: 1,
    bucket: 0,
    bucketAt: Date.now(),
    failure: null,
    refuseRefresh: false,
    log: [],
    products: [
      { no: 11, name: 'Linen shirt', description: 'A light shirt for warm days.' },
      { no: 12, name: 'Canvas tote bag', description: 'Holds a laptop and lunch.' },
      { no: 13, name: 'Wool socks (3 pairs)', description: 'Warm and soft.' },
    ],
  };
}

export const opaque = (bytes = 16) =>
  randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'A');

/**
 * Cafe24 writes times as Korean local time without an offset: "2026-11-26T18:00:21.000".
 */
export function cafe24Time(ms: number): string {
  return new Date(ms + 9 * 3600_000).toISOString().replace('Z', '');
}

/** Cafe24's dates in API resources: ISO 8601 with +09:00. */
export function cafe24Date(ms: number): string {
  return new Date(ms + 9 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '+09:00');
}

/** Takes one call from the mall's bucket: the level after, or null when it is full (429). */
export function takeCall(mall: Mall, now = Date.now()): number | null {
  const leaked = ((now - mall.bucketAt) / 1000) * BUCKET_LEAK_PER_SECOND;
  mall.bucket = Math.max(0, mall.bucket - leaked);
  mall.bucketAt = now;
  if (mall.bucket + 1 > BUCKET_SIZE) return null;
  mall.bucket += 1;
  return Math.ceil(mall.bucket);
}

export function issueTokens(
  mall: Mall,
  clientId: string,
  scopes: string[],
  userId: string,
  now = Date.now(),
): TokenRecord {
  const record: TokenRecord = {
    accessToken: opaque(),
    refreshToken: opaque(),
    clientId,
    scopes,
    userId,
    issuedAt: now,
    accessExpires: now + ACCESS_TTL_MS,
    refreshExpires: now + REFRESH_TTL_MS,
    ended: false,
  };
  mall.tokens.push(record);
  if (mall.tokens.length > 50) mall.tokens.splice(0, mall.tokens.length - 50);
  return record;
}

/** The token endpoint's answer, as Cafe24 sends it. */
export function tokenJson(mall: Mall, t: TokenRecord): Record<string, unknown> {
  return {
    access_token: t.accessToken,
    expires_at: cafe24Time(t.accessExpires),
    refresh_token: t.refreshToken,
    refresh_token_expires_at: cafe24Time(t.refreshExpires),
    client_id: t.clientId,
    mall_id: mall.id,
    user_id: t.userId,
    scopes: t.scopes,
    issued_at: cafe24Time(t.issuedAt),
    shop_no: '1',
  };
}
