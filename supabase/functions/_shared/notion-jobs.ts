// The `notion` job kind: writes one response, comment or question of a linked block as a page in
// the owner's Notion data source (or under their page, for like blocks). Enqueued by triggers in
// the visitor's transaction (supabase/schemas/notion.sql); one job per owner runs at a
// time (their group), so an owner's writes stay under Notion's rate limit.
//
// What Notion answers decides the outcome:
// - 401: the owner removed our access: the integration becomes not granted, a note tells the
//   owner, and the job is parked (not failed) until they connect again, which releases it;
// - 404 (or 403): the data source or page is gone or no longer shared: the block is unlinked,
//   with a note; nothing more is written for it;
// - 429: the owner's queue waits as long as Retry-After says (the attempt is not counted);
// - connection refused: retried with the queue's backoff (40 attempts ride out a day);
// - no answer after the request was sent (a lost answer, a timeout) or a 5xx (`uncertain`: a
//   proxy's 502 or 504, or Notion's 500 after it stored the page, may follow a write that was
//   carried out): retried the same way, and the retry after such an attempt (`maybe_written`)
//   first looks for the page it may have written, so it is not written twice: a row by its
//   Response ID (the title or a "Response ID" column) or else by its title among the rows created
//   since the job was enqueued and its body's last paragraph ending with the item's time and id
//   (`itemMark`), a page under a page among the parent's child pages listed from the block's last
//   page before the job (its `anchor`), by its title and that last paragraph. The look-up spends
//   at most LOOKUP_CALLS calls and LOOKUP_MS, well inside the job's lease; past them the page is
//   written (a duplicate the owner can delete, never an item lost or a lease run out).
//   When the last attempt ends so, the owner's note says the item may have been written
//   (write_uncertain), not that it could not be (write_failed);
// - 400 naming a column: the page is written without that column and a note says which.
import type { SupabaseClient } from '@supabase/supabase-js';
import { rpc, type ClaimedJob, type Delivery, type JobHandler, type Outcome } from './jobs.ts';
import { classifyNotionError, notionClient, plainText, type NotionFailure } from './notion.ts';
import {
  itemMark,
  mapToDataSource,
  mapToPage,
  propertyInError,
  type ColumnNote,
  type MappedPage,
  type NotionContext,
  type SchemaProperty,
} from './notion-pages.ts';

interface Prepared {
  id: number;
  skip?: string;
  defer_until?: string;
  context?: NotionContext;
}

/** How long a parked job (access revoked) waits before it looks again; a reconnect releases it at once. */
const PARK_SECONDS = 86_400;
/** A data source's schema is read again after this long (a renamed column is seen within it). */
const SCHEMA_TTL_MS = 60_000;

const schemaCache = new Map<string, { at: number; schema: SchemaProperty[] }>();

async function readSchema(ctx: NotionContext): Promise<SchemaProperty[]> {
  const key = `${ctx.user_id}:${ctx.target.id}`;
  const cached = schemaCache.get(key);
  if (cached && Date.now() - cached.at < SCHEMA_TTL_MS) return cached.schema;
  const ds = await notionClient(ctx.access_token).dataSources.retrieve({
    data_source_id: ctx.target.id,
  });
  const schema = Object.values(ds.properties).map((p) => ({ name: p.name, type: p.type }));
  schemaCache.set(key, { at: Date.now(), schema });
  return schema;
}

/**
 * What a retry's look-up may spend: Notion calls and time, well inside the job's 120 s lease
 * (jobs-worker lockSeconds; the write and its notes come after) at Notion's three requests a
 * second. A look-up that would need more writes the page (rev-fixes2 D5: a busy form's rows since
 * an outage began, or a page with 40,000 likes listed from its first, ran past the lease, and a
 * second worker claimed the job while the first still scanned).
 */
const LOOKUP_CALLS = 40;
const LOOKUP_MS = 30_000;

/** A look-up's allowance: `spend` takes one call, false once the calls or the time are used up. */
class Allowance {
  private calls = LOOKUP_CALLS;
  private readonly until = Date.now() + LOOKUP_MS;
  spend(): boolean {
    if (this.calls <= 0 || Date.now() >= this.until) return false;
    this.calls -= 1;
    return true;
  }
}

/** A look-up's answer: the page found, none, or gave up (its allowance spent). */
type Found = string | null | 'gave_up';

/**
 * Whether a page is the item's as we wrote it: its body's last block (no more after it: a body
 * is at most 99 blocks) a paragraph ending with the item's time and id.
 */
async function writtenFor(ctx: NotionContext, pageId: string): Promise<boolean> {
  const body = await notionClient(ctx.access_token).blocks.children.list({
    block_id: pageId,
    page_size: 100,
  });
  const last = body.results.at(-1) as { type?: string; paragraph?: { rich_text?: unknown } };
  return (
    !body.has_more &&
    last?.type === 'paragraph' &&
    plainText(last.paragraph?.rich_text).endsWith(itemMark(ctx.item))
  );
}

/** The first of `candidates` (page ids) written for the item, opened within the allowance. */
async function firstWrittenFor(
  ctx: NotionContext,
  candidates: string[],
  allowance: Allowance,
): Promise<Found> {
  for (const id of candidates) {
    if (!allowance.spend()) return 'gave_up';
    if (await writtenFor(ctx, id)) return id;
  }
  return null;
}

/** Notion's times are whole minutes: from the minute before the job's, for the clocks. */
const sinceMinute = (since: string) =>
  new Date(Math.floor(Date.parse(since) / 60_000) * 60_000 - 60_000).toISOString();

/**
 * The row a previous attempt may have written: by its Response ID (the title in response_id
 * mode, or a "Response ID" column); without either, the rows created since the job was enqueued
 * with the row's title, newest first, the one written for the item (writtenFor).
 */
async function alreadyWritten(
  ctx: NotionContext,
  schema: SchemaProperty[],
  title: string,
  since: string,
  allowance: Allowance,
): Promise<Found> {
  const titleColumn = schema.find((p) => p.type === 'title');
  const idColumn = schema.find(
    (p) => p.type === 'rich_text' && /^response[ _-]?id$/i.test(p.name.trim()),
  );
  const client = notionClient(ctx.access_token);
  const filter =
    ctx.title_mode === 'response_id' && titleColumn
      ? { property: titleColumn.name, title: { equals: ctx.item.id } }
      : idColumn
        ? { property: idColumn.name, rich_text: { equals: ctx.item.id } }
        : null;
  if (filter) {
    const found = await client.dataSources.query({
      data_source_id: ctx.target.id,
      filter: filter as never,
      page_size: 1,
    });
    return found.results[0]?.id ?? null;
  }
  if (!titleColumn) return null;
  const candidates: string[] = [];
  let cursor: string | undefined;
  do {
    if (!allowance.spend()) return 'gave_up';
    const found = await client.dataSources.query({
      data_source_id: ctx.target.id,
      filter: { timestamp: 'created_time', created_time: { on_or_after: sinceMinute(since) } },
      sorts: [{ timestamp: 'created_time', direction: 'descending' }],
      page_size: 100,
      ...(cursor ? { start_cursor: cursor } : {}),
    } as never);
    for (const row of found.results as Array<{
      id: string;
      properties?: Record<string, unknown>;
    }>) {
      const value = row.properties?.[titleColumn.name] as { title?: unknown } | undefined;
      if (plainText(value?.title) === title) candidates.push(row.id);
    }
    cursor = found.has_more && found.next_cursor ? found.next_cursor : undefined;
  } while (cursor);
  return firstWrittenFor(ctx, candidates, allowance);
}

/**
 * The page a previous attempt may have written under the target page (like blocks: a page under
 * a page has no column to look up). Notion lists a page's content with the pages written under it
 * as `child_page` blocks (title only), in the order they were added, 100 a call, and a child
 * page's block id is the page's id, which a list's start_cursor takes (its next_cursor is the
 * next block's id). So this lists the children from the block's last page before the job
 * (`anchor`: one call for up to 100 pages added since, where every child from the first took one
 * call per 100: 100 calls for 10,000 likes), or from the first child when there is none or Notion
 * refuses it (the owner deleted or moved that page), keeps the child pages with the page's title
 * created since the job was enqueued (Notion's block times are whole minutes; one minute more for
 * the clocks), newest first, and opens each until one is written for the item (writtenFor). Not
 * found (the owner renamed or moved it meanwhile), or past the allowance:
 * written again.
 */
async function alreadyWrittenUnder(
  ctx: NotionContext,
  title: string,
  since: string,
  allowance: Allowance,
): Promise<Found> {
  const client = notionClient(ctx.access_token);
  const from = Date.parse(sinceMinute(since));
  const list = async (start: string | undefined) => {
    const candidates: string[] = [];
    let cursor = start;
    do {
      if (!allowance.spend()) return 'gave_up';
      const page = await client.blocks.children.list({
        block_id: ctx.target.id,
        page_size: 100,
        ...(cursor ? { start_cursor: cursor } : {}),
      });
      for (const b of page.results as Array<Record<string, unknown>>) {
        const child = b.child_page as { title?: string } | undefined;
        if (
          b.type === 'child_page' &&
          b.id !== start &&
          child?.title === title &&
          Date.parse(String(b.created_time)) >= from
        )
          candidates.push(String(b.id));
      }
      cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
    } while (cursor);
    return candidates;
  };
  let candidates: string[] | 'gave_up';
  try {
    candidates = await list(ctx.anchor ?? undefined);
  } catch (err) {
    const kind = classifyNotionError(err).kind;
    // the anchor is no longer a child of the page (deleted, moved): from the first child
    if (!ctx.anchor || (kind !== 'invalid' && kind !== 'not_found')) throw err;
    candidates = await list(undefined);
  }
  if (candidates === 'gave_up') return candidates;
  return firstWrittenFor(ctx, candidates.reverse(), allowance);
}

function noteRows(ctx: NotionContext, notes: ColumnNote[]) {
  return notes.map((n) => ({
    user_id: ctx.user_id,
    block_id: ctx.block.id,
    code: 'column_type',
    property: n.property,
    detail: n.detail,
  }));
}

/**
 * The owner's note that an item could not be written to Notion, or (`uncertain`) may have been:
 * Notion did not answer an attempt that may have written it, with Notion's reason.
 */
function recordWriteFailed(
  db: SupabaseClient,
  ctx: NotionContext,
  message: string,
  uncertain = false,
) {
  return rpc(db, 'record_notion_notes', {
    p_notes: [
      {
        user_id: ctx.user_id,
        block_id: ctx.block.id,
        code: uncertain ? 'write_uncertain' : 'write_failed',
        property: '',
        detail: { item_id: ctx.item.id, message: message.slice(0, 500) },
      },
    ],
  });
}

/** The outcome of a failure that is not about the page's content. */
async function failureOutcome(
  db: SupabaseClient,
  job: ClaimedJob,
  ctx: NotionContext,
  failure: NotionFailure,
): Promise<Outcome> {
  switch (failure.kind) {
    case 'unauthorized':
      await rpc(db, 'mark_notion_not_granted', {
        p_user_id: ctx.user_id,
        p_reason: failure.message.slice(0, 500),
      });
      return { status: 'defer', run_at: new Date(Date.now() + PARK_SECONDS * 1000).toISOString() };
    case 'not_found':
      await rpc(db, 'unlink_notion_target', {
        p_block_id: ctx.block.id,
        p_target_id: ctx.target.id,
        p_reason: failure.message.slice(0, 500),
      });
      schemaCache.delete(`${ctx.user_id}:${ctx.target.id}`);
      return {
        status: 'done',
        result: { skipped: 'the Notion target is gone; the block was unlinked' },
      };
    case 'rate_limited': {
      const until = new Date(Date.now() + failure.retryAfter * 1000).toISOString();
      await rpc(db, 'delay_notion_jobs', { p_user_id: ctx.user_id, p_until: until });
      return { status: 'defer', run_at: until };
    }
    default: {
      const error = `${failure.kind}: ${failure.message}`.slice(0, 500);
      if (job.attempts >= job.max_attempts) {
        await recordWriteFailed(db, ctx, failure.message, failure.kind === 'uncertain');
        return { status: 'failed', error };
      }
      return { status: 'retry', error };
    }
  }
}

function createPage(ctx: NotionContext, mapped: MappedPage) {
  return notionClient(ctx.access_token).pages.create({
    parent:
      ctx.target.kind === 'page'
        ? { type: 'page_id', page_id: ctx.target.id }
        : { type: 'data_source_id', data_source_id: ctx.target.id },
    properties: mapped.properties as never,
    children: mapped.children as never,
  });
}

/**
 * Writes the page; a column Notion refuses is left out (and noted), up to three times. `found`
 * 'gave_up': the look-up before it could not tell within its allowance (said in the result).
 */
function delivery(
  db: SupabaseClient,
  job: ClaimedJob,
  ctx: NotionContext,
  first: MappedPage,
  found: Found = null,
): Delivery {
  return {
    async deliver(): Promise<Outcome> {
      let mapped = first;
      const refused: ColumnNote[] = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        try {
          const page = await createPage(ctx, mapped);
          const notes = [...mapped.notes, ...refused];
          if (notes.length > 0)
            await rpc(db, 'record_notion_notes', { p_notes: noteRows(ctx, notes) }).catch((err) =>
              console.error('[notion] notes:', err),
            );
          return {
            status: 'done',
            // under: a like's page, kept as the block's last (finish_jobs, notion_last_pages)
            result: {
              page_id: page.id,
              notes: notes.length,
              ...(ctx.target.kind === 'page' ? { under: ctx.target.id } : {}),
              ...(found === 'gave_up' ? { lookup: 'gave_up' } : {}),
            },
          };
        } catch (err) {
          const failure = classifyNotionError(err);
          if (failure.kind !== 'invalid') return failureOutcome(db, job, ctx, failure);
          // a column Notion will not take: write the page without it
          const property = propertyInError(failure.message, mapped.properties);
          const titleOnly = Object.keys(mapped.properties).length <= 1;
          if (attempt === 3 || (!property && titleOnly)) {
            await recordWriteFailed(db, ctx, failure.message).catch((e) =>
              console.error('[notion] notes:', e),
            );
            return {
              status: 'failed',
              error: `Notion refused the page: ${failure.message}`.slice(0, 500),
            };
          }
          schemaCache.delete(`${ctx.user_id}:${ctx.target.id}`);
          const kept = Object.fromEntries(
            Object.entries(mapped.properties).filter(([name, value]) =>
              property ? name !== property : 'title' in (value as Record<string, unknown>),
            ),
          );
          const dropped = property
            ? [property]
            : Object.keys(mapped.properties).filter((n) => !(n in kept));
          for (const name of dropped) {
            const type =
              Object.keys((mapped.properties[name] ?? {}) as Record<string, unknown>)[0] ?? '';
            refused.push({
              property: name,
              detail: {
                column_type: type,
                field: name,
                value_kind: 'text',
                reason: 'rejected',
                message: failure.message.slice(0, 300),
              },
            });
          }
          mapped = { ...mapped, properties: kept };
        }
      }
      return { status: 'retry', error: 'could not write the page' };
    },
  };
}

async function prepareOne(
  db: SupabaseClient,
  job: ClaimedJob,
  prepared: Prepared | undefined,
): Promise<Outcome | Delivery> {
  // the lease was lost meanwhile: finish_jobs ignores whatever we answer
  if (!prepared) return { status: 'retry', error: 'the job was no longer running' };
  if (prepared.skip) return { status: 'done', result: { skipped: prepared.skip } };
  if (prepared.defer_until) return { status: 'defer', run_at: prepared.defer_until };
  const ctx = prepared.context!;
  // only after an attempt that may have written the page (its error `uncertain:`): after one
  // that certainly wrote nothing (refused connection, a page Notion refused) it writes at once
  const allowance = new Allowance();
  try {
    if (ctx.target.kind === 'page') {
      const mapped = mapToPage(ctx);
      const found = ctx.maybe_written
        ? await alreadyWrittenUnder(ctx, mapped.title, job.created_at, allowance)
        : null;
      if (found && found !== 'gave_up')
        return {
          status: 'done',
          result: { page_id: found, found_after_retry: true, under: ctx.target.id },
        };
      return delivery(db, job, ctx, mapped, found);
    }
    const schema = await readSchema(ctx);
    const mapped = mapToDataSource(schema, ctx);
    const found = ctx.maybe_written
      ? await alreadyWritten(ctx, schema, mapped.title, job.created_at, allowance)
      : null;
    if (found && found !== 'gave_up')
      return { status: 'done', result: { page_id: found, found_after_retry: true } };
    return delivery(db, job, ctx, mapped, found);
  } catch (err) {
    const failure = classifyNotionError(err);
    // reads changed nothing at Notion: a timeout here is as safe to retry as an outage, and a
    // target id Notion calls invalid is as gone as one it cannot find. But a read that could not
    // look for the page an earlier attempt may have written leaves that doubt as it was: the job
    // stays uncertain (its next retry looks again; its last says the page may have been written)
    const unanswered = failure.kind === 'uncertain' || failure.kind === 'unavailable';
    const read: NotionFailure =
      unanswered && ctx.maybe_written
        ? {
            kind: 'uncertain',
            message: `an earlier attempt may have written it, and looking for it failed: ${failure.message}`,
          }
        : failure.kind === 'uncertain'
          ? { kind: 'unavailable', message: failure.message }
          : failure.kind === 'invalid'
            ? { kind: 'not_found', message: failure.message }
            : failure;
    return failureOutcome(db, job, ctx, read);
  }
}

export const notionHandler: JobHandler = {
  async prepare(jobs, { db }) {
    const data = (await rpc(db, 'prepare_notion_jobs', {
      p_job_ids: jobs.map((j) => j.id),
    })) as Prepared[];
    const byId = new Map(data.map((p) => [p.id, p]));
    const out: Array<Outcome | Delivery> = [];
    // one job per owner is claimed at a time, so these rarely share a token; in order anyway
    for (const job of jobs) out.push(await prepareOne(db, job, byId.get(job.id)));
    return out;
  },
};
