// Cafe24 end to end through the providers server's fake, with the edge functions and the jobs
// worker as they run (docs/cafe24.md): connect (cafe24-authorize, the mall's consent page,
// set-cafe24), place blocks (save-cafe24-placements), the loader's script tag installed, changed
// and removed by the queue, the loader's read (get_cafe24_embed), disconnect, the plan's end, the
// refresh token kept alive and a refresh refused (shown to the owner), and the hostile cases:
// forged, expired, reused and another owner's state, another owner's shop, a code of another mall,
// tokens never readable by a client role.
import { createHmac, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  anonClient,
  callFunction,
  newUser,
  paidOwner,
  serviceClient,
  sql,
  stack,
  type TestUser,
} from './support/clients.ts';
import { runWorker } from './support/worker.ts';
import {
  cafe24Consent,
  cafe24Control,
  cafe24Mall,
  eventually,
  LOCAL_CAFE24,
  newMallId,
  providersUrl,
} from './support/providers.ts';
import { createBlock } from './support/drafts.ts';
import { CAFE24_MESSAGES } from '@reaction-blocks/contracts/cafe24';

const REDIRECT = 'http://127.0.0.1:54323/oauth/cafe24';

async function authorize(owner: TestUser, mallId: string) {
  const start = await callFunction(
    'cafe24-authorize',
    { mallId, redirectUrl: REDIRECT },
    owner.accessToken,
  );
  expect(start.status, JSON.stringify(start.json)).toBe(200);
  return (start.json.data as { url: string }).url;
}

/** set-cafe24 as the dashboard's /oauth/cafe24 page calls it, with the code and state it was given. */
const setCafe24 = (caller: TestUser, code: string | null, state: string | null) =>
  callFunction('set-cafe24', { code, state, redirectUrl: REDIRECT }, caller.accessToken);

/** The whole connect flow as the dashboard and the browser run it. */
async function connect(owner: TestUser, mallId: string) {
  const url = await authorize(owner, mallId);
  const back = await cafe24Consent(url);
  const set = await setCafe24(owner, back.code, back.state);
  expect(set.status, JSON.stringify(set.json)).toBe(200);
  return set.json.data as { integration: { provider: string; status: string; mallId: string } };
}

async function place(owner: TestUser, placements: Array<Record<string, unknown>>) {
  return callFunction('save-cafe24-placements', { placements }, owner.accessToken);
}

const shopOf = async (owner: TestUser) =>
  (
    await sql<{
      id: string;
      script_no: string | null;
      removing: boolean;
      loader_error: string | null;
    }>('select id, script_no, removing, loader_error from public.cafe24_shops where user_id = $1', [
      owner.id,
    ])
  )[0];

const ourTags = async (mallId: string) =>
  (await cafe24Mall(mallId)).scriptTags.filter((t) => t.client_id === LOCAL_CAFE24.clientId);

/** The loader's read, as the loader sends it (a GET with the anon key). */
async function embed(shopId: string) {
  const res = await fetch(`${stack().apiUrl}/rest/v1/rpc/get_cafe24_embed?p_shop=${shopId}`, {
    headers: { apikey: stack().anonKey, Authorization: `Bearer ${stack().anonKey}` },
  });
  expect(res.status).toBe(200);
  return {
    cache: res.headers.get('cache-control'),
    body: (await res.json()) as {
      owner_id: string | null;
      placements: Array<{ block_id: string; type: string; location: string; per_product: boolean }>;
    },
  };
}

/** The newest sync job of an owner's shop. */
const lastSyncJob = async (who: TestUser) =>
  (
    await sql<{ status: string; last_error: string | null }>(
      `select status, last_error from private.jobs where kind = 'cafe24.sync' and group_key = $1 order by id desc limit 1`,
      [`cafe24:${who.id}`],
    )
  )[0];

/**
 * The owner's last sync job, once back in the queue with an error `error` matches, held there (due
 * in an hour; `jobDueNow` makes it due): its retry is due 5 s after the failure, and the queue's own
 * tick could take it first, while Cafe24 still fails (a lost create made again: flaky).
 */
const failedSyncHeld = (who: TestUser, error: RegExp) =>
  eventually(async () => {
    const [job] = await sql<{ status: string; last_error: string | null }>(
      `update private.jobs set run_at = now() + interval '1 hour'
        where id = (select id from private.jobs where kind = 'cafe24.sync' and group_key = $1
                    order by id desc limit 1)
          and status = 'queued' and last_error ~ $2
        returning status, last_error`,
      [`cafe24:${who.id}`, error.source],
    );
    return job;
  });

/** The owner's queued job of this kind made due now (a retry's or the keep-alive's time come). */
const jobDueNow = (kind: 'cafe24.sync' | 'cafe24.refresh', who: TestUser) =>
  sql(
    `update private.jobs set run_at = now() where kind = $1 and group_key = $2 and status = 'queued'`,
    [kind, `cafe24:${who.id}`],
  );

/** The owner's access token run out on our side too, so the next call refreshes it first. */
const accessRunOut = (who: TestUser) =>
  sql(
    `update private.integration_tokens t set token_data = t.token_data || '{"expires_at": "2020-01-01T00:00:00Z"}'
     from public.integrations i where i.id = t.integration_id and i.user_id = $1 and i.provider = 'cafe24'`,
    [who.id],
  );

/** A placement at the location's default spot (no selector, first). */
const at = (blockId: string, location: 'main' | 'product_detail', perProduct = false) => ({
  blockId,
  location,
  perProduct,
  selector: '',
  position: 0,
});

/** A paid owner's mall connected with a comment block on its product pages, the loader live. */
async function liveShop(name: string) {
  const holder = await paidOwner(name);
  const mall = newMallId();
  const block = await createBlock(holder, 'comment');
  await connect(holder, mall);
  await place(holder, [at(block, 'product_detail', true)]);
  await runWorker();
  await eventually(async () => (await ourTags(mall)).length === 1);
  return { holder, mall, block, shop: (await shopOf(holder))! };
}

/** The owner's notes on the Cafe24 connection, as the dashboard reads them. */
const notesOf = async (who: TestUser, columns = 'code') =>
  (await who.client.from('integration_notes').select(columns).eq('provider', 'cafe24')).data;

/** A state signed the way the functions sign it, with the local app's secret (for forged ones). */
function signedState(userId: string, mallId: string, expires: number): string {
  const b64 = (b: Buffer) => b.toString('base64url');
  const body = b64(
    Buffer.from(JSON.stringify({ u: userId, e: expires, n: b64(randomBytes(12)), d: mallId })),
  );
  const mac = b64(createHmac('sha256', LOCAL_CAFE24.clientSecret).update(body).digest());
  return `${body}.${mac}`;
}

let owner: TestUser;
let mallId: string;
let comment: string;
let like: string;
let form: string;

beforeAll(async () => {
  owner = await paidOwner('cafe24-owner');
  mallId = newMallId();
  comment = await createBlock(owner, 'comment');
  like = await createBlock(owner, 'like');
  form = await createBlock(owner, 'form');
});

describe('connecting a shop', () => {
  it('connects through the mall consent page; the tokens stay out of every client role’s reach', async () => {
    const url = new URL(await authorize(owner, mallId));
    expect(url.pathname).toBe(`/cafe24/${mallId}/api/v2/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: LOCAL_CAFE24.clientId,
      redirect_uri: REDIRECT,
      scope: 'mall.read_application,mall.write_application',
    });
    expect(url.searchParams.get('state')).toMatch(/^[\w-]+\.[\w-]+$/);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Local development authorisation');

    const set = await connect(owner, mallId);
    expect(set.integration).toEqual({ provider: 'cafe24', status: 'granted', mallId });

    // the owner reads the shop and the integration, never a token
    const { data: shops } = await owner.client.from('cafe24_shops').select('*');
    expect(shops).toHaveLength(1);
    expect(JSON.stringify(shops)).not.toMatch(/access|refresh/i);
    const { data: integrations } = await owner.client
      .from('integrations')
      .select('*')
      .eq('provider', 'cafe24');
    expect(integrations).toMatchObject([{ status: 'granted', workspace_name: mallId }]);
    const [token] = await sql<{ access_token: string; refresh_token: string }>(
      `select t.access_token, t.refresh_token from private.integration_tokens t
       join public.integrations i on i.id = t.integration_id where i.user_id = $1 and i.provider = 'cafe24'`,
      [owner.id],
    );
    expect(token!.access_token.length).toBeGreaterThan(10);
    for (const client of [anonClient(), owner.client, (await newUser('cafe24-stranger')).client]) {
      const direct = await client
        .schema('private' as never)
        .from('integration_tokens')
        .select('*');
      expect(direct.data ?? []).toEqual([]);
      const viaRpc = await client.rpc('cafe24_shop_context', { p_user_id: owner.id });
      expect(viaRpc.error).not.toBeNull();
      const strangerShops = await client.from('cafe24_shops').select('*').neq('user_id', owner.id);
      expect(strangerShops.data ?? []).toEqual([]);
    }
    const anonShop = await anonClient().from('cafe24_shops').select('*');
    expect(anonShop.data ?? []).toEqual([]);
  });

  it('installs the loader where blocks are placed, changes it with the placements, and serves them', async () => {
    const shop = (await shopOf(owner))!;
    // nothing placed yet: no tag
    await runWorker();
    expect(await ourTags(mallId)).toEqual([]);

    const saved = await place(owner, [
      at(comment, 'product_detail', true),
      {
        blockId: like,
        location: 'product_detail',
        perProduct: true,
        selector: '#prdDetail',
        position: 1,
      },
    ]);
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    await runWorker();
    const [tag] = await eventually(async () => {
      const tags = await ourTags(mallId);
      return tags.length === 1 && tags;
    });
    expect(tag!.display_location).toEqual(['PRODUCT_DETAIL']);
    const src = new URL(tag!.src);
    expect(src.pathname).toBe('/sdk/cdn/cafe24.js');
    expect(Object.fromEntries(src.searchParams)).toEqual({
      shop: shop.id,
      project: stack().apiUrl,
      key: stack().anonKey,
    });
    await eventually(async () => (await shopOf(owner))!.script_no === tag!.script_no);

    const { body, cache } = await embed(shop.id);
    expect(cache).toContain('public');
    expect(body.owner_id).toBe(owner.id);
    expect(body.placements.map((p) => [p.type, p.location, p.per_product])).toEqual([
      ['comment', 'product_detail', true],
      ['like', 'product_detail', true],
    ]);

    // the main page too: the same tag, changed in place
    await place(owner, [at(comment, 'product_detail', true), at(form, 'main', true)]);
    await runWorker();
    const [changed] = await eventually(async () => {
      const tags = await ourTags(mallId);
      return tags.length === 1 && tags[0]!.display_location.length === 2 && tags;
    });
    expect(changed!.script_no).toBe(tag!.script_no);
    expect(changed!.display_location.sort()).toEqual(['MAIN', 'PRODUCT_DETAIL']);
    // a thread per product only where it means something
    expect((await embed(shop.id)).body.placements.find((p) => p.type === 'form')!.per_product).toBe(
      false,
    );

    // the storefront stand-in loads it on a product page and on the main page
    const productPage = await (
      await fetch(`${providersUrl()}/cafe24/${mallId}/product/detail.html?product_no=12`)
    ).text();
    expect(productPage).toContain(`src="${changed!.src.replace(/&/g, '&amp;')}"`);
  });

  it('refuses what a hostile caller tries: forged, expired, reused and foreign states, another owner’s shop and blocks', async () => {
    const other = await paidOwner('cafe24-other');
    const url = await authorize(other, mallId);
    const back = await cafe24Consent(url);
    // the victim's session with the attacker's code and state
    const stolen = await setCafe24(owner, back.code, back.state);
    expect([stolen.status, stolen.json.error?.code]).toEqual([400, 'invalid_state']);
    const forged = await setCafe24(other, back.code, `${back.state}x`);
    expect([forged.status, forged.json.error?.code]).toEqual([400, 'invalid_state']);
    const expired = await setCafe24(
      other,
      back.code,
      signedState(other.id, mallId, Date.now() - 1000),
    );
    expect([expired.status, expired.json.error?.code]).toEqual([400, 'invalid_state']);
    // the mall is connected to the first owner: the second is told so, and nothing changes
    const taken = await setCafe24(other, back.code, back.state);
    expect([taken.status, taken.json.error?.code]).toEqual([409, 'other_account']);
    const [row] = await sql<{ user_id: string }>(
      'select user_id from public.cafe24_shops where mall_id = $1',
      [mallId],
    );
    expect(row!.user_id).toBe(owner.id);
    // the state is spent even though the connection was refused
    const reused = await setCafe24(other, back.code, back.state);
    expect([reused.status, reused.json.error?.code]).toEqual([400, 'invalid_state']);

    // a code the operator of another mall gave, with a state for this mall
    const otherMall = newMallId();
    const codeElsewhere = await cafe24Consent(await authorize(other, otherMall));
    const stateHere = new URL(await authorize(other, newMallId())).searchParams.get('state')!;
    const crossed = await setCafe24(other, codeElsewhere.code, stateHere);
    expect([crossed.status, crossed.json.error?.code]).toEqual([400, 'invalid_code']);

    // another owner's blocks cannot be placed; a foreign redirect and free owners are refused
    const foreignBlock = await place(other, [at(comment, 'product_detail', true)]);
    expect(foreignBlock.status).toBe(404);
    const foreign = await callFunction(
      'cafe24-authorize',
      { mallId: newMallId(), redirectUrl: 'https://evil.example/oauth/cafe24' },
      other.accessToken,
    );
    expect([foreign.status, foreign.json.error?.code]).toEqual([400, 'invalid_input']);
    const free = await newUser('cafe24-free');
    const unpaid = await callFunction(
      'cafe24-authorize',
      { mallId: newMallId(), redirectUrl: REDIRECT },
      free.accessToken,
    );
    expect([unpaid.status, unpaid.json.error?.code]).toEqual([403, 'paid_plan_required']);
    const badMall = await callFunction(
      'cafe24-authorize',
      { mallId: 'evil.example.com/x', redirectUrl: REDIRECT },
      other.accessToken,
    );
    expect(badMall.status).toBe(400);
    // the owner's placements are the owner's: nothing changed for them
    expect((await embed((await shopOf(owner))!.id)).body.placements).toHaveLength(2);
  });

  it('keeps the refresh token alive through the queue, and shows a refused refresh to the owner', async () => {
    const before = (await cafe24Mall(mallId)).tokens.filter((t) => !t.ended).length;
    expect(before).toBeGreaterThan(0);
    const refreshToken = async () =>
      (
        await sql<{ refresh_token: string }>(
          `select t.refresh_token from private.integration_tokens t join public.integrations i on i.id = t.integration_id
           where i.user_id = $1 and i.provider = 'cafe24'`,
          [owner.id],
        )
      )[0]!.refresh_token;
    // read before the daily keep-alive is due: once it is, the queue's own tick may refresh the
    // token before the test reads it (then 'old' was the new one, waited for in vain)
    const old = await refreshToken();
    // the daily keep-alive, due now
    await jobDueNow('cafe24.refresh', owner);
    await runWorker();
    await eventually(async () => (await refreshToken()) !== old);
    const [next] = await sql<{ run_at: Date }>(
      `select run_at from private.jobs where kind = 'cafe24.refresh' and group_key = $1 and status = 'queued'`,
      [`cafe24:${owner.id}`],
    );
    expect(next!.run_at.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);

    // the operator revoked the app's access: the next refresh (the access token has run out) is refused
    await cafe24Control(mallId, { refuseRefresh: true, expireAccess: true });
    await accessRunOut(owner);
    await place(owner, [at(comment, 'product_detail', true)]);
    await runWorker();
    await eventually(async () => {
      const { data } = await owner.client
        .from('integrations')
        .select('status')
        .eq('provider', 'cafe24')
        .single();
      return (data as { status: string }).status === 'not_granted';
    });
    const notes = await notesOf(owner, 'provider, code');
    expect(notes).toEqual([{ provider: 'cafe24', code: 'cafe24_unauthorized' }]);

    // connecting again grants it again, drops the note and syncs
    await cafe24Control(mallId, { refuseRefresh: false });
    await connect(owner, mallId);
    const after = await notesOf(owner);
    expect(after).toEqual([]);
    await runWorker();
    await eventually(async () => {
      const tags = await ourTags(mallId);
      return tags.length === 1 && tags[0]!.display_location.join() === 'PRODUCT_DETAIL';
    });
  });

  it('takes the loader off when the plan ends, and puts it back when the owner pays again', async () => {
    const shop = (await shopOf(owner))!;
    await sql('update public.profiles set paid = false where id = $1', [owner.id]);
    // nothing shows at once, whatever the mall still has
    expect((await embed(shop.id)).body.placements).toEqual([]);
    await runWorker();
    await eventually(async () => (await ourTags(mallId)).length === 0);
    await eventually(async () => (await shopOf(owner))!.script_no === null);
    await sql('update public.profiles set paid = true where id = $1', [owner.id]);
    await runWorker();
    await eventually(async () => (await ourTags(mallId)).length === 1);
    expect((await embed(shop.id)).body.placements).toHaveLength(1);
  });

  it('removes the tag on disconnect (retrying through an outage), then the shop and its tokens', async () => {
    const shop = (await shopOf(owner))!;
    // someone else's tag in the mall stays
    await cafe24Control(mallId, {
      addTag: { client_id: 'another-app', src: 'https://other.example/app.js' },
    });
    await cafe24Control(mallId, { failure: 'outage' });
    try {
      const removed = await callFunction(
        'remove-integration',
        { mode: 'cafe24' },
        owner.accessToken,
      );
      expect(removed.json.data).toEqual({ status: true, removing: true });
      expect((await embed(shop.id)).body.placements).toEqual([]);
      await runWorker();
      await eventually(async () => {
        const job = await lastSyncJob(owner);
        return job?.status === 'queued' && /Service Unavailable|503/.test(job.last_error ?? '');
      });
      expect((await ourTags(mallId)).length).toBe(1);
    } finally {
      await cafe24Control(mallId, { failure: null });
    }
    await jobDueNow('cafe24.sync', owner);
    await runWorker();
    await eventually(async () => (await ourTags(mallId)).length === 0);
    await eventually(async () => (await shopOf(owner)) === undefined);
    const left = await sql(
      `select 1 from public.integrations where user_id = $1 and provider = 'cafe24'
       union all select 1 from public.cafe24_placements where user_id = $1`,
      [owner.id],
    );
    expect(left).toEqual([]);
    expect((await cafe24Mall(mallId)).scriptTags.map((t) => t.client_id)).toEqual(['another-app']);
  });

  it('makes one script tag when the answer to its create is lost, and none more on the retry', async () => {
    const owner3 = await paidOwner('cafe24-lost-answer');
    const mall = newMallId();
    await connect(owner3, mall);
    const block = await createBlock(owner3, 'qna');
    const syncJob = () => lastSyncJob(owner3);
    const creates = async () =>
      (await cafe24Mall(mall)).log.filter(
        (l) => l.method === 'POST' && l.path === '/api/v2/admin/scripttags',
      );
    // Cafe24 makes the tag, and the connection closes before its answer (after a pooled read: the
    // list the sync starts with)
    await cafe24Control(mall, { failure: 'lost' });
    try {
      await place(owner3, [at(block, 'main')]);
      await runWorker();
      await failedSyncHeld(owner3, /Cafe24 did not answer/);
      // no answer after the request went out: Cafe24 may have made it (the job says so)
      expect((await syncJob())!.last_error).toMatch(/may have been carried out/);
      // sent once: the runtime did not send the create again on a fresh connection
      expect((await creates()).map((l) => l.status)).toEqual([0]);
      expect((await ourTags(mall)).length).toBe(1);
    } finally {
      await cafe24Control(mall, { failure: null });
    }
    const [made] = await ourTags(mall);
    // the job's retry lists the mall's tags first: it finds the one made and keeps it
    await jobDueNow('cafe24.sync', owner3);
    await runWorker();
    await eventually(async () => (await syncJob())?.status === 'done');
    expect((await ourTags(mall)).map((t) => t.script_no)).toEqual([made!.script_no]);
    expect((await creates()).length).toBe(1);
    await eventually(async () => (await shopOf(owner3))!.script_no === made!.script_no);
  });

  it('keeps a live mall served and its owner’s when a refresh’s answer was lost and the retry’s token is refused (rev-fixes2 D4)', async () => {
    // before: the retry's refresh token was the one the lost call spent, Cafe24 refused it, and
    // the shop went not granted: its blocks unserved and the mall handed to the next account
    const { holder, mall, block, shop } = await liveShop('cafe24-lost-refresh');
    const syncJob = () => lastSyncJob(holder);
    // the access token due: Cafe24 carries the refresh out, its answer never comes
    await cafe24Control(mall, { failure: 'lost', expireAccess: true });
    await accessRunOut(holder);
    try {
      await place(holder, [at(block, 'main')]);
      await runWorker();
      await eventually(async () =>
        /may have been carried out/.test((await syncJob())?.last_error ?? ''),
      );
    } finally {
      await cafe24Control(mall, { failure: null });
    }
    await jobDueNow('cafe24.sync', holder);
    await runWorker();
    await eventually(async () => (await syncJob())?.status === 'done');
    const notes = await notesOf(holder);
    expect(notes).toEqual([{ code: 'cafe24_unauthorized' }]);
    const { data: integration } = await holder.client
      .from('integrations')
      .select('status')
      .eq('provider', 'cafe24')
      .single();
    expect(integration).toEqual({ status: 'granted' });
    expect((await embed(shop.id)).body.placements).toHaveLength(1);
    // another account signing in to the mall is refused: the mall is live and still the holder's
    const other = await paidOwner('cafe24-lost-refresh-other');
    const url = await authorize(other, mall);
    const back = await cafe24Consent(url);
    expect((await setCafe24(other, back.code, back.state)).status).toBe(409);
    // the holder connects again: granted with new tokens, the note gone
    await connect(holder, mall);
    const after = await notesOf(holder);
    expect(after).toEqual([]);
  });

  // rev-fixes2 (D4's related LOW): a 401 on an access token our expires_at calls good (Cafe24
  // ended it early, or our clock is past the margin) refreshes once and runs the calls again;
  // before, it made the shop not granted at once, with no refresh tried
  it('a 401 on an access token that has not expired refreshes once and goes on; only a refused refresh ends the grant', async () => {
    const holder = await paidOwner('cafe24-early-401');
    const mall = newMallId();
    const block = await createBlock(holder, 'comment');
    await connect(holder, mall);
    const placed = (location: string) =>
      place(holder, [{ blockId: block, location, perProduct: false, selector: '', position: 0 }]);
    const status = async () =>
      (
        (
          await holder.client
            .from('integrations')
            .select('status')
            .eq('provider', 'cafe24')
            .single()
        ).data as { status: string }
      ).status;
    await placed('product_detail');
    await runWorker();
    await eventually(async () => (await ourTags(mall)).length === 1);
    // Cafe24 ends the access token; our stored expires_at still says it is good for hours
    await cafe24Control(mall, { expireAccess: true });
    const grants = async () =>
      (await cafe24Mall(mall)).log.filter((l) => l.method === 'POST' && l.path.endsWith('/token'));
    const before = (await grants()).length;
    await placed('main');
    await runWorker();
    await eventually(async () => (await ourTags(mall))[0]?.display_location.join() === 'MAIN');
    expect(await status()).toBe('granted');
    expect(await ourTags(mall)).toHaveLength(1);
    expect((await grants()).slice(before).map((l) => l.status)).toEqual([200]);
    const notes = () =>
      holder.client.from('integration_notes').select('code').eq('provider', 'cafe24');
    expect((await notes()).data).toEqual([]);
    // the same 401, and the mall refuses the refresh (its admin revoked the app): not granted
    await cafe24Control(mall, { expireAccess: true, refuseRefresh: true });
    await placed('product_detail');
    await runWorker();
    await eventually(async () => (await status()) === 'not_granted');
    expect((await notes()).data).toEqual([{ code: 'cafe24_unauthorized' }]);
  });

  it('lets an operator who deleted the app disconnect without an answer from the mall', async () => {
    const owner2 = await paidOwner('cafe24-uninstalled');
    const mall = newMallId();
    await connect(owner2, mall);
    const block = await createBlock(owner2, 'qna');
    await place(owner2, [at(block, 'main')]);
    await runWorker();
    await eventually(async () => (await ourTags(mall)).length === 1);
    // the operator deletes the app in the mall's admin: its tags go with it, its tokens stop working
    await cafe24Control(mall, { uninstall: true });
    await callFunction('remove-integration', { mode: 'cafe24' }, owner2.accessToken);
    await runWorker();
    await eventually(async () => (await shopOf(owner2)) === undefined);
    const service = serviceClient();
    const { data } = await service.from('integrations').select('id').eq('user_id', owner2.id);
    expect(data).toEqual([]);
  });
});

describe('a mall whose app was deleted under one owner (one owner per mall)', () => {
  const status = async (who: TestUser) =>
    (
      await sql<{ status: string }>(
        `select status from public.integrations where user_id = $1 and provider = 'cafe24'`,
        [who.id],
      )
    )[0]?.status;

  it('hands the mall to the owner who signs in to it once Cafe24 refused the holder’s tokens', async () => {
    const { holder: a, mall, block, shop: shopA } = await liveShop('cafe24-holder');
    const b = await paidOwner('cafe24-next');
    expect((await embed(shopA.id)).body.placements).toHaveLength(1);
    // the operator deletes the app in the mall's admin; A's next sync is refused
    await cafe24Control(mall, { uninstall: true });
    await place(a, [at(block, 'main')]);
    await runWorker();
    await eventually(async () => (await status(a)) === 'not_granted');
    // a connection Cafe24 refuses serves nothing (we can neither change nor remove its tag)
    expect((await embed(shopA.id)).body).toEqual({ owner_id: null, placements: [] });

    // B signs in to the mall (proving control of it) and takes it over
    const { integration } = await connect(b, mall);
    expect(integration).toMatchObject({ provider: 'cafe24', status: 'granted', mallId: mall });
    const holders = await sql<{ user_id: string }>(
      'select user_id from public.cafe24_shops where mall_id = $1',
      [mall],
    );
    expect(holders.map((r) => r.user_id)).toEqual([b.id]);
    // A's card: no connection, no shop, and a note saying why (its placements are kept)
    expect(await status(a)).toBeUndefined();
    expect(await shopOf(a)).toBeUndefined();
    const notes = await notesOf(a, 'code, detail');
    expect(notes).toEqual([{ code: 'cafe24_taken_over', detail: { mall_id: mall } }]);
    const { data: kept } = await a.client.from('cafe24_placements').select('block_id');
    expect(kept).toEqual([{ block_id: block }]);
    expect((await embed(shopA.id)).body).toEqual({ owner_id: null, placements: [] });
    const tokens = await sql(
      `select 1 from private.integration_tokens t join public.integrations i on i.id = t.integration_id
       where i.user_id = $1`,
      [a.id],
    );
    expect(tokens).toEqual([]);
    // B's connection works: B places a block and the loader is installed for B's shop
    const blockB = await createBlock(b, 'like');
    const placed = await place(b, [at(blockB, 'main')]);
    expect(placed.status, JSON.stringify(placed.json)).toBe(200);
    await runWorker();
    const shopB = (await shopOf(b))!;
    await eventually(async () => {
      const tags = await ourTags(mall);
      return tags.length === 1 && tags[0]!.src.includes(`shop=${shopB.id}`);
    });
    expect((await embed(shopB.id)).body.owner_id).toBe(b.id);
  });

  it('refuses a live mall, saying what to do, and checks the holder’s access on each try', async () => {
    const a = await paidOwner('cafe24-live');
    const b = await paidOwner('cafe24-hostile');
    const mall = newMallId();
    await connect(a, mall);
    await runWorker();
    // A's connection is granted and Cafe24 still takes its tokens: B is refused, A keeps the mall
    const tryConnect = async () => {
      const back = await cafe24Consent(await authorize(b, mall));
      return setCafe24(b, back.code, back.state);
    };
    const refused = await tryConnect();
    expect([refused.status, refused.json.error?.code, refused.json.error?.message]).toEqual([
      409,
      'other_account',
      CAFE24_MESSAGES.otherAccount,
    ]);
    await runWorker();
    expect(await status(a)).toBe('granted');
    expect((await shopOf(a))!.id).toBeDefined();
    expect(await shopOf(b)).toBeUndefined();

    // the mall's operator deletes the app in Cafe24's admin and tries again: still refused (we
    // have not asked the mall yet), and the check queued then finds A's tokens refused
    await cafe24Control(mall, { uninstall: true });
    const again = await tryConnect();
    expect([again.status, again.json.error?.code]).toEqual([409, 'other_account']);
    await runWorker();
    await eventually(async () => (await status(a)) === 'not_granted');
    const third = await tryConnect();
    expect(third.status, JSON.stringify(third.json)).toBe(200);
    expect(await shopOf(a)).toBeUndefined();
  });
});
