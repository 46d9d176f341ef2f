// The Notion fake's control API under /notion/_control, for tests and developers (README.md):
// state, failure switches, the owner revoking the integration, new data sources, unsharing.
import type { ServerResponse } from 'node:http';
import { HttpError, isObject, readJson, sendJson, type JsonObject } from '../http.ts';
import { newDataSource, PROPERTY_TYPES, type FailureMode, type PropertyType } from './model.ts';
import type { NotionRoutes, NotionState } from './state.ts';

const workspaceParam = (state: NotionState, body: JsonObject, url: URL) => {
  const id = String(body.workspace_id ?? url.searchParams.get('workspace_id') ?? '');
  const ws = state.workspaces.get(id);
  if (!ws) throw new HttpError(404, `No workspace ${id}`);
  return ws;
};

/** POST /failure: a failure switch for one workspace or all, for `count` calls or until cleared. */
function setFailure(state: NotionState, res: ServerResponse, body: JsonObject, url: URL) {
  const mode = body.mode === null || body.mode === undefined ? null : String(body.mode);
  if (
    mode !== null &&
    !['unauthorized', 'not_found', 'rate_limited', 'outage', 'lost'].includes(mode)
  )
    throw new HttpError(
      400,
      'mode: unauthorized | not_found | rate_limited | outage | lost | null',
    );
  const failure =
    mode === null
      ? null
      : {
          mode: mode as FailureMode,
          remaining: typeof body.count === 'number' ? body.count : null,
          retryAfter: typeof body.retry_after === 'number' ? body.retry_after : 1,
        };
  if (body.workspace_id === undefined) state.globalFailure = failure;
  else workspaceParam(state, body, url).failure = failure;
  return sendJson(res, 200, { ok: true, failure });
}

/** POST /data-sources: a new data source with the given properties in a workspace. */
function addDataSource(state: NotionState, res: ServerResponse, body: JsonObject, url: URL) {
  const ws = workspaceParam(state, body, url);
  const props = Array.isArray(body.properties) ? body.properties.filter(isObject) : [];
  for (const p of props) {
    if (!PROPERTY_TYPES.includes(p.type as PropertyType))
      throw new HttpError(400, `Unknown property type ${String(p.type)}`);
  }
  const ds = newDataSource(
    String(body.title ?? 'Untitled'),
    props.map((p) => ({
      name: String(p.name),
      type: p.type as PropertyType,
      options: Array.isArray(p.options) ? p.options.map(String) : [],
    })),
  );
  ws.dataSources.set(ds.id, ds);
  return sendJson(res, 201, { id: ds.id, title: ds.title });
}

export const control: NotionRoutes = async (state, req, res, path, url) => {
  if (path === '/state' && req.method === 'GET') {
    const id = url.searchParams.get('workspace_id');
    if (id) return sendJson(res, 200, state.workspaceView(workspaceParam(state, {}, url)));
    return sendJson(res, 200, {
      workspaces: [...state.workspaces.values()].map((w) => ({ id: w.id, name: w.name })),
      failure: state.globalFailure,
    });
  }
  if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
  const body = await readJson(req);
  if (path === '/failure') return setFailure(state, res, body, url);
  if (path === '/revoke') {
    // the owner removed the integration in Notion's settings: every token of the workspace dies
    const ws = workspaceParam(state, body, url);
    for (const t of state.tokens.values()) if (t.workspaceId === ws.id) t.revoked = true;
    return sendJson(res, 200, state.workspaceView(ws));
  }
  if (path === '/data-sources') return addDataSource(state, res, body, url);
  if (path === '/unshare') {
    // the owner deleted the database or page, or stopped sharing it with the integration
    const ws = workspaceParam(state, body, url);
    const id = String(body.id ?? '');
    const target = ws.dataSources.get(id) ?? ws.pages.get(id);
    if (!target) throw new HttpError(404, `No data source or page ${id}`);
    target.gone = true;
    return sendJson(res, 200, { ok: true });
  }
  if (path === '/reset') {
    state.reset();
    return sendJson(res, 200, { ok: true });
  }
  throw new HttpError(404, 'Not found');
};
