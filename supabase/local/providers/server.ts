// The local providers server: our fakes of outside providers' HTTP APIs on one port (the way
// stripe-mock stands in for Stripe), the mailbox, and a small authoritative DNS server.
//   GET  /                      the developer's page: the mailbox first, then each fake's section
//   /mailbox/...                the local mailbox (mailbox.ts)
//   /<prefix>/...               one fake per prefix (fakes.ts): /ses, /dns, /portone, /paypal, ...
//   /<prefix>/_control/...      that fake's control API, for tests and developers (its `control`)
//   /<root path>/...            paths a fake claims at the root, for an official client that
//                               ignores a base URL's path (PortOne's: /payments, /billing-keys, ...)
//   POST /_control/reset        every fake, the mailbox and the zone back to their start state
//   GET  /_health               200 once listening
// With a state directory, the mailbox and each fake's `persistent` state are kept there across
// restarts (state-store.ts). Listens on 127.0.0.1 only and answers only requests for 127.0.0.1/localhost from no other
// site (the control endpoints have no authentication).
import type { IncomingMessage, Server } from 'node:http';
import { join } from 'node:path';
import type { Log } from '../process.ts';
import { startDnsServer, type DnsServer } from './dns/server.ts';
import { seedRecords } from './dns/index.ts';
import { Zone } from './dns/zone.ts';
import type { FakeContext, ProviderFake } from './fake.ts';
import { FAKES, type ProvidersOptions } from './fakes.ts';
import { escapeHtml, HttpError, page, sendHtml, sendJson } from './http.ts';
import { closeServer, listen, requestUrl, serve, type Handler } from '../http.ts';
import { handleMailbox, Mailbox, renderMailboxSection } from './mailbox.ts';
import type { SesFake } from './ses/index.ts';
import { StateStore } from './state-store.ts';

export type { ProvidersOptions } from './fakes.ts';

export interface Providers {
  /** e.g. http://127.0.0.1:54327 */
  url: string;
  /** `127.0.0.1:<port>` of the DNS server (DNS_NAMESERVER). */
  dnsAddress: string;
  mailbox: Mailbox;
  zone: Zone;
  fakes: ProviderFake[];
  ses: SesFake;
  /** Tells every fake the whole stack is up (first webhooks go out now). */
  start(): void;
  reset(): void;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

/** The rest of a fake's `path` after `/_control` ('' or `/...`) when it is the control API's. */
const controlPath = (path: string): string | undefined =>
  path === '/_control' || path.startsWith('/_control/')
    ? path.slice('/_control'.length)
    : undefined;

export async function startProviders(opts: ProvidersOptions): Promise<Providers> {
  const log: Log = opts.log ?? (() => {});
  const zone = new Zone(seedRecords());
  const store = opts.stateDir ? new StateStore(opts.stateDir, log) : undefined;
  const mailbox = new Mailbox({
    journal: store ? join(store.dir, 'mailbox.jsonl') : undefined,
    log,
  });
  const dns: DnsServer = await startDnsServer({ zone, port: opts.dnsPort, host: HOST, log });
  const dnsAddress = `${HOST}:${dns.port}`;

  // answers once the fakes exist (below); a request before that is told to come back
  let handle: Handler = (_req, res) => sendJson(res, 503, { error: 'Starting' });
  const server: Server = serve((req, res) => handle(req, res), {
    name: 'providers',
    log,
    onError: (res, err) =>
      sendJson(res, err.status, {
        error: err.status >= 500 ? 'Internal error in the providers server' : err.message,
      }),
  });
  await listen(server, opts.port, HOST).catch(async (err: Error) => {
    await dns.close();
    throw new Error(`providers port ${opts.port}: ${err.message}`);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = `http://${HOST}:${port}`;
  const allowedHosts = new Set([`${HOST}:${port}`, `localhost:${port}`]);
  const allowedOrigins = new Set([...allowedHosts].map((h) => `http://${h}`));

  const stateName = (prefix: string) => prefix.slice(1);
  const ctx: FakeContext<ProvidersOptions> = {
    baseUrl: url,
    mailbox,
    zone,
    dnsAddress,
    stateDir: store?.dir,
    options: opts,
    log,
    changed: (prefix) => store?.changed(stateName(prefix)),
  };
  const fakes: ProviderFake[] = [];
  try {
    for (const factory of FAKES) fakes.push(await factory(ctx));
  } catch (err) {
    server.close();
    mailbox.close();
    await dns.close();
    throw err;
  }
  for (const fake of fakes) {
    if (!store || !fake.persistent) continue;
    const name = stateName(fake.prefix);
    const saved = store.read(name);
    try {
      if (saved !== undefined) fake.persistent.load(saved);
    } catch (err) {
      fake.reset?.();
      log('providers', `ignoring saved state of ${name}: ${(err as Error).message}`);
    }
    store.register(name, () => fake.persistent!.save());
  }
  /** A request that may have changed a fake's state (a control request always may): save it soon. */
  const touched = (req: IncomingMessage, fake: ProviderFake, control = false) => {
    if (fake.persistent?.marksChanges && !control) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') ctx.changed(fake.prefix);
  };
  const prefixes = new Set<string>();
  for (const fake of fakes) {
    if (
      !/^\/[a-z0-9-]+$/.test(fake.prefix) ||
      prefixes.has(fake.prefix) ||
      fake.prefix === '/mailbox'
    ) {
      throw new Error(`fake prefix ${fake.prefix} is invalid or taken`);
    }
    prefixes.add(fake.prefix);
  }
  const roots = new Set<string>();
  for (const root of fakes.flatMap((f) => f.rootPaths ?? [])) {
    if (
      !/^\/[a-z0-9-]+$/.test(root) ||
      prefixes.has(root) ||
      roots.has(root) ||
      root === '/mailbox'
    ) {
      throw new Error(`fake root path ${root} is invalid or taken`);
    }
    roots.add(root);
  }

  const reset = () => {
    mailbox.clear();
    zone.reset();
    for (const fake of fakes) {
      fake.reset?.();
      ctx.changed(fake.prefix);
    }
  };

  const indexPage = () => {
    const sections = fakes
      .filter((f) => f.section)
      .map((f) => {
        const id = f.prefix.slice(1);
        return `<section id="${id}" aria-labelledby="${id}-h"><h2 id="${id}-h">${escapeHtml(f.title)}</h2>${f.section!()}</section>`;
      })
      .join('\n');
    return page(
      'Local providers',
      `<h1>Local providers</h1><p class="muted">Fakes of outside providers for this machine: nothing here reaches the Internet. Reload to see new mail.</p>${renderMailboxSection(mailbox)}${sections}`,
    );
  };

  handle = async (req, res) => {
    const target = requestUrl(req, url);
    // Only this machine's clients: a Host of another name is a DNS-rebinding page, an Origin
    // of another site a cross-site form trying to change the fakes' state.
    const host = (req.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(host)) throw new HttpError(403, 'Unknown Host');
    const origin = req.headers.origin;
    if (req.method !== 'GET' && req.method !== 'HEAD' && origin && !allowedOrigins.has(origin)) {
      throw new HttpError(403, 'Cross-site request refused');
    }
    if (target.pathname === '/' && req.method === 'GET') return sendHtml(res, 200, indexPage());
    if (target.pathname === '/_health') return sendJson(res, 200, { ok: true });
    if (target.pathname === '/_control/reset' && req.method === 'POST') {
      reset();
      return sendJson(res, 200, { ok: true });
    }
    if (target.pathname.startsWith('/mailbox/') && handleMailbox(mailbox, req, res, target)) return;
    const fake = fakes.find(
      (f) => target.pathname === f.prefix || target.pathname.startsWith(`${f.prefix}/`),
    );
    if (fake) {
      const path = target.pathname.slice(fake.prefix.length);
      const control = fake.control ? controlPath(path) : undefined;
      try {
        if (control !== undefined) return await fake.control!(req, res, control, target);
        return await fake.handle(req, res, path, target);
      } finally {
        touched(req, fake, control !== undefined);
      }
    }
    const rooted = fakes.find((f) =>
      f.rootPaths?.some((r) => target.pathname === r || target.pathname.startsWith(`${r}/`)),
    );
    if (rooted) {
      try {
        return await rooted.handle(req, res, target.pathname, target);
      } finally {
        touched(req, rooted);
      }
    }
    throw new HttpError(404, 'Not found');
  };

  return {
    url,
    dnsAddress,
    mailbox,
    zone,
    fakes,
    ses: fakes.find((f) => f.prefix === '/ses') as SesFake,
    start: () => {
      for (const fake of fakes) fake.start?.();
    },
    reset,
    close: async () => {
      for (const fake of fakes) await fake.close?.();
      await store?.flush();
      mailbox.close();
      await closeServer(server);
      await dns.close();
    },
  };
}
