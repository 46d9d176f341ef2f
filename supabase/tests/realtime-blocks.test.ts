// The block topics on the local Realtime server: private channels authorised by the
// realtime.messages policies, broadcasts from the database (realtime.send in the messages
// trigger) through supabase-js (the stack in support/realtime.ts; the server's own protocol is
// tested in realtime.test.ts and realtime-channels.test.ts).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import {
  client,
  baseUrl,
  anonKey,
  REPLY_TIMEOUT,
  clients,
  db,
  userToken,
  subscribed,
  refused,
  logs,
} from './support/realtime.ts';

// ---- block topics: hints on the public topic, the owner's private topic ------------------------

type Broadcast = { event: string; payload: Record<string, unknown> };

/**
 * A supabase-js client whose Realtime uses `token` (a user JWT) or the anon key. Through the
 * accessToken option (as a third-party-auth app would): supabase-js' own auth would otherwise
 * set Realtime back to the anon key when it reports its (empty) initial session.
 */
async function supabaseAs(token?: string) {
  const supabase = createClient(baseUrl, anonKey, {
    accessToken: async () => token ?? anonKey,
    realtime: { timeout: REPLY_TIMEOUT },
  });
  clients.push(supabase.realtime);
  await supabase.realtime.setAuth(); // asks accessToken now, before the first join
  return supabase;
}

/** Joins a topic (public unless asked) with supabase-js and collects its broadcasts. */
function watch(
  supabase: Awaited<ReturnType<typeof supabaseAs>>,
  topic: string,
  opts: { private?: boolean } = {},
) {
  const got: Broadcast[] = [];
  const channel = supabase
    .channel(topic, { config: { private: opts.private === true } })
    .on('broadcast', { event: '*' }, (m) =>
      got.push({ event: m.event, payload: m.payload as Record<string, unknown> }),
    );
  const until = (test: (b: Broadcast) => boolean) => expect.poll(() => got.some(test)).toBe(true);
  return { channel, got, until };
}

async function newAuthUser(label: string): Promise<string> {
  const id = randomUUID();
  await db.query(
    "insert into auth.users (id, aud, role, email, is_anonymous, raw_app_meta_data) values ($1, 'authenticated', 'authenticated', $2, false, '{\"owner\": true}')",
    [id, `${label}-${id.slice(0, 8)}@example.com`],
  );
  return id;
}

/** Runs a statement as PostgREST would for a signed-in user (or anonymously): role and claims for one transaction. */
async function asUser<T>(uid: string | null, text: string, params: unknown[] = []): Promise<T> {
  const c = await db.connect();
  try {
    await c.query('begin');
    await c.query("select set_config('request.jwt.claims', $1, true)", [
      JSON.stringify(uid ? { sub: uid, role: 'authenticated' } : { role: 'anon' }),
    ]);
    await c.query(uid ? 'set local role authenticated' : 'set local role anon');
    const r = await c.query<{ r: T }>(text, params);
    await c.query('commit');
    return r.rows[0]!.r;
  } catch (err) {
    await c.query('rollback').catch(() => {});
    throw err;
  } finally {
    c.release();
  }
}

async function commentBlock(
  owner: string,
  settings: { hold?: boolean; deactivated?: boolean } = {},
) {
  await db.query('update public.profiles set block_limit = 100 where id = $1', [owner]);
  const block = (
    await db.query<{ id: string }>(
      "insert into public.blocks (owner_id, type, name) values ($1, 'comment', 'live') returning id",
      [owner],
    )
  ).rows[0]!.id;
  await db.query(
    'update public.blocks set hold_messages = $2, allow_creator_email = true, deactivated = $3 where id = $1',
    [block, settings.hold ? 'all' : 'off', settings.deactivated === true],
  );
  return block;
}

const post = (
  uid: string,
  block: string,
  content: string,
  extra: { parent?: string; email?: string } = {},
) =>
  asUser<{ id: string; status: string }>(
    uid,
    `select public.post_message(p_block_id => $1, p_parent_id => $2, p_content => $3,
       p_creator_name => 'Visitor', p_creator_email => $4) as r`,
    [block, extra.parent ?? null, content, extra.email ?? null],
  );

/** What an anonymous viewer reads for a hint (get_block_change); null when it names nothing. */
const readChange = (block: string, id: unknown) =>
  asUser<{ event: string; payload: Record<string, unknown> } | null>(
    null,
    'select public.get_block_change($1, $2) as r',
    [block, id],
  );

/** Every change the hints of a watch named, read as an anonymous viewer would, in order. */
async function changesOf(block: string, w: { got: Broadcast[] }) {
  const out: Array<{ event: string; payload: Record<string, unknown> }> = [];
  for (const b of w.got) {
    if (b.event !== 'hint') continue;
    const c = await readChange(block, b.payload.id);
    if (c) out.push(c);
  }
  return out;
}

const rowId = (c: { payload: Record<string, unknown> }) =>
  (c.payload.row as { id?: string } | undefined)?.id;

describe('block topics (hints on the public topic, the owner topic private)', () => {
  it('lets anyone join a block topic; the private topics are the owner topic only', async () => {
    const owner = await newAuthUser('owner');
    const stranger = await newAuthUser('stranger');
    const block = await commentBlock(owner);
    const as = async (uid: string | null) => supabaseAs(uid ? await userToken(uid) : undefined);

    // the public topic: anonymous and signed-in viewers alike (no policy is asked for it)
    await subscribed(watch(await as(null), `block:${block}`).channel);
    await subscribed(watch(await as(stranger), `block:${block}`).channel);

    // no private block topic for anyone, the owner included; the owner topic is the owner's
    for (const uid of [stranger, owner, null])
      expect(
        await refused(watch(await as(uid), `block:${block}`, { private: true }).channel),
      ).toMatch(/CHANNEL_ERROR.*permissions to read from this Channel topic/);
    for (const uid of [stranger, null])
      expect(
        await refused(watch(await as(uid), `block:${block}:owner`, { private: true }).channel),
      ).toMatch(/CHANNEL_ERROR/);
    await subscribed(watch(await as(owner), `block:${block}:owner`, { private: true }).channel);
  });

  it('announces a new comment to each viewer once, by a hint that carries no content', async () => {
    const owner = await newAuthUser('owner');
    const writer = await newAuthUser('writer');
    const block = await commentBlock(owner);
    const viewers = await Promise.all(
      [0, 1, 2].map(async (i) =>
        i === 2 ? supabaseAs() : supabaseAs(await userToken(await newAuthUser(`viewer${i}`))),
      ),
    );
    const watches = viewers.map((v) => watch(v, `block:${block}`));
    await Promise.all(watches.map((w) => subscribed(w.channel)));

    const email = `secret-${randomUUID().slice(0, 8)}@example.com`;
    const m = await post(writer, block, 'hello viewers', { email });
    const later = await post(writer, block, 'second');
    for (const w of watches) {
      await expect.poll(() => w.got.length).toBe(2);
      // a hint is the change's id and nothing else
      for (const b of w.got)
        expect(b).toEqual({ event: 'hint', payload: { id: expect.any(String) } });
      expect(JSON.stringify(w.got)).not.toContain('hello viewers');
    }
    // the hints arrive in commit order, the same for every viewer
    expect(new Set(watches.map((w) => JSON.stringify(w.got))).size).toBe(1);
    const changes = await changesOf(block, watches[0]!);
    expect(changes.map(rowId)).toEqual([m.id, later.id]);
    expect(changes[0]).toMatchObject({
      event: 'change',
      payload: {
        type: 'INSERT',
        row: { id: m.id, block_id: block, content: 'hello viewers', status: 'published' },
      },
    });
    expect(JSON.stringify(changes)).not.toContain(email);
    expect(JSON.stringify(changes)).not.toMatch(/@example\.com/);
    const stored = await db.query('select 1 from public.message_private where creator_email = $1', [
      email,
    ]);
    expect(stored.rowCount).toBe(1); // the email was kept, just never sent
  });

  it("announces a page's messages on the page's topic only, replies included, and every page to the owner", async () => {
    const owner = await newAuthUser('owner');
    const writer = await newAuthUser('writer');
    const block = await commentBlock(owner);
    const visitor = await supabaseAs();
    const pageA = watch(visitor, `block:${block}:page:cafe24:product:1`);
    const pageB = watch(visitor, `block:${block}:page:cafe24:product:2`);
    const own = watch(visitor, `block:${block}`);
    const ownerTopic = watch(await supabaseAs(await userToken(owner)), `block:${block}:owner`, {
      private: true,
    });
    await Promise.all([pageA, pageB, own, ownerTopic].map((w) => subscribed(w.channel)));

    const onA = await asUser<{ id: string }>(
      writer,
      `select public.post_message(p_block_id => $1, p_content => 'on A', p_page_key => 'cafe24:product:1') as r`,
      [block],
    );
    // the caller's page of a reply does not matter: it is the parent's
    const reply = await asUser<{ id: string }>(
      writer,
      `select public.post_message(p_block_id => $1, p_parent_id => $2, p_content => 'reply on A',
         p_page_key => 'cafe24:product:2') as r`,
      [block, onA.id],
    );
    const later = await post(writer, block, 'own thread');
    await expect.poll(() => own.got.length).toBe(1);
    // the reply moved the parent's count: on page A's topic too (three hints: the message, the
    // parent's count and the reply)
    await expect.poll(() => pageA.got.length).toBe(3);
    const onPageA = await changesOf(block, pageA);
    expect(onPageA.filter((c) => c.event === 'change').map(rowId)).toEqual([onA.id, reply.id]);
    expect(onPageA.filter((c) => c.event === 'counts').map((c) => c.payload)).toEqual([
      { id: onA.id, replies: 1, reply_count: 1 },
    ]);
    expect((await changesOf(block, own)).map(rowId)).toEqual([later.id]);
    await ownerTopic.until((b) => b.payload.id === reply.id);
    expect(pageB.got).toEqual([]);
  });

  it('never announces a held comment; its approval reads as an UPDATE; hiding as a REMOVE', async () => {
    const owner = await newAuthUser('owner');
    const writer = await newAuthUser('writer');
    const block = await commentBlock(owner, { hold: true });
    const visitor = watch(await supabaseAs(), `block:${block}`);
    const mod = watch(await supabaseAs(await userToken(owner)), `block:${block}:owner`, {
      private: true,
    });
    await Promise.all([subscribed(visitor.channel), subscribed(mod.channel)]);

    const held = await post(writer, block, 'held text');
    expect(held.status).toBe('held');
    // the owner's moderation topic hears of it (the id only)
    await mod.until((b) => b.payload.id === held.id && b.payload.type === 'INSERT');
    expect(JSON.stringify(mod.got)).not.toContain('held text');
    // a published comment of the same block after it: the held one was never announced
    await db.query("update public.blocks set hold_messages = 'off' where id = $1", [block]);
    const open = await post(writer, block, 'open text');
    await expect.poll(async () => (await changesOf(block, visitor)).map(rowId)).toEqual([open.id]);

    // approved: visitors read it now, as an UPDATE of a published message
    await asUser(owner, "select public.moderate_messages($1, 'approve') as r", [[held.id]]);
    // hidden: it leaves the visitors' lists (REMOVE: the block's count does not move)
    await asUser(owner, "select public.moderate_messages($1, 'hide') as r", [[held.id]]);
    await expect.poll(() => visitor.got.length).toBe(3);
    const [, approved, removed] = await changesOf(block, visitor);
    expect(approved!.payload).toMatchObject({
      type: 'UPDATE',
      row: { id: held.id, status: 'published', content: 'held text' },
    });
    expect(removed!.payload).toEqual({ type: 'REMOVE', row: { id: held.id, parent_id: null } });
  });

  it('announces like and reply counts as deltas, not rows', async () => {
    const owner = await newAuthUser('owner');
    const writer = await newAuthUser('writer');
    const liker = await newAuthUser('liker');
    const block = await commentBlock(owner);
    const viewer = watch(await supabaseAs(), `block:${block}`);
    await subscribed(viewer.channel);
    const m = await post(writer, block, 'like me');
    await asUser(liker, 'select public.toggle_message_like($1) as r', [m.id]);
    await asUser(liker, 'select public.toggle_message_like($1) as r', [m.id]);
    const reply = await post(liker, block, 'a reply', { parent: m.id });
    // the insert, a like, an unlike, the reply's count and the reply itself
    await expect.poll(() => viewer.got.length).toBe(5);
    const changes = await changesOf(block, viewer);
    expect(changes.filter((c) => c.event === 'counts').map((c) => c.payload)).toEqual([
      { id: m.id, likes: 1, like_count: 1 },
      { id: m.id, likes: -1, like_count: 0 },
      { id: m.id, replies: 1, reply_count: 1 },
    ]);
    // no whole-row UPDATE of the parent for a count: its INSERT and the reply's only
    expect(changes.filter((c) => c.event === 'change').map(rowId)).toEqual([m.id, reply.id]);
  });

  it('reads nothing for a forged hint, another block’s change, an old one or a deactivated block', async () => {
    const owner = await newAuthUser('owner');
    const writer = await newAuthUser('writer');
    const [block, other] = [await commentBlock(owner), await commentBlock(owner)];
    const viewer = watch(await supabaseAs(), `block:${block}`);
    await subscribed(viewer.channel);
    // anyone may send on a public topic: the hint names no change, so nothing is read
    const forger = watch(await supabaseAs(), `block:${block}`);
    await subscribed(forger.channel);
    await forger.channel.send({ type: 'broadcast', event: 'hint', payload: { id: randomUUID() } });
    await forger.channel.send({
      type: 'broadcast',
      event: 'change',
      payload: { type: 'INSERT', row: { id: randomUUID(), content: 'forged' } },
    });
    await expect.poll(() => viewer.got.length).toBe(2);
    expect(await changesOf(block, viewer)).toEqual([]);
    expect(await readChange(block, 'not-a-uuid').catch((e: Error) => e.message)).toMatch(/uuid/);

    // a real change of another block, named on this block's topic, reads as nothing here
    await post(writer, other, 'elsewhere');
    const [{ id: otherChange }] = (
      await db.query<{ id: string }>('select id from private.block_changes where block_id = $1', [
        other,
      ])
    ).rows as [{ id: string }];
    expect(await readChange(block, otherChange)).toBeNull();
    expect(await readChange(other, otherChange)).not.toBeNull();

    // a minute later it reads as nothing (a replayed hint), and so for a deactivated block
    const m = await post(writer, block, 'mine');
    const [{ id: change }] = (
      await db.query<{ id: string }>(
        "select id from private.block_changes where block_id = $1 and payload #>> '{row,id}' = $2",
        [block, m.id],
      )
    ).rows as [{ id: string }];
    expect(await readChange(block, change)).not.toBeNull();
    await db.query('update public.blocks set deactivated = true where id = $1', [block]);
    expect(await readChange(block, change)).toBeNull();
    await db.query('update public.blocks set deactivated = false where id = $1', [block]);
    await db.query(
      "update private.block_changes set created_at = now() - interval '61 seconds' where id = $1",
      [change],
    );
    expect(await readChange(block, change)).toBeNull();
    // client roles cannot read the table itself
    expect(
      await asUser(writer, 'select count(*) as r from private.block_changes').catch(
        (e: Error) => e.message,
      ),
    ).toMatch(/permission denied/);
  });

  it('asks the policies again when a token changes', async () => {
    const owner = await newAuthUser('owner');
    const stranger = await newAuthUser('stranger');
    const block = await commentBlock(owner, { deactivated: true });
    const c = await client(await userToken(owner));
    const ch = c.channel(`block:${block}:owner`, { config: { private: true } });
    await subscribed(ch);
    await c.setAuth(await userToken(stranger));
    await expect.poll(() => ch.state).toBe('closed');
    expect(logs.join('\n')).not.toMatch(/check on .* failed/);
  });
});
