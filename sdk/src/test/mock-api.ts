/** A fake of the server contract: fetch is replaced; each RPC name maps to a handler. */
import type { BlockView } from '../core/types.js';

export const PROJECT = 'http://api.test';
export const KEY = 'anon-key';

export interface Call {
  name: string;
  body: Record<string, unknown>;
  auth: string;
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
  ) {}
}

export function fakeJwt(sub: string, extra: Record<string, unknown> = {}): string {
  const b = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '');
  return `${b({ alg: 'HS256' })}.${b({ sub, exp: Math.floor(Date.now() / 1000) + 3600, ...extra })}.sig`;
}

export function mockApi(handlers: Record<string, Handler>) {
  const calls: Call[] = [];
  const real = window.fetch;
  let n = 0;
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const headers = (init?.headers || {}) as Record<string, string>;
    const body = init?.body ? JSON.parse(String(init.body)) : {};
    const path = url.replace(PROJECT, '');
    const name = path.startsWith('/rest/v1/rpc/') ? path.slice(13) : path;
    calls.push({ name, body, auth: headers.Authorization || '' });
    await new Promise((r) => setTimeout(r, 1));
    if (name === '/auth/v1/signup' && !handlers[name]) {
      const id = 'anon-user-' + ++n;
      return Response.json({
        access_token: fakeJwt(id, { is_anonymous: true }),
        refresh_token: 'r' + n,
        expires_in: 3600,
        user: { id, is_anonymous: true },
      });
    }
    const h = handlers[name];
    if (!h)
      return Response.json({ code: 'PGRST202', message: 'no function ' + name }, { status: 404 });
    try {
      return Response.json(await h(body));
    } catch (e) {
      if (e instanceof ApiError)
        return Response.json(
          { code: e.code, message: e.message, details: e.details, hint: null },
          { status: e.status },
        );
      throw e;
    }
  };
  return {
    calls,
    rpcCalls: () => calls.filter((c) => !c.name.startsWith('/')),
    restore: () => (window.fetch = real),
  };
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

export const nextFrame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
export const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(cond: () => unknown, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await wait(5);
  }
}

export function reset(): void {
  localStorage.clear();
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
