// The Notion fake (supabase/local/providers/notion) driven by the unmodified @notionhq/client, as
// the edge functions use it: the local authorise page, the token exchange, search, data sources,
// pages, revoke, and the failure switches (401, 404, 429 with Retry-After, outage).
import { APIErrorCode, APIResponseError, Client, isNotionClientError } from '@notionhq/client';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  LOCAL_NOTION,
  notionAuthorize,
  notionControl,
  notionWorkspace,
  providersUrl,
} from './support/providers.ts';

const redirectUri = 'http://127.0.0.1:54323/oauth/notion';
const baseUrl = () => `${providersUrl()}/notion`;
const oauthClient = () => new Client({ baseUrl: baseUrl(), retry: false });
const client = (auth: string) => new Client({ auth, baseUrl: baseUrl(), retry: false });

async function connect(name = `ws-${randomUUID().slice(0, 6)}`) {
  const { code, state } = await notionAuthorize({
    clientId: LOCAL_NOTION.clientId,
    redirectUri,
    state: 'state-123',
    workspaceName: name,
  });
  expect(state).toBe('state-123');
  const token = await oauthClient().oauth.token({
    grant_type: 'authorization_code',
    code: code!,
    redirect_uri: redirectUri,
    client_id: LOCAL_NOTION.clientId,
    client_secret: LOCAL_NOTION.clientSecret,
  });
  return { token, code: code!, notion: client(token.access_token) };
}

/** The error the client throws for a call, with its code and status. */
async function failure(call: Promise<unknown>): Promise<APIResponseError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isNotionClientError(err), String(err)).toBe(true);
  expect(APIResponseError.isAPIResponseError(err)).toBe(true);
  return err as APIResponseError;
}

describe('the local authorise page', () => {
  it('is clearly marked local, escapes what it shows, and checks the client', async () => {
    const url = new URL(`${baseUrl()}/v1/oauth/authorize`);
    url.searchParams.set('client_id', LOCAL_NOTION.clientId);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('owner', 'user');
    url.searchParams.set('redirect_uri', 'http://127.0.0.1:54323/oauth/notion?x="><b>');
    url.searchParams.set('state', '"><script>alert(1)</script>');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Local development authorisation');
    expect(html).not.toContain('<script>alert(1)');
    expect(res.headers.get('content-security-policy')).toContain(
      "form-action 'self' http://127.0.0.1:54323",
    );
    // with no-referrer a browser posts the form with `Origin: null`, which the server refuses
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    url.searchParams.set('client_id', 'someone-else');
    expect((await fetch(url)).status).toBe(400);
  });

  it('Cancel sends the browser back with error=access_denied and the state', async () => {
    const back = await notionAuthorize({
      clientId: LOCAL_NOTION.clientId,
      redirectUri,
      state: 's1',
      decision: 'deny',
    });
    expect(back).toMatchObject({ code: null, state: 's1', error: 'access_denied' });
  });
});

describe('OAuth token exchange and revoke', () => {
  it('exchanges a code once, for the redirect_uri it was issued to, with the client credentials', async () => {
    const { token, code } = await connect('Acme');
    expect(token).toMatchObject({
      token_type: 'bearer',
      workspace_name: 'Acme',
      refresh_token: null,
    });
    expect(token.access_token).toMatch(/^ntn_/);
    // used already
    const again = await oauthClient()
      .oauth.token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: LOCAL_NOTION.clientId,
        client_secret: LOCAL_NOTION.clientSecret,
      })
      .catch((e: unknown) => e as { status: number; body: string });
    expect((again as { status: number }).status).toBe(400);

    const fresh = await notionAuthorize({ clientId: LOCAL_NOTION.clientId, redirectUri });
    const wrongRedirect = await oauthClient()
      .oauth.token({
        grant_type: 'authorization_code',
        code: fresh.code!,
        redirect_uri: 'https://evil.example/oauth/notion',
        client_id: LOCAL_NOTION.clientId,
        client_secret: LOCAL_NOTION.clientSecret,
      })
      .catch((e: unknown) => e as { status: number });
    expect((wrongRedirect as { status: number }).status).toBe(400);

    const fresh2 = await notionAuthorize({ clientId: LOCAL_NOTION.clientId, redirectUri });
    const wrongSecret = await failure(
      oauthClient().oauth.token({
        grant_type: 'authorization_code',
        code: fresh2.code!,
        redirect_uri: redirectUri,
        client_id: LOCAL_NOTION.clientId,
        client_secret: 'nope',
      }),
    );
    expect(wrongSecret.code).toBe(APIErrorCode.Unauthorized);
  });

  it('a revoked token answers 401 unauthorized', async () => {
    const { token, notion } = await connect();
    await notion.search({ filter: { property: 'object', value: 'data_source' } });
    await oauthClient().oauth.revoke({
      token: token.access_token,
      client_id: LOCAL_NOTION.clientId,
      client_secret: LOCAL_NOTION.clientSecret,
    });
    const err = await failure(notion.search({}));
    expect([err.code, err.status]).toEqual([APIErrorCode.Unauthorized, 401]);
  });
});

describe('search, data sources and pages', () => {
  let notion: Client;
  let workspaceId: string;
  beforeAll(async () => {
    const connected = await connect('Data');
    notion = connected.notion;
    workspaceId = connected.token.workspace_id;
  });

  it('search finds the shared data sources and pages separately', async () => {
    const sources = await notion.search({ filter: { property: 'object', value: 'data_source' } });
    expect(sources.results.map((r) => r.object)).toEqual(['data_source', 'data_source']);
    const titles = sources.results.map((r) =>
      'title' in r ? r.title.map((t) => t.plain_text).join('') : '',
    );
    expect(titles.sort()).toEqual(['Feedback', 'Responses']);
    const pages = await notion.search({
      filter: { property: 'object', value: 'page' },
      query: 'lik',
    });
    expect(pages.results).toHaveLength(1);
    expect(pages.results[0]!.object).toBe('page');
  });

  it('creates a row with typed properties, validates like Notion, and finds it by title', async () => {
    const sources = await notion.search({
      query: 'Feedback',
      filter: { property: 'object', value: 'data_source' },
    });
    const id = sources.results[0]!.id;
    const ds = await notion.dataSources.retrieve({ data_source_id: id });
    expect(ds.object).toBe('data_source');
    expect(Object.values(ds.properties).map((p) => p.type)).toContain('multi_select');

    const page = await notion.pages.create({
      parent: { type: 'data_source_id', data_source_id: id },
      properties: {
        Title: { title: [{ text: { content: 'resp-1' } }] },
        'How many sites do you run?': { number: 3 },
        'Which blocks do you use?': { multi_select: [{ name: 'Comment' }, { name: 'Form' }] },
        Email: { email: 'a@example.com' },
        Created: { date: { start: '2026-11-23T10:00:00Z' } },
      },
      children: [
        {
          object: 'block',
          type: 'paragraph',
          paragraph: { rich_text: [{ type: 'text', text: { content: 'Hello' } }] },
        },
      ],
    });
    expect(page.object).toBe('page');

    const wrongType = await failure(
      notion.pages.create({
        parent: { data_source_id: id },
        properties: {
          'How many sites do you run?': { rich_text: [{ text: { content: 'three' } }] },
        },
      }),
    );
    expect([wrongType.status, wrongType.code]).toEqual([400, APIErrorCode.ValidationError]);
    expect(wrongType.message).toContain('is expected to be number');
    const unknown = await failure(
      notion.pages.create({ parent: { data_source_id: id }, properties: { Nope: { number: 1 } } }),
    );
    expect(unknown.message).toBe('Nope is not a property that exists.');
    const comma = await failure(
      notion.pages.create({
        parent: { data_source_id: id },
        properties: { 'Which blocks do you use?': { multi_select: [{ name: 'a, b' }] } },
      }),
    );
    expect(comma.message).toContain('commas');

    const found = await notion.dataSources.query({
      data_source_id: id,
      filter: { property: 'Title', title: { equals: 'resp-1' } },
    });
    expect(found.results.map((p) => p.id)).toEqual([page.id]);
    const state = await notionWorkspace(workspaceId);
    expect(state.pages.find((p) => p.id === page.id)!.children).toHaveLength(1);
  });

  it('creates a page under a page (title only)', async () => {
    const pages = await notion.search({
      query: 'Likes',
      filter: { property: 'object', value: 'page' },
    });
    const child = await notion.pages.create({
      parent: { page_id: pages.results[0]!.id },
      properties: { title: { title: [{ text: { content: 'A like' } }] } },
    });
    expect(child.object).toBe('page');
  });
});

describe('failure switches (per workspace)', () => {
  it('401, 404, 429 with Retry-After, and an outage, each for as many requests as asked', async () => {
    const { notion, token } = await connect();
    const ws = token.workspace_id;
    await notionControl('/failure', {
      workspace_id: ws,
      mode: 'rate_limited',
      retry_after: 7,
      count: 1,
    });
    const limited = await failure(notion.search({}));
    expect([limited.status, limited.code]).toEqual([429, APIErrorCode.RateLimited]);
    expect((limited.headers as Headers).get('retry-after')).toBe('7');
    await notion.search({}); // the count ran out

    await notionControl('/failure', { workspace_id: ws, mode: 'outage', count: 2 });
    expect((await failure(notion.search({}))).status).toBe(503);
    expect((await failure(notion.search({}))).code).toBe(APIErrorCode.ServiceUnavailable);
    await notion.search({});

    await notionControl('/failure', { workspace_id: ws, mode: 'not_found' });
    expect((await failure(notion.search({}))).code).toBe(APIErrorCode.ObjectNotFound);
    await notionControl('/failure', { workspace_id: ws, mode: null });

    const source = (await notion.search({ filter: { property: 'object', value: 'data_source' } }))
      .results[0]!;
    await notionControl('/unshare', { workspace_id: ws, id: source.id });
    const gone = await failure(notion.dataSources.retrieve({ data_source_id: source.id }));
    expect([gone.status, gone.code]).toEqual([404, APIErrorCode.ObjectNotFound]);

    await notionControl('/revoke', { workspace_id: ws });
    expect((await failure(notion.search({}))).status).toBe(401);
  });
});
