// Notion carries a write out and its answer is lost (the fake's 'lost' switch): the jobs worker
// must not write it twice: a token exchange, a row found again by its Response ID or its title and
// body, a like found among the page's children from its anchor (support/notion.ts).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { paidOwner, sql, stack, type TestUser } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import { runWorker } from './support/worker.ts';
import { eventually, notionControl, notionWorkspace } from './support/providers.ts';
import {
  authorized,
  buttonInto,
  clickAs,
  connect,
  failingOnce,
  likeAs,
  link,
  notes,
  notionJobs,
  rerunJobs,
  rowsIn,
  search,
  setNotionToken,
} from './support/notion.ts';

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
