// Configuration of the local stack: ports, secrets and the API keys derived from them.
// Every value can be overridden by an environment variable of the same name.
import { SignJWT } from 'jose';
import { createSocket } from 'node:dgram';
import { connect, createServer } from 'node:net';

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

/** Asks the kernel for ports nobody is listening on (tests run beside a developer's stack). */
export async function freePorts(): Promise<Ports> {
  const one = () =>
    new Promise<{ port: number; close: () => void }>((resolve, reject) => {
      const srv = createServer();
      srv.once('error', reject);
      srv.listen(0, '127.0.0.1', () => {
        const addr = srv.address();
        if (addr === null || typeof addr === 'string') return reject(new Error('no port'));
        resolve({ port: addr.port, close: () => srv.close() });
      });
    });
  // hold all of them open at once so the kernel hands out different ports; never npm start's
  // own (DEFAULT_PORTS lie in the kernel's range for free ports: a test stack holding 54322 made a
  // developer's `npm start` beside it fail with "port in use")
  const held: { port: number; close: () => void }[] = [];
  const passed: { port: number; close: () => void }[] = [];
  while (held.length < 8) {
    const h = await one();
    (isDefaultPort(h.port) ? passed : held).push(h);
  }
  const [api, db, web, postgrest, postgrestAdmin, functions, providers, services] = held.map(
    (h) => h.port,
  ) as [number, number, number, number, number, number, number, number];
  const providersDns = await freeUdpAndTcpPort();
  [...held, ...passed].forEach((h) => h.close());
  return { api, db, web, postgrest, postgrestAdmin, functions, providers, providersDns, services };
}

const isDefaultPort = (port: number) => Object.values(DEFAULT_PORTS).includes(port);

/** A port free for both TCP and UDP (DNS answers over both on one port). */
async function freeUdpAndTcpPort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const tcp = createServer();
    const port = await new Promise<number>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(0, '127.0.0.1', () => {
        const addr = tcp.address();
        if (addr === null || typeof addr === 'string') return reject(new Error('no port'));
        resolve(addr.port);
      });
    });
    const udp = createSocket('udp4');
    const ok = await new Promise<boolean>((resolve) => {
      udp.once('error', () => resolve(false));
      udp.bind(port, '127.0.0.1', () => resolve(true));
    });
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
    if (ok && isDefaultPort(port)) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      continue;
    }
    if (ok) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      return port;
    }
    try {
      udp.close();
    } catch {
      // never bound
    }
  }
  throw new Error('no port free for both TCP and UDP');
}

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
