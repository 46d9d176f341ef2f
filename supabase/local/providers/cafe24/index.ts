// The Cafe24 fake at /cafe24: the parts of Cafe24's OAuth 2.0 and Admin API an app that places
// script tags uses, per mall at /cafe24/<mall_id> (production: https://<mall_id>.cafe24api.com).
//   GET/POST /cafe24/<mall>/api/v2/oauth/authorize   a LOCAL stand-in for the app consent page
//   POST     /cafe24/<mall>/api/v2/oauth/token       code or refresh token -> tokens (HTTP Basic)
//   GET/POST /cafe24/<mall>/api/v2/admin/scripttags  the app's script tags; /count
//   GET/PUT/DELETE /cafe24/<mall>/api/v2/admin/scripttags/<script_no>
//   GET      /cafe24/<mall>/ and /cafe24/<mall>/product/...  a stand-in storefront loading the tags
//   /cafe24/_control/...                              tests and developers (README.md)
// Errors in Cafe24's shapes: the token endpoint as OAuth 2.0 ({error, error_description}), the
// Admin API as {error: {code, message, more_info}}, with X-Api-Call-Limit on every Admin call.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeContext, ProviderFake } from '../fake.ts';
import {
  escapeHtml,
  HttpError,
  isObject,
  loseAnswer,
  newestEach,
  readBody,
  readJson,
  sectionTable,
  sendConsentPage,
  sendHtml,
  sendJson,
} from '../http.ts';
import {
  BUCKET_SIZE,
  cafe24Date,
  CODE_TTL_MS,
  DISPLAY_LOCATIONS,
  issueTokens,
  MALL_ID,
  newMall,
  opaque,
  takeCall,
  tokenJson,
  type CodeRecord,
  type Mall,
  type ScriptTag,
  type TokenRecord,
} from './model.ts';
import { authorizePage, storefrontPage, tagsFor, type StorefrontScreen } from './pages.ts';

export interface Cafe24FakeOptions {
  clientId: string;
  clientSecret: string;
}

export interface Cafe24Fake extends ProviderFake {
  malls: Map<string, Mall>;
}

const SCOPES = new Set([
  'mall.read_application',
  'mall.write_application',
  'mall.read_store',
  'mall.read_product',
  'mall.read_design',
  'mall.write_design',
]);

class AdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const oauthError = (res: ServerResponse, status: number, error: string, description: string) =>
  sendJson(res, status, { error, error_description: description });

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
}

const strings = (value: unknown): string[] | null =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : null;

export function createCafe24Fake(ctx: FakeContext<Cafe24FakeOptions | undefined>): Cafe24Fake {
  const options: Cafe24FakeOptions = ctx.options ?? {
    clientId: 'local-cafe24-client-id',
    clientSecret: 'local-cafe24-client-secret',
  };
  const malls = new Map<string, Mall>();
  const codes = new Map<string, CodeRecord>();

  const mallOf = (id: string): Mall => {
    let mall = malls.get(id);
    if (!mall) {
      mall = newMall(id);
      malls.set(id, mall);
      if (malls.size > 500) malls.delete(malls.keys().next().value!);
    }
    return mall;
  };

  const clientOf = (req: IncomingMessage): boolean => {
    const m = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const [id, secret] = m ? Buffer.from(m[1]!, 'base64').toString('utf8').split(':') : [];
    return id === options.clientId && secret === options.clientSecret;
  };

  // ---- OAuth -------------------------------------------------------------------------------

  async function authorize(req: IncomingMessage, res: ServerResponse, mall: Mall, url: URL) {
    if (req.method === 'GET') {
      const q = url.searchParams;
      const clientId = q.get('client_id') ?? '';
      const redirectUri = q.get('redirect_uri') ?? '';
      const state = q.get('state') ?? '';
      const scope = q.get('scope') ?? '';
      const unknownScope = scope
        .split(',')
        .map((s) => s.trim())
        .find((s) => s && !SCOPES.has(s));
      const error =
        clientId !== options.clientId
          ? 'invalid_client: this is not the app the local stack configures.'
          : q.get('response_type') !== 'code'
            ? 'unsupported_response_type: response_type must be code.'
            : !/^https?:\/\//i.test(redirectUri)
              ? 'invalid_request: redirect_uri must be an http(s) URL registered for the app.'
              : !state
                ? 'invalid_request: state is required.'
                : !scope
                  ? 'invalid_scope: scope is required.'
                  : unknownScope
                    ? `invalid_scope: ${unknownScope}`
                    : undefined;
      return sendConsentPage(
        res,
        authorizePage({ mallId: mall.id, clientId, redirectUri, state, scope, error }),
        redirectUri,
        error,
      );
    }
    if (req.method !== 'POST') throw new HttpError(405, 'Use GET or POST');
    const form = await readForm(req);
    const redirectUri = form.get('redirect_uri') ?? '';
    if (form.get('client_id') !== options.clientId || !/^https?:\/\//i.test(redirectUri)) {
      throw new HttpError(400, 'Unknown client or redirect_uri');
    }
    const target = new URL(redirectUri);
    if (form.get('decision') !== 'allow') {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The operator did not allow the app.');
    } else {
      const code = opaque(18);
      codes.set(code, {
        code,
        mallId: mall.id,
        clientId: options.clientId,
        redirectUri,
        scopes: (form.get('scope') ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        userId: mall.id,
        expires: Date.now() + CODE_TTL_MS,
        used: false,
      });
      if (codes.size > 2000) codes.delete(codes.keys().next().value!);
      target.searchParams.set('code', code);
    }
    target.searchParams.set('state', form.get('state') ?? '');
    res.writeHead(302, { location: target.href, 'cache-control': 'no-store' });
    res.end();
  }

  async function token(req: IncomingMessage, res: ServerResponse, mall: Mall) {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    if (!clientOf(req))
      return oauthError(res, 401, 'invalid_client', 'Client authentication failed.');
    if (mall.failure === 'outage') return sendJson(res, 503, { error: 'service_unavailable' });
    const form = await readForm(req);
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const record = codes.get(form.get('code') ?? '');
      if (
        !record ||
        record.used ||
        record.expires < Date.now() ||
        record.mallId !== mall.id ||
        record.redirectUri !== (form.get('redirect_uri') ?? '')
      ) {
        if (record) record.used = true;
        return oauthError(
          res,
          400,
          'invalid_grant',
          'Validation error: the code is unknown, expired (it lives one minute), already used, of another mall, or its redirect_uri does not match.',
        );
      }
      record.used = true;
      const t = issueTokens(mall, record.clientId, record.scopes, record.userId);
      return sendJson(res, 200, tokenJson(mall, t));
    }
    if (grant === 'refresh_token') {
      const presented = form.get('refresh_token') ?? '';
      const t = mall.tokens.find((x) => x.refreshToken === presented);
      if (!t || t.ended || t.refreshExpires < Date.now() || mall.refuseRefresh) {
        return oauthError(res, 400, 'invalid_grant', 'Validation error: refresh_token is invalid.');
      }
      t.ended = true; // the new pair replaces it
      const next = issueTokens(mall, t.clientId, t.scopes, t.userId);
      return sendJson(res, 200, tokenJson(mall, next));
    }
    return oauthError(
      res,
      400,
      'unsupported_grant_type',
      'Only authorization_code and refresh_token.',
    );
  }

  // ---- Admin API ---------------------------------------------------------------------------

  const bearerOf = (req: IncomingMessage, mall: Mall): TokenRecord => {
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const t = m ? mall.tokens.find((x) => x.accessToken === m[1]) : undefined;
    if (!t) throw new AdminError(401, 'Invalid access_token. (invalid_token)');
    // a refreshed pair ends the old refresh token; the old access token lives out its time
    if (t.accessExpires < Date.now())
      throw new AdminError(401, 'access_token time expired. (invalid_token)');
    return t;
  };

  const need = (t: TokenRecord, scope: 'read' | 'write') => {
    const ok =
      t.scopes.includes('mall.write_application') ||
      (scope === 'read' && t.scopes.includes('mall.read_application'));
    if (!ok)
      throw new AdminError(
        403,
        `[mall.${scope}_application] scope is required for this request. (insufficient_scope)`,
      );
  };

  const tagJson = (tag: ScriptTag) => ({ ...tag });

  const validTag = (input: Record<string, unknown>, creating: boolean) => {
    const src = input.src;
    if (creating || src !== undefined) {
      let url: URL | null = null;
      try {
        url = typeof src === 'string' ? new URL(src) : null;
      } catch {
        url = null;
      }
      // Cafe24 takes https only; the fake also takes http on this machine (the local CDN)
      const local = url && ['127.0.0.1', 'localhost'].includes(url.hostname);
      if (!url || !(url.protocol === 'https:' || (local && url.protocol === 'http:')))
        throw new AdminError(422, 'src must be an https URL.');
      if ((src as string).length > 1000) throw new AdminError(422, 'src is too long.');
    }
    const locations = input.display_location;
    if (creating || locations !== undefined) {
      const list = strings(locations);
      if (!list || list.length === 0 || list.some((l) => !DISPLAY_LOCATIONS.has(l)))
        throw new AdminError(422, 'display_location is invalid.');
    }
    if (input.exclude_path !== undefined && !strings(input.exclude_path))
      throw new AdminError(422, 'exclude_path must be an array of paths.');
    if (
      input.skin_no !== undefined &&
      !(Array.isArray(input.skin_no) && input.skin_no.every((n) => Number.isInteger(n) && n > 0))
    )
      throw new AdminError(422, 'skin_no must be an array of skin numbers.');
    if (
      input.integrity !== undefined &&
      input.integrity !== null &&
      input.integrity !== '' &&
      !(
        typeof input.integrity === 'string' &&
        /^sha(256|384|512)-[A-Za-z0-9+/]+={0,2}$/.test(input.integrity)
      )
    )
      throw new AdminError(422, 'integrity must be a Subresource Integrity value (sha384-...).');
  };

  async function admin(
    req: IncomingMessage,
    res: ServerResponse,
    mall: Mall,
    path: string,
  ): Promise<number> {
    const version = req.headers['x-cafe24-api-version'];
    if (version !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(String(version)))
      throw new AdminError(400, 'X-Cafe24-Api-Version is invalid.');
    if (mall.failure === 'outage') throw new AdminError(503, 'Service Unavailable');
    const level = takeCall(mall);
    if (level === null)
      throw new AdminError(429, 'Too Many Requests', {
        'x-api-call-limit': `${BUCKET_SIZE}/${BUCKET_SIZE}`,
      });
    const headers = { 'x-api-call-limit': `${level}/${BUCKET_SIZE}` };
    const t = bearerOf(req, mall);
    let m: RegExpExecArray | null;
    if (path === '/scripttags' && req.method === 'GET') {
      need(t, 'read');
      const list = [...mall.scriptTags.values()].filter((s) => s.client_id === t.clientId);
      sendJson(res, 200, { scripttags: list.map(tagJson) }, headers);
      return 200;
    }
    if (path === '/scripttags/count' && req.method === 'GET') {
      need(t, 'read');
      const n = [...mall.scriptTags.values()].filter((s) => s.client_id === t.clientId).length;
      sendJson(res, 200, { count: n }, headers);
      return 200;
    }
    if (path === '/scripttags' && req.method === 'POST') {
      need(t, 'write');
      const body = await readJson(req);
      const input = isObject(body.request) ? body.request : null;
      if (!input) throw new AdminError(400, 'request is required.');
      validTag(input, true);
      const now = Date.now();
      const tag: ScriptTag = {
        shop_no: Number(body.shop_no ?? 1) || 1,
        script_no: String(now * 1000 + mall.nextScriptNo++),
        client_id: t.clientId,
        src: input.src as string,
        display_location: strings(input.display_location)!,
        exclude_path: strings(input.exclude_path) ?? [],
        skin_no: (input.skin_no as number[] | undefined) ?? [],
        integrity: (input.integrity as string | null | undefined) || null,
        created_date: cafe24Date(now),
        updated_date: cafe24Date(now),
      };
      mall.scriptTags.set(tag.script_no, tag);
      sendJson(res, 201, { scripttag: tagJson(tag) }, headers);
      return 201;
    }
    if ((m = /^\/scripttags\/([0-9]{1,30})$/.exec(path))) {
      const tag = mall.scriptTags.get(m[1]!);
      if (req.method === 'GET' || req.method === 'PUT')
        need(t, req.method === 'GET' ? 'read' : 'write');
      else if (req.method === 'DELETE') need(t, 'write');
      else throw new AdminError(405, 'Method Not Allowed');
      if (!tag || tag.client_id !== t.clientId) throw new AdminError(404, 'No resource found.');
      if (req.method === 'GET') {
        sendJson(res, 200, { scripttag: tagJson(tag) }, headers);
        return 200;
      }
      if (req.method === 'DELETE') {
        mall.scriptTags.delete(tag.script_no);
        sendJson(res, 200, { scripttag: { script_no: tag.script_no } }, headers);
        return 200;
      }
      const body = await readJson(req);
      const input = isObject(body.request) ? body.request : null;
      if (!input) throw new AdminError(400, 'request is required.');
      validTag(input, false);
      if (input.src !== undefined) tag.src = input.src as string;
      if (input.display_location !== undefined)
        tag.display_location = strings(input.display_location)!;
      if (input.exclude_path !== undefined) tag.exclude_path = strings(input.exclude_path)!;
      if (input.skin_no !== undefined) tag.skin_no = input.skin_no as number[];
      if (input.integrity !== undefined) tag.integrity = (input.integrity as string | null) || null;
      tag.updated_date = cafe24Date(Date.now());
      sendJson(res, 200, { scripttag: tagJson(tag) }, headers);
      return 200;
    }
    throw new AdminError(404, 'No API found.');
  }

  // ---- control -----------------------------------------------------------------------------

  const state = (mall: Mall) => ({
    mallId: mall.id,
    failure: mall.failure,
    refuseRefresh: mall.refuseRefresh,
    bucket: Math.ceil(mall.bucket),
    scriptTags: [...mall.scriptTags.values()],
    tokens: mall.tokens.map((t) => ({
      clientId: t.clientId,
      scopes: t.scopes,
      ended: t.ended,
      accessExpiresAt: new Date(t.accessExpires).toISOString(),
      refreshExpiresAt: new Date(t.refreshExpires).toISOString(),
    })),
    log: mall.log.slice(-50),
  });

  async function control(req: IncomingMessage, res: ServerResponse, path: string, url: URL) {
    if (path === '/state' && req.method === 'GET') {
      const id = url.searchParams.get('mall') ?? '';
      if (!MALL_ID.test(id)) throw new HttpError(400, 'mall must be a mall id');
      return sendJson(res, 200, state(mallOf(id)));
    }
    const m = /^\/malls\/([a-z0-9]{4,16})$/.exec(path);
    if (m && req.method === 'POST') {
      const mall = mallOf(m[1]!);
      const body = await readJson(req);
      if (body.failure !== undefined) {
        if (body.failure !== null && body.failure !== 'outage' && body.failure !== 'lost')
          throw new HttpError(400, 'failure: "outage", "lost" or null');
        mall.failure = body.failure;
      }
      if (body.refuseRefresh !== undefined) mall.refuseRefresh = body.refuseRefresh === true;
      // every access token expires now (the next Admin call needs a refresh)
      if (body.expireAccess === true) for (const t of mall.tokens) t.accessExpires = Date.now() - 1;
      // the bucket full: the next Admin call answers 429
      if (body.fillBucket === true) {
        mall.bucket = BUCKET_SIZE;
        mall.bucketAt = Date.now();
      }
      // the operator deletes the app in the mall's admin: its tokens and script tags go
      if (body.uninstall === true) {
        for (const t of mall.tokens) {
          t.ended = true;
          t.accessExpires = 0;
          t.refreshExpires = 0;
        }
        for (const [no, tag] of mall.scriptTags)
          if (tag.client_id === options.clientId) mall.scriptTags.delete(no);
      }
      // a script tag someone else (another app, the operator) left in the mall
      if (isObject(body.addTag)) {
        const now = Date.now();
        const tag: ScriptTag = {
          shop_no: 1,
          script_no: String(now * 1000 + mall.nextScriptNo++),
          client_id: String(body.addTag.client_id ?? options.clientId),
          src: String(body.addTag.src ?? 'https://example.com/app.js'),
          display_location: strings(body.addTag.display_location) ?? ['all'],
          exclude_path: [],
          skin_no: [],
          integrity: null,
          created_date: cafe24Date(now),
          updated_date: cafe24Date(now),
        };
        mall.scriptTags.set(tag.script_no, tag);
      }
      return sendJson(res, 200, state(mall));
    }
    throw new HttpError(404, 'Not found');
  }

  // ---- storefront --------------------------------------------------------------------------

  function storefront(res: ServerResponse, mall: Mall, path: string, url: URL) {
    let screen: StorefrontScreen | null = null;
    let productNo: number | null = null;
    let m: RegExpExecArray | null;
    if (path === '/' || path === '/index.html') screen = 'MAIN';
    else if (path === '/product/detail.html') {
      screen = 'PRODUCT_DETAIL';
      productNo = Number(url.searchParams.get('product_no')) || null;
    } else if ((m = /^\/product\/[^/]+\/(\d+)(?:\/.*)?$/.exec(path))) {
      screen = 'PRODUCT_DETAIL';
      productNo = Number(m[1]);
    }
    if (!screen) throw new HttpError(404, 'Not a page of the stand-in storefront');
    const tags = tagsFor(mall, screen);
    const origins = new Set<string>();
    for (const t of tags) {
      try {
        origins.add(new URL(t.src).origin);
      } catch {
        // not loaded anyway
      }
    }
    const scriptSrc = [...origins].join(' ') || "'none'";
    // the tags' own origins may run scripts (and load their chunks); they talk to any local API
    const csp = `default-src 'self'; script-src ${scriptSrc}; style-src 'self' 'unsafe-inline'; img-src * data:; connect-src http://127.0.0.1:* ws://127.0.0.1:* http://localhost:* ws://localhost:*; frame-src 'self' http://127.0.0.1:* http://localhost:*; frame-ancestors 'none'; base-uri 'none'`;
    sendHtml(res, 200, storefrontPage(mall, screen, productNo, `/cafe24/${mall.id}`), csp);
  }

  const logCall = (mall: Mall, method: string, path: string, status: number) => {
    mall.log.push({ at: new Date().toISOString(), method, path, status });
    if (mall.log.length > 200) mall.log.splice(0, mall.log.length - 200);
  };

  return {
    prefix: '/cafe24',
    title: 'Cafe24 (fake)',
    malls,
    async handle(req, res, path, url) {
      const m = /^\/([^/]+)(\/.*)?$/.exec(path);
      if (!m || !MALL_ID.test(m[1]!))
        throw new HttpError(404, 'No such mall (a mall id is 4 to 16 of a-z 0-9)');
      const mall = mallOf(m[1]!);
      const rest = m[2] ?? '/';
      if (rest === '/api/v2/oauth/authorize') return authorize(req, res, mall, url);
      const api = rest === '/api/v2/oauth/token' || rest.startsWith('/api/v2/admin/');
      // a write carried out whose answer is lost: logged with status 0
      const lost = api && mall.failure === 'lost' && req.method !== 'GET' && req.method !== 'HEAD';
      if (lost) loseAnswer(res);
      if (rest === '/api/v2/oauth/token') {
        await token(req, res, mall);
        logCall(mall, req.method ?? '', rest, lost ? 0 : res.statusCode);
        return;
      }
      if (rest.startsWith('/api/v2/admin/')) {
        try {
          const status = await admin(req, res, mall, rest.slice('/api/v2/admin'.length));
          logCall(mall, req.method ?? '', rest, lost ? 0 : status);
        } catch (err) {
          if (!(err instanceof AdminError)) throw err;
          logCall(mall, req.method ?? '', rest, lost ? 0 : err.status);
          sendJson(
            res,
            err.status,
            { error: { code: err.status, message: err.message, more_info: {} } },
            err.headers,
          );
        }
        return;
      }
      if (req.method === 'GET') return storefront(res, mall, rest, url);
      throw new HttpError(404, 'Not found');
    },
    control,
    section() {
      const e = escapeHtml;
      return newestEach(
        malls.values(),
        'No mall connected yet. Connect a Cafe24 shop from the dashboard (Profile → Integration) with any mall id of 4 to 16 letters and digits: the consent page is local.',
        (mall) => {
          const tags = [...mall.scriptTags.values()]
            .map(
              (t) =>
                `<tr><td>${e(t.script_no)}</td><td>${e(t.display_location.join(', '))}</td><td class="wrap">${e(t.src)}</td><td>${t.integrity ? 'yes' : 'no'}</td></tr>`,
            )
            .join('');
          const live = mall.tokens.filter((t) => !t.ended && t.refreshExpires > Date.now()).length;
          return `<h3>${e(mall.id)} <span class="muted">(${live} live token pair(s)${mall.failure ? `; failing: ${e(mall.failure)}` : ''}; <a href="/cafe24/_control/state?mall=${e(mall.id)}">state</a>)</span></h3>
<p>Storefront: <a href="/cafe24/${e(mall.id)}/index.html">home</a>${mall.products.map((p) => ` · <a href="/cafe24/${e(mall.id)}/product/detail.html?product_no=${p.no}">${e(p.name)}</a>`).join('')}</p>
${sectionTable(['script_no', 'display_location', 'src', 'integrity'], tags, 'No script tags installed.')}`;
        },
      );
    },
    // kept across restarts: the malls with the app's tokens and script tags (a shop the database
    // holds keeps working); not authorisation codes, failure switches, buckets or logs
    persistent: {
      save: () => ({
        malls: [...malls.values()].map((m) => ({
          ...m,
          scriptTags: [...m.scriptTags.values()],
          failure: null,
          refuseRefresh: false,
          bucket: 0,
          log: [],
        })),
      }),
      load(saved) {
        const state = saved as { malls?: Array<Record<string, unknown>> };
        for (const raw of state.malls ?? []) {
          const mall = {
            ...newMall(String(raw.id)),
            ...raw,
            scriptTags: new Map(
              ((raw.scriptTags as ScriptTag[] | undefined) ?? []).map((t) => [t.script_no, t]),
            ),
            bucketAt: Date.now(),
          } as Mall;
          malls.set(mall.id, mall);
        }
      },
    },
    reset() {
      malls.clear();
      codes.clear();
    },
  };
}
