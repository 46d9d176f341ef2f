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
// The parts: state.ts (workspaces, tokens, codes, failure switches), oauth.ts, api.ts, control.ts,
// pages.ts (the authorise page), model.ts (Notion's objects), validate.ts (property values).
import type { FakeContext, ProviderFake } from '../fake.ts';
import { escapeHtml, HttpError, newest, newestEach, sectionTable } from '../http.ts';
import { entriesOf, refill } from '../state-store.ts';
import { api } from './api.ts';
import { control } from './control.ts';
import { titleOf, type Workspace } from './model.ts';
import { oauth } from './oauth.ts';
import { notionError, NotionState, type NotionFakeOptions } from './state.ts';
import { NotionApiError } from './validate.ts';

export type { NotionFakeOptions } from './state.ts';

export interface NotionFake extends ProviderFake {
  workspaces: Map<string, Workspace>;
}

export function createNotionFake(ctx: FakeContext<NotionFakeOptions | undefined>): NotionFake {
  const options: NotionFakeOptions = ctx.options ?? {
    clientId: 'local-notion-client',
    clientSecret: 'local-notion-secret',
  };
  const state = new NotionState(options, `${ctx.baseUrl}`);
  const { workspaces, tokens } = state;

  return {
    prefix: '/notion',
    title: 'Notion (fake)',
    workspaces,
    async handle(req, res, path, url) {
      try {
        if (path.startsWith('/v1/oauth/')) {
          await oauth(state, req, res, path.slice('/v1/oauth'.length), url);
          return;
        }
        if (path.startsWith('/v1/')) {
          await api(state, req, res, path.slice('/v1'.length));
          return;
        }
      } catch (err) {
        if (err instanceof NotionApiError) return notionError(res, err);
        throw err;
      }
      throw new HttpError(404, 'Not found');
    },
    control: (req, res, path, url) => control(state, req, res, path, url),
    section() {
      const e = escapeHtml;
      return newestEach(
        workspaces.values(),
        'No workspace connected yet. Connect Notion from the dashboard (Profile → Integration): the authorise page is local.',
        (ws) => {
          const rows = newest(
            [...ws.pages.values()].filter((p) => p.parent.type !== 'workspace'),
            10,
          )
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
${sectionTable(['Created', 'In', 'Title'], rows, 'No pages written yet.')}`;
        },
      );
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
        const kept = saved as { workspaces: Array<Record<string, unknown>>; tokens: unknown };
        for (const raw of kept.workspaces) {
          const ws = { ...raw, dataSources: new Map(), pages: new Map() } as unknown as Workspace;
          refill(ws.dataSources, raw.dataSources);
          refill(ws.pages, raw.pages);
          workspaces.set(ws.id, ws);
        }
        refill(tokens, kept.tokens);
      },
    },
    reset: () => state.reset(),
  };
}
