// The Notion fake's API under /notion/v1 for a connected workspace's bearer token: search, data
// sources and their rows, pages and their blocks. Each call is logged in its workspace.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObject, readJson, sendJson, type JsonObject } from '../http.ts';
import {
  dataSourceObject,
  newPage,
  now,
  pageObject,
  richText,
  titleOf,
  type Workspace,
} from './model.ts';
import type { NotionState } from './state.ts';
import { childPageProperties, NotionApiError, readChildren, rowProperties } from './validate.ts';

const SUPPORTED_VERSIONS = new Set(['2022-06-28', '2025-09-03']);

/** One call: the state, the caller's workspace, and the path's id if it has one. */
interface Call {
  state: NotionState;
  ws: Workspace;
  req: IncomingMessage;
  res: ServerResponse;
  id: string;
}

/** Notion's times are whole minutes ("2022-03-01T19:05:00.000Z"). */
const toMinute = (iso: string) => `${iso.slice(0, 16)}:00.000Z`;

const pageSize = (body: JsonObject) =>
  Math.min(100, Math.max(1, Number(body.page_size ?? 100) || 100));

/** POST /search: pages and data sources whose title holds the query, newest first. */
async function search({ state, ws, req, res }: Call) {
  const apiBase = state.apiBase;
  const body = await readJson(req);
  const query = typeof body.query === 'string' ? body.query.toLowerCase() : '';
  const filter = isObject(body.filter) ? body.filter : null;
  const kind = filter?.property === 'object' ? filter.value : null;
  if (kind !== null && kind !== 'page' && kind !== 'data_source') {
    throw new NotionApiError(
      400,
      'validation_error',
      'body.filter.value should be `"page"` or `"data_source"`.',
    );
  }
  const size = pageSize(body);
  const results = [
    ...(kind === 'page'
      ? []
      : [...ws.dataSources.values()]
          .filter((d) => !d.gone && d.title.toLowerCase().includes(query))
          .map((d) => ({ at: d.createdTime, obj: dataSourceObject(d, ws, apiBase) }))),
    ...(kind === 'data_source'
      ? []
      : [...ws.pages.values()]
          .filter((p) => !p.gone && titleOf(p).toLowerCase().includes(query))
          .map((p) => ({ at: p.createdTime, obj: pageObject(p, ws, apiBase) }))),
  ]
    .sort((a, b) => b.at.localeCompare(a.at))
    .map((r) => r.obj);
  const start = typeof body.start_cursor === 'string' ? Number(body.start_cursor) || 0 : 0;
  const slice = results.slice(start, start + size);
  const more = start + size < results.length;
  sendJson(res, 200, {
    object: 'list',
    results: slice,
    next_cursor: more ? String(start + size) : null,
    has_more: more,
    type: 'page_or_data_source',
    page_or_data_source: {},
    request_id: randomUUID(),
  });
  return 200;
}

/**
 * One page of a list as Notion answers it when its start_cursor is the id of the page's first
 * item (a data source's rows, a page's children): an unknown cursor is refused as Notion refuses
 * it; `type` names what the list holds.
 */
function sendIdPage<T extends { id: string }>(
  res: ServerResponse,
  items: T[],
  cursor: string | null,
  size: number,
  type: 'page_or_data_source' | 'block',
  show: (item: T) => unknown,
) {
  const start = cursor ? items.findIndex((x) => x.id === cursor) : 0;
  if (start < 0)
    throw new NotionApiError(400, 'validation_error', 'start_cursor should be a valid cursor.');
  const next = items[start + size]?.id ?? null;
  sendJson(res, 200, {
    object: 'list',
    results: items.slice(start, start + size).map(show),
    next_cursor: next,
    has_more: next !== null,
    type,
    [type]: {},
    request_id: randomUUID(),
  });
}

/** The rows of a data source that match a query's title/rich_text equals filters. */
function matchingRows(
  ws: Workspace,
  ds: ReturnType<NotionState['dataSourceIn']>,
  body: JsonObject,
) {
  const conditions: JsonObject[] = isObject(body.filter)
    ? Array.isArray(body.filter.and)
      ? body.filter.and.filter(isObject)
      : [body.filter]
    : [];
  const plain = (v: unknown) =>
    Array.isArray(v) ? v.map((r) => (isObject(r) ? String(r.plain_text ?? '') : '')).join('') : '';
  return [...ws.pages.values()]
    .filter((p) => !p.gone && p.parent.type === 'data_source_id' && p.parent.id === ds.id)
    .filter((p) =>
      conditions.every((c) => {
        // a timestamp filter: Notion's times are whole minutes
        if (c.timestamp === 'created_time' && isObject(c.created_time)) {
          const after = c.created_time.on_or_after;
          return (
            typeof after !== 'string' || Date.parse(toMinute(p.createdTime)) >= Date.parse(after)
          );
        }
        const prop = ds.properties.find((x) => x.name === c.property || x.id === c.property);
        if (!prop)
          throw new NotionApiError(
            400,
            'validation_error',
            `Could not find property with name or id: ${String(c.property)}`,
          );
        const test = (
          isObject(c[prop.type]) ? c[prop.type] : isObject(c.title) ? c.title : c.rich_text
        ) as JsonObject | undefined;
        if (!test || typeof test.equals !== 'string') return true;
        return plain(p.properties[prop.name]?.[prop.type]) === test.equals;
      }),
    )
    .sort((a, b) => b.createdTime.localeCompare(a.createdTime));
}

/** POST /data_sources/:id/query */
async function queryDataSource({ state, ws, req, res, id }: Call) {
  const ds = state.dataSourceIn(ws, id);
  const body = await readJson(req);
  const rows = matchingRows(ws, ds, body);
  const size = pageSize(body);
  // newest first, or as `sorts` asks by created_time; start_cursor: the next page's first row
  const sort = Array.isArray(body.sorts) && isObject(body.sorts[0]) ? body.sorts[0] : null;
  if (sort?.timestamp === 'created_time' && sort.direction === 'ascending') rows.reverse();
  const cursor = typeof body.start_cursor === 'string' ? body.start_cursor : null;
  sendIdPage(res, rows, cursor, size, 'page_or_data_source', (p) =>
    pageObject(p, ws, state.apiBase),
  );
  return 200;
}

/** POST /pages: a row in a data source, or a page under a page. */
async function createPage({ state, ws, req, res }: Call) {
  const body = await readJson(req, 4 * 1024 * 1024);
  const parent = isObject(body.parent) ? body.parent : null;
  if (!parent)
    throw new NotionApiError(
      400,
      'validation_error',
      'body.parent should be defined, instead was `undefined`.',
    );
  const children = readChildren(body.children);
  let created;
  if (typeof parent.data_source_id === 'string') {
    const ds = state.dataSourceIn(ws, parent.data_source_id);
    created = newPage(
      { type: 'data_source_id', id: ds.id, databaseId: ds.databaseId },
      rowProperties(ds, body.properties),
      children,
    );
  } else if (typeof parent.page_id === 'string') {
    const parentPage = state.pageIn(ws, parent.page_id);
    created = newPage(
      { type: 'page_id', id: parentPage.id },
      childPageProperties(body.properties),
      children,
    );
  } else if (typeof parent.database_id === 'string') {
    throw new NotionApiError(
      400,
      'validation_error',
      'With Notion-Version 2025-09-03 a page is created under a data_source_id (a database can hold several data sources).',
    );
  } else {
    throw new NotionApiError(
      400,
      'validation_error',
      'body.parent should have data_source_id or page_id.',
    );
  }
  ws.pages.set(created.id, created);
  sendJson(res, 200, { ...pageObject(created, ws, state.apiBase), request_id: randomUUID() });
  return 200;
}

async function getDataSource({ state, ws, res, id }: Call) {
  sendJson(res, 200, dataSourceObject(state.dataSourceIn(ws, id), ws, state.apiBase));
  return 200;
}

async function getPage({ state, ws, res, id }: Call) {
  sendJson(res, 200, pageObject(state.pageIn(ws, id), ws, state.apiBase));
  return 200;
}

/** A stable id for the i-th content block of a page (the fake keeps the blocks as they were sent). */
const contentBlockId = (pageId: string, i: number) => {
  const h = createHash('sha256').update(`${pageId}:${i}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};

/** A block as Notion answers it: its rich text with plain_text, and the block's own fields. */
function blockObject(
  block: JsonObject,
  blockId: string,
  parentId: string,
  createdTime: string,
  ws: Workspace,
) {
  const type = String(block.type);
  const value = isObject(block[type]) ? { ...block[type] } : {};
  if (Array.isArray(value.rich_text))
    value.rich_text = value.rich_text.map((r) =>
      isObject(r) && isObject(r.text) ? richText(String(r.text.content ?? '')) : r,
    );
  return {
    object: 'block',
    id: blockId,
    parent: { type: 'page_id', page_id: parentId },
    created_time: toMinute(createdTime),
    last_edited_time: toMinute(createdTime),
    created_by: { object: 'user', id: ws.botId },
    last_edited_by: { object: 'user', id: ws.botId },
    has_children: false,
    archived: false,
    in_trash: false,
    type,
    [type]: value,
  };
}

/**
 * GET /blocks/:id/children of a page: its content blocks, then the pages written under it as
 * `child_page` blocks (title only), in the order they were added, as Notion appends a page created
 * under a page to its parent's content. Paged as Notion pages it: page_size (≤ 100), and a
 * start_cursor that is the id of the first block of the next page.
 */
async function blockChildren({ state, ws, req, res, id }: Call) {
  const p = state.pageIn(ws, id);
  const query = new URL(req.url ?? '/', 'http://fake').searchParams;
  const size = Math.min(100, Math.max(1, Number(query.get('page_size') ?? 100) || 100));
  const all = [
    ...p.children.map((b, i) =>
      blockObject(b as JsonObject, contentBlockId(p.id, i), p.id, p.createdTime, ws),
    ),
    ...[...ws.pages.values()]
      .filter((c) => !c.gone && c.parent.type === 'page_id' && c.parent.id === p.id)
      .sort((a, b) => a.createdTime.localeCompare(b.createdTime))
      .map((c) =>
        blockObject(
          { type: 'child_page', child_page: { title: titleOf(c) } },
          c.id,
          p.id,
          c.createdTime,
          ws,
        ),
      ),
  ];
  sendIdPage(res, all, query.get('start_cursor'), size, 'block', (b) => b);
  return 200;
}

/** Method, path (its group, if any, is the id), handler answering the status it sent. */
const ROUTES: Array<[string, RegExp, (call: Call) => Promise<number>]> = [
  ['POST', /^\/search$/, search],
  ['GET', /^\/data_sources\/([0-9a-f-]{32,36})$/i, getDataSource],
  ['POST', /^\/data_sources\/([0-9a-f-]{32,36})\/query$/i, queryDataSource],
  ['POST', /^\/pages$/, createPage],
  ['GET', /^\/pages\/([0-9a-f-]{32,36})$/i, getPage],
  ['GET', /^\/blocks\/([0-9a-f-]{32,36})\/children$/i, blockChildren],
];

async function route(
  state: NotionState,
  ws: Workspace,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<number> {
  for (const [method, pattern, handler] of ROUTES) {
    const m = pattern.exec(path);
    if (m && req.method === method) return handler({ state, ws, req, res, id: m[1] ?? '' });
  }
  throw new NotionApiError(400, 'invalid_request_url', 'Invalid request URL.');
}

/** A call to the API (path after /v1): version and token checked, logged in its workspace. */
export async function api(
  state: NotionState,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<number> {
  const version = req.headers['notion-version'];
  if (typeof version !== 'string' || !SUPPORTED_VERSIONS.has(version)) {
    throw new NotionApiError(
      400,
      'missing_version',
      'Notion-Version header failed validation: it must be one of the versions this fake knows.',
    );
  }
  const ws = state.workspaceOf(req);
  // what a 'lost' switch drops: a write's answer (not a search's or a query's, which change nothing)
  const write = req.method !== 'GET' && !/^\/search$|\/query$/.test(path);
  try {
    const lost = state.failIfSwitched(ws, write ? res : undefined);
    const status = await route(state, ws, req, res, path);
    ws.log.push({ at: now(), method: req.method ?? '', path, status: lost ? 0 : status });
    return status;
  } catch (err) {
    if (err instanceof NotionApiError)
      ws.log.push({ at: now(), method: req.method ?? '', path, status: err.status });
    if (ws.log.length > 200) ws.log.splice(0, ws.log.length - 200);
    throw err;
  }
}
