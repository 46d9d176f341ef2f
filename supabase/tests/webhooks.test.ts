// Outgoing webhooks end to end (docs/webhooks.md): endpoints saved through the function, events
// written with the visitor's comment, like or an unsubscribe, delivered by the jobs worker as signed
// POSTs (Standard Webhooks, checked here with Node's crypto, independently of our code) to the
// providers server's receiver, retried after a failure, logged; send test, rotation (two
// signatures for a day); and what a hostile owner or a stranger tries: addresses that lead inside
// (at save and, after a DNS change, at delivery; a rebinding name gets nothing inside), another
// owner's endpoint, secrets unreadable.
import { execFile } from 'node:child_process';
import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denoBinary } from '../local/functions.ts';
import { paths } from '../local/paths.ts';
import { selfSignedCertificate, toPem } from '../local/providers/ses/x509.ts';
import {
  anonClient,
  callFunction,
  newGuest,
  newUser,
  paidOwner,
  sql,
  type TestUser,
} from './support/clients.ts';
import { runWorker } from './support/worker.ts';
import { eventually, providersUrl } from './support/providers.ts';
import { createBlock } from './support/drafts.ts';

const HOST = 'hooks.example-receiver.com';

interface Received {
  host: string;
  path: string;
  address: string | null;
  headers: Record<string, string>;
  body: string;
  answered: number;
}

async function received(path: string): Promise<Received[]> {
  const res = await fetch(
    `${providersUrl()}/hooks/_control/received?host=${HOST}&path=${encodeURIComponent(path)}`,
  );
  return (await res.json()) as Received[];
}

/** The requests the receiver has had at `path`, once there are `n` or more. */
const receivedAtLeast = (path: string, n: number) =>
  eventually(async () => {
    const got = await received(path);
    return got.length >= n && got;
  });

async function rule(path: string, body: Record<string, unknown>, host = HOST) {
  const res = await fetch(`${providersUrl()}/hooks/_control/rules`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ host, path, ...body }),
  });
  expect(res.status).toBe(200);
}

/** Standard Webhooks, from its specification: v1,base64(HMAC-SHA256(key, id.timestamp.body)). */
function signedBy(secret: string, hook: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${hook.headers['webhook-id']}.${hook.headers['webhook-timestamp']}.${hook.body}`)
    .digest('base64');
  return hook.headers['webhook-signature']!.split(' ').includes(`v1,${expected}`);
}

const unique = () => `/t/${randomUUID().slice(0, 8)}`;

let owner: TestUser;
let guest: TestUser;
let comment: string;
let like: string;

const MESSAGE_KEYS = [
  'content',
  'created_at',
  'creator_id',
  'creator_name',
  'id',
  'is_owner',
  'page_key',
  'parent_id',
  'status',
];
const RESPONSE_KEYS = [
  'answers',
  'created_at',
  'creator_id',
  'creator_name',
  'id',
  'kind',
  'page_key',
];

async function saveEndpoint(user: TestUser, body: Record<string, unknown>) {
  return callFunction(
    'save-webhook-endpoint',
    {
      blockId: null,
      events: ['response.created', 'message.created', 'unsubscribe.created'],
      ...body,
    },
    user.accessToken,
  );
}

async function endpoint(user: TestUser, body: Record<string, unknown>) {
  const res = await saveEndpoint(user, body);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data as { endpoint: { id: string; secret_hint: string }; secret: string };
}

/** A new endpoint of the owner's at a path of its own on the receiver: the path, the endpoint. */
async function ownerEndpoint(fields: Record<string, unknown> = {}) {
  const path = unique();
  return { path, ep: await endpoint(owner, { url: `https://${HOST}${path}`, ...fields }) };
}

beforeAll(async () => {
  owner = await paidOwner('hooks-owner');
  guest = await newGuest();
  comment = await createBlock(owner, 'comment');
  like = await createBlock(owner, 'like');
});

describe('outgoing webhooks', () => {
  it('signs a new comment and a like to the endpoints that want them, and logs the delivery', async () => {
    const onComment = unique();
    const everywhere = unique();
    const mine = await endpoint(owner, {
      blockId: comment,
      url: `https://${HOST}${onComment}`,
      events: ['message.created'],
    });
    expect(mine.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(mine.endpoint.secret_hint).toBe(mine.secret.slice(0, 12));
    const all = await endpoint(owner, { url: `https://${HOST}${everywhere}` });

    const { data: posted, error } = await guest.client.rpc('post_message', {
      p_block_id: comment,
      p_content: 'Great post!',
      p_creator_name: 'Reader',
    });
    expect(error).toBeNull();
    await guest.client.rpc('toggle_block_like', { p_block_id: like, p_liked: true });
    await runWorker();

    const [hook] = await receivedAtLeast(onComment, 1);
    expect(hook!.headers['content-type']).toBe('application/json');
    expect(hook!.address).toBe('93.184.216.34');
    expect(hook!.headers['webhook-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Math.abs(Number(hook!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(
      300,
    );
    expect(signedBy(mine.secret, hook!)).toBe(true);
    expect(signedBy(all.secret, hook!)).toBe(false);
    const body = JSON.parse(hook!.body);
    expect(body).toMatchObject({
      type: 'message.created',
      data: {
        block: { id: comment, type: 'comment' },
        message: {
          id: (posted as { id: string }).id,
          content: 'Great post!',
          creator_name: 'Reader',
        },
      },
    });
    // the whole payload's shape, key for key (a receiver parses these)
    expect(Object.keys(body.data).sort()).toEqual(['block', 'message']);
    expect(Object.keys(body.data.block).sort()).toEqual(['id', 'name', 'type']);
    expect(Object.keys(body.data.message).sort()).toEqual(MESSAGE_KEYS);
    expect(body.data.message).toMatchObject({
      parent_id: null,
      page_key: '',
      is_owner: false,
      creator_id: guest.id,
    });
    // the endpoint for every block got both events; the comment's endpoint not the like
    const both = await receivedAtLeast(everywhere, 2);
    expect(both.map((h) => JSON.parse(h.body).type).sort()).toEqual([
      'message.created',
      'response.created',
    ]);
    const liked = both.map((h) => JSON.parse(h.body)).find((b) => b.type === 'response.created');
    expect(Object.keys(liked.data).sort()).toEqual(['block', 'response']);
    expect(Object.keys(liked.data.response).sort()).toEqual(RESPONSE_KEYS);
    expect(liked.data).toMatchObject({
      block: { id: like, type: 'like' },
      response: { kind: 'like', creator_id: guest.id, page_key: '', answers: [] },
    });
    expect(both.every((h) => signedBy(all.secret, h))).toBe(true);
    expect((await received(onComment)).length).toBe(1);

    // the log, the owner's only (the receiver has the hook before the worker logs its answer)
    const log = await eventually(async () => {
      const { data } = await owner.client
        .from('webhook_deliveries')
        .select('id, event_type, status, response_status, attempts')
        .eq('endpoint_id', mine.endpoint.id);
      return data?.every((d) => d.attempts > 0) && data;
    });
    expect(log).toEqual([
      {
        id: hook!.headers['webhook-id'],
        event_type: 'message.created',
        status: 'delivered',
        response_status: 200,
        attempts: 1,
      },
    ]);
    const stranger = await newUser('hooks-stranger');
    for (const client of [stranger.client, anonClient(), guest.client]) {
      expect((await client.from('webhook_deliveries').select('id')).data ?? []).toEqual([]);
      expect((await client.from('webhook_endpoints').select('id')).data ?? []).toEqual([]);
    }
    // the secret is nowhere a client role can read
    const { data: rows } = await owner.client.from('webhook_endpoints').select('*');
    expect(JSON.stringify(rows)).not.toContain(mine.secret);
    const direct = await owner.client
      .schema('private' as never)
      .from('webhook_secrets')
      .select('*');
    expect(direct.data ?? []).toEqual([]);
    await sql('delete from public.webhook_endpoints where user_id = $1', [owner.id]);
  });

  it('a held form response goes out once, when the owner approves it, with its answers', async () => {
    const { path, ep } = await ownerEndpoint({ events: ['response.created'] });
    const form = await createBlock(owner, 'form');
    const [row] = await sql<{ id: string }>(
      `insert into public.responses (block_id, kind, creator_id, creator_name, answers, held)
       values ($1, 'form', $2, 'Held', $3, true) returning id`,
      [
        form,
        guest.id,
        JSON.stringify({
          q2: { index: 1, title: 'Why?', type: 'text', value: 'Because' },
          q1: { index: 0, title: 'Name', type: 'text', value: 'Ann' },
        }),
      ],
    );
    const deliveries = () =>
      sql<{ n: number }>(
        'select count(*)::int as n from public.webhook_deliveries where endpoint_id = $1',
        [ep.endpoint.id],
      ).then((r) => r[0]!.n);
    expect(await deliveries()).toBe(0);
    await sql('update public.responses set held = false where id = $1', [row!.id]);
    // a later change to the approved row is not a new response
    await sql("update public.responses set creator_name = 'Renamed' where id = $1", [row!.id]);
    expect(await deliveries()).toBe(1);
    await runWorker();
    const [hook] = await receivedAtLeast(path, 1);
    const body = JSON.parse(hook!.body);
    expect(body.type).toBe('response.created');
    expect(Object.keys(body.data.response).sort()).toEqual(RESPONSE_KEYS);
    expect(body.data.response).toMatchObject({ id: row!.id, kind: 'form', creator_name: 'Held' });
    // the answers in the form's question order, each with its question
    expect(body.data.response.answers).toEqual([
      { question_id: 'q1', title: 'Name', type: 'text', value: 'Ann' },
      { question_id: 'q2', title: 'Why?', type: 'text', value: 'Because' },
    ]);
    expect((await received(path)).length).toBe(1);
    await sql('delete from public.webhook_endpoints where user_id = $1', [owner.id]);
  });

  it('retries a failing receiver on the schedule and an unsubscribe is an event too', async () => {
    const { path, ep } = await ownerEndpoint({ events: ['unsubscribe.created'] });
    await rule(path, { status: 503, times: 1, secret: ep.secret });
    await sql(
      "insert into public.unsubscribes (user_id, block_id, email) values ($1, $2, 'gone@example.com')",
      [owner.id, comment],
    );
    await runWorker();
    // the first try's failure, caught in its 5 s wait for the second and held there (due in an
    // hour): on a busy machine the queue's own tick made the second try before the delivery was
    // read (delivered, 2 attempts)
    const [job] = await eventually(async () => {
      const rows = await sql<{ status: string; last_error: string | null }>(
        `update private.jobs j set run_at = now() + interval '1 hour'
           from public.webhook_deliveries d
          where d.id = (j.payload ->> 'delivery_id')::uuid and d.endpoint_id = $1
            and j.status = 'queued' and j.last_error is not null
          returning j.status, j.last_error`,
        [ep.endpoint.id],
      );
      return rows.length > 0 && rows;
    });
    expect(job!.last_error).toContain('answered 503');
    const [first] = await sql<{ status: string; response_status: number; attempts: number }>(
      'select status, response_status, attempts from public.webhook_deliveries where endpoint_id = $1',
      [ep.endpoint.id],
    );
    expect(first).toEqual({ status: 'pending', response_status: 503, attempts: 1 });
    // the second try (due in 5 s, held; made due now)
    await sql(
      `update private.jobs set run_at = now() where kind = 'webhook' and status = 'queued'
         and payload ->> 'delivery_id' in (select id::text from public.webhook_deliveries where endpoint_id = $1)`,
      [ep.endpoint.id],
    );
    await runWorker();
    const hooks = await eventually(async () => {
      const got = await received(path);
      return got.length === 2 && got;
    });
    // the same event both times: one id, the receiver deduplicates by it
    expect(hooks[0]!.headers['webhook-id']).toBe(hooks[1]!.headers['webhook-id']);
    expect(hooks.map((h) => h.answered)).toEqual([200, 503]);
    expect(JSON.parse(hooks[0]!.body)).toMatchObject({
      type: 'unsubscribe.created',
      data: { unsubscribe: { email: 'gone@example.com' } },
    });
    // the receiver has the second try before the worker logs its answer
    const after = await eventually(async () => {
      const [row] = await sql<{ status: string; attempts: number }>(
        'select status, attempts from public.webhook_deliveries where endpoint_id = $1',
        [ep.endpoint.id],
      );
      return row!.attempts >= 2 && row;
    });
    expect(after).toEqual({ status: 'delivered', attempts: 2 });
  });

  it('sends a test on demand, and signs with both secrets for a day after a rotation', async () => {
    const { path, ep } = await ownerEndpoint({ blockId: like });
    const test = await callFunction(
      'send-test-webhook',
      { endpointId: ep.endpoint.id },
      owner.accessToken,
    );
    expect(test.json.data).toMatchObject({ ok: true, status: 200, error: null });
    const [hook] = await received(path);
    expect(JSON.parse(hook!.body).type).toBe('webhook.test');
    expect(signedBy(ep.secret, hook!)).toBe(true);

    const rotated = await callFunction(
      'rotate-webhook-secret',
      { endpointId: ep.endpoint.id },
      owner.accessToken,
    );
    const fresh = (rotated.json.data as { secret: string }).secret;
    expect(fresh).not.toBe(ep.secret);
    await callFunction('send-test-webhook', { endpointId: ep.endpoint.id }, owner.accessToken);
    const [latest] = await received(path);
    expect(latest!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(signedBy(fresh, latest!)).toBe(true);
    expect(signedBy(ep.secret, latest!)).toBe(true);

    // a failing receiver: the test says what it answered
    await rule(path, { status: 500, times: 1 });
    const failing = await callFunction(
      'send-test-webhook',
      { endpointId: ep.endpoint.id },
      owner.accessToken,
    );
    expect(failing.json.data).toMatchObject({ ok: false, status: 500 });
  });

  it('refuses addresses that lead inside, at save and at delivery after a DNS change', async () => {
    for (const url of [
      'http://hooks.example-receiver.com/x',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://hooks.example-receiver.com:8443/x',
      'https://user:pass@hooks.example-receiver.com/x',
    ]) {
      const res = await saveEndpoint(owner, { url });
      expect([res.status, res.json.error?.code], url).toEqual([400, 'invalid_input']);
    }
    for (const host of ['inside', 'private', 'metadata', 'nowhere']) {
      const res = await saveEndpoint(owner, { url: `https://${host}.example-receiver.com/x` });
      expect([res.status, res.json.error?.message], host).toEqual([
        400,
        'This address does not lead to a public server',
      ]);
    }
    // a host that led outside when saved and leads inside when delivered (DNS rebinding)
    const name = `rebind-${randomUUID().slice(0, 6)}.example-receiver.com`;
    const dns = (method: string, value: string) =>
      fetch(`${providersUrl()}/dns/records${method === 'DELETE' ? `?name=${name}&type=A` : ''}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? JSON.stringify({ name, type: 'A', value }) : undefined,
      });
    expect((await dns('POST', '93.184.216.34')).status).toBe(201);
    const ep = await endpoint(owner, {
      blockId: like,
      url: `https://${name}/x`,
      events: ['response.created'],
    });
    await dns('DELETE', '');
    expect((await dns('POST', '127.0.0.1')).status).toBe(201);
    const test = await callFunction(
      'send-test-webhook',
      { endpointId: ep.endpoint.id },
      owner.accessToken,
    );
    expect(test.json.data).toMatchObject({ ok: false, status: null });
    expect((test.json.data as { error: string }).error).toMatch(/^address: .*127\.0\.0\.1/);
    const got = await fetch(`${providersUrl()}/hooks/_control/received?host=${name}`);
    expect(await got.json()).toEqual([]);
    await dns('DELETE', '');
  });

  // A rebinding server: the name answers a public address to one lookup and 127.0.0.1 to the next
  // (TTL 0). fetch resolved the name again after the guard's check, so the check could see the
  // public address and the signed POST go inside; the POST now goes to the very address the check
  // approved (pinned-http.ts), which the receiver records from the request's Forwarded: by=.
  it('sends to the address the check approved, not to what a second lookup answers', async () => {
    const name = `rebind-${randomUUID().slice(0, 6)}.example-receiver.com`;
    for (const value of ['93.184.216.34', '127.0.0.1']) {
      const res = await fetch(`${providersUrl()}/dns/records`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, type: 'A', value, rotate: true }),
      });
      expect(res.status).toBe(201);
    }
    const ep = await endpoint(owner, {
      blockId: like,
      url: `https://${name}/x`,
      events: ['response.created'],
    });
    const results: Array<{ ok: boolean; error: string | null }> = [];
    for (let i = 0; i < 6; i++) {
      const res = await callFunction(
        'send-test-webhook',
        { endpointId: ep.endpoint.id },
        owner.accessToken,
      );
      results.push(res.json.data as { ok: boolean; error: string | null });
    }
    // every other check saw 127.0.0.1 and refused; the others were delivered
    const refused = results.filter((r) => !r.ok);
    expect(refused.length, JSON.stringify(results)).toBeGreaterThanOrEqual(2);
    for (const r of refused) expect(r.error).toMatch(/^address: .*127\.0\.0\.1/);
    const got = (await (
      await fetch(`${providersUrl()}/hooks/_control/received?host=${name}`)
    ).json()) as Received[];
    expect(got.length).toBe(results.length - refused.length);
    expect(got.length).toBeGreaterThanOrEqual(2);
    // each delivered POST went to the public address its check approved, never the next lookup's
    expect(got.map((h) => h.address)).toEqual(got.map(() => '93.184.216.34'));
    await fetch(`${providersUrl()}/dns/records?name=${name}&type=A`, { method: 'DELETE' });
  });

  it('keeps each owner to their own endpoints, a paid plan and ten endpoints', async () => {
    const { path, ep } = await ownerEndpoint();
    const other = await newUser('hooks-other');
    await sql('update public.profiles set paid = true where id = $1', [other.id]);
    for (const name of ['send-test-webhook', 'rotate-webhook-secret']) {
      const res = await callFunction(name, { endpointId: ep.endpoint.id }, other.accessToken);
      expect([res.status, res.json.error?.code], name).toEqual([404, 'not_found']);
    }
    const hijack = await saveEndpoint(other, {
      id: ep.endpoint.id,
      url: 'https://other.example-receiver.com/x',
    });
    expect(hijack.status).toBe(404);
    const onTheirBlock = await saveEndpoint(other, { blockId: comment, url: `https://${HOST}/x` });
    expect(onTheirBlock.status).toBe(404);
    const deleted = await other.client
      .from('webhook_endpoints')
      .delete()
      .eq('id', ep.endpoint.id)
      .select('id');
    expect(deleted.data ?? []).toEqual([]);
    // another owner's visitors' events never reach this endpoint
    const theirs = await createBlock(other, 'comment');
    await guest.client.rpc('post_message', {
      p_block_id: theirs,
      p_content: 'hi',
      p_creator_name: 'R',
    });
    await runWorker();
    expect(await received(path)).toEqual([]);

    const free = await newUser('hooks-free');
    const unpaid = await saveEndpoint(free, { url: `https://${HOST}/free` });
    expect([unpaid.status, unpaid.json.error?.code]).toEqual([403, 'paid_plan_required']);

    // a plan that ended: events are logged and not sent
    await sql('update public.profiles set paid = false where id = $1', [owner.id]);
    try {
      await guest.client.rpc('post_message', {
        p_block_id: comment,
        p_content: 'while unpaid',
        p_creator_name: 'R',
      });
      await runWorker();
      await eventually(async () => {
        const [job] = await sql<{ status: string; result: { skipped?: string } | null }>(
          `select j.status, j.result from private.jobs j join public.webhook_deliveries d
             on d.id = (j.payload ->> 'delivery_id')::uuid where d.endpoint_id = $1`,
          [ep.endpoint.id],
        );
        return job?.status === 'done' && job.result?.skipped === 'no paid plan';
      });
      expect(await received(path)).toEqual([]);
    } finally {
      await sql('update public.profiles set paid = true where id = $1', [owner.id]);
    }

    for (
      let i = (await sql('select 1 from public.webhook_endpoints where user_id = $1', [owner.id]))
        .length;
      i < 10;
      i++
    )
      await endpoint(owner, { url: `https://${HOST}/many/${i}` });
    const eleventh = await saveEndpoint(owner, { url: `https://${HOST}/many/11` });
    expect([eleventh.status, eleventh.json.error?.code]).toEqual([409, 'too_many']);
    // the owner deletes their own (RLS)
    const mine = await owner.client
      .from('webhook_endpoints')
      .delete()
      .eq('id', ep.endpoint.id)
      .select('id');
    expect(mine.data).toEqual([{ id: ep.endpoint.id }]);
  });
});

// The pinned transport itself, in a real Deno as the functions run it, against a TLS server on
// 127.0.0.1 whose certificate is for hooks.example-receiver.com only: the connection goes to the
// address given (the name is never looked up), TLS sends the URL's name (SNI) and checks the
// certificate against it.
describe('pinned request (real Deno, real TLS)', () => {
  const NAME = 'hooks.example-receiver.com';
  const seen: Array<{ sni: string | false; host?: string; url?: string; body: string }> = [];
  let server: Server;
  let port: number;
  let ca: string;

  beforeAll(async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    ca = toPem(
      selfSignedCertificate(privateKey, publicKey, {
        commonName: NAME,
        organization: 'Reaction Blocks tests',
        days: 1,
        dnsNames: [NAME],
      }),
    );
    server = createServer({ key: privateKey.export({ type: 'pkcs8', format: 'pem' }), cert: ca });
    server.on('request', (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({
          sni: (req.socket as { servername?: string | false }).servername ?? false,
          host: req.headers.host,
          url: req.url,
          body,
        });
        res.writeHead(202, { 'x-answer': 'yes' }).end('not read');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function inDeno(cases: Array<[string, string[]]>): Promise<unknown[]> {
    const module = join(paths.functions, '_shared', 'pinned-http.ts');
    const script = `
      import { pinnedRequest } from ${JSON.stringify(`file://${module}`)};
      const out = [];
      for (const [url, addresses] of ${JSON.stringify(cases)}) {
        try {
          const res = await pinnedRequest(new URL(url), addresses, {
            method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}',
            signal: AbortSignal.timeout(30000), caCerts: [Deno.env.get('TEST_CA')],
          });
          out.push({ status: res.status, answer: res.headers.get('x-answer') });
        } catch (err) {
          out.push({ error: err.name });
        }
      }
      console.log(JSON.stringify(out));`;
    const { stdout } = await promisify(execFile)(denoBinary(), ['eval', script], {
      cwd: paths.root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DENO_NO_UPDATE_CHECK: '1',
        TEST_CA: ca,
      },
      timeout: 90_000,
    });
    return JSON.parse(stdout) as unknown[];
  }

  it('connects to the given address with the URL’s name for SNI and the certificate', async () => {
    const out = await inDeno([
      // the name has no address anywhere (the system resolver does not know it): only the pin
      [`https://${NAME}:${port}/in?x=1`, ['127.0.0.1']],
      // the first address refuses the connection: the next one is tried
      [`https://${NAME}:${port}/second`, ['127.0.0.2', '127.0.0.1']],
      // the right address, but a name the certificate is not for: TLS refuses, nothing is sent
      [`https://other.example-receiver.com:${port}/wrong-name`, ['127.0.0.1']],
    ]);
    expect(out[0]).toEqual({ status: 202, answer: 'yes' });
    expect(out[1]).toEqual({ status: 202, answer: 'yes' });
    expect(out[2]).toMatchObject({ error: expect.any(String) });
    expect(out[2]).not.toHaveProperty('status');
    expect(seen).toEqual([
      { sni: NAME, host: `${NAME}:${port}`, url: '/in?x=1', body: '{"n":1}' },
      { sni: NAME, host: `${NAME}:${port}`, url: '/second', body: '{"n":1}' },
    ]);
  });
});
