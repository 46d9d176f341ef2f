// Connecting Notion and taking it away, through the providers server's fake with the edge
// functions and the jobs worker as they run: connect (notion-authorize, the local authorise page,
// set-notion-token), search, 401 (not granted, parked, released on reconnect), remove, and links
// saved to what the current connection does not have (support/notion.ts).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { INTEGRATION_MESSAGES } from '@reaction-blocks/contracts/schemas';
import {
  backendPid,
  callFunction,
  callWaitsOnLock,
  newGuest,
  newUser,
  paidOwner,
  sql,
  stack,
  type TestUser,
} from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import { runWorker } from './support/worker.ts';
import { eventually, notionControl, notionWorkspace } from './support/providers.ts';
import {
  REDIRECT,
  authorized,
  connect,
  link,
  notionJobs,
  rowsIn,
  search,
  setNotionToken,
} from './support/notion.ts';

describe('connecting Notion', () => {
  it('connects through the authorise page; the token stays in the private schema', async () => {
    const owner = await paidOwner('notion-connect');
    await connect(owner);
    const { data } = await owner.client.from('integrations').select('*');
    expect(data).toHaveLength(1);
    expect(data![0]).toMatchObject({
      provider: 'notion',
      status: 'granted',
      workspace_name: `WS ${owner.email}`,
    });
    expect(JSON.stringify(data)).not.toMatch(/ntn_/);
    // no client role reaches the token
    const rpc = await owner.client.rpc('notion_connection', { p_user_id: owner.id });
    expect(rpc.error?.message).toMatch(/permission denied/);
    const direct = await owner.client
      .schema('private' as never)
      .from('integration_tokens')
      .select('*');
    expect(direct.data ?? []).toEqual([]);
  });

  it('refuses a state of another user, a used code, a foreign redirect and free owners', async () => {
    const owner = await paidOwner('notion-state');
    const other = await paidOwner('notion-other');
    const back = await authorized(other);
    // the victim's session with the attacker's code and state
    const stolen = await setNotionToken(owner, back.code, back.state);
    expect([stolen.status, stolen.json.error?.code]).toEqual([400, 'invalid_state']);
    const forged = await setNotionToken(other, back.code, `${back.state}x`);
    expect(forged.status).toBe(400);
    const ok = await setNotionToken(other, back.code, back.state);
    expect(ok.status).toBe(200);
    const reused = await setNotionToken(other, back.code, back.state);
    // the state is spent: the same state cannot carry a code twice
    expect([reused.status, reused.json.error?.code]).toEqual([400, 'invalid_state']);

    const foreign = await callFunction(
      'notion-authorize',
      { redirectUrl: 'https://evil.example/oauth/notion' },
      owner.accessToken,
    );
    expect(foreign.status).toBe(400);
    const free = await newUser('notion-free');
    const refused = await callFunction(
      'notion-authorize',
      { redirectUrl: REDIRECT },
      free.accessToken,
    );
    expect([refused.status, refused.json.error?.message]).toEqual([403, 'Paid plan required']);
    const guest = await newGuest();
    expect(
      (await callFunction('notion-authorize', { redirectUrl: REDIRECT }, guest.accessToken)).status,
    ).toBe(403);
  });
});

describe('401 and remove', () => {
  it('401 marks the integration not granted and parks the writes; connecting again writes them', async () => {
    const owner = await paidOwner('notion-401');
    const ws = await connect(owner);
    const dsId = (await notionWorkspace(ws)).dataSources.find((d) => d.title === 'Responses')!.id;
    const block = await createBlock(owner, 'button');
    await link(owner, block, { notion_database: dsId });
    // the owner removes the integration in Notion's settings
    await notionControl('/revoke', { workspace_id: ws });
    const guest = await newGuest();
    await guest.client.rpc('record_button_click', { p_block_id: block, p_creator_name: 'G' });
    await runWorker();
    const integration = await eventually(async () => {
      const { data } = await owner.client.from('integrations').select('status, status_reason');
      return data?.[0]?.status === 'not_granted' ? data[0] : undefined;
    });
    expect(integration.status_reason).toMatch(/invalid/i);
    const { data: shown } = await owner.client.from('integration_notes').select('code, block_id');
    expect(shown).toEqual([{ code: 'unauthorized', block_id: null }]);
    const [parked] = await notionJobs(block);
    expect(parked!.status).toBe('queued');
    expect(parked!.run_at.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
    // search says so too
    const searched = await search(owner, 'database');
    expect([searched.status, searched.json.error?.code]).toEqual([409, 'not_granted']);

    // connect the same workspace again: granted, the note gone, the parked write done
    await connect(owner, ws);
    await runWorker();
    await eventually(async () => (await notionJobs(block))[0]!.status === 'done');
    expect((await owner.client.from('integrations').select('status')).data).toEqual([
      { status: 'granted' },
    ]);
    expect((await owner.client.from('integration_notes').select('code')).data).toEqual([]);
    expect(rowsIn(await notionWorkspace(ws), dsId)).toHaveLength(1);
  });

  it('remove revokes the token, unlinks every block, clears the token and settles queued writes', async () => {
    const owner = await paidOwner('notion-remove');
    const ws = await connect(owner);
    const state = await notionWorkspace(ws);
    const dsId = state.dataSources.find((d) => d.title === 'Responses')!.id;
    const pageId = state.pages.find((p) => p.title === 'Likes')!.id;
    const button = await createBlock(owner, 'button');
    const like = await createBlock(owner, 'like');
    await link(owner, button, { notion_database: dsId });
    await link(owner, like, { notion_page: pageId });
    // a write still queued (Notion down, the write waiting for its retry). The kick after the
    // write or the schedule's worker may be trying it right now: once it is back in the queue it
    // is put an hour ahead, so no worker takes it before the removal
    await notionControl('/failure', { workspace_id: ws, mode: 'outage' });
    const guest = await newGuest();
    await guest.client.rpc('record_button_click', { p_block_id: button, p_creator_name: 'G' });
    await eventually(
      async () =>
        (
          await sql(
            `update private.jobs set run_at = now() + interval '1 hour'
             where kind = 'notion' and status = 'queued' and payload ->> 'block_id' = $1
             returning id`,
            [button],
          )
        ).length === 1,
    );

    const removed = await callFunction('remove-integration', { mode: 'notion' }, owner.accessToken);
    // Notion is down: the token could not be revoked there, the rest is done anyway
    expect(removed.json.data).toEqual({ status: true, revoked: false, unlinked: 2 });
    await notionControl('/failure', { workspace_id: ws, mode: null });
    expect((await owner.client.from('integrations').select('*')).data).toEqual([]);
    expect(
      await sql(
        'select 1 from private.integration_tokens t join public.integrations i on i.id = t.integration_id where i.user_id = $1',
        [owner.id],
      ),
    ).toEqual([]);
    const privates = await sql<{ db: string | null; page: string | null }>(
      'select notion_database as db, notion_page as page from public.block_private where block_id = any($1)',
      [[button, like]],
    );
    expect(privates).toEqual([
      { db: null, page: null },
      { db: null, page: null },
    ]);
    expect((await notionJobs(button)).map((j) => [j.status, j.result])).toEqual([
      ['done', { skipped: 'Notion was disconnected' }],
    ]);
    // later responses are not queued
    await guest.client.rpc('record_button_click', { p_block_id: button, p_creator_name: 'G' });
    expect(await notionJobs(button)).toHaveLength(1);

    // connected and removed again while Notion answers: the token is revoked at Notion
    const ws2 = await connect(owner);
    const again = await callFunction('remove-integration', { mode: 'notion' }, owner.accessToken);
    expect(again.json.data).toMatchObject({ status: true, revoked: true });
    expect((await notionWorkspace(ws2)).tokens.every((t) => t.revoked)).toBe(true);
  });

  // the links of a block to Notion: what they are, how a save asks for them, and the owner they
  // are saved for (the two describe blocks below)
  const NOT_CONNECTED = INTEGRATION_MESSAGES.notionGone;
  const linkOf = async (blockId: string) =>
    (
      await sql<{ db: string | null; page: string | null }>(
        'select notion_database as db, notion_page as page from public.block_private where block_id = $1',
        [blockId],
      )
    )[0]!;
  const save = (owner: TestUser, blockId: string, privateSettings: Record<string, unknown>) =>
    callFunction('save-block', { blockId, privateSettings }, owner.accessToken);
  /** The ids of a fake workspace's Responses data source and Likes page. */
  const ids = async (ws: string) => {
    const state = await notionWorkspace(ws);
    return {
      ds: state.dataSources.find((d) => d.title === 'Responses')!.id,
      page: state.pages.find((p) => p.title === 'Likes')!.id,
    };
  };
  /** A paid owner with a button block and Notion connected, its data sources listed: the workspace and its `ids` (a). */
  async function listedButton(label: string) {
    const owner = await paidOwner(label);
    const button = await createBlock(owner, 'button');
    const ws = await connect(owner);
    expect((await search(owner, 'database')).status).toBe(200);
    return { owner, button, ws, a: await ids(ws) };
  }

  describe('a link saved while Notion is removed (a workspace still open in another tab)', () => {
    it('after the removal: refused with a message, nothing linked; other settings still save', async () => {
      const { owner, a, button } = await listedButton('notion-gone');
      expect(
        (await callFunction('remove-integration', { mode: 'notion' }, owner.accessToken)).status,
      ).toBe(200);
      const refused = await save(owner, button, { notion_database: a.ds });
      expect([refused.status, refused.json.error?.message]).toEqual([400, NOT_CONNECTED]);
      expect((await linkOf(button)).db).toBeNull();
      // unlinking, and the title column, need no connection
      const unlink = await save(owner, button, {
        notion_database: null,
        notion_database_title: 'content',
      });
      expect(unlink.status, JSON.stringify(unlink.json)).toBe(200);
    });

    /** A session that ran `statement` in a transaction it has not committed yet. */
    async function uncommitted(statement: string, params: unknown[]) {
      const client = new pg.Client({ connectionString: stack().dbUrl });
      await client.connect();
      await client.query('begin');
      await client.query(statement, params);
      const pid = await backendPid(client);
      return {
        /** Resolves once a call of `fn` waits for this transaction's locks. */
        blocks: (fn: string) => callWaitsOnLock(fn, 10_000, pid),
        commit: () => client.query('commit').finally(() => client.end()),
      };
    }

    it('during the removal: the save waits for it, then is refused', async () => {
      const { owner, a, button } = await listedButton('notion-gone-during');
      const removal = await uncommitted('select public.remove_notion_connection($1)', [owner.id]);
      const saving = save(owner, button, { notion_database: a.ds });
      await removal.blocks('save_block');
      await removal.commit();
      const refused = await saving;
      expect([refused.status, refused.json.error?.message]).toEqual([400, NOT_CONNECTED]);
      expect((await linkOf(button)).db).toBeNull();
    });

    it('a save under way when the removal starts: the removal waits for it and unlinks it too', async () => {
      const { owner, a, button } = await listedButton('notion-gone-after');
      const save = await uncommitted('select public.save_block($1, $2, $3)', [
        owner.id,
        button,
        { privateSettings: { notion_database: a.ds } },
      ]);
      const removing = callFunction('remove-integration', { mode: 'notion' }, owner.accessToken);
      await save.blocks('remove_notion_connection');
      await save.commit();
      expect((await removing).json.data).toMatchObject({ status: true, unlinked: 1 });
      expect((await linkOf(button)).db).toBeNull();
    });
  });

  describe('a link to what the current connection did not list (rev N1)', () => {
    const NOT_LISTED = INTEGRATION_MESSAGES.notionNotListed;

    /** A paid owner with a button and a like, connected, who listed data sources and pages. */
    const listedBoth = async (name: string) => {
      const { owner, button, a } = await listedButton(name);
      const like = await createBlock(owner, 'like');
      expect((await search(owner, 'page')).status).toBe(200);
      return { owner, button, like, a };
    };
    /** The same, the button linked to the data source "Responses", the like to the page "Likes". */
    const linkedBoth = async (name: string) => {
      const { owner, button, like, a } = await listedBoth(name);
      expect((await save(owner, button, { notion_database: a.ds })).status).toBe(200);
      expect((await save(owner, like, { notion_page: a.page })).status).toBe(200);
      return { owner, button, like, a };
    };

    it('workspace A listed in one tab, A removed and B connected in another: A’s database is refused', async () => {
      // the first tab lists A's data sources
      const { owner, button, a } = await listedButton('notion-swap');
      // the second tab removes A and connects a new workspace B
      expect(
        (await callFunction('remove-integration', { mode: 'notion' }, owner.accessToken)).status,
      ).toBe(200);
      const b = await ids(await connect(owner));
      expect(b.ds).not.toBe(a.ds);
      // the first tab saves A's data source: refused, nothing linked
      const refused = await save(owner, button, { notion_database: a.ds });
      expect([refused.status, refused.json.error?.message]).toEqual([400, NOT_LISTED]);
      expect(await linkOf(button)).toEqual({ db: null, page: null });
      // B's data source before B was listed: refused too; once listed, linked
      const unlisted = await save(owner, button, { notion_database: b.ds });
      expect([unlisted.status, unlisted.json.error?.message]).toEqual([400, NOT_LISTED]);
      expect((await search(owner, 'database')).status).toBe(200);
      const linked = await save(owner, button, { notion_database: b.ds });
      expect(linked.status, JSON.stringify(linked.json)).toBe(200);
      expect((await linkOf(button)).db).toBe(b.ds);
      // saving the block again with its link unchanged needs no listing
      expect((await save(owner, button, { notion_database: b.ds })).status).toBe(200);
    });

    it('connecting another workspace over A (no removal) forgets what A listed; A again lists again', async () => {
      const { owner, button, ws: wsA, a } = await listedButton('notion-over');
      await connect(owner);
      const refused = await save(owner, button, { notion_database: a.ds });
      expect([refused.status, refused.json.error?.message]).toEqual([400, NOT_LISTED]);
      // back to A: its listing was forgotten with the switch, so A is listed again first
      await connect(owner, wsA);
      expect((await save(owner, button, { notion_database: a.ds })).json.error?.message).toBe(
        NOT_LISTED,
      );
      expect((await search(owner, 'database')).status).toBe(200);
      expect((await save(owner, button, { notion_database: a.ds })).status).toBe(200);
    });

    it('connecting the same workspace again (a new token, maybe fewer pages) forgets the listing', async () => {
      const { owner, button, ws, a } = await listedButton('notion-again');
      await connect(owner, ws);
      const refused = await save(owner, button, { notion_database: a.ds });
      expect([refused.status, refused.json.error?.message]).toEqual([400, NOT_LISTED]);
      expect(await linkOf(button)).toEqual({ db: null, page: null });
      expect((await search(owner, 'database')).status).toBe(200);
      expect((await save(owner, button, { notion_database: a.ds })).status).toBe(200);
    });

    it('a duplicate keeps its Notion link only where a save would take it, else is unlinked', async () => {
      const { owner, button, like, a } = await linkedBoth('notion-copy');
      const copy = async (blockId: string) => {
        const { data, error } = await owner.client.rpc('duplicate_block', { p_block_id: blockId });
        expect(error).toBeNull();
        return (data as { id: string }).id;
      };
      // the current connection listed both: the copies keep the links
      expect(await linkOf(await copy(button))).toEqual({ db: a.ds, page: null });
      expect(await linkOf(await copy(like))).toEqual({ db: null, page: a.page });
      // a plan that lapsed: a free owner's save is refused, so the copy is unlinked
      await sql('update public.profiles set paid = false where id = $1', [owner.id]);
      expect(await linkOf(await copy(button))).toEqual({ db: null, page: null });
      await sql('update public.profiles set paid = true where id = $1', [owner.id]);
      // another workspace connected over A: A's targets are no longer listed, the copies are unlinked
      await connect(owner);
      expect(await linkOf(await copy(button))).toEqual({ db: null, page: null });
      expect(await linkOf(await copy(like))).toEqual({ db: null, page: null });
      // the originals keep their links (the worker finds out, as before)
      expect((await linkOf(button)).db).toBe(a.ds);
    });

    it('a page is no data source and a data source no page; an id is matched without dashes or case', async () => {
      const { owner, button, like, a } = await listedBoth('notion-kind');
      const pageAsDb = await save(owner, button, { notion_database: a.page });
      expect([pageAsDb.status, pageAsDb.json.error?.message]).toEqual([400, NOT_LISTED]);
      const dbAsPage = await save(owner, like, { notion_page: a.ds });
      expect([dbAsPage.status, dbAsPage.json.error?.message]).toEqual([400, NOT_LISTED]);
      const written = a.ds.replaceAll('-', '').toUpperCase();
      expect((await save(owner, button, { notion_database: written })).status).toBe(200);
      // kept as Notion spelled it when listed, so the section finds its own link
      expect((await linkOf(button)).db).toBe(a.ds);
      expect((await save(owner, like, { notion_page: `  ${a.page.toUpperCase()}  ` })).status).toBe(
        200,
      );
      expect((await linkOf(like)).page).toBe(a.page);
    });

    it('no connection still says connect first; clients cannot keep a listing', async () => {
      const owner = await paidOwner('notion-unlisted-none');
      const button = await createBlock(owner, 'button');
      const refused = await save(owner, button, { notion_database: 'db-1' });
      expect([refused.status, refused.json.error?.message]).toEqual([400, NOT_CONNECTED]);
      // the listing is the service's: clients cannot read or call it
      const direct = await owner.client.rpc('keep_notion_listed', {
        p_integration_id: randomUUID(),
        p_workspace_id: 'ws',
        p_objects: [{ id: 'db-1', object: 'data_source' }],
      });
      expect(direct.error?.message).toMatch(/permission denied/);
    });
  });

  it('search and remove need a signed-in owner; search needs a connection', async () => {
    const owner = await paidOwner('notion-none');
    const none = await search(owner, 'database');
    expect([none.status, none.json.error?.message]).toEqual([409, 'Connect Notion first']);
    expect(
      (await callFunction('search-notion-objects', { target: 'database' }, undefined)).status,
    ).toBe(401);
    const bad = await callFunction(
      'search-notion-objects',
      { target: 'tables' },
      owner.accessToken,
    );
    expect(bad.status).toBe(400);
    const removeNothing = await callFunction(
      'remove-integration',
      { mode: 'notion' },
      owner.accessToken,
    );
    expect(removeNothing.json.data).toEqual({ status: true, revoked: false, unlinked: 0 });
    expect(randomUUID()).toBeTruthy();
  });
});
