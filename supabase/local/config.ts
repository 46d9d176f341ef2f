// Configuration of the local stack: ports, secrets and the API keys derived from them.
// Every value can be overridden by an environment variable of the same name.
import { SignJWT } from 'jose';
import { createHmac } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { existsSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { paths } from './paths.ts';

/** Supabase CLI's well-known local secret: fine for a machine-local stack, never for production. */
export const DEFAULT_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

export interface Ports {
  api: number;
  db: number;
  postgrest: number;
  postgrestAdmin: number;
  functions: number;
  web: number;
  /** The providers server (fakes of SES and the other outside providers, the mailbox). */
  providers: number;
  /** The local DNS zone's server, UDP and TCP. */
  providersDns: number;
  /**
   * Internal: the auth, realtime and storage stand-ins, served by the stack's own process
   * behind the gateway (which runs in a process of its own).
   */
  services: number;
}

export const DEFAULT_PORTS: Ports = {
  api: 54321,
  db: 54322,
  web: 54323,
  postgrest: 54324,
  postgrestAdmin: 54325,
  functions: 54326,
  providers: 54327,
  providersDns: 54328,
  services: 54329,
};

export function portsFromEnv(env: NodeJS.ProcessEnv = process.env): Ports {
  const pick = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const port = Number(raw);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new Error(`${name} must be a TCP port number, got "${raw}"`);
    }
    return port;
  };
  return {
    api: pick('API_PORT', DEFAULT_PORTS.api),
    db: pick('DB_PORT', DEFAULT_PORTS.db),
    web: pick('WEB_PORT', DEFAULT_PORTS.web),
    postgrest: pick('POSTGREST_PORT', DEFAULT_PORTS.postgrest),
    postgrestAdmin: pick('POSTGREST_ADMIN_PORT', DEFAULT_PORTS.postgrestAdmin),
    functions: pick('FUNCTIONS_PORT', DEFAULT_PORTS.functions),
    providers: pick('PROVIDERS_PORT', DEFAULT_PORTS.providers),
    providersDns: pick('PROVIDERS_DNS_PORT', DEFAULT_PORTS.providersDns),
    services: pick('SERVICES_PORT', DEFAULT_PORTS.services),
  };
}

/** The environment variables that make `npm start` use these ports (the inverse of portsFromEnv). */
export function portsToEnv(ports: Ports): Record<string, string> {
  return {
    API_PORT: String(ports.api),
    DB_PORT: String(ports.db),
    WEB_PORT: String(ports.web),
    POSTGREST_PORT: String(ports.postgrest),
    POSTGREST_ADMIN_PORT: String(ports.postgrestAdmin),
    FUNCTIONS_PORT: String(ports.functions),
    PROVIDERS_PORT: String(ports.providers),
    PROVIDERS_DNS_PORT: String(ports.providersDns),
    SERVICES_PORT: String(ports.services),
  };
}

/** Whether something accepts connections on `port` of 127.0.0.1. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The kernel's range for the ports it picks itself, for outgoing connections and `listen(0)`
 * (Linux's ip_local_port_range; 32768-60999 by default).
 */
function kernelPortRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low && high) return [low, high];
  } catch {
    // not Linux
  }
  return [32768, 60999];
}

/**
 * Where the stack's free ports are looked for: below the kernel's own range, so that no outgoing
 * connection of any process is ever given one of them while the stack is down. A stack restarted
 * on its ports (hostile-restart.test.ts) failed on a busy machine with Postgres's "could not bind
 * ... Address already in use": a client socket elsewhere had been given the port meanwhile.
 */
const SEARCH_FROM = 10_000;

/** Whether `port` takes a TCP listener on 127.0.0.1 (and, with `udp`, a UDP socket too); held open. */
async function hold(port: number, udp = false): Promise<(() => Promise<void>) | undefined> {
  const tcp = createServer();
  const tcpOk = await new Promise<boolean>((resolve) => {
    tcp.once('error', () => resolve(false));
    tcp.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!tcpOk) return undefined;
  const closeTcp = () => new Promise<void>((resolve) => tcp.close(() => resolve()));
  if (!udp) return closeTcp;
  const socket = createSocket('udp4');
  const udpOk = await new Promise<boolean>((resolve) => {
    socket.once('error', () => resolve(false));
    socket.bind(port, '127.0.0.1', () => resolve(true));
  });
  if (!udpOk) {
    socket.close();
    await closeTcp();
    return undefined;
  }
  return async () => {
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    await closeTcp();
  };
}

/**
 * Ports nobody is listening on (tests run beside a developer's stack), below the kernel's own
 * range (SEARCH_FROM), never npm start's own (a test stack holding 54322 made a developer's
 * `npm start` beside it fail with "port in use"); the DNS port free for both TCP and UDP. All are
 * held open until every one is found, so they differ. They are free when picked, not reserved:
 * another stack may pick one before this one's server binds it (a stack started with
 * `movablePorts` then moves that server, stack.ts).
 */
export async function freePorts(): Promise<Ports> {
  // the last one is the DNS server's, which answers over UDP and TCP
  const found = await pickFree(9, [], (i) => i === 8);
  const [api, db, web, postgrest, postgrestAdmin, functions, providers, services, providersDns] =
    found as [number, number, number, number, number, number, number, number, number];
  return { api, db, web, postgrest, postgrestAdmin, functions, providers, providersDns, services };
}

/**
 * `count` more free ports as freePorts picks them, none of them in `besides` (the stack's other
 * ports, and those just found taken); `udp(i)`: the i-th must be free for UDP too.
 */
export function otherFreePorts(
  count: number,
  besides: number[],
  udp: (i: number) => boolean = () => false,
): Promise<number[]> {
  return pickFree(count, besides, udp);
}

async function pickFree(
  count: number,
  besides: number[],
  udp: (i: number) => boolean,
): Promise<number[]> {
  const [kernelLow] = kernelPortRange();
  // a kernel whose range leaves little below it: anywhere from SEARCH_FROM up
  const top = kernelLow - 1 > SEARCH_FROM + 1_000 ? kernelLow - 1 : 65_535;
  const closers: (() => Promise<void>)[] = [];
  const found: number[] = [];
  try {
    for (let attempt = 0; found.length < count; attempt++) {
      if (attempt > 2_000) throw new Error('no free ports for the stack');
      const port = SEARCH_FROM + Math.floor(Math.random() * (top - SEARCH_FROM + 1));
      if (isDefaultPort(port) || found.includes(port) || besides.includes(port)) continue;
      const close = await hold(port, udp(found.length));
      if (!close) continue;
      closers.push(close);
      found.push(port);
    }
  } finally {
    await Promise.all(closers.map((close) => close()));
  }
  return found;
}

/**
 * Whether a server failed to start because its port was taken: Node's and Deno's EADDRINUSE,
 * PostgREST's "resource busy (Address in use)", Postgres's "could not bind ... Address already in
 * use".
 */
export const addressInUse = (err: unknown): boolean =>
  /EADDRINUSE|AddrInUse|address (already )?in use/i.test(
    err instanceof Error ? err.message : String(err),
  );

const isDefaultPort = (port: number) => Object.values(DEFAULT_PORTS).includes(port);

export interface Keys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
}

/** The anon and service-role keys are long-lived JWTs signed with the project's secret, as on Supabase. */
export async function makeKeys(jwtSecret: string): Promise<Keys> {
  const secret = new TextEncoder().encode(jwtSecret);
  // fixed iat/exp so the keys stay the same across restarts
  const sign = (role: string) =>
    new SignJWT({ iss: 'supabase-demo', role })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(1_700_000_000)
      .setExpirationTime(2_000_000_000)
      .sign(secret);
  return { jwtSecret, anonKey: await sign('anon'), serviceRoleKey: await sign('service_role') };
}

/** A config.toml value as the stack reads it: a string (quotes taken off, or a bare word such
 * as `true` or `54321`) or a list of strings. */
export type ConfigValue = string | string[];

/**
 * supabase/config.toml as `section -> key -> value`, the one reader of it here (the schema files'
 * order, the functions' `verify_jwt`, the Send Email Hook). Only the TOML this file uses: `[a.b]`
 * headers, `key = "text"`, bare words, and lists of strings over one or several lines.
 */
export function configToml(
  file = join(paths.supabase, 'config.toml'),
): Map<string, Map<string, ConfigValue>> {
  const sections = new Map<string, Map<string, ConfigValue>>();
  if (!existsSync(file)) return sections;
  const text = readFileSync(file, 'utf8').replace(/^\s*#.*$/gm, '');
  let current: Map<string, ConfigValue> | undefined;
  const entry = /^\s*\[([a-z0-9_.-]+)\]|^\s*([a-z0-9_]+)\s*=\s*(\[[^\]]*\]|"[^"]*"|\S+)/gm;
  for (const [, section, key, raw] of text.matchAll(entry)) {
    if (section) sections.set(section, (current = new Map()));
    else if (current && key && raw)
      current.set(
        key,
        raw.startsWith('[')
          ? [...raw.matchAll(/"([^"]*)"/g)].map((m) => m[1]!)
          : raw.replace(/^"(.*)"$/, '$1'),
      );
  }
  return sections;
}

/**
 * Secrets and settings of background work and mail for the functions. The secrets derive from the
 * JWT secret, so they stay the same across restarts (unsubscribe links in mails keep working).
 */
export function backgroundEnv(jwtSecret: string, webUrl: string) {
  const derive = (purpose: string) =>
    createHmac('sha256', jwtSecret).update(purpose).digest('base64url');
  return {
    JOBS_WORKER_SECRET: derive('jobs-worker'),
    UNSUBSCRIBE_SECRET: derive('unsubscribe'),
    SITE_URL: webUrl,
    MAIL_FROM: 'notify@reaction-blocks.local',
    MAIL_FROM_NAME: 'Reaction Blocks',
    // the operator's address for alerts (a PayPal payment that could not be given back)
    OPERATOR_EMAIL: 'operator@reaction-blocks.local',
  };
}

/**
 * The AWS settings the functions get locally. The keys are AWS's documented example
 * credentials: dummies the SES fake accepts (it reads the access key id to tell accounts
 * apart, and does not check signatures).
 */
export const LOCAL_AWS = {
  region: 'us-east-1',
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  configurationSet: 'reaction-blocks',
  /** The SNS topic of the fake's default account, where SES events are published. */
  snsTopicArn: 'arn:aws:sns:us-east-1:123456789012:ses-events',
};

/**
 * The Notion OAuth client the functions use locally and the Notion fake accepts (a public
 * integration's client id and secret in production: docs/self-hosting.md).
 */
export const LOCAL_NOTION = {
  clientId: 'local-notion-client-id',
  clientSecret: 'local-notion-client-secret',
};

/**
 * The Cafe24 app the functions use locally and the Cafe24 fake accepts (production: the app's
 * client id and secret from Cafe24 Developers, docs/cafe24.md).
 */
export const LOCAL_CAFE24 = {
  clientId: 'local-cafe24-client-id',
  clientSecret: 'local-cafe24-client-secret',
};

/** The platform's own sender domain, verified in the SES fake from the start. */
export const SENDER_DOMAIN = 'reaction-blocks.local';

/** Functions whose config.toml section says `verify_jwt = false`. */
export function publicFunctions(config: Map<string, Map<string, ConfigValue>>): Set<string> {
  const names = new Set<string>();
  for (const [name, keys] of config) {
    const fn = /^functions\.([a-z0-9-]+)$/.exec(name);
    if (fn && keys.get('verify_jwt') === 'false') names.add(fn[1]!);
  }
  return names;
}

/** The Send Email Hook's URI when config.toml's `[auth.hook.send_email]` is enabled. */
export function sendEmailHook(config: Map<string, Map<string, ConfigValue>>): string | undefined {
  const hook = config.get('auth.hook.send_email');
  const uri = hook?.get('uri');
  return hook?.get('enabled') === 'true' && typeof uri === 'string' ? uri : undefined;
}
