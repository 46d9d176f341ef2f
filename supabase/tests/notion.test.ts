// Notion end to end through the providers server's fake, with the edge functions and the jobs
// worker as they run: connect (notion-authorize, the local authorise page, set-notion-token),
// search, link a block, a response, a comment and a like written as pages, a column that cannot
// take its value (a note), 401 (not granted, parked, released on reconnect), 404 (unlinked),
// 429 (the owner's queue waits Retry-After), an outage (retried, nothing lost), and remove.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
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
import { addQuestion as addBlockQuestion, createBlock } from './support/drafts.ts';
import { runWorker } from './support/worker.ts';
import {
  eventually,
  notionAuthorize,
  notionControl,
  notionWorkspace,
  type NotionWorkspaceState,
} from './support/providers.ts';

const REDIRECT = 'http://127.0.0.1:54323/oauth/notion';

/** set-notion-token as the dashboard's /oauth/notion page calls it, with the code and state it was given. */
const setNotionToken = (caller: TestUser, code: string | null, state: string | null) =>
  callFunction('set-notion-token', { code, redirectUrl: REDIRECT, state }, caller.accessToken);

/**
 * The connect flow up to the owner's consent, as the dashboard and the browser run it: the code
 * and state Notion's authorise page sends back to /oauth/notion (`workspaceId`: an existing
 * workspace of the fake's).
 */
async function authorized(owner: TestUser, workspaceId?: string) {
  const start = await callFunction(
    'notion-authorize',
    { redirectUrl: REDIRECT },
    owner.accessToken,
  );
  expect(start.status).toBe(200);
  const url = new URL((start.json.data as { url: string }).url);
  expect(url.pathname).toBe('/notion/v1/oauth/authorize');
  expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
  expect((await fetch(url)).status).toBe(200);
  return notionAuthorize({
    clientId: url.searchParams.get('client_id')!,
    redirectUri: url.searchParams.get('redirect_uri')!,
    state: url.searchParams.get('state')!,
    workspaceId,
    workspaceName: `WS ${owner.email}`,
  });
}

/** The whole connect flow as the dashboard and the browser run it; answers the fake's workspace id. */
async function connect(owner: TestUser, workspaceId?: string): Promise<string> {
  const back = await authorized(owner, workspaceId);
  const set = await setNotionToken(owner, back.code, back.state);
  expect(set.status, JSON.stringify(set.json)).toBe(200);
  const [row] = await sql<{ ws: string }>(
    `select t.token_data ->> 'workspace_id' as ws from public.integrations i
     join private.integration_tokens t on t.integration_id = i.id where i.user_id = $1`,
    [owner.id],
  );
  return row!.ws;
}

async function search(owner: TestUser, target: 'database' | 'page', query?: string) {
  return callFunction(
    'search-notion-objects',
    { target, ...(query ? { query } : {}) },
    owner.accessToken,
  );
}

/**
 * Links the block as the workspace does: the Integration section lists the owner's data sources
 * (or pages, for `notion_page`) first, and save-block takes only a target the connection listed.
 */
async function link(owner: TestUser, blockId: string, privateSettings: Record<string, unknown>) {
  const listed = await search(owner, 'notion_page' in privateSettings ? 'page' : 'database');
  expect(listed.status, JSON.stringify(listed.json)).toBe(200);
  const { error } = await owner.client.functions.invoke('save-block', {
    body: { blockId, privateSettings },
  });
  expect(error).toBeNull();
}

/** A button block of the owner's whose clicks are written to the Notion database `databaseId`. */
async function buttonInto(owner: TestUser, databaseId: string) {
  const button = await createBlock(owner, 'button');
  await link(owner, button, { notion_database: databaseId, notion_database_title: 'block_name' });
  return button;
}

/** A question that need not be answered (support/drafts.ts addQuestion). */
const addQuestion = (blockId: string, question: Record<string, unknown>, options?: string[]) =>
  addBlockQuestion(blockId, { required: false, ...question }, options);

const notionJobs = (blockId: string) =>
  sql<{
    id: number;
    status: string;
    attempts: number;
    run_at: Date;
    last_error: string | null;
    result: Record<string, unknown> | null;
  }>(
    `select id, status, attempts, run_at, last_error, result from private.jobs
     where kind = 'notion' and payload ->> 'block_id' = $1 order by id`,
    [blockId],
  );

/** A new visitor clicks the button (record_button_click) as `name`. */
async function clickAs(button: string, name: string) {
  const guest = await newGuest();
  await guest.client.rpc('record_button_click', { p_block_id: button, p_creator_name: name });
}

/** A new visitor likes the like block as `name`. */
async function likeAs(like: string, name: string) {
  const guest = await newGuest();
  await guest.client.rpc('toggle_block_like', { p_block_id: like, p_creator_name: name });
}

/**
 * `write` while the workspace's Notion fails as `mode` (the fake's switch), until the block's
 * `index`th notion job is back in the queue with its error; then `meanwhile` with that job, Notion
 * still failing; answers the job.
 */
async function failingOnce(
  ws: string,
  mode: 'lost' | 'outage',
  blockId: string,
  index: number,
  write: () => Promise<void>,
  meanwhile?: (job: Awaited<ReturnType<typeof notionJobs>>[number]) => Promise<void>,
) {
  await notionControl('/failure', { workspace_id: ws, mode });
  try {
    await write();
    await runWorker();
    const job = await eventually(async () => {
      const job = (await notionJobs(blockId))[index];
      return job?.status === 'queued' && job.attempts >= 1 && !!job.last_error && job;
    });
    await meanwhile?.(job);
    return job;
  } finally {
    await notionControl('/failure', { workspace_id: ws, mode: null });
  }
}

/** The block's queued notion jobs run now (their backoff skipped) until its `index`th is `status`. */
async function rerunJobs(blockId: string, index: number, status = 'done') {
  await sql(
    `update private.jobs set run_at = now() where kind = 'notion' and status = 'queued' and payload ->> 'block_id' = $1`,
    [blockId],
  );
  await runWorker();
  return eventually(async () => {
    const job = (await notionJobs(blockId))[index];
    return job?.status === status && job;
  });
}

const rowsIn = (ws: NotionWorkspaceState, dataSourceId: string) =>
  ws.pages.filter(
    (p) => p.parent.type === 'data_source_id' && p.parent.data_source_id === dataSourceId,
  );

const plain = (value: unknown) =>
  (value as Array<{ plain_text: string }>).map((r) => r.plain_text).join('');

const notes = (owner: TestUser) =>
  owner.client
    .from('integration_notes')
    .select('block_id, code, property, detail, count')
    .order('code');

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

describe('writing to Notion', () => {
  let owner: TestUser;
  let ws: string;
  let feedback: { id: string; properties: Array<{ name: string; type: string }> };
  let responsesDs: { id: string };
  let likesPage: { id: string };

  beforeAll(async () => {
    owner = await paidOwner('notion-write');
    ws = await connect(owner);
    const res = await search(owner, 'database');
    expect(res.status).toBe(200);
    const objects = (
      res.json.data as {
        objects: Array<{
          id: string;
          title: string;
          object: string;
          properties: Array<{ name: string; type: string }>;
        }>;
      }
    ).objects;
    expect(objects.map((o) => o.title).sort()).toEqual(['Feedback', 'Responses']);
    feedback = objects.find((o) => o.title === 'Feedback')!;
    responsesDs = objects.find((o) => o.title === 'Responses')!;
    expect(feedback.properties).toContainEqual({
      name: 'How many sites do you run?',
      type: 'number',
    });
    const pages = await search(owner, 'page');
    const pageObjects = (
      pages.json.data as { objects: Array<{ id: string; title: string; object: string }> }
    ).objects;
    expect(pageObjects.map((o) => o.title).sort()).toEqual(['Likes', 'Reaction Blocks notes']);
    likesPage = pageObjects.find((o) => o.title === 'Likes')!;
  });

  it('a form response becomes a row: title per notionDatabaseTitle, answers in matching columns, all in the body', async () => {
    const form = await createBlock(owner, 'form');
    const name = await addQuestion(form, {
      type: 'short_text',
      index: 0,
      title: 'Your name',
      as_visitor_info: 'name',
    });
    const sites = await addQuestion(form, {
      type: 'number',
      index: 1,
      title: 'How many sites do you run?',
    });
    const blocks = await addQuestion(
      form,
      { type: 'poll', index: 2, title: 'Which blocks do you use?', allow_multi_select: true },
      ['Comment', 'Form'],
    );
    const mail = await addQuestion(form, { type: 'mail', index: 3, title: 'Your email' });
    const more = await addQuestion(form, { type: 'long_text', index: 4, title: 'Anything else?' });
    await link(owner, form, { notion_database: feedback.id, notion_database_title: 'creator' });

    const guest = await newGuest();
    const { data, error } = await guest.client.rpc('submit_response', {
      p_block_id: form,
      p_answers: {
        [name.id]: 'Kim Minji',
        [sites.id]: '3',
        [blocks.id]: blocks.options,
        [mail.id]: 'minji@example.com',
        [more.id]: 'Love it <b>really</b>',
      },
    });
    expect(error).toBeNull();
    const responseId = (data as { id: string }).id;
    // the job was written with the response, in the visitor's transaction (the kick after the
    // write or the schedule's worker may already have it)
    expect(await notionJobs(form)).toHaveLength(1);

    await runWorker();
    const job = await eventually(async () =>
      (await notionJobs(form)).find((j) => j.status === 'done'),
    );
    const state = await notionWorkspace(ws);
    const row = state.pages.find((p) => p.id === job.result!.page_id)!;
    expect(row.parent.data_source_id).toBe(feedback.id);
    expect(plain(row.properties.Title!.title)).toBe('Kim Minji');
    expect(plain(row.properties['Your name']!.rich_text)).toBe('Kim Minji');
    expect(row.properties['How many sites do you run?']!.number).toBe(3);
    expect(
      (row.properties['Which blocks do you use?']!.multi_select as Array<{ name: string }>).map(
        (o) => o.name,
      ),
    ).toEqual(['Comment', 'Form']);
    expect(row.properties.Email!.email).toBe('minji@example.com');
    expect(plain(row.properties['Anything else?']!.rich_text)).toBe('Love it <b>really</b>');
    expect((row.properties.Created!.date as { start: string }).start).toMatch(
      /^\d{4}-\d{2}-\d{2}T/,
    );
    const body = JSON.stringify(row.children);
    expect(body).toContain('Your email');
    expect(body).toContain(responseId);
    expect((await notes(owner)).data).toEqual([]);
  });

  it('a column that cannot take its value is left empty with a note; the page is still written', async () => {
    const odd = await notionControl<{ id: string }>('/data-sources', {
      workspace_id: ws,
      title: 'Odd columns',
      properties: [
        { name: 'Name', type: 'title' },
        { name: 'Score', type: 'checkbox' },
        { name: 'Colour', type: 'select' },
        { name: 'Created', type: 'created_time' },
      ],
    });
    const form = await createBlock(owner, 'form');
    const score = await addQuestion(form, { type: 'number', index: 0, title: 'Score' });
    const colour = await addQuestion(form, { type: 'short_text', index: 1, title: 'Colour' });
    await link(owner, form, { notion_database: odd.id });
    const guest = await newGuest();
    const submitted = await guest.client.rpc('submit_response', {
      p_block_id: form,
      p_answers: { [score.id]: '7', [colour.id]: 'red, green' },
    });
    expect(submitted.error).toBeNull();
    await runWorker();
    const job = await eventually(async () =>
      (await notionJobs(form)).find((j) => j.status === 'done'),
    );
    const row = (await notionWorkspace(ws)).pages.find((p) => p.id === job.result!.page_id)!;
    expect(plain(row.properties.Name!.title)).toBe((submitted.data as { id: string }).id);
    expect(row.properties.Score!.checkbox).toBe(false);
    expect(row.properties.Colour!.select).toBeNull();
    const { data } = await owner.client
      .from('integration_notes')
      .select('code, property, detail, count')
      .eq('block_id', form)
      .order('property');
    expect(data).toEqual([
      {
        code: 'column_type',
        property: 'Colour',
        count: 1,
        detail: expect.objectContaining({ column_type: 'select', reason: 'format' }),
      },
      {
        code: 'column_type',
        property: 'Created',
        count: 1,
        detail: expect.objectContaining({ column_type: 'created_time', reason: 'read_only' }),
      },
      {
        code: 'column_type',
        property: 'Score',
        count: 1,
        detail: expect.objectContaining({
          column_type: 'checkbox',
          field: 'Score',
          value_kind: 'number',
        }),
      },
    ]);
    // another owner sees none of it
    const other = await newUser('notes-other');
    expect(
      (await other.client.from('integration_notes').select('*').eq('block_id', form)).data,
    ).toEqual([]);
  });

  it('a comment, a reply and a like are written; the like as a page under the chosen page', async () => {
    const comment = await createBlock(owner, 'comment');
    const like = await createBlock(owner, 'like');
    await link(owner, comment, {
      notion_database: responsesDs.id,
      notion_database_title: 'content',
    });
    await link(owner, like, { notion_page: likesPage.id });
    const guest = await newGuest();
    const posted = await guest.client.rpc('post_message', {
      p_block_id: comment,
      p_content: 'First!',
      p_creator_name: 'Lee',
    });
    expect(posted.error).toBeNull();
    const reply = await owner.client.rpc('post_message', {
      p_block_id: comment,
      p_parent_id: (posted.data as { id: string }).id,
      p_content: 'Thanks, Lee',
    });
    expect(reply.error).toBeNull();
    await guest.client.rpc('toggle_block_like', { p_block_id: like, p_creator_name: 'Lee' });
    await runWorker();
    await eventually(
      async () =>
        (await notionJobs(comment)).every((j) => j.status === 'done') &&
        (await notionJobs(like)).every((j) => j.status === 'done'),
    );
    const state = await notionWorkspace(ws);
    const rows = rowsIn(state, responsesDs.id);
    const first = rows.find((r) => plain(r.properties.Name!.title) === 'First!')!;
    expect(plain(first.properties.Creator!.rich_text)).toBe('Lee');
    expect((first.properties.Kind!.select as { name: string }).name).toBe('Comment');
    const second = rows.find((r) => plain(r.properties.Name!.title) === 'Thanks, Lee')!;
    expect((second.properties.Kind!.select as { name: string }).name).toBe('Reply');
    const likePage = state.pages.find((p) => p.parent.page_id === likesPage.id)!;
    expect(likePage.title).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('429: the owner’s queue waits as long as Retry-After says, without counting an attempt', async () => {
    const form = await createBlock(owner, 'button');
    await link(owner, form, { notion_database: responsesDs.id });
    await notionControl('/failure', {
      workspace_id: ws,
      mode: 'rate_limited',
      retry_after: 30,
      count: 1,
    });
    const guest = await newGuest();
    await guest.client.rpc('record_button_click', { p_block_id: form, p_creator_name: 'G' });
    const before = Date.now();
    await runWorker();
    // (the schedule's worker may be the one holding it: wait until it is back in the queue,
    // deferred: a worker updated it since it was queued)
    const [job] = await eventually(async () => {
      const jobs = await sql<{
        id: number;
        status: string;
        attempts: number;
        run_at: Date;
        after_defer: number;
      }>(
        `select id, status, attempts, run_at,
                extract(epoch from run_at - updated_at)::float8 * 1000 as after_defer
           from private.jobs
          where kind = 'notion' and payload ->> 'block_id' = $1 and updated_at > created_at`,
        [form],
      );
      return jobs[0]?.status === 'queued' && jobs;
    });
    expect(job!.attempts).toBe(0);
    // Retry-After's 30 s from Notion's answer: after the run began, and at most 30 s after the
    // worker recorded the defer (however long a busy machine took in between)
    expect(job!.run_at.getTime() - before).toBeGreaterThan(25_000);
    expect(job!.after_defer).toBeLessThanOrEqual(30_000);
    // the time passes
    await sql(`update private.jobs set run_at = now() where id = $1`, [job!.id]);
    await runWorker();
    await eventually(async () => (await notionJobs(form))[0]!.status === 'done');
  });

  it('an outage: retried with backoff, nothing lost once Notion is back', async () => {
    const form = await buttonInto(owner, responsesDs.id);
    await notionControl('/failure', { workspace_id: ws, mode: 'outage' });
    try {
      for (let i = 0; i < 3; i++) {
        const guest = await newGuest();
        await guest.client.rpc('record_button_click', {
          p_block_id: form,
          p_creator_name: `G${i}`,
        });
      }
      await runWorker();
      // the schedule's worker (or a kick after a write) may be holding a job right now: wait until
      // none is running; then every job is waiting for its retry, none given up
      await eventually(async () => {
        const jobs = await notionJobs(form);
        return (
          jobs.length === 3 &&
          jobs.every((j) => j.status === 'queued') &&
          jobs.some((j) => j.attempts >= 1 && /unavailable/.test(j.last_error ?? ''))
        );
      });
    } finally {
      await notionControl('/failure', { workspace_id: ws, mode: null });
    }
    for (let round = 0; round < 5; round++) {
      await sql(
        `update private.jobs set run_at = now() where kind = 'notion' and status = 'queued' and payload ->> 'block_id' = $1`,
        [form],
      );
      await runWorker();
      if ((await notionJobs(form)).every((j) => j.status === 'done')) break;
    }
    expect((await notionJobs(form)).map((j) => j.status)).toEqual(['done', 'done', 'done']);
    const written = (await notionJobs(form)).map((j) => j.result!.page_id);
    expect(new Set(written).size).toBe(3);
  });

  it('404: a data source that is gone unlinks the block, with a note', async () => {
    const gone = await notionControl<{ id: string }>('/data-sources', {
      workspace_id: ws,
      title: 'Soon gone',
      properties: [],
    });
    const form = await createBlock(owner, 'button');
    await link(owner, form, { notion_database: gone.id });
    await notionControl('/unshare', { workspace_id: ws, id: gone.id });
    const guest = await newGuest();
    await guest.client.rpc('record_button_click', { p_block_id: form, p_creator_name: 'G' });
    await runWorker();
    const [job] = await eventually(async () => {
      const jobs = await notionJobs(form);
      return jobs[0]?.status === 'done' ? jobs : undefined;
    });
    expect(job!.result).toEqual({ skipped: 'the Notion target is gone; the block was unlinked' });
    const [priv] = await sql<{ db: string | null }>(
      'select notion_database as db from public.block_private where block_id = $1',
      [form],
    );
    expect(priv!.db).toBeNull();
    const { data } = await owner.client
      .from('integration_notes')
      .select('code, detail')
      .eq('block_id', form);
    expect(data).toEqual([
      { code: 'target_missing', detail: expect.objectContaining({ target_id: gone.id }) },
    ]);
    // no more jobs for the unlinked block
    await guest.client.rpc('record_button_click', { p_block_id: form, p_creator_name: 'G' });
    expect(await notionJobs(form)).toHaveLength(1);
  });
});

describe('a lost answer', () => {
  // Notion carries the call out and the connection closes before its answer (the fake's 'lost'
  // switch), after a read on a pooled connection: the runtime must not send the write again
  let owner: TestUser;
  let ws: string;

  beforeAll(async () => {
    owner = await paidOwner('notion-lost');
    ws = await connect(owner);
  });

  const logOf = async (path: string) =>
    (await notionWorkspace(ws)).log.filter((l) => l.method === 'POST' && l.path === path);

  it('a token exchange whose answer is lost is sent once; connecting again works', async () => {
    const before = (await logOf('/oauth/token')).length;
    await notionControl('/failure', { workspace_id: ws, mode: 'lost' });
    try {
      const back = await authorized(owner, ws);
      const set = await setNotionToken(owner, back.code, back.state);
      // Notion did not answer (a code sent again would have been refused as used: 400 invalid_code)
      expect([set.status, set.json.error?.code]).toEqual([503, 'notion_unavailable']);
      expect((await logOf('/oauth/token')).slice(before).map((l) => l.status)).toEqual([0]);
    } finally {
      await notionControl('/failure', { workspace_id: ws, mode: null });
    }
    // what the owner is told to do: connect again
    expect(await connect(owner, ws)).toBe(ws);
    expect((await logOf('/oauth/token')).slice(before).map((l) => l.status)).toEqual([0, 200]);
  });

  it('a page whose answer is lost is written once; the retry finds it by its Response ID', async () => {
    const res = await search(owner, 'database');
    const responses = (
      res.json.data as { objects: Array<{ id: string; title: string }> }
    ).objects.find((o) => o.title === 'Responses')!;
    const button = await buttonInto(owner, responses.id);
    const lost = await failingOnce(ws, 'lost', button, 0, () => clickAs(button, 'L'));
    // no answer after the request went out: Notion may have written it (not "unavailable")
    expect(lost.last_error).toMatch(/^uncertain: /);
    expect((await logOf('/pages')).map((l) => l.status)).toEqual([0]);
    expect(rowsIn(await notionWorkspace(ws), responses.id)).toHaveLength(1);
    const job = await rerunJobs(button, 0);
    const [row] = rowsIn(await notionWorkspace(ws), responses.id);
    expect(job.result).toMatchObject({ page_id: row!.id, found_after_retry: true });
    expect(rowsIn(await notionWorkspace(ws), responses.id)).toHaveLength(1);
    expect(await logOf('/pages')).toHaveLength(1);
  });

  /** A button block written to Feedback: no Response ID column, every click titled by the block's name. */
  async function feedbackButton() {
    const res = await search(owner, 'database');
    const feedback = (
      res.json.data as { objects: Array<{ id: string; title: string }> }
    ).objects.find((o) => o.title === 'Feedback')!;
    const button = await createBlock(owner, 'button');
    await link(owner, button, {
      notion_database: feedback.id,
      notion_database_title: 'block_name',
    });
    const feedbackRows = async () => rowsIn(await notionWorkspace(ws), feedback.id);
    return { feedback, button, feedbackRows };
  }

  /** The look-up's calls since `since`: queries of a data source, lists of a page's content. */
  const lookupCalls = async (since: string) =>
    (await notionWorkspace(ws)).log.filter(
      (l) => l.at >= since && (l.path.endsWith('/query') || l.path.endsWith('/children')),
    );

  it('a row with no Response ID to look up is found by its title and its body', async () => {
    const { feedback, button } = await feedbackButton();
    for (const name of ['A', 'B']) await clickAs(button, name);
    await runWorker();
    await eventually(async () => (await notionJobs(button)).every((j) => j.status === 'done'));
    expect(rowsIn(await notionWorkspace(ws), feedback.id)).toHaveLength(2);
    await failingOnce(ws, 'lost', button, 2, () => clickAs(button, 'C'));
    expect(rowsIn(await notionWorkspace(ws), feedback.id)).toHaveLength(3);
    const job = await rerunJobs(button, 2);
    const rows = rowsIn(await notionWorkspace(ws), feedback.id);
    expect(rows).toHaveLength(3);
    expect(job.result).toMatchObject({ found_after_retry: true });
    // the row of C's click: its body names the item
    const found = rows.find((r) => r.id === (job.result as { page_id: string }).page_id)!;
    expect(JSON.stringify(found.children)).toContain(' · C · ');
  });

  // rev-fixes2 D5: the look-up takes a row only where we wrote the item (its last paragraph ends
  // with the item's time and id), not one whose text merely quotes the id: another visitor's name
  it('a visitor whose name quotes another click’s id does not stand in for that click', async () => {
    const { button, feedbackRows } = await feedbackButton();
    const before = (await feedbackRows()).length;
    // Notion's 503: nothing written, but uncertain (it can follow a request Notion took)
    const first = await failingOnce(ws, 'outage', button, 0, () => clickAs(button, 'Victim'));
    expect(first.last_error).toMatch(/^uncertain: /);
    const [victim] = await sql<{ id: string }>(
      'select id from public.responses where block_id = $1',
      [button],
    );
    await clickAs(button, victim!.id);
    await runWorker();
    await eventually(async () => (await notionJobs(button))[1]?.status === 'done');
    expect((await rerunJobs(button, 0)).result).not.toHaveProperty('found_after_retry');
    const rows = (await feedbackRows()).slice(before);
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).toContain(' · Victim · ');
  });

  it('after an attempt that certainly wrote nothing, the retry writes without looking', async () => {
    const { button, feedbackRows } = await feedbackButton();
    const before = (await feedbackRows()).length;
    await failingOnce(ws, 'outage', button, 0, () => clickAs(button, 'Refused'));
    // as a refused connection leaves the job (classifyNotionError: unavailable)
    await sql(
      `update private.jobs set last_error = 'unavailable: connection refused'
       where kind = 'notion' and status = 'queued' and payload ->> 'block_id' = $1`,
      [button],
    );
    const since = new Date().toISOString();
    expect((await rerunJobs(button, 0)).result).not.toHaveProperty('found_after_retry');
    expect(await lookupCalls(since)).toEqual([]);
    expect((await feedbackRows()).slice(before)).toHaveLength(1);
  });

  // the look-up spends at most 40 Notion calls (and 30 s), well inside the job's 120 s lease;
  // past them it writes the item (a duplicate the owner can delete) and says so in the result
  it('a look-up with more rows to open than its allowance writes the item and says so', async () => {
    const { feedback, button, feedbackRows } = await feedbackButton();
    await failingOnce(ws, 'outage', button, 0, () => clickAs(button, 'Busy'));
    const [{ name }] = (await sql<{ name: string }>(
      'select name from public.blocks where id = $1',
      [button],
    )) as [{ name: string }];
    // 50 rows with the click's title since the job was enqueued (other clicks, another app's)
    await writePages(
      owner,
      { data_source_id: feedback.id },
      'Title',
      Array.from({ length: 50 }, () => name),
    );
    const before = (await feedbackRows()).length;
    const since = new Date().toISOString();
    expect((await rerunJobs(button, 0)).result).toMatchObject({ lookup: 'gave_up' });
    expect((await lookupCalls(since)).length).toBeLessThanOrEqual(40);
    const rows = (await feedbackRows()).slice(before);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).toContain(' · Busy · ');
  });
});

/**
 * Pages written under `parent` straight through Notion's API with the owner's token (as another
 * app of theirs, or the owner, would), one per title.
 */
async function writePages(
  owner: TestUser,
  parent: Record<string, string>,
  titleColumn: string,
  titles: string[],
) {
  const [{ token }] = (await sql<{ token: string }>(
    `select t.access_token as token from public.integrations i
     join private.integration_tokens t on t.integration_id = i.id where i.user_id = $1`,
    [owner.id],
  )) as [{ token: string }];
  for (const title of titles) {
    const made = await fetch(`${stack().providersUrl}/notion/v1/pages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'notion-version': '2025-09-03',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        parent,
        properties: { [titleColumn]: { title: [{ type: 'text', text: { content: title } }] } },
      }),
    });
    expect(made.status).toBe(200);
  }
}

/**
 * A paid owner's like block written under their Notion page "Likes" (every like's page titled by
 * the block's name: the body tells them apart), the page already holding `notes` other child
 * pages, and likes by `names` written under it.
 */
async function likesUnderPage(tag: string, notes: number, names: string[]) {
  const owner = await paidOwner(tag);
  const ws = await connect(owner);
  const pages = await search(owner, 'page');
  const likes = (pages.json.data as { objects: Array<{ id: string; title: string }> }).objects.find(
    (o) => o.title === 'Likes',
  )!;
  const like = await createBlock(owner, 'like');
  await link(owner, like, { notion_page: likes.id, notion_database_title: 'block_name' });
  await writePages(
    owner,
    { page_id: likes.id },
    'title',
    Array.from({ length: notes }, (_, n) => `note ${n}`),
  );
  for (const name of names) await likeAs(like, name);
  await runWorker();
  await eventually(async () => (await notionJobs(like)).every((j) => j.status === 'done'));
  const childrenOf = async () =>
    (await notionWorkspace(ws)).pages.filter((p) => p.parent.page_id === likes.id);
  expect(await childrenOf()).toHaveLength(notes + names.length);
  /** The calls listing the page's children since `since` (an ISO time). */
  const listCalls = async (since: string) =>
    (await notionWorkspace(ws)).log.filter(
      (l) => l.method === 'GET' && l.path === `/blocks/${likes.id}/children` && l.at >= since,
    );
  return { owner, ws, likes, like, childrenOf, listCalls };
}

describe('a lost answer under a page', () => {
  // a like is written as a page under the owner's page: no column to look it up by, so the retry
  // finds it among the page's child pages (Notion lists them with the page's content, 100 a
  // call), listed from the block's last page written before the job (its anchor)
  it('a like whose answer is lost is written once; the retry finds it in one list call from the last like', async () => {
    const { ws, like, childrenOf, listCalls } = await likesUnderPage('notion-lost-page', 120, [
      'A',
      'B',
    ]);
    const lost = await failingOnce(ws, 'lost', like, 2, () => likeAs(like, 'C'));
    expect(lost.last_error).toMatch(/^uncertain: /);
    expect(await childrenOf()).toHaveLength(123);
    const written = (await childrenOf()).at(-1)!;
    expect(written.title).toBe((await childrenOf()).at(-2)!.title);
    const since = new Date().toISOString();
    expect((await rerunJobs(like, 2)).result).toMatchObject({
      page_id: written.id,
      found_after_retry: true,
    });
    expect(await childrenOf()).toHaveLength(123);
    // from B's page on: one call, where every child from the first took two (123 children)
    expect(await listCalls(since)).toHaveLength(1);
  });

  it('an anchor Notion refuses (the page deleted or moved): the retry lists every child and still finds it', async () => {
    const { ws, like, childrenOf, listCalls } = await likesUnderPage('notion-lost-anchor', 120, [
      'A',
    ]);
    await failingOnce(ws, 'lost', like, 1, () => likeAs(like, 'B'));
    await sql(
      `update private.jobs set payload = payload || jsonb_build_object('anchor', $2::text)
       where kind = 'notion' and status = 'queued' and payload ->> 'block_id' = $1`,
      [like, randomUUID()],
    );
    const since = new Date().toISOString();
    expect((await rerunJobs(like, 1)).result).toMatchObject({
      page_id: (await childrenOf()).at(-1)!.id,
      found_after_retry: true,
    });
    expect(await childrenOf()).toHaveLength(122);
    // the refused anchor, then the children from the first: two calls of 100
    expect(await listCalls(since)).toHaveLength(3);
  });

  it('a 5xx is uncertain too; a last attempt that cannot tell says the like may have been written', async () => {
    const { owner, ws, like } = await likesUnderPage('notion-5xx-page', 0, []);
    await failingOnce(
      ws,
      'outage',
      like,
      0,
      () => likeAs(like, 'A'),
      async (first) => {
        // Notion's 503 after the request: it may have stored the page (not "unavailable")
        expect(first.last_error).toMatch(/^uncertain: /);
        // the last attempt, Notion still down: its lookup cannot tell either
        await sql(`update private.jobs set max_attempts = attempts + 1 where id = $1`, [first.id]);
        const last = await rerunJobs(like, 0, 'failed');
        expect(last.last_error).toMatch(/^uncertain: an earlier attempt may have written it/);
      },
    );
    expect((await notes(owner)).data).toMatchObject([{ block_id: like, code: 'write_uncertain' }]);
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

  describe('a link saved while Notion is removed (a workspace still open in another tab)', () => {
    const NOT_CONNECTED = INTEGRATION_MESSAGES.notionGone;
    /** A paid owner with Notion connected and listed, a button block and the Responses data source's id. */
    async function connectedButton(label: string) {
      const owner = await paidOwner(label);
      const ws = await connect(owner);
      expect((await search(owner, 'database')).status).toBe(200);
      const dsId = (await notionWorkspace(ws)).dataSources.find((d) => d.title === 'Responses')!.id;
      return { owner, dsId, button: await createBlock(owner, 'button') };
    }
    const linkOf = async (blockId: string) =>
      (
        await sql<{ db: string | null }>(
          'select notion_database as db from public.block_private where block_id = $1',
          [blockId],
        )
      )[0]!.db;
    const saveLink = (owner: TestUser, blockId: string, dsId: string) =>
      callFunction(
        'save-block',
        { blockId, privateSettings: { notion_database: dsId } },
        owner.accessToken,
      );

    it('after the removal: refused with a message, nothing linked; other settings still save', async () => {
      const { owner, dsId, button } = await connectedButton('notion-gone');
      expect(
        (await callFunction('remove-integration', { mode: 'notion' }, owner.accessToken)).status,
      ).toBe(200);
      const refused = await saveLink(owner, button, dsId);
      expect([refused.status, refused.json.error?.message]).toEqual([400, NOT_CONNECTED]);
      expect(await linkOf(button)).toBeNull();
      // unlinking, and the title column, need no connection
      const unlink = await callFunction(
        'save-block',
        {
          blockId: button,
          privateSettings: { notion_database: null, notion_database_title: 'content' },
        },
        owner.accessToken,
      );
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
      const { owner, dsId, button } = await connectedButton('notion-gone-during');
      const removal = await uncommitted('select public.remove_notion_connection($1)', [owner.id]);
      const saving = saveLink(owner, button, dsId);
      await removal.blocks('save_block');
      await removal.commit();
      const refused = await saving;
      expect([refused.status, refused.json.error?.message]).toEqual([400, NOT_CONNECTED]);
      expect(await linkOf(button)).toBeNull();
    });

    it('a save under way when the removal starts: the removal waits for it and unlinks it too', async () => {
      const { owner, dsId, button } = await connectedButton('notion-gone-after');
      const save = await uncommitted('select public.save_block($1, $2, $3)', [
        owner.id,
        button,
        { privateSettings: { notion_database: dsId } },
      ]);
      const removing = callFunction('remove-integration', { mode: 'notion' }, owner.accessToken);
      await save.blocks('remove_notion_connection');
      await save.commit();
      expect((await removing).json.data).toMatchObject({ status: true, unlinked: 1 });
      expect(await linkOf(button)).toBeNull();
    });
  });

  describe('a link to what the current connection did not list (rev N1)', () => {
    const NOT_LISTED = INTEGRATION_MESSAGES.notionNotListed;
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
    const ids = async (ws: string) => {
      const state = await notionWorkspace(ws);
      return {
        ds: state.dataSources.find((d) => d.title === 'Responses')!.id,
        page: state.pages.find((p) => p.title === 'Likes')!.id,
      };
    };

    it('workspace A listed in one tab, A removed and B connected in another: A’s database is refused', async () => {
      const owner = await paidOwner('notion-swap');
      const button = await createBlock(owner, 'button');
      const a = await ids(await connect(owner));
      // the first tab lists A's data sources
      expect((await search(owner, 'database')).status).toBe(200);
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
      const owner = await paidOwner('notion-over');
      const button = await createBlock(owner, 'button');
      const wsA = await connect(owner);
      const a = await ids(wsA);
      expect((await search(owner, 'database')).status).toBe(200);
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

    it('a page is no data source and a data source no page; an id is matched without dashes or case', async () => {
      const owner = await paidOwner('notion-kind');
      const button = await createBlock(owner, 'button');
      const like = await createBlock(owner, 'like');
      const a = await ids(await connect(owner));
      expect((await search(owner, 'database')).status).toBe(200);
      expect((await search(owner, 'page')).status).toBe(200);
      const pageAsDb = await save(owner, button, { notion_database: a.page });
      expect([pageAsDb.status, pageAsDb.json.error?.message]).toEqual([400, NOT_LISTED]);
      const dbAsPage = await save(owner, like, { notion_page: a.ds });
      expect([dbAsPage.status, dbAsPage.json.error?.message]).toEqual([400, NOT_LISTED]);
      const written = a.ds.replaceAll('-', '').toUpperCase();
      expect((await save(owner, button, { notion_database: written })).status).toBe(200);
      expect((await save(owner, like, { notion_page: a.page })).status).toBe(200);
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
