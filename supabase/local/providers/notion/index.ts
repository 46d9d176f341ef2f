// The Notion fake at /notion: the parts of Notion's public API (version 2025-09-03) the product
// uses, for the unmodified @notionhq/client with `baseUrl: <providers>/notion`.
//   GET/POST /notion/v1/oauth/authorize   a LOCAL stand-in for Notion's authorise page (no script)
//   POST /notion/v1/oauth/token           code -> access token (HTTP Basic client credentials)
//   POST /notion/v1/oauth/revoke          the token stops working
//   POST /notion/v1/oauth/introspect      { active }
//   POST /notion/v1/search                pages and data sources shared with the integration
//   GET  /notion/v1/data_sources/:id      a data source and its property schema
//   POST /notion/v1/data_sources/:id/query  its rows (title/rich_text equals filters)
//   POST /notion/v1/pages                 a row in a data source, or a page under a page
//   GET  /notion/v1/pages/:id
//   /notion/_control/...                  tests and developers (README.md)
// Each authorisation connects a workspace of its own (with two databases and two pages), so
// tests sharing the stack never see each other's data, and failure switches are per workspace.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeContext, ProviderFake } from '../fake.ts';
import {
  escapeHtml,
  HttpError,
  isObject,
  PAGE_CSP,
  readBody,
  readJson,
  sendHtml,
  sendJson,
  type JsonObject,
} from '../http.ts';
import {
  dataSourceObject,
  newDataSource,
  newPage,
  newWorkspace,
  now,
  pageObject,
  PROPERTY_TYPES,
  titleOf,
  type CodeRecord,
  type FailureMode,
  type PropertyType,
  type TokenRecord,
  type Workspace,
} from './model.ts';
import { childPageProperties, NotionApiError, readChildren, rowProperties } from './validate.ts';
import { entriesOf, refill } from '../state-store.ts';

export interface NotionFakeOptions {
  clientId: string;
  clientSecret: string;
}

export interface NotionFake extends ProviderFake {
  workspaces: Map<string, Workspace>;
}

const CODE_TTL_MS = 10 * 60_000;
const SUPPORTED_VERSIONS = new Set(['2022-06-28', '2025-09-03']);

function notionError(res: ServerResponse, err: NotionApiError) {
  sendJson(
    res,
    err.status,
    {
      object: 'error',
      status: err.status,
      code: err.code,
      message: err.message,
      request_id: randomUUID(),
    },
    { 'x-notion-request-id': randomUUID(), ...err.headers },
  );
}

/** Reads an application/x-www-form-urlencoded body (the authorise page's form). */
async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
}

function authorizePage(input: {
  clientId: string;
  redirectUri: string;
  state: string;
  workspaces: Workspace[];
  error?: string;
}): string {
  const e = escapeHtml;
  let destination = input.redirectUri;
  try {
    destination = new URL(input.redirectUri).origin;
  } catch {
    // shown escaped as it is
  }
  const existing = input.workspaces
    .slice(-20)
    .reverse()
    .map((w) => `<option value="${e(w.id)}">${e(w.name)} (${e(w.ownerEmail)})</option>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Local Notion authorisation (development stand-in)</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
  main { width: min(30rem, calc(100vw - 2rem)); border: 1px solid GrayText; border-radius: 12px; padding: 1.5rem; }
  .notice { border: 2px dashed #b45309; background: #fef3c7; color: #451a03; border-radius: 8px; padding: .75rem; margin: 0 0 1rem; }
  h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  input, select { width: 100%; box-sizing: border-box; font: inherit; padding: .5rem; border: 1px solid GrayText; border-radius: 6px; }
  input:focus-visible, select:focus-visible, button:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  .hint { font-size: .875rem; margin: .25rem 0 0; }
  .error { color: #b91c1c; font-weight: 600; }
  ul { padding-left: 1.25rem; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: .6rem 1rem; border-radius: 6px; border: 1px solid GrayText; cursor: pointer; }
  button[value="allow"] { background: #111827; color: #fff; border-color: #111827; }
</style>
</head>
<body>
<main>
  <p class="notice" role="note"><strong>Local development authorisation</strong> — stands in for Notion.
  Nothing is sent to Notion; the workspace below lives in this machine's providers server only.</p>
  <h1>Reaction Blocks would like to access a Notion workspace</h1>
  <p>It will be able to read the pages and databases you share and add pages to them. After
  allowing you go back to <strong>${e(destination)}</strong>.</p>
  <p class="hint">A new workspace comes with the databases “Responses” and “Feedback” and the pages “Likes” and “Reaction Blocks notes”.</p>
  ${input.error ? `<p class="error" role="alert" id="form-error">${e(input.error)}</p>` : ''}
  <form method="post" action="/notion/v1/oauth/authorize"${input.error ? ' aria-describedby="form-error"' : ''}>
    <input type="hidden" name="client_id" value="${e(input.clientId)}">
    <input type="hidden" name="redirect_uri" value="${e(input.redirectUri)}">
    <input type="hidden" name="state" value="${e(input.state)}">
    <label for="workspace_id">Workspace</label>
    <select id="workspace_id" name="workspace_id"><option value="">A new workspace</option>${existing}</select>
    <label for="workspace_name">Name of a new workspace</label>
    <input id="workspace_name" name="workspace_name" type="text" maxlength="100" value="Local workspace">
    <label for="email">Your Notion account's email</label>
    <input id="email" name="email" type="email" maxlength="255" value="owner@example.com">
    <div class="actions">
      <button type="submit" name="decision" value="allow">Allow access</button>
      <button type="submit" name="decision" value="deny">Cancel</button>
    </div>
  </form>
</main>
</body>
</html>
`;
}

export function createNotionFake(ctx: FakeContext<NotionFakeOptions | undefined>): NotionFake {
  const options: NotionFakeOptions = ctx.options ?? {
    clientId: 'local-notion-client',
    clientSecret: 'local-notion-secret',
  };
  const workspaces = new Map<string, Workspace>();
  const tokens = new Map<string, TokenRecord>();
  const codes = new Map<string, CodeRecord>();
  let globalFailure: Workspace['failure'] = null;
  const apiBase = `${ctx.baseUrl}`;

  const checkClient = (req: IncomingMessage) => {
    const header = req.headers.authorization ?? '';
    const m = /^Basic\s+(.+)$/i.exec(header);
    const [id, secret] = m ? Buffer.from(m[1]!, 'base64').toString('utf8').split(':') : [];
    if (id !== options.clientId || secret !== options.clientSecret) {
      throw new NotionApiError(401, 'unauthorized', 'Invalid client credentials.');
    }
  };

  /** A failure switch in force for this workspace (or all): throws the provider's error. */
  const failIfSwitched = (ws: Workspace | null) => {
    const failure = ws?.failure ?? globalFailure;
    if (!failure) return;
    if (failure.remaining !== null) {
      failure.remaining -= 1;
      if (failure.remaining <= 0) {
        if (ws?.failure === failure) ws.failure = null;
        else globalFailure = null;
      }
    }
    switch (failure.mode) {
      case 'unauthorized':
        throw new NotionApiError(401, 'unauthorized', 'API token is invalid.');
      case 'not_found':
        throw new NotionApiError(
          404,
          'object_not_found',
          'Could not find the object. Make sure the relevant pages and databases are shared with your integration.',
        );
      case 'rate_limited':
        throw new NotionApiError(
          429,
          'rate_limited',
          'You have been rate limited. Please try again in a few minutes.',
          {
            'retry-after': String(failure.retryAfter),
          },
        );
      case 'outage':
        throw new NotionApiError(
          503,
          'service_unavailable',
          'Notion is unavailable, please try again later.',
        );
    }
  };

  const workspaceOf = (req: IncomingMessage): Workspace => {
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const record = m ? tokens.get(m[1]!) : undefined;
    const ws = record && !record.revoked ? workspaces.get(record.workspaceId) : undefined;
    if (!ws) {
      failIfSwitched(null);
      throw new NotionApiError(401, 'unauthorized', 'API token is invalid.');
    }
    return ws;
  };

  const dataSourceIn = (ws: Workspace, id: string) => {
    const ds =
      ws.dataSources.get(id) ??
      [...ws.dataSources.values()].find((d) => d.id.replace(/-/g, '') === id);
    if (!ds || ds.gone) {
      throw new NotionApiError(
        404,
        'object_not_found',
        `Could not find data_source with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
      );
    }
    return ds;
  };

  const pageIn = (ws: Workspace, id: string) => {
    const p = ws.pages.get(id) ?? [...ws.pages.values()].find((x) => x.id.replace(/-/g, '') === id);
    if (!p || p.gone) {
      throw new NotionApiError(
        404,
        'object_not_found',
        `Could not find page with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
      );
    }
    return p;
  };

  async function oauth(req: IncomingMessage, res: ServerResponse, path: string, url: URL) {
    if (path === '/authorize' && req.method === 'GET') {
      const clientId = url.searchParams.get('client_id') ?? '';
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      const state = url.searchParams.get('state') ?? '';
      const error =
        clientId !== options.clientId
          ? 'Unknown client_id: this is not the integration the local stack configures.'
          : url.searchParams.get('response_type') !== 'code'
            ? 'response_type must be code.'
            : !/^https?:\/\//i.test(redirectUri)
              ? 'redirect_uri must be an http(s) URL.'
              : undefined;
      // the form posts here and is redirected to the app: form-action must allow both
      let back = '';
      try {
        back = error ? '' : ` ${new URL(redirectUri).origin}`;
      } catch {
        back = '';
      }
      return sendHtml(
        res,
        error ? 400 : 200,
        authorizePage({
          clientId,
          redirectUri,
          state,
          workspaces: [...workspaces.values()],
          error,
        }),
        PAGE_CSP.replace("form-action 'self'", `form-action 'self'${back}`),
        // with no-referrer, Chromium sends `Origin: null` on the form's POST, which the server
        // refuses as cross-site; same-origin keeps the Origin and still tells the app nothing
        { 'referrer-policy': 'same-origin' },
      );
    }
    if (path === '/authorize' && req.method === 'POST') {
      const form = await readForm(req);
      const redirectUri = form.get('redirect_uri') ?? '';
      const clientId = form.get('client_id') ?? '';
      if (clientId !== options.clientId || !/^https?:\/\//i.test(redirectUri)) {
        throw new HttpError(400, 'Unknown client or redirect_uri');
      }
      const target = new URL(redirectUri);
      const state = form.get('state');
      if (form.get('decision') !== 'allow') {
        target.searchParams.set('error', 'access_denied');
      } else {
        let ws = workspaces.get(form.get('workspace_id') ?? '');
        if (!ws) {
          const email = (form.get('email') ?? '').trim().slice(0, 255) || 'owner@example.com';
          ws = newWorkspace(
            (form.get('workspace_name') ?? '').trim().slice(0, 100) || 'Local workspace',
            email,
            email.split('@')[0]!,
          );
          workspaces.set(ws.id, ws);
        }
        const code = randomBytes(18).toString('base64url');
        codes.set(code, {
          code,
          workspaceId: ws.id,
          clientId,
          redirectUri,
          expires: Date.now() + CODE_TTL_MS,
          used: false,
        });
        target.searchParams.set('code', code);
      }
      if (state !== null) target.searchParams.set('state', state);
      res.writeHead(303, { location: target.href, 'cache-control': 'no-store' });
      res.end();
      return;
    }
    if (req.method !== 'POST') throw new NotionApiError(405, 'invalid_request', 'Use POST.');
    checkClient(req);
    const body = await readJson(req);
    if (path === '/token') {
      failIfSwitched(null);
      if (body.grant_type !== 'authorization_code') {
        return sendJson(res, 400, {
          error: 'unsupported_grant_type',
          error_description: 'Only authorization_code.',
        });
      }
      const record = codes.get(String(body.code ?? ''));
      const redirect = typeof body.redirect_uri === 'string' ? body.redirect_uri : null;
      if (
        !record ||
        record.used ||
        record.expires < Date.now() ||
        record.clientId !== options.clientId ||
        (record.redirectUri && redirect !== record.redirectUri)
      ) {
        if (record) record.used = true;
        return sendJson(res, 400, {
          error: 'invalid_grant',
          error_description:
            'Invalid code: it is unknown, expired, already used, or its redirect_uri does not match.',
        });
      }
      record.used = true;
      const ws = workspaces.get(record.workspaceId)!;
      failIfSwitched(ws);
      const token = `ntn_${randomBytes(24).toString('base64url')}`;
      tokens.set(token, { token, workspaceId: ws.id, revoked: false, createdAt: now() });
      return sendJson(res, 200, {
        access_token: token,
        token_type: 'bearer',
        refresh_token: null,
        bot_id: ws.botId,
        workspace_name: ws.name,
        workspace_icon: null,
        workspace_id: ws.id,
        owner: {
          type: 'user',
          user: {
            object: 'user',
            id: randomUUID(),
            type: 'person',
            name: ws.ownerName,
            avatar_url: null,
            person: { email: ws.ownerEmail },
          },
        },
        duplicated_template_id: null,
        request_id: randomUUID(),
      });
    }
    if (path === '/revoke') {
      const record = tokens.get(String(body.token ?? ''));
      if (!record || record.revoked)
        throw new NotionApiError(401, 'unauthorized', 'API token is invalid.');
      failIfSwitched(workspaces.get(record.workspaceId) ?? null);
      record.revoked = true;
      return sendJson(res, 200, { request_id: randomUUID() });
    }
    if (path === '/introspect') {
      const record = tokens.get(String(body.token ?? ''));
      return sendJson(res, 200, { active: !!record && !record.revoked, request_id: randomUUID() });
    }
    throw new NotionApiError(400, 'invalid_request_url', 'Invalid request URL.');
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string): Promise<number> {
    const version = req.headers['notion-version'];
    if (typeof version !== 'string' || !SUPPORTED_VERSIONS.has(version)) {
      throw new NotionApiError(
        400,
        'missing_version',
        'Notion-Version header failed validation: it must be one of the versions this fake knows.',
      );
    }
    const ws = workspaceOf(req);
    try {
      failIfSwitched(ws);
      const status = await route(ws, req, res, path);
      ws.log.push({ at: now(), method: req.method ?? '', path, status });
      return status;
    } catch (err) {
      if (err instanceof NotionApiError)
        ws.log.push({ at: now(), method: req.method ?? '', path, status: err.status });
      if (ws.log.length > 200) ws.log.splice(0, ws.log.length - 200);
      throw err;
    }
  }

  async function route(
    ws: Workspace,
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
  ): Promise<number> {
    let m: RegExpExecArray | null;
    if (path === '/search' && req.method === 'POST') {
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
      const size = Math.min(100, Math.max(1, Number(body.page_size ?? 100) || 100));
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
    if ((m = /^\/data_sources\/([0-9a-f-]{32,36})$/i.exec(path)) && req.method === 'GET') {
      sendJson(res, 200, dataSourceObject(dataSourceIn(ws, m[1]!), ws, apiBase));
      return 200;
    }
    if ((m = /^\/data_sources\/([0-9a-f-]{32,36})\/query$/i.exec(path)) && req.method === 'POST') {
      const ds = dataSourceIn(ws, m[1]!);
      const body = await readJson(req);
      const conditions: JsonObject[] = isObject(body.filter)
        ? Array.isArray(body.filter.and)
          ? body.filter.and.filter(isObject)
          : [body.filter]
        : [];
      const plain = (v: unknown) =>
        Array.isArray(v)
          ? v.map((r) => (isObject(r) ? String(r.plain_text ?? '') : '')).join('')
          : '';
      const rows = [...ws.pages.values()]
        .filter((p) => !p.gone && p.parent.type === 'data_source_id' && p.parent.id === ds.id)
        .filter((p) =>
          conditions.every((c) => {
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
      const size = Math.min(100, Math.max(1, Number(body.page_size ?? 100) || 100));
      sendJson(res, 200, {
        object: 'list',
        results: rows.slice(0, size).map((p) => pageObject(p, ws, apiBase)),
        next_cursor: null,
        has_more: rows.length > size,
        type: 'page_or_data_source',
        page_or_data_source: {},
        request_id: randomUUID(),
      });
      return 200;
    }
    if (path === '/pages' && req.method === 'POST') {
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
        const ds = dataSourceIn(ws, parent.data_source_id);
        created = newPage(
          { type: 'data_source_id', id: ds.id, databaseId: ds.databaseId },
          rowProperties(ds, body.properties),
          children,
        );
      } else if (typeof parent.page_id === 'string') {
        const parentPage = pageIn(ws, parent.page_id);
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
      sendJson(res, 200, { ...pageObject(created, ws, apiBase), request_id: randomUUID() });
      return 200;
    }
    if ((m = /^\/pages\/([0-9a-f-]{32,36})$/i.exec(path)) && req.method === 'GET') {
      sendJson(res, 200, pageObject(pageIn(ws, m[1]!), ws, apiBase));
      return 200;
    }
    if ((m = /^\/blocks\/([0-9a-f-]{32,36})\/children$/i.exec(path)) && req.method === 'GET') {
      const p = pageIn(ws, m[1]!);
      sendJson(res, 200, {
        object: 'list',
        results: p.children,
        next_cursor: null,
        has_more: false,
        type: 'block',
        block: {},
      });
      return 200;
    }
    throw new NotionApiError(400, 'invalid_request_url', 'Invalid request URL.');
  }

  const workspaceParam = (body: JsonObject, url: URL) => {
    const id = String(body.workspace_id ?? url.searchParams.get('workspace_id') ?? '');
    const ws = workspaces.get(id);
    if (!ws) throw new HttpError(404, `No workspace ${id}`);
    return ws;
  };

  const workspaceView = (ws: Workspace) => ({
    id: ws.id,
    name: ws.name,
    botId: ws.botId,
    ownerEmail: ws.ownerEmail,
    failure: ws.failure,
    tokens: [...tokens.values()]
      .filter((t) => t.workspaceId === ws.id)
      .map((t) => ({ revoked: t.revoked, createdAt: t.createdAt })),
    dataSources: [...ws.dataSources.values()].map((d) => ({
      id: d.id,
      title: d.title,
      gone: d.gone,
      properties: d.properties.map((p) => ({ name: p.name, type: p.type })),
    })),
    pages: [...ws.pages.values()].map((p) => ({
      ...pageObject(p, ws, apiBase),
      title: titleOf(p),
      children: p.children,
      gone: p.gone,
    })),
    log: ws.log.slice(-50),
  });

  async function control(req: IncomingMessage, res: ServerResponse, path: string, url: URL) {
    if (path === '/state' && req.method === 'GET') {
      const id = url.searchParams.get('workspace_id');
      if (id) return sendJson(res, 200, workspaceView(workspaceParam({}, url)));
      return sendJson(res, 200, {
        workspaces: [...workspaces.values()].map((w) => ({ id: w.id, name: w.name })),
        failure: globalFailure,
      });
    }
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    const body = await readJson(req);
    if (path === '/failure') {
      const mode = body.mode === null || body.mode === undefined ? null : String(body.mode);
      if (mode !== null && !['unauthorized', 'not_found', 'rate_limited', 'outage'].includes(mode))
        throw new HttpError(400, 'mode: unauthorized | not_found | rate_limited | outage | null');
      const failure =
        mode === null
          ? null
          : {
              mode: mode as FailureMode,
              remaining: typeof body.count === 'number' ? body.count : null,
              retryAfter: typeof body.retry_after === 'number' ? body.retry_after : 1,
            };
      if (body.workspace_id === undefined) globalFailure = failure;
      else workspaceParam(body, url).failure = failure;
      return sendJson(res, 200, { ok: true, failure });
    }
    if (path === '/revoke') {
      // the owner removed the integration in Notion's settings: every token of the workspace dies
      const ws = workspaceParam(body, url);
      for (const t of tokens.values()) if (t.workspaceId === ws.id) t.revoked = true;
      return sendJson(res, 200, workspaceView(ws));
    }
    if (path === '/data-sources') {
      const ws = workspaceParam(body, url);
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
    if (path === '/unshare') {
      // the owner deleted the database or page, or stopped sharing it with the integration
      const ws = workspaceParam(body, url);
      const id = String(body.id ?? '');
      const target = ws.dataSources.get(id) ?? ws.pages.get(id);
      if (!target) throw new HttpError(404, `No data source or page ${id}`);
      target.gone = true;
      return sendJson(res, 200, { ok: true });
    }
    if (path === '/reset') {
      workspaces.clear();
      tokens.clear();
      codes.clear();
      globalFailure = null;
      return sendJson(res, 200, { ok: true });
    }
    throw new HttpError(404, 'Not found');
  }

  return {
    prefix: '/notion',
    title: 'Notion (fake)',
    workspaces,
    async handle(req, res, path, url) {
      if (path === '/_control' || path.startsWith('/_control/'))
        return control(req, res, path.slice('/_control'.length), url);
      try {
        if (path.startsWith('/v1/oauth/')) {
          await oauth(req, res, path.slice('/v1/oauth'.length), url);
          return;
        }
        if (path.startsWith('/v1/')) {
          await api(req, res, path.slice('/v1'.length));
          return;
        }
      } catch (err) {
        if (err instanceof NotionApiError) return notionError(res, err);
        throw err;
      }
      throw new HttpError(404, 'Not found');
    },
    section() {
      const e = escapeHtml;
      const list = [...workspaces.values()].slice(-10).reverse();
      if (list.length === 0)
        return '<p class="muted">No workspace connected yet. Connect Notion from the dashboard (Profile → Integration): the authorise page is local.</p>';
      return list
        .map((ws) => {
          const rows = [...ws.pages.values()]
            .filter((p) => p.parent.type !== 'workspace')
            .slice(-10)
            .reverse()
            .map((p) => {
              const parent =
                p.parent.type === 'data_source_id'
                  ? ws.dataSources.get(p.parent.id)?.title
                  : p.parent.type === 'page_id'
                    ? titleOf(ws.pages.get(p.parent.id)!)
                    : '';
              return `<tr><td>${e(p.createdTime)}</td><td>${e(parent ?? '')}</td><td class="wrap">${e(titleOf(p))}</td></tr>`;
            })
            .join('');
          const tokensLive = [...tokens.values()].filter(
            (t) => t.workspaceId === ws.id && !t.revoked,
          ).length;
          return `<h3>${e(ws.name)} <span class="muted">(${e(ws.ownerEmail)}; ${tokensLive} live token(s)${ws.failure ? `; failing: ${e(ws.failure.mode)}` : ''}; <a href="/notion/_control/state?workspace_id=${e(ws.id)}">state</a>)</span></h3>
<p>Data sources: ${[...ws.dataSources.values()].map((d) => `${e(d.title)} (${[...ws.pages.values()].filter((p) => p.parent.type === 'data_source_id' && p.parent.id === d.id).length} rows)${d.gone ? ' [unshared]' : ''}`).join(', ')}</p>
${rows ? `<table><thead><tr><th>Created</th><th>In</th><th>Title</th></tr></thead><tbody>${rows}</tbody></table>` : '<p class="muted">No pages written yet.</p>'}`;
        })
        .join('');
    },
    // kept across restarts: the workspaces with what was written to them, and the tokens (a
    // connection the database holds keeps working); not authorisation codes or failure switches
    persistent: {
      save: () => ({
        workspaces: [...workspaces.values()].map((ws) => ({
          ...ws,
          dataSources: entriesOf(ws.dataSources),
          pages: entriesOf(ws.pages),
          failure: null,
          log: [],
        })),
        tokens: entriesOf(tokens),
      }),
      load(saved) {
        const state = saved as { workspaces: Array<Record<string, unknown>>; tokens: unknown };
        for (const raw of state.workspaces) {
          const ws = { ...raw, dataSources: new Map(), pages: new Map() } as unknown as Workspace;
          refill(ws.dataSources, raw.dataSources);
          refill(ws.pages, raw.pages);
          workspaces.set(ws.id, ws);
        }
        refill(tokens, state.tokens);
      },
    },
    reset() {
      workspaces.clear();
      tokens.clear();
      codes.clear();
      globalFailure = null;
    },
  };
}
