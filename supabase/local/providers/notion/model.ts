// State of the Notion fake: workspaces (each with its data sources and pages), OAuth codes and
// tokens, and the objects in the shapes of Notion's API version 2025-09-03 (databases hold data
// sources; rows are pages whose parent is a data source).
import { randomBytes, randomUUID } from 'node:crypto';
import { READ_ONLY_TYPES } from '../../../functions/_shared/notion-pages.ts';

/**
 * The property types of the fake's data sources: the ones a page sets, then the ones Notion
 * computes itself (READ_ONLY_TYPES: a page that sets one is refused, validate.ts).
 */
export const PROPERTY_TYPES = [
  'title',
  'rich_text',
  'number',
  'select',
  'multi_select',
  'status',
  'date',
  'people',
  'files',
  'checkbox',
  'url',
  'email',
  'phone_number',
  'relation',
  ...READ_ONLY_TYPES,
] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export interface SchemaProperty {
  id: string;
  name: string;
  type: PropertyType;
  options?: Array<{ id: string; name: string; color: string }>;
}

export interface DataSource {
  id: string;
  databaseId: string;
  title: string;
  properties: SchemaProperty[];
  createdTime: string;
  /** Unshared or deleted: every request for it answers 404. */
  gone: boolean;
}

export interface Page {
  id: string;
  parent:
    | { type: 'data_source_id'; id: string; databaseId: string }
    | { type: 'page_id'; id: string }
    | { type: 'workspace' };
  /** Property values as Notion answers them ({ id, type, [type]: value }). */
  properties: Record<string, Record<string, unknown>>;
  children: unknown[];
  createdTime: string;
  gone: boolean;
}

/**
 * 'lost': a write (a page written or changed, a token exchanged or revoked) is carried out and its
 * answer never comes (the connection closes); reads (GET, search, query) answer as usual.
 */
export type FailureMode = 'unauthorized' | 'not_found' | 'rate_limited' | 'outage' | 'lost';

export interface Failure {
  mode: FailureMode;
  /** Requests still to fail (null: until cleared). */
  remaining: number | null;
  /** Seconds in Retry-After (rate_limited). */
  retryAfter: number;
}

export interface Workspace {
  id: string;
  name: string;
  botId: string;
  ownerEmail: string;
  ownerName: string;
  dataSources: Map<string, DataSource>;
  pages: Map<string, Page>;
  failure: Failure | null;
  /** Requests answered for this workspace, newest last (bounded). */
  log: Array<{ at: string; method: string; path: string; status: number }>;
}

export interface TokenRecord {
  token: string;
  workspaceId: string;
  revoked: boolean;
  createdAt: string;
}

export interface CodeRecord {
  code: string;
  workspaceId: string;
  clientId: string;
  redirectUri: string | null;
  expires: number;
  used: boolean;
}

export const now = () => new Date().toISOString();
const shortId = () => randomBytes(3).toString('base64url').replace(/[-_]/g, 'x').slice(0, 4);

export function richText(content: string): Record<string, unknown> {
  return {
    type: 'text',
    text: { content, link: null },
    annotations: {
      bold: false,
      italic: false,
      strikethrough: false,
      underline: false,
      code: false,
      color: 'default',
    },
    plain_text: content,
    href: null,
  };
}

export function schemaProperty(
  name: string,
  type: PropertyType,
  options: string[] = [],
): SchemaProperty {
  return {
    id: type === 'title' ? 'title' : encodeURIComponent(shortId()),
    name,
    type,
    ...(type === 'select' || type === 'multi_select' || type === 'status'
      ? { options: options.map((o) => ({ id: shortId(), name: o, color: 'default' })) }
      : {}),
  };
}

export function newDataSource(
  title: string,
  properties: Array<{ name: string; type: PropertyType; options?: string[] }>,
): DataSource {
  const schema = properties.map((p) => schemaProperty(p.name, p.type, p.options));
  if (!schema.some((p) => p.type === 'title')) schema.unshift(schemaProperty('Name', 'title'));
  return {
    id: randomUUID(),
    databaseId: randomUUID(),
    title,
    properties: schema,
    createdTime: now(),
    gone: false,
  };
}

export function newWorkspace(name: string, ownerEmail: string, ownerName: string): Workspace {
  const ws: Workspace = {
    id: randomUUID(),
    name,
    botId: randomUUID(),
    ownerEmail,
    ownerName,
    dataSources: new Map(),
    pages: new Map(),
    failure: null,
    log: [],
  };
  // what a new workspace holds: two databases shared with the integration and two pages
  for (const ds of [
    newDataSource('Responses', [
      { name: 'Name', type: 'title' },
      { name: 'Response ID', type: 'rich_text' },
      { name: 'Block', type: 'rich_text' },
      { name: 'Creator', type: 'rich_text' },
      { name: 'Content', type: 'rich_text' },
      { name: 'Created', type: 'date' },
      { name: 'Kind', type: 'select' },
    ]),
    newDataSource('Feedback', [
      { name: 'Title', type: 'title' },
      { name: 'Your name', type: 'rich_text' },
      { name: 'Email', type: 'email' },
      { name: 'How many sites do you run?', type: 'number' },
      { name: 'Which blocks do you use?', type: 'multi_select' },
      { name: 'Anything else?', type: 'rich_text' },
      { name: 'Created', type: 'date' },
      { name: 'Done', type: 'checkbox' },
    ]),
  ]) {
    ws.dataSources.set(ds.id, ds);
  }
  for (const title of ['Likes', 'Reaction Blocks notes']) {
    const page = newPage(
      { type: 'workspace' },
      { title: { id: 'title', type: 'title', title: [richText(title)] } },
    );
    ws.pages.set(page.id, page);
  }
  return ws;
}

export function newPage(
  parent: Page['parent'],
  properties: Page['properties'],
  children: unknown[] = [],
): Page {
  return { id: randomUUID(), parent, properties, children, createdTime: now(), gone: false };
}

export const titleOf = (page: Page): string => {
  const title = Object.values(page.properties).find((p) => p.type === 'title');
  const parts = (title?.title as Array<{ plain_text?: string }> | undefined) ?? [];
  return parts.map((p) => p.plain_text ?? '').join('');
};

const user = (id: string) => ({ object: 'user', id });

export function dataSourceObject(
  ds: DataSource,
  ws: Workspace,
  baseUrl: string,
): Record<string, unknown> {
  return {
    object: 'data_source',
    id: ds.id,
    created_time: ds.createdTime,
    last_edited_time: ds.createdTime,
    created_by: user(ws.botId),
    last_edited_by: user(ws.botId),
    title: [richText(ds.title)],
    description: [],
    icon: null,
    cover: null,
    properties: Object.fromEntries(
      ds.properties.map((p) => [
        p.name,
        {
          id: p.id,
          name: p.name,
          description: '',
          type: p.type,
          [p.type]: p.options ? { options: p.options } : {},
        },
      ]),
    ),
    parent: { type: 'database_id', database_id: ds.databaseId },
    database_parent: { type: 'workspace', workspace: true },
    url: `${baseUrl}/notion/${ds.databaseId.replace(/-/g, '')}`,
    public_url: null,
    archived: false,
    in_trash: false,
    is_inline: false,
    request_id: randomUUID(),
  };
}

export function pageObject(page: Page, ws: Workspace, baseUrl: string): Record<string, unknown> {
  const parent =
    page.parent.type === 'data_source_id'
      ? {
          type: 'data_source_id',
          data_source_id: page.parent.id,
          database_id: page.parent.databaseId,
        }
      : page.parent.type === 'page_id'
        ? { type: 'page_id', page_id: page.parent.id }
        : { type: 'workspace', workspace: true };
  return {
    object: 'page',
    id: page.id,
    created_time: page.createdTime,
    last_edited_time: page.createdTime,
    created_by: user(ws.botId),
    last_edited_by: user(ws.botId),
    cover: null,
    icon: null,
    parent,
    archived: false,
    in_trash: false,
    is_locked: false,
    properties: page.properties,
    url: `${baseUrl}/notion/${page.id.replace(/-/g, '')}`,
    public_url: null,
  };
}
