// Every fake the providers server mounts, one module each (see README.md: adding a fake), and
// the server's options, of which each fake gets its own part.
import type { FakeContext, ProviderFake } from './fake.ts';
import type { Log } from '../process.ts';
import { createCafe24Fake, type Cafe24FakeOptions } from './cafe24/index.ts';
import { createHooksFake } from './hooks/index.ts';
import { createDnsFake } from './dns/index.ts';
import { createNotionFake, type NotionFakeOptions } from './notion/index.ts';
import { createPayPalFake, type PayPalFakeOptions } from './paypal/index.ts';
import { createPortOneFake, type PortOneFakeOptions } from './portone/index.ts';
import { createSesFake, type SesFakeOptions } from './ses/index.ts';
import { createPagesFake } from './pages/index.ts';
import { createTurnstileFake } from './turnstile/index.ts';

/** What `startProviders` (server.ts) is started with; each fake reads its own part. */
export interface ProvidersOptions {
  port: number;
  /** UDP and TCP port of the DNS server (0: any free one). */
  dnsPort: number;
  log?: Log;
  ses: SesFakeOptions;
  /** The PortOne V2 fake (defaults: portone/index.ts). */
  portone?: Partial<PortOneFakeOptions>;
  /** The PayPal fake (defaults: paypal/index.ts). */
  paypal?: Partial<PayPalFakeOptions>;
  /** The OAuth client the Notion fake accepts (the functions get the same id and secret). */
  notion?: NotionFakeOptions;
  /** The Cafe24 app the Cafe24 fake accepts (the functions get the same id and secret). */
  cafe24?: Cafe24FakeOptions;
  /** Where the mailbox and the fakes keep their state across restarts; none: memory only. */
  stateDir?: string;
}

type Mount = (ctx: FakeContext<ProvidersOptions>) => ProviderFake | Promise<ProviderFake>;

/** Each fake with its part of the options. */
export const FAKES: Mount[] = [
  (ctx) => createSesFake({ ...ctx, options: ctx.options.ses }),
  (ctx) => createDnsFake({ ...ctx, options: undefined }),
  (ctx) => createPortOneFake({ ...ctx, options: ctx.options.portone }),
  (ctx) => createPayPalFake({ ...ctx, options: ctx.options.paypal }),
  (ctx) => createNotionFake({ ...ctx, options: ctx.options.notion }),
  (ctx) => createPagesFake({ ...ctx, options: undefined }),
  (ctx) => createTurnstileFake({ ...ctx, options: undefined }),
  (ctx) => createCafe24Fake({ ...ctx, options: ctx.options.cafe24 }),
  (ctx) => createHooksFake({ ...ctx, options: undefined }),
];
