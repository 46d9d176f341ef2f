// Notion through the providers server's fake, as the dashboard and the browser run it: the connect
// flow (notion-authorize, the local authorise page, set-notion-token), search, linking a block,
// the visitors' writes, the notion jobs and the fake's failure switches. Used by notion-connect,
// notion-writes and notion-lost-answers.
import { expect } from 'vitest';
import { callFunction, newGuest, sql, type TestUser } from './clients.ts';
import { addQuestion as addBlockQuestion, createBlock } from './drafts.ts';
import { runWorker } from './worker.ts';
import {
  eventually,
  notionAuthorize,
  notionControl,
  type NotionWorkspaceState,
} from './providers.ts';

export const REDIRECT = 'http://127.0.0.1:54323/oauth/notion';

/** set-notion-token as the dashboard's /oauth/notion page calls it, with the code and state it was given. */
export const setNotionToken = (caller: TestUser, code: string | null, state: string | null) =>
  callFunction('set-notion-token', { code, redirectUrl: REDIRECT, state }, caller.accessToken);

/**
 * The connect flow up to the owner's consent, as the dashboard and the browser run it: the code
 * and state Notion's authorise page sends back to /oauth/notion (`workspaceId`: an existing
 * workspace of the fake's).
 */
export async function authorized(owner: TestUser, workspaceId?: string) {
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
export async function connect(owner: TestUser, workspaceId?: string): Promise<string> {
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

export async function search(owner: TestUser, target: 'database' | 'page', query?: string) {
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
export async function link(
  owner: TestUser,
  blockId: string,
  privateSettings: Record<string, unknown>,
) {
  const listed = await search(owner, 'notion_page' in privateSettings ? 'page' : 'database');
  expect(listed.status, JSON.stringify(listed.json)).toBe(200);
  const { error } = await owner.client.functions.invoke('save-block', {
    body: { blockId, privateSettings },
  });
  expect(error).toBeNull();
}

/** A button block of the owner's whose clicks are written to the Notion database `databaseId`. */
export async function buttonInto(owner: TestUser, databaseId: string) {
  const button = await createBlock(owner, 'button');
  await link(owner, button, { notion_database: databaseId, notion_database_title: 'block_name' });
  return button;
}

/** A question that need not be answered (support/drafts.ts addQuestion). */
export const addQuestion = (
  blockId: string,
  question: Record<string, unknown>,
  options?: string[],
) => addBlockQuestion(blockId, { required: false, ...question }, options);

export const notionJobs = (blockId: string) =>
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
export async function clickAs(button: string, name: string) {
  const guest = await newGuest();
  await guest.client.rpc('record_button_click', { p_block_id: button, p_creator_name: name });
}

/** A new visitor likes the like block as `name`. */
export async function likeAs(like: string, name: string) {
  const guest = await newGuest();
  await guest.client.rpc('toggle_block_like', { p_block_id: like, p_creator_name: name });
}

/**
 * `write` while the workspace's Notion fails as `mode` (the fake's switch), until the block's
 * `index`th notion job is back in the queue with its error, held there (due in an hour: its retry
 * comes when `rerunJobs` makes it due); then `meanwhile` with that job, Notion still failing;
 * answers the job. Held, because the retry is due 5 s after the failure and the queue's own tick
 * could take it before the steps the test puts before it (its rows written, its anchor changed),
 * with Notion failing or not (flaky).
 */
export async function failingOnce(
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
      const [job] = await sql<Awaited<ReturnType<typeof notionJobs>>[number]>(
        `update private.jobs set run_at = now() + interval '1 hour'
          where id = (select id from private.jobs where kind = 'notion' and payload ->> 'block_id' = $1
                      order by id offset $2 limit 1)
            and status = 'queued' and attempts >= 1 and last_error is not null
          returning id, status, attempts, run_at, last_error, result`,
        [blockId, index],
      );
      return job;
    });
    await meanwhile?.(job);
    return job;
  } finally {
    await notionControl('/failure', { workspace_id: ws, mode: null });
  }
}

/** The block's queued notion jobs run now (their backoff skipped) until its `index`th is `status`. */
export async function rerunJobs(blockId: string, index: number, status = 'done') {
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

export const rowsIn = (ws: NotionWorkspaceState, dataSourceId: string) =>
  ws.pages.filter(
    (p) => p.parent.type === 'data_source_id' && p.parent.data_source_id === dataSourceId,
  );

export const plain = (value: unknown) =>
  (value as Array<{ plain_text: string }>).map((r) => r.plain_text).join('');

export const notes = (owner: TestUser) =>
  owner.client
    .from('integration_notes')
    .select('block_id, code, property, detail, count')
    .order('code');
