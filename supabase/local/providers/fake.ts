// What a provider fake is: one module, one path prefix. See README.md in this folder.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Log } from '../process.ts';
import type { Mailbox } from './mailbox.ts';
import type { Zone } from './dns/zone.ts';

/** What the providers server hands every fake when it creates it. */
export interface FakeContext<Options = undefined> {
  /** The providers server's origin, e.g. http://127.0.0.1:54327 (no trailing slash). */
  baseUrl: string;
  /** The local mailbox: fakes that "send" mail put it here. */
  mailbox: Mailbox;
  /** The local DNS zone (what the DNS server answers). */
  zone: Zone;
  /** Where the DNS server listens, `127.0.0.1:<port>`. */
  dnsAddress: string;
  /**
   * The server's state directory (none in tests that keep nothing): for a fake that keeps a
   * journal of its own (`journal.ts`) besides its `persistent` state.
   */
  stateDir?: string;
  /** The fake's own part of the server's options (the registry, fakes.ts, picks it). */
  options: Options;
  log: Log;
  /**
   * Tells the server that the fake with this prefix changed its `persistent` state (a timer
   * that charges, or any change of a fake whose `persistent.marksChanges`): it is saved soon.
   */
  changed(prefix: string): void;
}

export interface ProviderFake {
  /** Path prefix without a trailing slash, e.g. `/ses`. Must be unique. */
  prefix: string;
  /**
   * Top-level paths the fake also answers, with `path` the whole pathname: for an official
   * client that resolves its calls against the base URL's origin only (PortOne's SDK calls
   * `new URL('/payments/...', baseUrl)`), so the API cannot live under the prefix.
   */
  rootPaths?: string[];
  /** Shown as the heading of the fake's section on the index page. */
  title: string;
  /**
   * Handles every request whose path is the prefix or starts with `prefix + '/'`.
   * `path` is the rest of the path (starting with `/`, or '' for the prefix itself).
   * Throw an `HttpError` for a plain error answer; anything else thrown becomes a 500.
   */
  handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL): void | Promise<void>;
  /**
   * The fake's control API for tests and developers (README.md), at `prefix + '/_control'` and
   * below: the server routes those requests here, not to `handle`, with `path` the rest after
   * `/_control` ('' or starting with `/`). A request but GET and HEAD marks `persistent` changed,
   * `marksChanges` or not.
   */
  control?(req: IncomingMessage, res: ServerResponse, path: string, url: URL): void | Promise<void>;
  /** HTML (already escaped) for the fake's section of the developer page at `/`. */
  section?(): string;
  /**
   * Called once the whole local stack is up (the gateway and functions answer): the moment to
   * send the first webhooks, e.g. SNS's SubscriptionConfirmation.
   */
  start?(): void;
  /**
   * What the fake keeps across restarts of the stack (in the state directory, when the server
   * has one): `save` answers it as JSON, `load` takes it back once, before the first request.
   * Every request but GET and HEAD marks it changed, unless `marksChanges`: then the fake calls
   * `ctx.changed` itself (where most of its requests change nothing it keeps).
   */
  persistent?: { save(): unknown; load(saved: unknown): void; marksChanges?: boolean };
  /** Back to the state after start (tests: `POST /_control/reset`). */
  reset?(): void;
  /** Stops timers and outgoing requests when the stack stops. */
  close?(): void | Promise<void>;
}

export type FakeFactory<Options = undefined> = (
  ctx: FakeContext<Options>,
) => ProviderFake | Promise<ProviderFake>;
