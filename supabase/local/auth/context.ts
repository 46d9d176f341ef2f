// What every route module of the auth server works with: its settings (GoTrue's names in the
// comments), the database, the JWT signer, the per-address limits and the mailer.
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import pg from 'pg';
import { Jwt } from './jwt.ts';
import type { CaptchaOptions } from './captcha.ts';
import type { Mailer } from './mailer.ts';
import { normaliseAddress } from '../http.ts';
import { overRequestRateLimit } from './errors.ts';
import { addressGroup, clientAddress, RateLimiter, type TrustedHops } from './rate-limit.ts';

export interface AuthOptions {
  databaseUrl: string;
  jwtSecret: string;
  /** e.g. http://127.0.0.1:54321/auth/v1 — the JWT `iss` and the base of links in mails */
  externalUrl: string;
  /** default redirect, e.g. http://127.0.0.1:54321 */
  siteUrl: string;
  additionalRedirectUrls?: string[];
  /** access token lifetime in seconds, default 3600 */
  jwtExpiry?: number;
  anonKey: string;
  serviceRoleKey: string;
  /** seconds a used refresh token still returns the session's current token (concurrent refreshes), default 10 */
  refreshTokenReuseInterval?: number;
  /** minimum password length, default 6 (GoTrue's default) */
  passwordMinLength?: number;
  /**
   * Email and password sign-up and sign-in (GOTRUE_EXTERNAL_EMAIL_ENABLED, config.toml
   * `[auth.email] enable_signup`). Default off: owners sign in with Google or Apple; users made
   * with the admin API still exist and sign in by a link (admin generate_link + verify).
   */
  emailEnabled?: boolean;
  /**
   * Whether addresses count as confirmed without a mail (GOTRUE_MAILER_AUTOCONFIRM), default
   * off: a new email of a user holds only once the link mailed to it is opened. No user can
   * change or add one where the Send Email Hook refuses it (auth-mail.ts, email-change.ts).
   */
  mailerAutoconfirm?: boolean;
  /**
   * An email change of a user who has an address needs both addresses to confirm
   * (GOTRUE_MAILER_SECURE_EMAIL_CHANGE_ENABLED), default on.
   */
  secureEmailChange?: boolean;
  /** Seconds a mailed link or code stays good (GOTRUE_MAILER_OTP_EXP), default 86400. */
  otpExpiry?: number;
  /** Seconds before the same user may be mailed again (GOTRUE_SMTP_MAX_FREQUENCY), default 60. */
  mailMaxFrequency?: number;
  /**
   * Per client address (GoTrue's defaults): anonymous sign-ins an hour (RATE_LIMIT_ANONYMOUS_USERS,
   * 30); email sign-ups and user updates per 5 minutes (RATE_LIMIT_OTP, 30); verifications per
   * 5 minutes (RATE_LIMIT_VERIFY, 30); token refreshes and sign-ins per 5 minutes
   * (RATE_LIMIT_TOKEN_REFRESH, 150). Mails an hour for the whole server (RATE_LIMIT_EMAIL_SENT,
   * 30). 0 turns a limit off.
   */
  rateLimitAnonymousUsers?: number;
  rateLimitOtp?: number;
  rateLimitVerify?: number;
  rateLimitTokenRefresh?: number;
  rateLimitEmailSent?: number;
  /**
   * Addresses of the proxies in front (a load balancer, a CDN) whose X-Forwarded-For entries are
   * believed; default none: the client address is the connection's peer.
   */
  trustedProxies?: string[];
  /**
   * The addresses the stack's own gateway connects from: it appends the peer it saw to
   * X-Forwarded-For, and that entry (or, when it is a trusted proxy, what that proxy added) is
   * the client's address.
   */
  gatewayAddresses?: string[];
  /** Where mails go (the SES fake in the local stack); default: nowhere, sends fail. */
  mailer?: Mailer;
  /**
   * GoTrue's Send Email Hook (`[auth.hook.send_email] uri`, GOTRUE_HOOK_SEND_EMAIL_URI) as a
   * Postgres function, `pg-functions://postgres/<schema>/<function>`: when set, every auth mail
   * goes to it instead of the mailer (auth-mail.ts). Default none.
   */
  sendEmailHook?: string;
  /**
   * Turnstile for anonymous sign-ins past their address's limit (captcha.ts); default none: past
   * the limit they are refused (429), as on GoTrue.
   */
  captcha?: CaptchaOptions;
  log?: (service: string, line: string) => void;
}

export interface AuthSettings {
  externalUrl: string;
  siteUrl: string;
  allowList: string[];
  jwtExpiry: number;
  reuseIntervalMs: number;
  passwordMinLength: number;
  emailEnabled: boolean;
  mailerAutoconfirm: boolean;
  secureEmailChange: boolean;
  otpExpiryMs: number;
  mailMaxFrequencyMs: number;
  /** the Send Email Hook's function, quoted for SQL (`"schema"."name"`) */
  sendEmailHook: string | undefined;
}

export interface AuthLimits {
  anonymousUsers: RateLimiter;
  /** email sign-ups and user updates: two buckets of RATE_LIMIT_OTP each, as on GoTrue */
  signups: RateLimiter;
  userUpdates: RateLimiter;
  verify: RateLimiter;
  token: RateLimiter;
  /** one key for the whole server */
  emailSent: RateLimiter;
}

export interface AuthDeps {
  settings: AuthSettings;
  pool: pg.Pool;
  jwt: Jwt;
  limits: AuthLimits;
  mailer: Mailer | undefined;
  captcha: CaptchaOptions | undefined;
  trusted: TrustedHops;
  log: (service: string, line: string) => void;
}

/** The Hono environment of the auth routes: Node's request and response are at `c.env`. */
export type AuthEnv = { Bindings: HttpBindings };
export type AuthCtx = Context<AuthEnv>;

export function createDeps(opts: AuthOptions): AuthDeps {
  const log = opts.log ?? ((service, line) => console.error(`[${service}] ${line}`));
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
  // a dropped idle connection must not crash the stack
  pool.on('error', (err) => log('auth', `idle database connection failed: ${err.message}`));
  const externalUrl = opts.externalUrl.replace(/\/+$/, '');
  return {
    settings: {
      externalUrl,
      siteUrl: opts.siteUrl,
      allowList: (opts.additionalRedirectUrls ?? []).filter((u) => u.trim() !== ''),
      jwtExpiry: opts.jwtExpiry ?? 3600,
      reuseIntervalMs: (opts.refreshTokenReuseInterval ?? 10) * 1000,
      passwordMinLength: opts.passwordMinLength ?? 6,
      emailEnabled: opts.emailEnabled ?? false,
      mailerAutoconfirm: opts.mailerAutoconfirm ?? false,
      secureEmailChange: opts.secureEmailChange ?? true,
      otpExpiryMs: (opts.otpExpiry ?? 86_400) * 1000,
      mailMaxFrequencyMs: (opts.mailMaxFrequency ?? 60) * 1000,
      sendEmailHook: opts.sendEmailHook ? hookFunction(opts.sendEmailHook) : undefined,
    },
    pool,
    jwt: new Jwt(opts.jwtSecret, externalUrl),
    limits: {
      anonymousUsers: RateLimiter.perHour(opts.rateLimitAnonymousUsers ?? 30),
      signups: RateLimiter.perFiveMinutes(opts.rateLimitOtp ?? 30),
      userUpdates: RateLimiter.perFiveMinutes(opts.rateLimitOtp ?? 30),
      verify: RateLimiter.perFiveMinutes(opts.rateLimitVerify ?? 30),
      token: RateLimiter.perFiveMinutes(opts.rateLimitTokenRefresh ?? 150),
      emailSent: RateLimiter.perHour(opts.rateLimitEmailSent ?? 30),
    },
    mailer: opts.mailer,
    captcha: opts.captcha,
    trusted: { gateway: addresses(opts.gatewayAddresses), proxies: addresses(opts.trustedProxies) },
    log,
  };
}

/** The function a `pg-functions://<db>/<schema>/<fn>` URI names, quoted for SQL. */
function hookFunction(uri: string): string {
  const match = /^pg-functions:\/\/[^/]+\/([a-z_][a-z0-9_]*)\/([a-z_][a-z0-9_]*)$/.exec(uri);
  if (!match) throw new Error(`send email hook: "${uri}" is not pg-functions://<db>/<schema>/<fn>`);
  return `"${match[1]}"."${match[2]}"`;
}

const addresses = (list: string[] | undefined) =>
  new Set((list ?? []).map(normaliseAddress).filter((a) => a !== ''));

/** The caller's address (see rate-limit.ts). */
export const clientAddressOf = (deps: AuthDeps, c: AuthCtx) =>
  clientAddress(c.env.incoming, deps.trusted);

/** What the caller's per-address limits count under: its address's group (an IPv6 /64). */
export const addressKeyOf = (address: string) => addressGroup(address) || address;

/**
 * Takes one of the caller's tokens of a limit (counted under addressKeyOf), or refuses with
 * GoTrue's 429 and the wait until one.
 */
export function limitCaller(deps: AuthDeps, c: AuthCtx, limit: keyof AuthLimits): void {
  const limiter = deps.limits[limit];
  const key = addressKeyOf(clientAddressOf(deps, c));
  if (!limiter.take(key)) throw overRequestRateLimit(limiter.retryAfter(key));
}

export { tx } from '../transaction.ts';

export function pgCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err
    ? String((err as { code: unknown }).code)
    : undefined;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);
