// A storm cannot be turned against visitors (issue 17): when a shared budget is spent (the
// block's bucket, or one address's fair share of it), visitors without a track record meet the
// captcha and their messages are held for the owner; visitors with one keep writing; what one
// address's fresh accounts posted is held with the burst. docs/data-model.md "When a shared
// budget is under pressure". The storm comes from 20 fresh anonymous accounts of one address, as
// the repro (a shorter storm of the same shape; the 60 s one is `npm run bench:storm`).
//
// Addresses: the API takes the right-most X-Forwarded-For entry that is not a trusted proxy. The
// tests name the loopback a trusted proxy (a CDN in front of the gateway), so each client's own
// X-Forwarded-For is its address; without that, a client's header changes nothing (last test).
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, newGuest, newUser, sql, stack, type TestUser } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import { abQuestion, overrideLimits, wideForm, writeUntilRefused } from './support/hostile.ts';
import { eventually, providersUrl } from './support/providers.ts';

/** A fresh anonymous visitor whose requests come through a proxy that says `address`. */
const guestFrom = (address: string): Promise<TestUser> => newGuest({ 'x-forwarded-for': address });

const post = (client: SupabaseClient, blockId: string) =>
  client.rpc('post_message', {
    p_block_id: blockId,
    p_content: `hello ${randomUUID()}`,
    p_creator_name: 'Quiet Otter',
    p_honeypot: '',
  });

/** Posts as the element does: on a 429 that asks for the captcha, solve it and post again. */
async function postAsElement(visitor: TestUser, blockId: string) {
  const first = await post(visitor.client, blockId);
  if (first.error?.details !== 'captcha') return { ...first, challenged: false };
  const res = await fetch(
    `${providersUrl()}/turnstile/v0/token?sitekey=local-turnstile-site-key&outcome=pass`,
  );
  const { token } = (await res.json()) as { token: string };
  const verified = await visitor.client.functions.invoke('verify-captcha', {
    body: { blockId, token },
  });
  expect(verified.error).toBeNull();
  return { ...(await post(visitor.client, blockId)), challenged: true };
}

const statusOf = async (id: string) =>
  (await sql<{ status: string }>('select status from public.messages where id = $1', [id]))[0]
    ?.status;

/** The status a message was stored with; the write that made it must have gone through. */
async function storedStatus(write: { error: unknown; data: unknown }) {
  expect(write.error).toBeNull();
  return statusOf((write.data as { id: string }).id);
}

async function commentBlock(
  overrides?: Record<string, Record<string, number>>,
): Promise<{ owner: TestUser; block: string }> {
  const owner = await newUser('owner');
  const block = await createBlock(owner, 'comment');
  if (overrides) await overrideLimits(block, overrides);
  return { owner, block };
}

/** A message of `visitor` on the block, published a week ago: a track record there. */
const giveTrackRecord = (visitor: TestUser, blockId: string) =>
  sql(
    `insert into public.messages (block_id, creator_id, creator_name, content, created_at, status)
     values ($1, $2, 'Old Friend', 'from last week', now() - interval '7 days', 'published')`,
    [blockId, visitor.id],
  );

/** Keeps `visitors` posting as fast as they can until `until` says stop; counts what happened. */
async function storm(visitors: TestUser[], blockId: string, until: () => boolean) {
  const seen = { stored: 0, refused: 0, statuses: new Set<number>(), others: [] as string[] };
  await Promise.all(
    visitors.map(async (v) => {
      while (!until()) {
        const r = await post(v.client, blockId);
        if (r.error) {
          seen.refused++;
          seen.statuses.add(r.status);
          // anything but a 429 is a failure: its code and message say which (a 500 once was a
          // deadlock of two holds of the address's burst)
          if (r.status !== 429) seen.others.push(`${r.status} ${r.error.code}: ${r.error.message}`);
        } else seen.stored++;
      }
    }),
  );
  return seen;
}

/**
 * Keeps `storm` toggling the like of `block` as fast as it can until one of its refusals has
 * `scope`, then has each of `visitors` like the block once, the storm still running. Answers the
 * visitors' refusals, the storm's (status and hint) and how many of its writes went through.
 */
async function likeStorm(
  block: string,
  storm: TestUser[],
  visitors: TestUser[],
  scope: 'address' | 'block',
) {
  let stop = false;
  let stormWrites = 0;
  const stormRefusals = new Set<string>();
  const running = storm.map(async (g, i) => {
    let liked = i % 2 === 0;
    while (!stop) {
      const r = await g.client.rpc('toggle_block_like', { p_block_id: block, p_liked: !liked });
      if (!r.error) {
        liked = !liked;
        stormWrites += 1;
      } else stormRefusals.add(`${r.status} ${r.error.hint}`);
    }
  });
  const refused: string[] = [];
  try {
    await eventually(
      async () => [...stormRefusals].some((r) => r.includes(`"scope": "${scope}"`)) || undefined,
    );
    for (const v of visitors) {
      const r = await v.client.rpc('toggle_block_like', { p_block_id: block, p_liked: true });
      if (r.error) refused.push(`${r.status} ${r.error.hint}`);
    }
  } finally {
    stop = true;
    await Promise.all(running);
  }
  return { refused, stormRefusals: [...stormRefusals], stormWrites };
}

const published = async (blockId: string, writers: string[]) =>
  Number(
    (
      await sql<{ n: string }>(
        `select count(*) as n from public.messages
         where block_id = $1 and creator_id = any($2) and status = 'published'`,
        [blockId, writers],
      )
    )[0]!.n,
  );

describe('a storm of fresh accounts from one address', () => {
  beforeAll(async () => {
    // the loopback is the proxy in front of the gateway: each client's X-Forwarded-For is its
    // address (every other test file sends none, so its address stays the loopback)
    await sql(
      `insert into private.settings (key, value) values ('network.trusted_proxies', '["127.0.0.1/32", "::1/128"]')
       on conflict (key) do update set value = excluded.value`,
    );
  });
  afterAll(async () => {
    await sql("delete from private.settings where key = 'network.trusted_proxies'");
  });

  it('cannot lock out other visitors, and nothing of it shows unless the owner approves it', async () => {
    const { owner, block } = await commentBlock();
    const stormers = await Promise.all(Array.from({ length: 20 }, () => guestFrom('203.0.113.7')));
    const ids = stormers.map((s) => s.id);
    let stop = false;
    const running = storm(stormers, block, () => stop);
    // once the address has used its share of the block, its fresh writers' messages are held
    await eventually(
      async () =>
        Number(
          (
            await sql<{ n: string }>(
              `select count(*) as n from public.messages where block_id = $1 and status = 'held'`,
              [block],
            )
          )[0]!.n,
        ) > 0,
    );
    // (a) a fresh visitor from another address still posts, and it shows
    const visitor = await guestFrom('198.51.100.9');
    const mine = await postAsElement(visitor, block);
    expect(await storedStatus(mine)).toBe('published');
    // a visitor with history here (a message published a week ago: a track record) from the
    // storm's own address keeps writing, unchallenged, but past the address's share its message
    // is held like anyone's from there (an address can make a track record for its own
    // accounts: hostile-track-record.test)
    const regular = await guestFrom('203.0.113.7');
    await giveTrackRecord(regular, block);
    const known = await post(regular.client, block);
    expect(await storedStatus(known)).toBe('held');
    stop = true;
    const seen = await running;
    expect(seen.stored).toBeGreaterThan(0);
    expect(seen.others).toEqual([]);
    expect([...seen.statuses]).toEqual(seen.refused ? [429] : []);
    // (c) nothing of the storm is published: what came before the address used its share is
    // held with the burst
    expect(await published(block, ids)).toBe(0);
    const view = await anonClient().rpc('list_messages', { p_block_id: block, p_limit: 50 });
    expect(view.error).toBeNull();
    expect(JSON.stringify(view.data)).not.toMatch(new RegExp(ids.join('|')));
    // the owner finds them in moderation, held, and approving one publishes it
    const { data: held } = await owner.client.rpc('moderation_messages', {
      p_block_id: block,
      p_filter: 'held',
      p_limit: 100,
    });
    const heldIds = (held as Array<{ id: string; creator_id: string; held_by: string }>).filter(
      (m) => ids.includes(m.creator_id),
    );
    expect(heldIds.length).toBe(seen.stored);
    // marked as held by escalation, not by the block's hold setting (it has none)
    expect(new Set(heldIds.map((m) => m.held_by))).toEqual(new Set(['escalation']));
    const approved = await owner.client.rpc('moderate_messages', {
      p_message_ids: [heldIds[0]!.id],
      p_action: 'approve',
    });
    expect(approved.error).toBeNull();
    expect(await statusOf(heldIds[0]!.id)).toBe('published');
  });

  it("20 fresh accounts of one address count at most 10 % of a free owner's month; the rest is kept, held, until the owner approves it", async () => {
    // a free owner: 100 responses a month, so one address counts at most 10 of them a day
    const owner = await newUser('owner');
    const form = await createBlock(owner, 'form');
    const ab = await createBlock(owner, 'ab');
    // The form's own bucket (120 at once, 32 shards) would be spent by the storm's 100 submits,
    // and a fresh visitor right after would then be held as part of the burst, or not, by how
    // many seconds of refill the machine took. Widened here, so this test sees the address's
    // share alone; a spent block budget is the next test's.
    await overrideLimits(form, { submit: { block_per_minute: 1200, block_burst: 1200 } });
    const stormers = await Promise.all(Array.from({ length: 20 }, () => guestFrom('203.0.113.8')));
    const submit = (
      client: SupabaseClient,
      blockId: string,
      answers: Record<string, unknown> = {},
    ) => client.rpc('submit_response', { p_block_id: blockId, p_answers: answers, p_honeypot: '' });
    // each account submits as fast as it can until its own limit refuses it (five, then one
    // every 20 minutes): 100 submits in all, the owner's whole month before escalation
    const { answers: all, refusals } = await writeUntilRefused<{ held: boolean }, TestUser>(
      stormers,
      (v) => submit(v.client, form),
    );
    expect(refusals.map((r) => r.status)).toEqual(stormers.map(() => 429));
    expect(refusals.map((r) => r.scope)).toEqual(stormers.map(() => 'visitor'));
    expect(all).toHaveLength(100);
    // (b) the address counted its share, 10 of 100; the other 90 are kept, held
    expect(all.filter((a) => !a.held)).toHaveLength(10);
    const counts = async () =>
      (
        await sql<{ monthly: number; form: number; held: number; ab: number; option: number }>(
          `select p.response_monthly_count as monthly,
                  (select (private.with_live_counts(b)).response_count from public.blocks b where b.id = $2) as form,
                  (select count(*)::int from public.responses r where r.block_id = any($4) and r.held) as held,
                  (select (private.with_live_counts(b)).response_count from public.blocks b where b.id = $3) as ab,
                  (select coalesce(sum((x ->> 'response_count')::int), 0)::int
                   from jsonb_array_elements(private.option_counts(
                     (select array_agg(o.id) from public.options o where o.block_id = $3))) x) as option
           from public.profiles p where p.id = $1`,
          [owner.id, form, ab, [form, ab]],
        )
      )[0]!;
    expect(await counts()).toEqual({ monthly: 10, form: 10, held: 90, ab: 0, option: 0 });
    // a vote from the same address beyond its share is held too: the A/B's bars do not move
    const abQ = await abQuestion(ab);
    const late = await guestFrom('203.0.113.8');
    const vote = await submit(late.client, ab, { [abQ.id]: abQ.options[0] });
    expect(vote.error).toBeNull();
    expect(vote.data).toMatchObject({ held: true });
    const seenByAll = await anonClient().rpc('get_block_view', { p_block_id: ab });
    expect(seenByAll.error).toBeNull();
    expect(JSON.stringify(seenByAll.data)).toMatch(/"response_count":0/);
    // the voter's own part says the vote is held (the element says so after a reload too);
    // a counted vote's part has no such key
    const mine = await late.client.rpc('get_block_me', { p_block_id: ab });
    expect(mine.error).toBeNull();
    expect((mine.data as { me: unknown }).me).toMatchObject({
      vote: [abQ.options[0]],
      vote_held: true,
    });
    // (a) a fresh visitor of another address is counted as ever
    const person = await guestFrom('198.51.100.30');
    const theirs = await submit(person.client, form);
    expect(theirs.error).toBeNull();
    expect(theirs.data).toMatchObject({ held: false });
    expect(await counts()).toEqual({ monthly: 11, form: 11, held: 91, ab: 0, option: 0 });

    // the owner sees them, held, in the results, and approving counts them then
    const summary = await owner.client.rpc('block_results_summary', { p_block_id: form });
    expect(summary.data).toMatchObject({ totals: { responses: 11, held: 90 } });
    const { data: rows } = await owner.client
      .from('responses')
      .select('id, held')
      .eq('block_id', form)
      .eq('held', true)
      .limit(5);
    const five = (rows as Array<{ id: string }>).map((r) => r.id);
    // nobody else approves them, not even the writer
    const stranger = await stormers[0]!.client.rpc('approve_responses', { p_response_ids: five });
    expect(stranger.error?.code).toBe('PT403');
    const approved = await owner.client.rpc('approve_responses', { p_response_ids: five });
    expect(approved.error).toBeNull();
    expect(approved.data).toEqual({ approved: 5 });
    const voteOk = await owner.client.rpc('approve_responses', {
      p_response_ids: [(vote.data as { id: string }).id],
    });
    expect(voteOk.error).toBeNull();
    expect(await counts()).toEqual({ monthly: 17, form: 16, held: 85, ab: 1, option: 1 });
    // approving more than the month has left approves none, and says so
    await sql('select private.set_monthly_response_count($1, 98)', [owner.id]);
    const { data: more } = await owner.client
      .from('responses')
      .select('id')
      .eq('block_id', form)
      .eq('held', true)
      .limit(3);
    const over = await owner.client.rpc('approve_responses', {
      p_response_ids: (more as Array<{ id: string }>).map((r) => r.id),
    });
    expect(over.error?.details).toBe('quota');
    expect(over.error?.message).toBe(
      'Monthly response limit reached: 2 left this month, 3 to approve.',
    );
    expect((await counts()).held).toBe(85);
  });

  it("when the block's own budget is spent, a fresh visitor passes the captcha and is held; one with a track record writes on", async () => {
    // a small block bucket (an operator's override) that a crowd of many addresses empties
    const { block } = await commentBlock({
      message: { block_burst: 8, block_per_minute: 0.001, address_burst: 8 },
    });
    const crowd = await Promise.all(
      Array.from({ length: 8 }, (_, i) => guestFrom(`192.0.2.${i + 10}`)),
    );
    for (const v of crowd) expect((await post(v.client, block)).error).toBeNull();
    const fresh = await guestFrom('198.51.100.20');
    const first = await post(fresh.client, block);
    expect(first.status).toBe(429);
    expect(first.error?.details).toBe('captcha');
    expect(JSON.parse(first.error!.hint ?? '{}')).toMatchObject({ scope: 'block' });
    const solved = await postAsElement(fresh, block);
    expect(solved.error).toBeNull();
    expect(solved.challenged).toBe(true);
    expect(await statusOf((solved.data as { id: string }).id)).toBe('held');
    // a visitor whose message here was published a day ago writes on, published
    const old = await guestFrom('198.51.100.21');
    await giveTrackRecord(old, block);
    const again = await post(old.client, block);
    expect(await storedStatus(again)).toBe('published');
  });

  // Found from a clean clone in the seventh hostile review (breaker, 2026-11-26, main at e85eb7b):
  // escalation covered messages, responses and votes, and other writes of a visitor without a
  // track record were refused as before, so 20 anonymous visitors of one address toggling a like
  // block's like (about 670 writes in 8 s, each within its own bucket) kept the block's 600 a
  // minute empty, and real visitors' likes were refused (7 and 10 of 10 in two runs, 429 scope
  // block). Now every write a spent budget would refuse takes a token from its address's share of
  // the block too (limits.address_share, a quarter): the storm's address is refused past its share
  // (scope address) and the rest of the block's budget is left to everyone else.
  it("a storm of toggled likes from one address leaves the block's real visitors able to like it", async () => {
    const owner = await newUser('like-storm-owner');
    const block = await createBlock(owner, 'like');
    const storm = await Promise.all(Array.from({ length: 20 }, () => guestFrom('203.0.113.90')));
    const visitors = await Promise.all(
      Array.from({ length: 10 }, (_, i) => guestFrom(`198.51.100.${40 + i}`)),
    );
    // the storm has spent its address's share: it is refused, everyone's like block is not
    const { refused, stormRefusals, stormWrites } = await likeStorm(
      block,
      storm,
      visitors,
      'address',
    );
    expect(refused).toEqual([]);
    // the storm's writes came within its share (a quarter of the block's 600, and its refill)
    expect(stormWrites).toBeLessThan(600);
    expect(stormRefusals.every((r) => r.startsWith('429 '))).toBe(true);
  });

  // Found in the stop's second hostile review (breaker, 2026-11-26, after the like's address
  // share): each address may take a quarter of the block's budget, so four addresses took all of
  // it: 24 visitors over four addresses toggled a like block's like 612 times and 6 of 10 real
  // visitors were refused (scope block). Now the block's last quarter (8 of its 32 shards) is a
  // reserve that only an address which has used at most 1/16 of the block's burst may spend
  // (limits.reserve, limits.light_share): the storm's addresses spend the rest and are refused
  // (scope block), the real visitors, each at an address of their own, like from the reserve.
  it("four storm addresses leave the block's reserve to its real visitors", async () => {
    const owner = await newUser('like-storm4-owner');
    const block = await createBlock(owner, 'like');
    const storm = await Promise.all(
      Array.from({ length: 24 }, (_, i) => guestFrom(`203.0.113.${100 + (i % 4)}`)),
    );
    const visitors = await Promise.all(
      Array.from({ length: 10 }, (_, i) => guestFrom(`198.51.100.${60 + i}`)),
    );
    // the block's budget outside the reserve is spent: the storm is refused for the block
    const { refused, stormRefusals } = await likeStorm(block, storm, visitors, 'block');
    expect(refused).toEqual([]);
    expect(stormRefusals.every((r) => r.startsWith('429 '))).toBe(true);
    // nothing of the reserve went to the storm: what its shards are short of is at most the real
    // visitors' ten likes
    const [reserve] = await sql<{ used: number }>(
      `select coalesce(sum(r.burst - private.bucket_tokens(r.tokens, r.updated_at, r.per_minute, r.burst, clock_timestamp())), 0)::float8 as used
       from private.rate_limits r
       where r.block_id = $1 and r.action = 'like'
         and r.subject between private.block_shard(24) and private.block_shard(31)`,
      [block],
    );
    expect(reserve!.used).toBeLessThanOrEqual(10);
  });

  // The reserve's two conditions, counted on a block that does not refill (an operator's
  // override: 64 likes, no refill, an address's share the whole block): 32 shards of 2, the
  // reserve 8 of them (16 likes). An address that spent the rest is not light (it used more than
  // 1/16 of the burst, 4 likes); a fresh address is, and takes at most its reserve bucket (1/16 of
  // the reserve: one like), however light it stays. So the reserve serves 16 addresses.
  it("the reserve takes one like of each light address, none of a heavy one's", async () => {
    const owner = await newUser('like-reserve-owner');
    const block = await createBlock(owner, 'like');
    await overrideLimits(block, {
      like: {
        block_burst: 64,
        block_per_minute: 0.001,
        address_burst: 64,
        address_per_minute: 0.001,
      },
    });
    const like = async (g: TestUser, liked: boolean) => {
      const r = await g.client.rpc('toggle_block_like', { p_block_id: block, p_liked: liked });
      return r.error ? `${r.status} ${JSON.parse(r.error.hint ?? '{}').scope}` : 'ok';
    };
    // the heavy address: two visitors toggling until the block refuses them
    const heavy = await Promise.all([guestFrom('203.0.113.120'), guestFrom('203.0.113.120')]);
    let taken = 0;
    for (let i = 0; ; i++) {
      const answer = await like(heavy[i % 2]!, Math.floor(i / 2) % 2 === 0);
      if (answer !== 'ok') {
        expect(answer).toBe('429 block');
        break;
      }
      taken++;
    }
    expect(taken).toBe(48);
    // a light address: its first like from the reserve, then its reserve bucket is empty
    const light = await Promise.all(Array.from({ length: 3 }, () => guestFrom('198.51.100.120')));
    const answers: string[] = [];
    for (const g of light) answers.push(await like(g, true));
    expect(answers).toEqual(['ok', '429 block', '429 block']);
    // fifteen more addresses take one each, and then the reserve is spent
    for (let i = 0; i < 15; i++) {
      expect(await like(await guestFrom(`198.51.100.${130 + i}`), true)).toBe('ok');
    }
    expect(await like(await guestFrom('198.51.100.150'), true)).toBe('429 block');
  });

  // The eighth hostile review (hostile-reserve.test's .todo, moved here): an IPv6 address counts
  // by its /64 and one home connection is usually given a /56, so 24 visitors at 24 /64s of one
  // /56 toggling the like spent the reserve (754 writes; 5 of 10 real visitors refused, scope
  // block). Each site's take of the reserve is now counted by its /48 (private.reserve_key).
  it("the /64s of one IPv6 /56 leave the block's reserve to its real visitors", async () => {
    const owner = await newUser('like-storm56-owner');
    const block = await createBlock(owner, 'like');
    // 2001:db8:0:1000::/56: its /64s 2001:db8:0:1000::/64 .. 2001:db8:0:10ff::/64
    const storm = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        guestFrom(`2001:db8:0:10${i.toString(16).padStart(2, '0')}::1`),
      ),
    );
    const visitors = await Promise.all(
      Array.from({ length: 10 }, (_, i) => guestFrom(`198.51.100.${80 + i}`)),
    );
    const { refused } = await likeStorm(block, storm, visitors, 'block');
    expect(refused).toEqual([]);
  });

  it('a message of the address still being written when its burst is held ends held, and so do its next ones', async () => {
    // two shards of 4 in the address's share, no refill: the writer's own shard has 3 tokens
    // (its message takes one and is published, 2 left), the other shard none, so the next write
    // of the address finds its shard empty and the writer's taken: beyond the share, a hold
    const { owner, block } = await commentBlock({
      message: { address_burst: 8, address_per_minute: 0.001 },
    });
    const address = '203.0.113.60';
    const [writer, next, third, later] = await Promise.all(
      Array.from({ length: 4 }, () => guestFrom(address)),
    );
    await sql(
      `insert into private.rate_limits (block_id, subject, action, tokens, per_minute, burst, updated_at, full_at)
       select $1, private.address_shard(a, g.n), 'message',
              case when g.n = abs(mod(hashtext($2::text), 2)) then 3 else 0 end,
              0.0005, 4, now(), now() + interval '1 day'
       from private.address_key($3::inet) a, generate_series(0, 1) g(n)`,
      [block, writer!.id, address],
    );
    // the writer's message, in a transaction held open (as PostgREST runs it)
    const slow = new pg.Client({ connectionString: stack().dbUrl });
    await slow.connect();
    let second: Promise<Awaited<ReturnType<typeof post>>> | undefined;
    try {
      await slow.query('begin');
      await slow.query(
        `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true),
                set_config('request.headers', $2, true)`,
        [
          Buffer.from(writer!.accessToken.split('.')[1] ?? '', 'base64url').toString(),
          JSON.stringify({ 'x-forwarded-for': address }),
        ],
      );
      const { rows } = await slow.query<{ m: { id: string; status: string } }>(
        `select public.post_message(p_block_id => $1, p_content => 'still being written',
                                    p_creator_name => 'Slow Otter', p_honeypot => '') as m`,
        [block],
      );
      const slowId = rows[0]!.m.id;
      expect(rows[0]!.m.status).toBe('published');
      // the next write of the address holds its burst: it waits for the message being written
      // (before the fix it went on at once, and its hold missed that message)
      let settled = false;
      second = (async () => {
        try {
          return await post(next!.client, block);
        } finally {
          settled = true;
        }
      })();
      await eventually(
        async () =>
          settled ||
          Number(
            (
              await sql<{ n: string }>(
                `select count(*) as n from pg_locks
                 where locktype = 'advisory' and not granted
                   and classid = hashtext('address_holds:' || $1)::oid
                   and objid = hashtext(private.address_key($2::inet)::text)::oid`,
                [block, address],
              )
            )[0]!.n,
          ) > 0,
      );
      await slow.query('commit');
      const refused = await second;
      // refused (past the share only with a captcha), and its hold is kept all the same
      expect(refused.status).toBe(429);
      expect(refused.error?.details).toBe('captcha');
      expect(await statusOf(slowId)).toBe('held');
      const { data: held } = await owner.client.rpc('moderation_messages', {
        p_block_id: block,
        p_filter: 'held',
        p_limit: 10,
      });
      expect(
        (held as Array<{ id: string; held_by: string }>).find((m) => m.id === slowId)?.held_by,
      ).toBe('escalation');
    } finally {
      await slow.query('rollback').catch(() => {});
      await slow.end();
    }
    // a refusal that holds answers as every 429 does: the status, Retry-After and the body
    const shares = (tokens: number) =>
      sql(
        `update private.rate_limits set tokens = $3, updated_at = now()
         where block_id = $1 and subject in (select private.address_shard(private.address_key($2::inet), g.n)
                                             from generate_series(0, 1) g(n))`,
        [block, address, tokens],
      );
    await shares(0);
    const raw = await fetch(`${stack().apiUrl}/rest/v1/rpc/post_message`, {
      method: 'POST',
      headers: {
        apikey: stack().anonKey,
        authorization: `Bearer ${third!.accessToken}`,
        'content-type': 'application/json',
        'x-forwarded-for': address,
      },
      body: JSON.stringify({ p_block_id: block, p_content: 'third', p_honeypot: '' }),
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await raw.json()) as { code: string; details: string; hint: string };
    expect(body).toMatchObject({ code: 'PT429', details: 'captcha' });
    expect(JSON.parse(body.hint)).toMatchObject({ action: 'message', scope: 'address' });
    // the share has tokens again (an operator's refill here, time on a real block): the
    // address's fresh writers are still held while its hold is recent
    await shares(4);
    const after = await post(later!.client, block);
    expect(await storedStatus(after)).toBe('held');
  });

  it('behind an edge that sets one header to the address it saw, that header alone is the address', async () => {
    const db = new pg.Client({ connectionString: stack().dbUrl });
    await db.connect();
    try {
      await db.query('begin');
      const addressOf = async (headers: Record<string, string>) => {
        await db.query("select set_config('request.headers', $1, true)", [JSON.stringify(headers)]);
        return (await db.query<{ a: string | null }>('select host(private.client_address()) as a'))
          .rows[0]!.a;
      };
      const claimed = { 'x-forwarded-for': '192.0.2.1, 127.0.0.1' };
      // the chain rule (the loopback is trusted in this file): the client's own claim
      expect(await addressOf(claimed)).toBe('192.0.2.1');
      await db.query(
        `insert into private.settings (key, value)
         values ('network.client_address_header', '"X-Envoy-External-Address"')`,
      );
      // named: the edge's header, whatever the chain says; missing or not an address: none
      expect(await addressOf({ ...claimed, 'x-envoy-external-address': '198.51.100.77' })).toBe(
        '198.51.100.77',
      );
      expect(await addressOf(claimed)).toBeNull();
      expect(await addressOf({ ...claimed, 'x-envoy-external-address': 'evil' })).toBeNull();
    } finally {
      // the setting never leaves this transaction: other tests run on the same stack
      await db.query('rollback').catch(() => {});
      await db.end();
    }
  });

  // break9 Q1 (2026-11-30, main at 69c8659; both bodies failed there): an address's share was
  // 10 % of the month a day, so fresh accounts of 10 addresses counted a free owner's whole month
  // in 4 s, and every visitor of the owner's forms was refused 429 quota until the month turned.
  // Main: 99 of the storm counted, the regular below refused; and 20 of one /48 (ten /64s) 100.
  it("fresh accounts of ten addresses count a quarter of a free owner's month; a regular counts on", async () => {
    const { owner, submit } = await wideForm(await newUser('ten-addresses-owner'));
    // a regular: a response counted a day ago, from an address of its own
    const regular = await guestFrom('198.51.100.200');
    expect((await submit(regular)).data).toMatchObject({ held: false });
    await sql(
      "update public.responses set created_at = now() - interval '25 hours' where creator_id = $1",
      [regular.id],
    );
    const stormers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => guestFrom(`198.51.100.${1 + (i % 10)}`)),
    );
    // each submits until its own limit refuses it (five): 100 in all, none refused for the month
    const { answers, refusals } = await writeUntilRefused<{ held: boolean }, TestUser>(
      stormers,
      submit,
    );
    expect(refusals.map((r) => r.scope)).toEqual(stormers.map(() => 'visitor'));
    expect(answers).toHaveLength(100);
    // the fresh visitors' 25 of the month, the regular's one of them
    expect(answers.filter((a) => !a.held)).toHaveLength(24);
    // the regular counts on; a fresh visitor of another address is kept, held, not refused
    expect((await submit(regular)).data).toMatchObject({ held: false });
    const late = await submit(await guestFrom('198.51.100.201'));
    expect(late.error).toBeNull();
    expect(late.data).toMatchObject({ held: true });
    const [profile] = await sql<{ monthly: number }>(
      'select p.response_monthly_count as monthly from public.profiles p where p.id = $1',
      [owner.id],
    );
    expect(profile!.monthly).toBe(26);
  });

  it("one /48's fresh accounts count one address's share, whichever /64s they use", async () => {
    const { submit } = await wideForm(await newUser('one-site-owner'));
    const stormers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => guestFrom(`2001:db8:7:${i % 10}::1`)),
    );
    const { answers } = await writeUntilRefused<{ held: boolean }, TestUser>(stormers, submit);
    expect(answers).toHaveLength(100);
    expect(answers.filter((a) => !a.held)).toHaveLength(10);
  });

  it("a client's own X-Forwarded-For does not make it another address", async () => {
    await sql("delete from private.settings where key = 'network.trusted_proxies'");
    try {
      const { block } = await commentBlock({ message: { address_burst: 2 } });
      // each account claims an address of its own; the gateway appends the one it saw
      const spoofers = await Promise.all(
        Array.from({ length: 4 }, (_, i) => guestFrom(`192.0.2.${100 + i}`)),
      );
      const results = [];
      for (const s of spoofers) results.push(await post(s.client, block));
      expect(results.slice(0, 2).map((r) => r.error)).toEqual([null, null]);
      expect(results.slice(2).map((r) => r.error?.details)).toEqual(['captcha', 'captcha']);
      expect(
        await published(
          block,
          spoofers.map((s) => s.id),
        ),
      ).toBe(0);
    } finally {
      await sql(
        `insert into private.settings (key, value) values ('network.trusted_proxies', '["127.0.0.1/32", "::1/128"]')
         on conflict (key) do update set value = excluded.value`,
      );
    }
  });
});
