// The whole local Supabase stack in one call: PostgreSQL (embedded, or DATABASE_URL), migrations,
// PostgREST, the auth server, the Deno edge runtime, the gateway, the static web server, the
// providers server (fakes of SES and the other outside providers, the mailbox, a DNS zone) and the
// workers of the local pg_cron and pg_net stand-ins.
// Used by `npm start` and by the tests (free ports, throwaway data directory).
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import pg from 'pg';
import {
  addressInUse,
  backgroundEnv,
  configToml,
  LOCAL_AWS,
  LOCAL_CAFE24,
  LOCAL_NOTION,
  makeKeys,
  otherFreePorts,
  type Ports,
  publicFunctions,
  SENDER_DOMAIN,
  sendEmailHook,
} from './config.ts';
import { startPostgres, type RunningPostgres } from './postgres.ts';
import { migrate } from './migrate.ts';
import { startPostgrest } from './postgrest.ts';
import { startFunctions } from './functions.ts';
import {
  gatewayMemory,
  setGatewayUpstreams,
  startGatewayProcess,
  type RealtimeHandOff,
  type Upstreams,
} from './gateway.ts';
import { startServices } from './services.ts';
import { closeServer } from './http.ts';
import { startWeb } from './web.ts';
import { createAuthServer, type AuthOptions } from './auth/server.ts';
import { sesMailer } from './auth/mailer.ts';
import { createRealtimeServer } from './realtime/server.ts';
import { startProviders } from './providers/server.ts';
import {
  paymentBrowserConfig,
  paymentFakeOptions,
  paymentFunctionsEnv,
} from './providers/payments-env.ts';
import { LOCAL_TURNSTILE } from './providers/turnstile/index.ts';
import { startBackgroundWorkers } from './background/index.ts';
import { createStorage } from './storage.ts';
import { NOTION_PAGE_URL, TYPEDREAM_PAGE_URL } from './providers/pages/fixtures.ts';
import type { Log, Managed } from './process.ts';
import { supervise, type Supervised } from './supervise.ts';
import { providersStateDir } from './paths.ts';

export interface StackOptions {
  ports: Ports;
  /**
   * The ports were picked as free (config.ts freePorts), not asked for: a server that finds its
   * port taken when it binds (another stack picked the same one meanwhile, as test files run side
   * by side on a busy machine do) is started again on a newly picked one (`Stack.ports` says
   * where each ended up). Without it (`npm start`, BENCH_BASE_PORT) a taken port fails the start.
   */
  movablePorts?: boolean;
  /** Embedded Postgres data directory (ignored with databaseUrl). */
  dataDir: string;
  /** An existing Postgres (for instance a Supabase project's) instead of the embedded one. */
  databaseUrl?: string;
  /**
   * Load the demo seed (config.toml `[db.seed]`: the demo owner, blocks and their history) into
   * a new database. Default: yes for the embedded database, never for DATABASE_URL unless asked
   * (`npm start -- --seed`): a real project must not get demo data by accident.
   */
  seed?: boolean;
  jwtSecret: string;
  /**
   * The embedded Postgres is durable unless this is false (postgres.ts: fsync and
   * synchronous commits off): for throwaway test and benchmark stacks that choose speed over
   * surviving a crash. `npm start` is always durable.
   */
  durable?: boolean;
  /** Serve dashboard, examples and SDK on ports.web. */
  web?: boolean;
  /**
   * Where the SES fake's event destination (SNS) POSTs; default the `ses-events` function,
   * '' for nowhere.
   */
  sesEventsWebhook?: string;
  /** Identities verified in the SES fake from the start; default the platform's sender domain. */
  sesVerifiedIdentities?: string[];
  /**
   * Settings of the auth server (auth/context.ts has GoTrue's names and defaults): its
   * per-address limits (tests and benchmarks that sign up many visitors from one address raise
   * them for themselves), the proxies in front of the gateway whose X-Forwarded-For it believes
   * (the gateway itself is always trusted), and whether email sign-up is on (off by default).
   */
  auth?: Pick<
    AuthOptions,
    | 'rateLimitAnonymousUsers'
    | 'rateLimitOtp'
    | 'rateLimitVerify'
    | 'rateLimitTokenRefresh'
    | 'rateLimitEmailSent'
    | 'trustedProxies'
    | 'emailEnabled'
    | 'mailMaxFrequency'
  >;
  /**
   * `npm start`: a child that exits unasked (the gateway, PostgREST, the functions' Deno) is
   * reported and started again (supervise.ts); a Postgres that exits calls `onFatal`. Off for
   * test and benchmark stacks, where a crash should fail the run instead of being hidden.
   */
  supervise?: boolean;
  /** Reports of children that exited unasked (default: the log, as service 'stack'). */
  report?: (line: string) => void;
  /** The stack cannot go on (its Postgres exited, or a child keeps exiting): stop it. */
  onFatal?: (reason: string) => void;
  log?: Log;
}

export interface Stack {
  /** Where each server listens (a movable port taken at start: not the one asked for). */
  ports: Readonly<Ports>;
  apiUrl: string;
  webUrl: string;
  /** The providers server: fakes at /ses, ..., the mailbox at / and /mailbox/messages. */
  providersUrl: string;
  /** `127.0.0.1:<port>` of the local DNS zone (DNS_NAMESERVER). */
  dnsNameserver: string;
  dbUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  /** Migrations applied by this start, and whether the database was new (seeded). */
  migrated: { applied: string[]; fresh: boolean };
  /**
   * The gateway's process id (it runs in a process of its own; benchmarks read its CPU time).
   * Another one after a restart under supervision.
   */
  readonly gatewayPid: number;
  /**
   * Benchmarks: the gateway's memory after a full garbage collection (process.memoryUsage(); the
   * gateway answers over its IPC channel, which also hands Realtime's websockets over).
   */
  gatewayMemory(): Promise<NodeJS.MemoryUsage>;
  /** Kills the edge functions' process at once (benchmarks: a worker dying mid-send). */
  killFunctions(): Promise<void>;
  /** Starts the edge functions again (killing them first if they run). */
  restartFunctions(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What the jobs schedule reads from Vault (docs/self-hosting.md has a project do the same by
 * hand), and the local sending rate: the SES fake has no quota, so the bucket is set well above
 * a production account's 14 mails a second, for the benchmark and the letters of issue tests.
 */
async function configureJobs(
  dbUrl: string,
  jobs: {
    workerUrl: string;
    workerSecret: string;
    captcha: { siteKey: string; scriptUrl: string };
  },
) {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    for (const [name, value] of [
      ['jobs_worker_url', jobs.workerUrl],
      ['jobs_worker_secret', jobs.workerSecret],
    ] as const) {
      const { rows } = await client.query<{ id: string }>(
        'select id from vault.secrets where name = $1',
        [name],
      );
      if (rows[0]) await client.query('select vault.update_secret($1, $2)', [rows[0].id, value]);
      else await client.query('select vault.create_secret($1, $2)', [value, name]);
    }
    await client.query(
      `insert into private.settings (key, value) values ('rate.mail.per_second', '500')
       on conflict (key) do nothing`,
    );
    // the captcha a block shows once the visitor limits trip: the Turnstile fake's stand-in
    // widget on this run's providers port (docs/self-hosting.md sets Cloudflare's on a project)
    await client.query(
      `insert into private.settings (key, value) values ('captcha.site_key', $1), ('captcha.script_url', $2)
       on conflict (key) do update set value = excluded.value, updated_at = now()`,
      [JSON.stringify(jobs.captcha.siteKey), JSON.stringify(jobs.captcha.scriptUrl)],
    );
  } finally {
    await client.end();
  }
}

/** How many times a server whose movable port was taken is started on a new one. */
const PORT_ATTEMPTS = 5;

export async function startStack(opts: StackOptions): Promise<Stack> {
  const log: Log = opts.log ?? (() => {});
  let stopping = false;
  const watched = {
    restart: opts.supervise === true,
    report: opts.report ?? ((line: string) => log('stack', line)),
    onGiveUp: (reason: string) => opts.onFatal?.(reason),
    stopping: () => stopping,
  };
  const keys = await makeKeys(opts.jwtSecret);
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    stopping = true;
    for (const stop of stops.reverse()) await stop().catch(() => {});
    stops.length = 0;
  };
  // where each server listens: opts.ports, or another free port where a movable one was taken
  const ports: Ports = { ...opts.ports };

  /**
   * Starts a server on `ports[names]`. A free port is only free when picked: until the server
   * binds it (seconds later, minutes on a busy machine) another stack may pick and bind it (a
   * test file lost its PostgREST port so at load 31). With movablePorts such a server, which
   * exits or rejects at once with "Address in use" (each start below waits for the server's own
   * word that it holds its port, never for any answer on the port), is started on new ports.
   */
  async function onPorts<T>(
    name: string,
    names: Array<keyof Ports>,
    start: () => Promise<T>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await start();
      } catch (err) {
        if (!opts.movablePorts || !addressInUse(err) || attempt >= PORT_ATTEMPTS || stopping) {
          throw err;
        }
        const taken = names.map((n) => ports[n]);
        let fresh: number[];
        do {
          fresh = await otherFreePorts(
            names.length,
            Object.values(ports),
            (i) => names[i] === 'providersDns',
          );
          // another server of this stack moving at the same moment may have picked one too
        } while (fresh.some((port) => Object.values(ports).includes(port)));
        names.forEach((n, i) => (ports[n] = fresh[i]!));
        log(
          'stack',
          `${name}: port ${taken.join(', ')} was taken by another process before ${name} bound it; starting it on ${fresh.join(', ')}`,
        );
      }
    }
  }

  try {
    // The gateway first, in its own process, while Postgres starts: everything else is told the
    // API's URL, so its port must be settled first. It is told its upstreams' ports now and
    // again if one of them moves (syncUpstreams); it hands Realtime's websockets to this
    // process, whose Realtime server is set below.
    const realtimeHandOff: RealtimeHandOff = {};
    const config = configToml();
    const gatewayOptions: Parameters<typeof startGatewayProcess>[0] = {
      realtimeHandOff,
      port: ports.api,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      jwtSecret: opts.jwtSecret,
      postgrestPort: ports.postgrest,
      functionsPort: ports.functions,
      servicesPort: ports.services,
      realtime: !opts.databaseUrl,
      storage: true,
      publicFunctions: [...publicFunctions(config)],
      log,
    };
    const gatewayStarting = onPorts('gateway', ['api'], () =>
      startGatewayProcess(Object.assign(gatewayOptions, { port: ports.api })),
    );
    // awaited below; a failure meanwhile is not an unhandled rejection
    gatewayStarting.catch(() => {});
    let gateway: Supervised<Managed> | undefined;
    // a failure elsewhere must still stop it once it has started
    stops.push(async () =>
      gateway ? gateway.stop() : (await gatewayStarting.catch(() => undefined))?.stop(),
    );
    /**
     * Tells the gateway (and a restart of it) where its upstreams listen, when one has moved;
     * resolves once it has taken them (one at a time: a second caller waits for the first's).
     */
    let told: Promise<void> = Promise.resolve();
    const syncUpstreams = () =>
      (told = told
        .catch(() => {})
        .then(async () => {
          const upstreams: Upstreams = {
            postgrestPort: ports.postgrest,
            functionsPort: ports.functions,
            servicesPort: ports.services,
          };
          if (
            gatewayOptions.postgrestPort === upstreams.postgrestPort &&
            gatewayOptions.functionsPort === upstreams.functionsPort &&
            gatewayOptions.servicesPort === upstreams.servicesPort
          ) {
            return;
          }
          Object.assign(gatewayOptions, upstreams);
          const running = gateway?.current() ?? (await gatewayStarting);
          await setGatewayUpstreams(running.child, upstreams);
        }));
    /** A server started on moved ports answers through the gateway only once it is told. */
    const toldGateway = async (child: Managed): Promise<Managed> => {
      try {
        await syncUpstreams();
      } catch (err) {
        await child.stop();
        throw err;
      }
      return child;
    };

    let dbUrl: string;
    let postgrestUri: string;
    let migrated: { applied: string[]; fresh: boolean };
    if (opts.databaseUrl) {
      dbUrl = opts.databaseUrl;
      // on a Supabase project the connecting role can switch to anon/authenticated itself
      postgrestUri = opts.databaseUrl;
      migrated = await migrate(dbUrl, { seed: opts.seed === true });
    } else {
      const password = 'postgres';
      const postgresOptions: Parameters<typeof startPostgres>[0] = {
        dataDir: opts.dataDir,
        port: ports.db,
        password,
        durable: opts.durable,
        onLog: (line) => log('postgres', line.trimEnd()),
      };
      const server: RunningPostgres = await onPorts('postgres', ['db'], () =>
        startPostgres(Object.assign(postgresOptions, { port: ports.db })),
      );
      // never restarted behind the other servers' backs (their connections and LISTENs would
      // be gone): a Postgres that exits stops the stack (onFatal)
      const database = supervise(server, {
        ...watched,
        name: 'postgres',
        start: () => startPostgres(postgresOptions),
        restart: false,
      });
      stops.push(() => database.stop());
      dbUrl = server.url;
      // PostgREST logs in as `authenticator` with a password made for this run only
      const authenticatorPassword = randomBytes(18).toString('base64url');
      postgrestUri = `postgresql://authenticator:${authenticatorPassword}@127.0.0.1:${ports.db}/postgres`;
      migrated = await migrate(dbUrl, { seed: opts.seed !== false });
      const client = new pg.Client({ connectionString: dbUrl });
      await client.connect();
      await client.query(`alter role authenticator with login password '${authenticatorPassword}'`);
      await client.end();
    }

    const gatewayProcess = await gatewayStarting;
    const apiUrl = `http://127.0.0.1:${ports.api}`;

    const providers = await onPorts('providers', ['providers', 'providersDns'], () =>
      startProviders({
        port: ports.providers,
        dnsPort: ports.providersDns,
        log,
        ses: {
          region: LOCAL_AWS.region,
          defaultAccessKeyId: LOCAL_AWS.accessKeyId,
          configurationSets: [LOCAL_AWS.configurationSet],
          verifiedIdentities: opts.sesVerifiedIdentities ?? [SENDER_DOMAIN],
          eventsWebhook: opts.sesEventsWebhook ?? `${apiUrl}/functions/v1/ses-events`,
        },
        ...paymentFakeOptions(apiUrl),
        notion: LOCAL_NOTION,
        // beside the database: the fakes remember what it remembers (verified senders, Notion
        // workspaces, billing keys, the mailbox) across restarts
        stateDir: providersStateDir(opts.dataDir),
        cafe24: LOCAL_CAFE24,
      }),
    );
    stops.push(() => providers.close());

    // before the functions and the auth server, who are told its URL
    if (opts.web) {
      const web = await onPorts('web', ['web'], () =>
        startWeb({
          port: ports.web,
          apiUrl,
          anonKey: keys.anonKey,
          payments: paymentBrowserConfig(providers.url),
        }),
      );
      stops.push(() => closeServer(web));
    }
    const webUrl = `http://127.0.0.1:${ports.web}`;

    const postgrestOptions: Parameters<typeof startPostgrest>[0] = {
      dbUri: postgrestUri,
      jwtSecret: opts.jwtSecret,
      port: ports.postgrest,
      adminPort: ports.postgrestAdmin,
      log,
    };
    const functionsOptions: Parameters<typeof startFunctions>[0] = {
      port: ports.functions,
      log,
      env: {
        SUPABASE_URL: apiUrl,
        SUPABASE_ANON_KEY: keys.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
        SUPABASE_DB_URL: dbUrl,
        ...backgroundEnv(opts.jwtSecret, webUrl),
        // outside providers: the local fakes (see docs/getting-started.md)
        SES_ENDPOINT: `${providers.url}/ses`,
        AWS_REGION: LOCAL_AWS.region,
        AWS_ACCESS_KEY_ID: LOCAL_AWS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: LOCAL_AWS.secretAccessKey,
        SES_CONFIGURATION_SET: LOCAL_AWS.configurationSet,
        SNS_CERT_HOSTS: providers.url,
        SNS_TOPIC_ARNS: LOCAL_AWS.snsTopicArn,
        DNS_NAMESERVER: providers.dnsAddress,
        // letters: fetched pages and Notion's API are the providers server's /pages fake
        PAGES_ORIGIN_OVERRIDE: `${providers.url}/pages`,
        NOTION_API_BASE_URL: `${providers.url}/pages/www.notion.so/api/v3`,
        LETTER_SAMPLE_URLS: `notion=${NOTION_PAGE_URL},typedream=${TYPEDREAM_PAGE_URL}`,
        // PortOne and PayPal: their local fakes (docs/self-hosting.md, "Payments")
        ...paymentFunctionsEnv(providers.url),
        NOTION_API_URL: `${providers.url}/notion`,
        NOTION_CLIENT_ID: LOCAL_NOTION.clientId,
        NOTION_CLIENT_SECRET: LOCAL_NOTION.clientSecret,
        // /oauth/<service> of the dashboard on any local port (production lists its origins)
        OAUTH_REDIRECT_ORIGINS: 'http://127.0.0.1:*,http://localhost:*',
        // Cafe24: each mall's API at the fake's /cafe24/<mall>; the loader from the local CDN
        CAFE24_API_URL: `${providers.url}/cafe24/{mall_id}`,
        CAFE24_CLIENT_ID: LOCAL_CAFE24.clientId,
        CAFE24_CLIENT_SECRET: LOCAL_CAFE24.clientSecret,
        CAFE24_LOADER_URL: `${webUrl}/sdk/cdn/cafe24.js`,
        // outgoing webhooks: after the SSRF guard's checks, to the providers' receiver
        WEBHOOK_ORIGIN_OVERRIDE: `${providers.url}/hooks`,
        TURNSTILE_SECRET_KEY: LOCAL_TURNSTILE.secretKey,
        TURNSTILE_VERIFY_URL: `${providers.url}/turnstile/v0/siteverify`,
      },
    };
    // each on its ports (a moved one is told to the gateway), for the first start and a restart
    const startPostgrestHere = () =>
      onPorts('postgrest', ['postgrest', 'postgrestAdmin'], () =>
        startPostgrest(
          Object.assign(postgrestOptions, {
            port: ports.postgrest,
            adminPort: ports.postgrestAdmin,
          }),
        ),
      ).then(toldGateway);
    const startFunctionsHere = () =>
      onPorts('functions', ['functions'], () =>
        startFunctions(Object.assign(functionsOptions, { port: ports.functions })),
      ).then(toldGateway);
    // side by side; one that started is stopped with the rest when the other did not
    const children = await Promise.allSettled([startPostgrestHere(), startFunctionsHere()]);
    for (const child of children) {
      if (child.status === 'fulfilled') stops.push(() => child.value.stop());
    }
    const failed = children.find((child) => child.status === 'rejected');
    if (failed) throw failed.reason;
    const [postgrest, functionsProcess] = children.map(
      (child) => (child as PromiseFulfilledResult<Managed>).value,
    ) as [Managed, Managed];
    // the supervised ones stop them from now on (after a restart, the current child)
    stops.splice(-2, 2);
    const postgrestSupervised = supervise(postgrest, {
      ...watched,
      name: 'postgrest',
      start: startPostgrestHere,
    });
    stops.push(() => postgrestSupervised.stop());
    const functions = supervise(functionsProcess, {
      ...watched,
      name: 'functions',
      start: startFunctionsHere,
    });
    stops.push(() => functions.stop());

    const auth = createAuthServer({
      ...opts.auth,
      databaseUrl: dbUrl,
      jwtSecret: opts.jwtSecret,
      externalUrl: `${apiUrl}/auth/v1`,
      siteUrl: webUrl,
      additionalRedirectUrls: [apiUrl, webUrl, 'http://localhost:*', 'http://127.0.0.1:*'],
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      // the gateway (in front of the services port, on loopback) appends the peer it saw
      gatewayAddresses: ['127.0.0.1', '::1'],
      // past an address's anonymous sign-in limit, the platform's Turnstile (the local stand-in)
      captcha: {
        secret: LOCAL_TURNSTILE.secretKey,
        verifyUrl: `${providers.url}/turnstile/v0/siteverify`,
      },
      // config.toml's Send Email Hook (docs/security.md): it, not the mailer, has every auth mail
      sendEmailHook: sendEmailHook(config),
      // Supabase Auth mails through its SMTP settings; locally through the SES fake's mailbox
      mailer: sesMailer({
        endpoint: `${providers.url}/ses`,
        region: LOCAL_AWS.region,
        accessKeyId: LOCAL_AWS.accessKeyId,
        secretAccessKey: LOCAL_AWS.secretAccessKey,
        from: `noreply@${SENDER_DOMAIN}`,
        fromName: 'Reaction Blocks',
      }),
      log,
    });
    stops.push(() => auth.close());

    // Realtime only on the embedded database: a Supabase project has its own Realtime, and
    // the local stand-in installs capture triggers in the database it serves.
    const realtime = opts.databaseUrl
      ? undefined
      : await createRealtimeServer({ databaseUrl: dbUrl, jwtSecret: opts.jwtSecret, log });
    if (realtime) stops.push(() => realtime.close());
    if (realtime)
      realtimeHandOff.upgrade = (req, socket, head, path) =>
        realtime.upgrade(req, socket, head, path);

    // pg_cron's and pg_net's workers, for the local stand-ins of those extensions: embedded
    // database only (a Supabase project runs the real ones), after the migrations created them.
    if (!opts.databaseUrl) {
      await configureJobs(dbUrl, {
        workerUrl: `${apiUrl}/functions/v1/jobs-worker`,
        workerSecret: backgroundEnv(opts.jwtSecret, webUrl).JOBS_WORKER_SECRET,
        captcha: {
          siteKey: LOCAL_TURNSTILE.siteKey,
          scriptUrl: `${providers.url}/turnstile/v0/api.js?render=explicit`,
        },
      });
      const background = await startBackgroundWorkers({ databaseUrl: dbUrl, log });
      stops.push(() => background.close());
    }

    // Supabase Storage stand-in (letter images): a folder beside the data directory
    const storage = createStorage({
      dir: `${opts.dataDir}-storage`,
      jwtSecret: opts.jwtSecret,
      publicBuckets: ['letter-images'],
    });

    const services: Server = await onPorts('services', ['services'], () =>
      startServices({
        port: ports.services,
        auth,
        realtime,
        storage,
        log,
      }),
    );
    stops.push(() => closeServer(services));
    await syncUpstreams();
    // started again with the same options (and the same hand-off) if it exits unasked
    const gatewaySupervised = (gateway = supervise(gatewayProcess, {
      ...watched,
      name: 'gateway',
      start: () => startGatewayProcess(gatewayOptions),
    }));

    // everything answers now: fakes may send their first webhooks (SNS subscription confirmation)
    providers.start();

    return {
      ports,
      apiUrl,
      webUrl,
      providersUrl: providers.url,
      dnsNameserver: providers.dnsAddress,
      dbUrl,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      jwtSecret: opts.jwtSecret,
      migrated,
      get gatewayPid() {
        return gatewaySupervised.current().child.pid!;
      },
      gatewayMemory: () => gatewayMemory(gatewaySupervised.current().child),
      async killFunctions() {
        await functions.stop('SIGKILL');
      },
      async restartFunctions() {
        await functions.restart();
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
