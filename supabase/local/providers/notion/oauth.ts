// The Notion fake's OAuth under /notion/v1/oauth: the LOCAL authorise page and its decision,
// and the token, revoke and introspect calls the integration makes with its client credentials.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  HttpError,
  readBody,
  readJson,
  sendConsentPage,
  sendJson,
  type JsonObject,
} from '../http.ts';
import { newWorkspace, now } from './model.ts';
import { authorizePage } from './pages.ts';
import type { NotionRoutes, NotionState } from './state.ts';
import { NotionApiError } from './validate.ts';

const CODE_TTL_MS = 10 * 60_000;

/** Reads an application/x-www-form-urlencoded body (the authorise page's form). */
async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
}

/** GET /authorize: the page, or why the request cannot be authorised. */
function authorizeForm(state: NotionState, res: ServerResponse, url: URL) {
  const { options, workspaces } = state;
  const clientId = url.searchParams.get('client_id') ?? '';
  const redirectUri = url.searchParams.get('redirect_uri') ?? '';
  const stateParam = url.searchParams.get('state') ?? '';
  const error =
    clientId !== options.clientId
      ? 'Unknown client_id: this is not the integration the local stack configures.'
      : url.searchParams.get('response_type') !== 'code'
        ? 'response_type must be code.'
        : !/^https?:\/\//i.test(redirectUri)
          ? 'redirect_uri must be an http(s) URL.'
          : undefined;
  return sendConsentPage(
    res,
    authorizePage({
      clientId,
      redirectUri,
      state: stateParam,
      workspaces: [...workspaces.values()],
      error,
    }),
    redirectUri,
    error,
  );
}

/** POST /authorize: the owner's decision; back to the app with a code or access_denied. */
async function authorizeDecision(state: NotionState, req: IncomingMessage, res: ServerResponse) {
  const { options, workspaces, codes } = state;
  const form = await readForm(req);
  const redirectUri = form.get('redirect_uri') ?? '';
  const clientId = form.get('client_id') ?? '';
  if (clientId !== options.clientId || !/^https?:\/\//i.test(redirectUri)) {
    throw new HttpError(400, 'Unknown client or redirect_uri');
  }
  const target = new URL(redirectUri);
  const stateParam = form.get('state');
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
  if (stateParam !== null) target.searchParams.set('state', stateParam);
  res.writeHead(303, { location: target.href, 'cache-control': 'no-store' });
  res.end();
}

/** POST /token: an unused code for an access token of its workspace. */
function issueToken(state: NotionState, res: ServerResponse, body: JsonObject) {
  const { options, workspaces, codes, tokens } = state;
  // (a 'lost' switch is looked at once the code's workspace is known, below)
  state.failIfSwitched(null);
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
  const lost = state.failIfSwitched(ws, res);
  const token = `ntn_${randomBytes(24).toString('base64url')}`;
  tokens.set(token, { token, workspaceId: ws.id, revoked: false, createdAt: now() });
  // the exchanges a workspace was given tokens by (status 0: its answer was lost)
  ws.log.push({ at: now(), method: 'POST', path: '/oauth/token', status: lost ? 0 : 200 });
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

export const oauth: NotionRoutes = async (state, req, res, path, url) => {
  if (path === '/authorize' && req.method === 'GET') return authorizeForm(state, res, url);
  if (path === '/authorize' && req.method === 'POST') return authorizeDecision(state, req, res);
  if (req.method !== 'POST') throw new NotionApiError(405, 'invalid_request', 'Use POST.');
  state.checkClient(req);
  const body = await readJson(req);
  if (path === '/token') return issueToken(state, res, body);
  if (path === '/revoke') {
    const record = state.tokens.get(String(body.token ?? ''));
    if (!record || record.revoked)
      throw new NotionApiError(401, 'unauthorized', 'API token is invalid.');
    state.failIfSwitched(state.workspaces.get(record.workspaceId) ?? null, res);
    record.revoked = true;
    return sendJson(res, 200, { request_id: randomUUID() });
  }
  if (path === '/introspect') {
    const record = state.tokens.get(String(body.token ?? ''));
    return sendJson(res, 200, { active: !!record && !record.revoked, request_id: randomUUID() });
  }
  throw new NotionApiError(400, 'invalid_request_url', 'Invalid request URL.');
};
