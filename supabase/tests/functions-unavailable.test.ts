// A function whose database call fails on the way (PostgREST or the gateway out of reach, a
// connection reset, a 502 from upstream) answers 503 with Retry-After, not 500: the request may
// succeed in a moment (functions/_shared/errors.ts). A real SQL error keeps its answer, and so
// does a refusal of the gateway itself (413, 401, 404, 429: no code) and auth's own 500.
import { createHmac, randomUUID, sign } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthRetryableFetchError, createClient } from '@supabase/supabase-js';
import { INTEGRATION_MESSAGES } from '@reaction-blocks/contracts/schemas';
import { freePorts } from '../local/config.ts';
import { startFunctions } from '../local/functions.ts';
import { proxy } from '../local/proxy.ts';
import { closeServer, listen, serve } from '../local/http.ts';
import type { Managed } from '../local/process.ts';
import {
  dbError,
  errorResponse,
  failureText,
  HttpError,
  inTransit,
  rpcError,
  TOO_LARGE_MESSAGE,
} from '../functions/_shared/errors.ts';
import { canonicalString, type SnsMessage } from '../functions/_shared/sns.ts';
import { PORTONE_DEFAULTS, signStandardWebhook } from '../local/providers/portone/index.ts';
import { makeSigningIdentity, type SigningIdentity } from '../local/providers/ses/x509.ts';
import { LOCAL_TURNSTILE } from '../local/providers/turnstile/index.ts';
import { newGuest, newUser, paidOwner, sql, stack, type TestUser } from './support/clients.ts';
import { ownerWith } from './support/hostile.ts';
import { eventually, providersUrl } from './support/providers.ts';
import { workerSecret } from './support/worker.ts';

/** The 503 every failure in transit answers: Retry-After 2 s, the wait the docs state. */
async function expectUnavailable(res: Response) {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('2');
  expect(await res.json()).toEqual({
    error: {
      code: 'unavailable',
      message: 'The service is briefly unavailable',
      retryAfter: 2,
    },
  });
}

/** A PostgREST answer as supabase-js reads it: an error and the response's status. */
async function postgrestAnswer(status: number, body: string) {
  const server = serve(
    (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    },
    { name: 'answers', log: () => {} },
  );
  await listen(server, 0);
  try {
    const client = createClient(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      stack().anonKey,
      { auth: { persistSession: false, autoRefreshToken: false } },
    );
    const { error, status: answered } = await client.rpc('save_letter', {});
    return { error: error!, status: answered };
  } finally {
    await closeServer(server);
  }
}

describe('errors.ts: what a failed database call answers', () => {
  // each 503 and 500 logs its cause
  beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => {}));

  it('answers 503 with Retry-After for the errors supabase-js gives when nothing answers', async () => {
    // a port nothing listens on
    const nowhere = createClient(`http://127.0.0.1:${(await freePorts()).api}`, stack().anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const { error, status } = await nowhere.rpc('create_block', { p_block_type: 'like' });
    expect([error?.code, status]).toEqual(['', 0]);
    const { error: authError } = await nowhere.auth.getUser('token');
    expect(inTransit(error, status)).toBe(true);
    await expectUnavailable(errorResponse(rpcError(error!, status, 'test')));
    await expectUnavailable(errorResponse(dbError(error!, status) as HttpError));
    // auth's error carries its own status (0)
    expect(inTransit(authError)).toBe(true);
    await expectUnavailable(errorResponse(dbError(authError!, undefined) as HttpError));
  });

  it.each([
    ["the gateway's own 502", 502, '{"message":"upstream unavailable: socket hang up"}'],
    ['a 504 page', 504, '<html>504 Gateway Time-out</html>'],
    ['a 503 without a code', 503, '{"message":"name resolution failed"}'],
    [
      'PostgREST without its database',
      503,
      '{"code":"PGRST001","message":"Database client error"}',
    ],
    ['a connection lost under the query', 500, '{"code":"08006","message":"connection failure"}'],
  ])('answers 503 for %s', async (_, answered, body) => {
    const { error, status } = await postgrestAnswer(answered, body);
    expect(inTransit(error, status)).toBe(true);
    await expectUnavailable(errorResponse(rpcError(error, status, 'test')));
    await expectUnavailable(errorResponse(dbError(error, status) as HttpError));
  });

  // the gateway's (and Kong's) own refusals have no code either: they are not a 503
  it.each([
    [401, '{"message":"Invalid API key"}'],
    [404, '{"message":"no Route matched with those values"}'],
    [429, '{"message":"API rate limit exceeded"}'],
    [500, '{"message":"gateway error"}'],
  ])('keeps a gateway %i without a code a 500', async (answered, body) => {
    const { error, status } = await postgrestAnswer(answered, body);
    expect(error.code).toBeUndefined();
    expect(inTransit(error, status)).toBe(false);
    expect(rpcError(error, status, 'test')).toMatchObject({ status: 500, code: 'internal_error' });
    expect(dbError(error, status)).not.toBeInstanceOf(HttpError);
  });

  it("answers the gateway's 413 (a body too large) as the caller's: 400, not 503", async () => {
    const { error, status } = await postgrestAnswer(
      413,
      '{"message":"Request body larger than 10485760 bytes"}',
    );
    expect(inTransit(error, status)).toBe(false);
    expect(rpcError(error, status, 'test')).toMatchObject({
      status: 400,
      code: 'invalid_input',
      message: TOO_LARGE_MESSAGE,
    });
  });

  it("keeps auth's own 500 (a SQL failure in auth, which auth-js calls retryable) a 500", () => {
    const failure = new AuthRetryableFetchError('Database error deleting user', 500);
    expect(inTransit(failure)).toBe(false);
    const own = new HttpError(500, 'delete_failed', 'refused');
    expect(dbError(failure, failure.status, own)).toBe(own);
    for (const status of [0, 502, 503, 504])
      expect(inTransit(new AuthRetryableFetchError('x', status))).toBe(true);
  });

  it.each([
    ['23505', 400, 'invalid_input'],
    ['P0001', 400, 'invalid_input'],
    ['PT404', 404, 'not_found'],
    ['PGRST116', 500, 'internal_error'],
    ['PGRST202', 500, 'internal_error'],
    ['42501', 500, 'internal_error'],
  ])('keeps the answer of a real SQL error (%s: %i)', (code, status, answer) => {
    const failure = { code, message: 'refused' };
    expect(inTransit(failure, 400)).toBe(false);
    expect(rpcError(failure, 400, 'test')).toMatchObject({ status, code: answer });
    // the functions that answered 500 for any database error still do
    const thrown = dbError(failure, 400);
    expect(thrown).not.toBeInstanceOf(HttpError);
    expect(thrown.message).toBe('refused');
    const own = new HttpError(400, 'update_failed', 'refused');
    expect(dbError(failure, 400, own)).toBe(own);
  });

  it('logs the line that made a call that failed in transit, and keeps its cause for a job', () => {
    const log = vi.mocked(console.error);
    const thrown = dbError({ code: '', message: 'TypeError: fetch failed' }, 0);
    expect(String(log.mock.calls.at(-1)?.[0])).toContain('functions-unavailable.test.ts');
    // a job records what failed (jobs.ts), not "briefly unavailable"
    expect(thrown.message).toBe('The service is briefly unavailable');
    expect(failureText(thrown)).toBe('TypeError: fetch failed');
    expect(failureText(new Error('note_owner_call: refused'))).toBe('note_owner_call: refused');
  });
});

/** How the front fails a request: a reset, or an answer of its own. */
type Failure = 'reset' | { status: number; body: unknown };

/** The local gateway's answer when PostgREST is gone (local/gateway.ts). */
const GATEWAY_502: Failure = {
  status: 502,
  body: { message: 'upstream unavailable: socket hang up' },
};

/** A request to the stack as the front sees it: its path, method and whether the service role made it. */
interface Seen {
  path: string;
  method: string;
  service: boolean;
}

describe('a function whose database is out of reach', () => {
  /** Which requests the front fails, and how; undefined passes the request on. */
  let failing: (req: Seen) => Failure | undefined = () => undefined;
  let front: ReturnType<typeof serve>;
  let functions: Managed;
  let functionsUrl: string;
  let owner: TestUser;
  let sns: SigningIdentity;
  let frontUrl: string;
  /** The lines this test's functions process logged. */
  const logged: string[] = [];
  /** The body of the last request the front failed, by path. */
  const failedBodies = new Map<string, string>();
  const UNSUBSCRIBE_SECRET = 'functions-unavailable-unsubscribe';
  const TOPIC = 'arn:aws:sns:us-east-1:123456789012:functions-unavailable';

  /** What the front answers itself in PayPal's and SNS's place: the webhooks' own checks pass. */
  function standIn(path: string): string | undefined {
    if (path === '/paypal/v1/oauth2/token')
      return JSON.stringify({ access_token: 'functions-unavailable', expires_in: 3600 });
    if (path === '/paypal/v1/notifications/verify-webhook-signature')
      return JSON.stringify({ verification_status: 'SUCCESS' });
    if (path === '/sns/cert.pem') return sns.certPem;
  }

  beforeAll(async () => {
    // the functions' SUPABASE_URL: the stack's gateway behind a front that fails on demand
    const gatewayPort = Number(new URL(stack().apiUrl).port);
    const serviceAuth = `Bearer ${stack().serviceRoleKey}`;
    sns = await makeSigningIdentity({
      commonName: 'sns.test',
      organization: 'functions-unavailable',
    });
    front = serve(
      (req: IncomingMessage, res) => {
        const path = req.url ?? '/';
        const own = standIn(path);
        if (own !== undefined) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(own);
        }
        const failure = failing({
          path,
          method: req.method ?? 'GET',
          service: req.headers.authorization === serviceAuth,
        });
        if (!failure) return void proxy(req, res, gatewayPort, path, { ...req.headers });
        // what the failed call sent, read before it fails
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          failedBodies.set(path, Buffer.concat(chunks).toString());
          if (failure === 'reset') return void req.socket.destroy();
          res.writeHead(failure.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(failure.body));
        });
      },
      { name: 'failing-front', log: () => {} },
    );
    await listen(front, 0);
    const port = (await freePorts()).functions;
    frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    functions = await startFunctions({
      port,
      env: {
        SUPABASE_URL: frontUrl,
        SUPABASE_ANON_KEY: stack().anonKey,
        SUPABASE_SERVICE_ROLE_KEY: stack().serviceRoleKey,
        SUPABASE_DB_URL: stack().dbUrl,
        UNSUBSCRIBE_SECRET,
        OAUTH_REDIRECT_ORIGINS: 'http://127.0.0.1:*',
        TURNSTILE_SECRET_KEY: LOCAL_TURNSTILE.secretKey,
        TURNSTILE_VERIFY_URL: `${providersUrl()}/turnstile/v0/siteverify`,
        CAFE24_CLIENT_ID: 'functions-unavailable',
        CAFE24_CLIENT_SECRET: 'functions-unavailable-secret',
        // the callers that send again by themselves: the schedule and the providers' webhooks
        JOBS_WORKER_SECRET: workerSecret(),
        PORTONE_WEBHOOK_SECRET: PORTONE_DEFAULTS.webhookSecret,
        PAYPAL_API_URL: `${frontUrl}/paypal`,
        PAYPAL_CLIENT_ID: 'functions-unavailable',
        PAYPAL_CLIENT_SECRET: 'functions-unavailable-secret',
        PAYPAL_WEBHOOK_ID: 'WH-FUNCTIONS-UNAVAILABLE',
        SNS_CERT_HOSTS: frontUrl,
        SNS_TOPIC_ARNS: TOPIC,
      },
      log: (_, line) => void logged.push(line),
    });
    functionsUrl = `http://127.0.0.1:${port}`;
    owner = await newUser('unavailable');
  });

  afterAll(async () => {
    await functions?.stop();
    if (front) await closeServer(front);
  });

  /** A call of this test's functions process (POST with a JSON body, or GET). */
  const call = (name: string, body: unknown, token?: string, method = 'POST') =>
    fetch(`${functionsUrl}/${name}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'content-type': 'application/json',
      },
      body: method === 'GET' ? undefined : JSON.stringify(body),
    });

  /** The answer's status and error code. */
  const answer = async (res: Response) =>
    [res.status, ((await res.json()) as { error?: { code: string } }).error?.code] as const;

  /** Fails the requests whose path starts with `prefix` (and that `also` picks) with `failure`. */
  const failingOn =
    (prefix: string, failure: Failure = 'reset', also: (req: Seen) => boolean = () => true) =>
    (req: Seen) =>
      req.path.startsWith(prefix) && also(req) ? failure : undefined;

  /** Runs `check` while the front fails what `when` picks; passes everything on after. */
  async function whileFailing(
    when: (req: Seen) => Failure | undefined,
    check: () => Promise<void>,
  ) {
    failing = when;
    try {
      await check();
    } finally {
      failing = () => undefined;
    }
  }

  const createBlock = () => call('create-block', { blockType: 'like' }, owner.accessToken);

  it('answers a refusal of the database as before, and 503 when the call does not arrive', async () => {
    await sql('update public.profiles set block_limit = 0 where id = $1', [owner.id]);
    expect(await answer(await createBlock())).toEqual([403, 'block_limit_reached']);
    // create-block answered any other database error 400 (the caller's fault)
    for (const failure of ['reset', GATEWAY_502] as const) {
      await whileFailing(failingOn('/rest/v1/rpc/', failure), async () =>
        expectUnavailable(await createBlock()),
      );
    }
  });

  it('answers 503, not 401, when auth does not answer, and 401 when auth fails in itself', async () => {
    await whileFailing(failingOn('/auth/'), async () => expectUnavailable(await createBlock()));
    await whileFailing(
      failingOn('/auth/', {
        status: 500,
        body: { code: 'unexpected_failure', message: 'Database error' },
      }),
      async () => expect(await answer(await createBlock())).toEqual([401, 'unauthorized']),
    );
  });

  /** One run of this process's jobs worker, as the schedule calls it. */
  const runWorker = () =>
    fetch(`${functionsUrl}/jobs-worker`, {
      method: 'POST',
      headers: { authorization: `Bearer ${workerSecret()}` },
      body: '{}',
    });

  /** A delivery event of SES as SNS posts it, signed by the stand-in's certificate. */
  function postSesEvent() {
    const message: Omit<SnsMessage, 'Signature' | 'SignatureVersion' | 'SigningCertURL'> = {
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: TOPIC,
      Message: JSON.stringify({ eventType: 'Delivery', mail: { messageId: randomUUID() } }),
      Timestamp: new Date().toISOString(),
    };
    const signature = sign('sha256', Buffer.from(canonicalString(message)), sns.privateKey);
    return fetch(`${functionsUrl}/ses-events`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=UTF-8' },
      body: JSON.stringify({
        ...message,
        SignatureVersion: '2',
        Signature: signature.toString('base64'),
        SigningCertURL: `${frontUrl}/sns/cert.pem`,
      }),
    });
  }

  /** A post each of them takes as genuine, and the database call it makes first. */
  const retriedCallers: Array<[string, () => Promise<Response>, string]> = [
    ['jobs-worker', runWorker, '/rest/v1/rpc/claim_jobs'],
    [
      'portone-webhook',
      () => {
        const id = `msg_${randomUUID()}`;
        const ts = String(Math.floor(Date.now() / 1000));
        const body = JSON.stringify({
          type: 'Transaction.Paid',
          timestamp: new Date().toISOString(),
          data: { paymentId: randomUUID(), storeId: 'store', transactionId: 'tx' },
        });
        return fetch(`${functionsUrl}/portone-webhook`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': ts,
            'webhook-signature': signStandardWebhook(PORTONE_DEFAULTS.webhookSecret, id, ts, body),
          },
          body,
        });
      },
      '/rest/v1/rpc/payment_event_seen',
    ],
    [
      'paypal-webhook',
      () =>
        fetch(`${functionsUrl}/paypal-webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            id: `WH-${randomUUID()}`,
            event_type: 'BILLING.SUBSCRIPTION.UPDATED',
            resource: { id: 'I-FUNCTIONSUNAVAILABLE' },
          }),
        }),
      '/rest/v1/rpc/payment_event_seen',
    ],
    ['ses-events', postSesEvent, '/rest/v1/rpc/record_mail_event'],
  ];

  it.each(retriedCallers)(
    '%s answers 503 when its database call does not arrive, and 500 on a real error',
    async (_, send, first) => {
      for (const failure of ['reset', GATEWAY_502] as const) {
        await whileFailing(failingOn(first, failure), async () => expectUnavailable(await send()));
      }
      // a real SQL error stays a 500: the provider retries it too, and it reads as a bug
      await whileFailing(
        failingOn(first, { status: 500, body: { code: 'XX000', message: 'internal error' } }),
        async () => expect((await send()).status).toBe(500),
      );
    },
  );

  it('jobs-worker answers 503 when the outcomes of its batch do not arrive, and 500 on a real error', async () => {
    // the front answers the claim with a job of its own (no job of the stack is touched); its
    // prepare does not arrive either (a retry outcome), then finish_jobs fails each of its tries
    const claimed = [
      { id: -1, kind: 'notify.owner', payload: {}, attempts: 1, max_attempts: 8, group_key: null },
    ];
    const finishFails =
      (failure: Failure) =>
      (req: Seen): Failure | undefined => {
        if (req.path.startsWith('/rest/v1/rpc/claim_jobs')) return { status: 200, body: claimed };
        if (req.path.startsWith('/rest/v1/rpc/finish_jobs')) return failure;
        return req.path.startsWith('/rest/v1/rpc/') ? 'reset' : undefined;
      };
    for (const failure of ['reset', GATEWAY_502] as const)
      await whileFailing(finishFails(failure), async () => expectUnavailable(await runWorker()));
    // the outcome it could not record names the call that did not arrive
    expect(JSON.parse(failedBodies.get('/rest/v1/rpc/finish_jobs')!)).toEqual({
      p_outcomes: [
        {
          id: -1,
          status: 'retry',
          error: expect.stringMatching(/^prepare failed: prepare_notification_jobs: \S/),
        },
      ],
    });
    await whileFailing(
      finishFails({ status: 500, body: { code: 'XX000', message: 'internal error' } }),
      async () => expect((await runWorker()).status).toBe(500),
    );
  });

  it("ses-events logs the database's whole error with its 500: code, details and hint", async () => {
    const from = logged.length;
    const refusal = {
      code: 'XX000',
      message: 'internal error',
      details: 'record_mail_event refused the event',
      hint: 'read the event row',
    };
    await whileFailing(
      failingOn('/rest/v1/rpc/record_mail_event', { status: 500, body: refusal }),
      async () => expect((await postSesEvent()).status).toBe(500),
    );
    await eventually(
      async () => {
        const log = logged.slice(from).join('\n');
        return [refusal.code, refusal.details, refusal.hint].every((part) => log.includes(part));
      },
      60_000,
      async () => logged.slice(from),
    );
  });

  it("ses-events answers 503 'busy' when record_mail_event met its mail's record under way (55P03), so SNS posts it again", async () => {
    // rev-mail3 D2: record_mail_event waits for a lock at most its lock_timeout
    const busy = { code: '55P03', message: 'canceling statement due to lock timeout' };
    await whileFailing(
      failingOn('/rest/v1/rpc/record_mail_event', { status: 500, body: busy }),
      async () => {
        const res = await postSesEvent();
        expect(res.status).toBe(503);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('busy');
      },
    );
  });

  it("answers 503, not 500, when the owner check's profile read does not arrive", async () => {
    await whileFailing(
      failingOn('/rest/v1/profiles', 'reset', (req) => !req.service),
      async () => expectUnavailable(await createBlock()),
    );
  });

  it('answers 503, not 400, when the profile update does not arrive', async () => {
    await whileFailing(
      failingOn('/rest/v1/profiles', 'reset', (req) => req.method === 'PATCH'),
      async () =>
        expectUnavailable(await call('update-profile', { name: 'Kim' }, owner.accessToken)),
    );
  });

  it("answers a gateway's refusal without a code as before (500), not 503", async () => {
    await whileFailing(
      failingOn(
        '/rest/v1/profiles',
        { status: 401, body: { message: 'Invalid API key' } },
        (req) => req.method === 'PATCH',
      ),
      async () =>
        expect(
          await answer(await call('update-profile', { name: 'Kim' }, owner.accessToken)),
        ).toEqual([400, 'update_failed']),
    );
  });

  it('a paid owner whose profile cannot be read gets 503, not 403 paid_plan_required', async () => {
    const paid = await paidOwner('unavailable-paid');
    const profileRead = failingOn('/rest/v1/profiles', 'reset', (req) => req.service);
    await whileFailing(profileRead, async () => {
      // requirePaid (webhooks, integrations)
      await expectUnavailable(
        await call('rotate-webhook-secret', { endpointId: crypto.randomUUID() }, paid.accessToken),
      );
      // search-notion-objects reads the profile beside the connection
      await expectUnavailable(
        await call('search-notion-objects', { target: 'page' }, paid.accessToken),
      );
    });
  });

  it('search-notion-objects refuses a free owner for the plan even when the connection read does not arrive', async () => {
    // the paid check runs beside the connection read (requirePaid) and its refusal comes first
    await whileFailing(failingOn('/rest/v1/rpc/notion_connection'), async () =>
      expect(
        await answer(await call('search-notion-objects', { target: 'page' }, owner.accessToken)),
      ).toEqual([403, 'paid_plan_required']),
    );
  });

  it('cafe24-authorize fails closed: no authorise link when the shop cannot be read', async () => {
    const paid = await paidOwner('unavailable-cafe24');
    const authorize = () =>
      call(
        'cafe24-authorize',
        { mallId: 'unavailablemall', redirectUrl: 'http://127.0.0.1:54323/oauth/cafe24' },
        paid.accessToken,
      );
    await whileFailing(failingOn('/rest/v1/cafe24_shops'), async () =>
      expectUnavailable(await authorize()),
    );
    await whileFailing(
      failingOn('/rest/v1/cafe24_shops', {
        status: 404,
        body: { message: 'no Route matched with those values' },
      }),
      async () => expect(await answer(await authorize())).toEqual([500, 'internal_error']),
    );
  });

  it('answers 503 from a plan call (httpErrorOf) and from verify-captcha after siteverify', async () => {
    await whileFailing(failingOn('/rest/v1/rpc/redeem_coupon'), async () =>
      expectUnavailable(await call('use-coupon', { couponId: 'NO-SUCH' }, owner.accessToken)),
    );
    const { blocks } = await ownerWith('comment');
    const visitor = await newGuest();
    const res = await fetch(
      `${providersUrl()}/turnstile/v0/token?sitekey=${LOCAL_TURNSTILE.siteKey}&outcome=pass`,
    );
    const { token } = (await res.json()) as { token: string };
    await whileFailing(failingOn('/rest/v1/rpc/grant_captcha_pass'), async () =>
      expectUnavailable(
        await call('verify-captcha', { blockId: blocks.comment, token }, visitor.accessToken),
      ),
    );
  });

  it('answers 503 from the token links (unsubscribe, confirm-email) when the write does not arrive', async () => {
    // an unsubscribe link signed with this process's secret (signed-token.ts)
    const claim = Buffer.from(
      JSON.stringify({ s: 'owner', e: 'reader@example.com', b: crypto.randomUUID() }),
    ).toString('base64url');
    const mac = createHmac('sha256', UNSUBSCRIBE_SECRET).update(claim).digest('base64url');
    await whileFailing(failingOn('/rest/v1/rpc/record_mail_optout'), async () =>
      expectUnavailable(await call('unsubscribe', { token: `${claim}.${mac}` })),
    );
    await whileFailing(failingOn('/rest/v1/rpc/mail_consent_info'), async () =>
      expectUnavailable(
        await call('confirm-email?token=' + 'a'.repeat(43), undefined, undefined, 'GET'),
      ),
    );
  });

  it('set-cafe24 after its state is spent: a 503 that says to connect again, without Retry-After', async () => {
    const paid = await paidOwner('unavailable-connect');
    const redirectUrl = 'http://127.0.0.1:54323/oauth/cafe24';
    const started = await call(
      'cafe24-authorize',
      { mallId: 'unavailablemall', redirectUrl },
      paid.accessToken,
    );
    expect(started.status).toBe(200);
    const state = new URL(
      ((await started.json()) as { data: { url: string } }).data.url,
    ).searchParams.get('state')!;
    const connect = () =>
      call('set-cafe24', { code: 'code', state, redirectUrl }, paid.accessToken);
    // the paid check after the state is spent does not arrive
    await whileFailing(
      failingOn('/rest/v1/profiles', 'reset', (req) => req.service),
      async () => {
        const res = await connect();
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBeNull();
        expect(await res.json()).toEqual({
          error: { code: 'connect_again', message: INTEGRATION_MESSAGES.notSaved },
        });
      },
    );
    // what a retry would have got
    expect(await answer(await connect())).toEqual([400, 'invalid_state']);
  });
});
