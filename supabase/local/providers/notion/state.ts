// The Notion fake's state: workspaces (each authorisation connects one of its own), tokens,
// authorisation codes and the failure switches; the lookups every route makes and the error
// answer in Notion's shape.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loseAnswer, sendJson } from '../http.ts';
import { pageObject, titleOf, type CodeRecord, type TokenRecord, type Workspace } from './model.ts';
import { NotionApiError } from './validate.ts';

export interface NotionFakeOptions {
  clientId: string;
  clientSecret: string;
}

const unshared = (kind: string, id: string) =>
  new NotionApiError(
    404,
    'object_not_found',
    `Could not find ${kind} with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
  );

/** Answers a NotionApiError as Notion does. */
export function notionError(res: ServerResponse, err: NotionApiError) {
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

/** One area of the fake's routes (its OAuth endpoints, its control API), `path` below the area. */
export type NotionRoutes = (
  state: NotionState,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  url: URL,
) => Promise<void>;

export class NotionState {
  readonly workspaces = new Map<string, Workspace>();
  readonly tokens = new Map<string, TokenRecord>();
  readonly codes = new Map<string, CodeRecord>();
  /** A failure switch for every workspace (the control API without workspace_id). */
  globalFailure: Workspace['failure'] = null;

  constructor(
    readonly options: NotionFakeOptions,
    /** The providers server's origin, for the URLs in Notion's objects. */
    readonly apiBase: string,
  ) {}

  reset(): void {
    this.workspaces.clear();
    this.tokens.clear();
    this.codes.clear();
    this.globalFailure = null;
  }

  /** Refuses a request without the integration's client credentials (HTTP Basic). */
  checkClient(req: IncomingMessage): void {
    const header = req.headers.authorization ?? '';
    const m = /^Basic\s+(.+)$/i.exec(header);
    const [id, secret] = m ? Buffer.from(m[1]!, 'base64').toString('utf8').split(':') : [];
    if (id !== this.options.clientId || secret !== this.options.clientSecret) {
      throw new NotionApiError(401, 'unauthorized', 'Invalid client credentials.');
    }
  }

  /**
   * A failure switch in force for this workspace (or all): throws the provider's error. `write`,
   * the answer of a write: a 'lost' switch carries the write out and drops its answer (true);
   * a read (no `write`) is not touched by it.
   */
  failIfSwitched(ws: Workspace | null, write?: ServerResponse): boolean {
    const failure = ws?.failure ?? this.globalFailure;
    if (!failure) return false;
    if (failure.mode === 'lost' && !write) return false;
    if (failure.remaining !== null) {
      failure.remaining -= 1;
      if (failure.remaining <= 0) {
        if (ws?.failure === failure) ws.failure = null;
        else this.globalFailure = null;
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
      case 'lost':
        loseAnswer(write!);
        return true;
    }
  }

  /** The workspace of the request's bearer token, or Notion's 401. */
  workspaceOf(req: IncomingMessage): Workspace {
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const record = m ? this.tokens.get(m[1]!) : undefined;
    const ws = record && !record.revoked ? this.workspaces.get(record.workspaceId) : undefined;
    if (!ws) {
      this.failIfSwitched(null);
      throw new NotionApiError(401, 'unauthorized', 'API token is invalid.');
    }
    return ws;
  }

  /** A data source shared with the integration, by id with or without dashes. */
  dataSourceIn(ws: Workspace, id: string) {
    const ds =
      ws.dataSources.get(id) ??
      [...ws.dataSources.values()].find((d) => d.id.replace(/-/g, '') === id);
    if (!ds || ds.gone) throw unshared('data_source', id);
    return ds;
  }

  /** A page shared with the integration, by id with or without dashes. */
  pageIn(ws: Workspace, id: string) {
    const p = ws.pages.get(id) ?? [...ws.pages.values()].find((x) => x.id.replace(/-/g, '') === id);
    if (!p || p.gone) throw unshared('page', id);
    return p;
  }

  /** A workspace as the control API shows it. */
  workspaceView(ws: Workspace) {
    return {
      id: ws.id,
      name: ws.name,
      botId: ws.botId,
      ownerEmail: ws.ownerEmail,
      failure: ws.failure,
      tokens: [...this.tokens.values()]
        .filter((t) => t.workspaceId === ws.id)
        .map((t) => ({ revoked: t.revoked, createdAt: t.createdAt })),
      dataSources: [...ws.dataSources.values()].map((d) => ({
        id: d.id,
        title: d.title,
        gone: d.gone,
        properties: d.properties.map((p) => ({ name: p.name, type: p.type })),
      })),
      pages: [...ws.pages.values()].map((p) => ({
        ...pageObject(p, ws, this.apiBase),
        title: titleOf(p),
        children: p.children,
        gone: p.gone,
      })),
      log: ws.log.slice(-50),
    };
  }
}
