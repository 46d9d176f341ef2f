// A function whose database call fails on the way (PostgREST or the gateway out of reach, a
// connection reset, a 502 from upstream) answers 503 with Retry-After, not 500: the request may
// succeed in a moment (functions/_shared/errors.ts). A real SQL error keeps its answer.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import { freePorts } from '../local/config.ts';
import { startFunctions } from '../local/functions.ts';
import { proxy } from '../local/gateway.ts';
import { closeServer, listen, serve } from '../local/http.ts';
import type { Managed } from '../local/process.ts';
import {
  dbError,
  errorResponse,
  HttpError,
  inTransit,
  rpcError,
  UNAVAILABLE_WAIT,
} from '../functions/_shared/errors.ts';
import { newUser, sql, stack, type TestUser } from './support/clients.ts';

/** The 503 every failure in transit answers. */
async function expectUnavailable(res: Response) {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe(String(UNAVAILABLE_WAIT));
  expect(await res.json()).toEqual({
    error: {
      code: 'unavailable',
      message: 'The service is briefly unavailable',
      retryAfter: UNAVAILABLE_WAIT,
    },
  });
}

describe('errors.ts: what a failed database call answers', () => {
  // each 503 and 500 logs its cause
  beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => {}));

  it('answers 503 with Retry-After for the errors supabase-js gives when nothing answers', async () => {
    // a port nothing listens on
    const nowhere = createClient(`http://127.0.0.1:${(await freePorts()).api}`, stack().anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const { error } = await nowhere.rpc('create_block', { p_block_type: 'like' });
    expect(error?.code).toBe('');
    const { error: authError } = await nowhere.auth.getUser('token');
    for (const failure of [error!, authError!]) {
      expect(inTransit(failure)).toBe(true);
      await expectUnavailable(errorResponse(rpcError(failure, 'test')));
      await expectUnavailable(errorResponse(dbError(failure) as HttpError));
    }
  });

  it.each([
    ["the gateway's own 502", { message: 'upstream unavailable: socket hang up' }],
    ['a 504 page', { message: '<html>504 Gateway Time-out</html>' }],
    ['PostgREST without its database', { code: 'PGRST001', message: 'Database client error' }],
    ['a connection lost under the query', { code: '08006', message: 'connection failure' }],
  ])('answers 503 for %s', async (_, failure) => {
    expect(inTransit(failure)).toBe(true);
    await expectUnavailable(errorResponse(rpcError(failure, 'test')));
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
    expect(inTransit(failure)).toBe(false);
    expect(rpcError(failure, 'test')).toMatchObject({ status, code: answer });
    // the functions that answered 500 for any database error still do
    const thrown = dbError(failure);
    expect(thrown).not.toBeInstanceOf(HttpError);
    expect(thrown.message).toBe('refused');
    const own = new HttpError(400, 'update_failed', 'refused');
    expect(dbError(failure, own)).toBe(own);
  });
});

describe('a function whose database is out of reach', () => {
  /** How the way to the database fails, by service; undefined passes the request on. */
  const failing: { rpc?: 'reset' | 502; auth?: 'reset' } = {};
  let front: ReturnType<typeof serve>;
  let functions: Managed;
  let functionsUrl: string;
  let owner: TestUser;

  beforeAll(async () => {
    // the functions' SUPABASE_URL: the stack's gateway behind a front that fails on demand
    const gatewayPort = Number(new URL(stack().apiUrl).port);
    front = serve(
      (req, res) => {
        const path = req.url ?? '/';
        const failure = path.startsWith('/rest/v1/rpc/')
          ? failing.rpc
          : path.startsWith('/auth/')
            ? failing.auth
            : undefined;
        if (failure === 'reset') return void req.socket.destroy();
        if (failure === 502) {
          // the local gateway's answer when PostgREST is gone (local/gateway.ts)
          res.writeHead(502, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ message: 'upstream unavailable: socket hang up' }));
        }
        proxy(req, res, gatewayPort, path, { ...req.headers });
      },
      { name: 'failing-front', log: () => {} },
    );
    await listen(front, 0);
    const port = (await freePorts()).functions;
    functions = await startFunctions({
      port,
      env: {
        SUPABASE_URL: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
        SUPABASE_ANON_KEY: stack().anonKey,
        SUPABASE_SERVICE_ROLE_KEY: stack().serviceRoleKey,
        SUPABASE_DB_URL: stack().dbUrl,
      },
      log: () => {},
    });
    functionsUrl = `http://127.0.0.1:${port}`;
    owner = await newUser('unavailable');
  });

  afterAll(async () => {
    await functions?.stop();
    if (front) await closeServer(front);
  });

  const createBlock = () =>
    fetch(`${functionsUrl}/create-block`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${owner.accessToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ blockType: 'like' }),
    });

  it('answers a refusal of the database as before, and 503 when the call does not arrive', async () => {
    await sql('update public.profiles set block_limit = 0 where id = $1', [owner.id]);
    failing.rpc = undefined;
    const refused = await createBlock();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      'block_limit_reached',
    );
    // create-block answered any other database error 400 (the caller's fault)
    for (const failure of ['reset', 502] as const) {
      failing.rpc = failure;
      await expectUnavailable(await createBlock());
    }
    failing.rpc = undefined;
  });

  it('answers 503, not 401, when auth does not answer', async () => {
    failing.auth = 'reset';
    try {
      await expectUnavailable(await createBlock());
    } finally {
      failing.auth = undefined;
    }
  });
});
