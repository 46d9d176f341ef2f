/** A fake of the server contract: fetch is replaced; each RPC name maps to a handler. */
import type { BlockView, Message } from '../core/types.js';
import { eventually } from '../../../scripts/poll.js';

export const PROJECT = 'http://api.test';
export const KEY = 'anon-key';
/**
 * A block id as an element's block-id takes it (a uuid): `idOf('b2')` for another block (up to 4
 * characters, which make its first 8 digits: core/marks.ts tells blocks apart by the start). The
 * fake server answers any id; a test's views keep their short ids ('b1').
 */
export const idOf = (name: string) =>
  [...name.slice(0, 4)]
    .map((c) => c.charCodeAt(0).toString(16))
    .join('')
    .padEnd(8, '0') + '-0000-4000-8000-000000000000';
export const B1 = idOf('b1');

export interface Call {
  name: string;
  /** The JSON body of a POST, or the query parameters of a GET. */
  body: Record<string, unknown>;
  auth: string;
  method: string;
}

type Handler = (body: Record<string, unknown>) => unknown;

export class ApiError {
  constructor(
    public status: number,
    public message: string,
    /** PostgREST's code: P0001 by default; the visitor RPCs raise PT404 for a missing block. */
    public code = 'P0001',
    /** PostgREST's details: rate_limit / captcha (429), honeypot, blocked. */
    public details: string | null = null,
    /** PostgREST's hint: a 429's wait as JSON ({"retry_after": 20, "action": "message", "scope": "visitor"}). */
    public hint: string | null = null,
  ) {}
}

export function fakeJwt(sub: string, extra: Record<string, unknown> = {}): string {
  const b = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '');
  return `${b({ alg: 'HS256' })}.${b({ sub, exp: Math.floor(Date.now() / 1000) + 3600, ...extra })}.sig`;
}

/** A handler's answer, or the request's abort (its signal: a timeout), whichever comes first. */
function abortable(answer: unknown, signal?: AbortSignal | null): unknown {
  if (!signal) return answer;
  const aborted = new Promise((_, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop);
  });
  return Promise.race([answer, aborted]);
}

/** The mock API made last (what mockApiPerTest restores after a test). */
let latest: { restore: () => void } | undefined;

export function mockApi(handlers: Record<string, Handler>) {
  const calls: Call[] = [];
  const real = window.fetch;
  let n = 0;
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const headers = (init?.headers || {}) as Record<string, string>;
    const method = init?.method || 'GET';
    // any project's origin (live tests use one project per test)
    const [path = '', query = ''] = url.replace(/^[a-z]+:\/\/[^/]+/, '').split('?');
    const body = init?.body
      ? JSON.parse(String(init.body))
      : Object.fromEntries(new URLSearchParams(query));
    const name = path.startsWith('/rest/v1/rpc/') ? path.slice(13) : path;
    calls.push({ name, body, auth: headers.Authorization || '', method });
    await new Promise((r) => setTimeout(r, 1));
    if (name === '/auth/v1/signup' && !handlers[name]) {
      const id = 'anon-user-' + ++n;
      return Response.json({
        access_token: fakeJwt(id, { is_anonymous: true }),
        // long enough that a sealed value cannot contain it by chance (storage.test looks for it)
        refresh_token: 'refresh-token-' + n,
        expires_in: 3600,
        user: { id, is_anonymous: true },
      });
    }
    const h = handlers[name] || derived(handlers, name);
    if (!h)
      return Response.json({ code: 'PGRST202', message: 'no function ' + name }, { status: 404 });
    try {
      const out = await abortable(h(body), init?.signal);
      // a handler may answer as a server other than PostgREST does (the auth server's errors)
      return out instanceof Response ? out : Response.json(out);
    } catch (e) {
      if (e instanceof ApiError)
        return Response.json(
          { code: e.code, message: e.message, details: e.details, hint: e.hint },
          { status: e.status },
        );
      throw e;
    }
  };
  const api = {
    calls,
    rpcCalls: () => calls.filter((c) => !c.name.startsWith('/')),
    /** The RPC names called, in order. */
    rpcNames: () => calls.filter((c) => !c.name.startsWith('/')).map((c) => c.name),
    restore: () => (window.fetch = real),
  };
  latest = api;
  return api;
}

/**
 * The set-up of a describe block whose tests each make their own mock API: every test starts on
 * a fresh page (reset) and the mock API it made last is restored after it.
 */
export function mockApiPerTest(): void {
  beforeEach(reset);
  afterEach(() => {
    latest?.restore();
    latest = undefined;
  });
}

/**
 * Calls `fn` the moment a request for the RPC `name` is sent, before the fake server answers it
 * (what the page holds then); mockApi's restore() undoes it.
 */
export function onSend(name: string, fn: () => void): void {
  const fetched = window.fetch;
  window.fetch = (input, init) => {
    if (String(input).endsWith('/rpc/' + name)) fn();
    return fetched(input, init);
  };
}

/**
 * The split block view from a test's get_block_view handler, as the server splits it:
 * get_block_public is the view without `me` and the per-visitor `liked`; get_block_me is its `me`
 * (and nothing the public page lacks).
 */
function derived(handlers: Record<string, Handler>, name: string): Handler | undefined {
  const full = handlers.get_block_view;
  if (!full) return undefined;
  if (name === 'get_block_public')
    return async (body) => {
      const v = (await full(body)) as BlockView;
      if (!v || !v.block) return v;
      const { me: _, ...pub } = v;
      const bare = (m: Message): Message => {
        const { liked: _l, ...rest } = m;
        return { ...rest, ...(m.replies ? { replies: m.replies.map(bare) } : {}) };
      };
      return { ...pub, messages: pub.messages?.map(bare) };
    };
  if (name === 'get_block_me')
    return async (body) => {
      const v = (await full({ p_block_id: body.p_block_id })) as BlockView;
      const liked = new Set(v.me?.liked_message_ids || []);
      for (const m of v.messages || [])
        for (const x of [m, ...(m.replies || [])]) if (x.liked) liked.add(x.id);
      return { me: { ...v.me, liked_message_ids: [...liked] }, messages: [], replies: [] };
    };
  return undefined;
}

export function block(over: Partial<BlockView['block']> = {}): BlockView['block'] {
  return {
    id: 'b1',
    owner_id: 'owner-1',
    type: 'like',
    theme: 'light',
    language: 'en',
    like_count: 0,
    response_count: 0,
    allow_reaction: true,
    allow_reply: true,
    ...over,
  };
}

/** The view of a comment block (or as `over` says) with no messages yet, read by no one in particular. */
export const commentView = (over: Partial<BlockView['block']> = {}) => ({
  block: block({ type: 'comment', ...over }),
  messages: [],
  me: {},
});

/**
 * A stored session, as after a first write (anonymous) or a sign-in, with `user`'s fields (its
 * user_metadata) and `token` (a test that checks requests against one token gives it); kept in
 * plain JSON as an older SDK did (sealed on first read). Views then read get_block_me. Its access
 * token.
 */
export function withSession(
  id: string,
  anonymous = true,
  user: Record<string, unknown> = {},
  token = fakeJwt(id, { is_anonymous: anonymous }),
) {
  localStorage.setItem(
    'reaction-blocks.session:' + PROJECT,
    JSON.stringify({
      access_token: token,
      refresh_token: 'r',
      expires_at: Date.now() / 1000 + 3600,
      user: { id, is_anonymous: anonymous, ...user },
    }),
  );
  return token;
}

export const nextFrame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
export const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until `cond` holds (an answer or a promise of one), asking every 5 ms for at most `ms`
 * (the repository's one poll).
 */
export async function until(cond: () => unknown, ms = 2000): Promise<void> {
  await eventually(async () => Boolean(await cond()), ms, undefined, 5);
}

/**
 * A new page as far as storage goes: the values the page opened (core/storage.ts) are
 * forgotten and writes still under way dropped; what is in localStorage and IndexedDB stays.
 */
export function newPage(): void {
  const store = (globalThis as { __reactionBlocksStore1?: { entries: Map<string, { v: number }> } })
    .__reactionBlocksStore1;
  store?.entries.forEach((e) => e.v++);
  store?.entries.clear();
}

export function reset(): void {
  localStorage.clear();
  newPage();
}

export const shadow = (el: Element) => el.shadowRoot!;
export const $ = <T extends Element = HTMLElement>(el: Element, sel: string) =>
  el.shadowRoot!.querySelector(sel) as T;
export const $$ = <T extends Element = HTMLElement>(el: Element, sel: string) =>
  [...el.shadowRoot!.querySelectorAll(sel)] as T[];

export function type(input: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  input.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
}
