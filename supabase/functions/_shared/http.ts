// The shape every edge function shares: CORS preflight, a zod-validated JSON body, the caller's
// user from the Authorization header, and `{ data }` or `{ error: { code, message } }`.
import type { z } from 'zod';
import type { SupabaseClient, User } from '@supabase/supabase-js';
import { userClient } from './clients.ts';

export const corsHeaders: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, x-client-info, apikey, content-type',
  'access-control-allow-methods': 'POST, OPTIONS',
  // a page on another origin reads a 429's wait from it
  'access-control-expose-headers': 'retry-after',
};

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds until the same request may succeed: a 429's Retry-After, and `retryAfter` in the body. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'content-type': 'application/json', ...headers },
  });
}

/**
 * A database error as the HTTP error the caller gets. PostgREST answers a raised SQLSTATE as
 * `code` (docs/data-model.md, RPCs): PT404 and PT403 keep their status, a raised exception
 * (P0001), a constraint violation (class 23) and a bad value (class 22) are the caller's input;
 * anything else is logged under `label` and answered with `failure`.
 */
export function rpcError(
  error: { code?: string; message: string },
  label: string,
  failure: { code: string; message: string } = {
    code: 'internal_error',
    message: 'Something went wrong',
  },
): HttpError {
  switch (error.code) {
    case 'PT404':
      return new HttpError(404, 'not_found', error.message);
    case 'PT403':
      return new HttpError(403, 'paid_plan_required', error.message);
    case 'P0001':
      return new HttpError(400, 'invalid_input', error.message);
  }
  if (error.code?.startsWith('23') || error.code?.startsWith('22')) {
    return new HttpError(400, 'invalid_input', error.message);
  }
  console.error(`[${label}]`, error);
  return new HttpError(500, failure.code, failure.message);
}

/** The answer of a refusal: `{ error: { code, message, retryAfter? } }`, with Retry-After when it has a wait. */
export function errorResponse(err: HttpError): Response {
  const wait = err.retryAfter === undefined ? undefined : Math.max(1, Math.ceil(err.retryAfter));
  return json(
    err.status,
    { error: { code: err.code, message: err.message, ...(wait ? { retryAfter: wait } : {}) } },
    wait ? { 'retry-after': String(wait) } : {},
  );
}

export interface Context<T> {
  body: T;
  user: User;
  /** A client acting as the caller: row-level security applies. */
  db: SupabaseClient;
}

export interface HandlerOptions {
  /** Owners only: refuse anyone without a profile (anonymous visitors, email-only users). */
  ownersOnly?: boolean;
}

/**
 * An owner has a profile: the database makes one for a user with a Google or Apple identity (or
 * one the admin API made an owner), private.is_owner_account, and for no one else. So an
 * anonymous visitor who confirmed an email, or an email sign-up where a project enables it, is
 * refused here as a guest is, by the same rule the tables' foreign keys keep.
 */
async function requireOwner(db: SupabaseClient, user: User): Promise<void> {
  const refused = new HttpError(403, 'forbidden', 'Sign in with Google or Apple first');
  if (user.is_anonymous) throw refused;
  const { data, error } = await db.from('profiles').select('id').eq('id', user.id).maybeSingle();
  if (error) {
    console.error('[owner check]', error);
    throw new HttpError(500, 'internal_error', 'Something went wrong');
  }
  if (!data) throw refused;
}

export function handler<S extends z.ZodType>(
  schema: S,
  run: (ctx: Context<z.infer<S>>) => Promise<unknown>,
  options: HandlerOptions = {},
): (req: Request) => Promise<Response> {
  return async (req) => {
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
    if (req.method !== 'POST')
      return json(405, { error: { code: 'method_not_allowed', message: 'Use POST' } });
    try {
      const authorization = req.headers.get('authorization');
      if (!authorization) throw new HttpError(401, 'unauthorized', 'Sign in first');
      const db = userClient(authorization);
      const { data: auth, error: authError } = await db.auth.getUser(
        authorization.replace(/^Bearer\s+/i, ''),
      );
      if (authError || !auth.user) throw new HttpError(401, 'unauthorized', 'Sign in first');
      if (options.ownersOnly) await requireOwner(db, auth.user);
      let raw: unknown = {};
      const text = await req.text();
      if (text.trim() !== '') {
        try {
          raw = JSON.parse(text);
        } catch {
          throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON');
        }
      }
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.join('.');
        throw new HttpError(
          400,
          'invalid_input',
          issue ? `${issue.message}${field ? ` (${field})` : ''}` : 'Invalid input',
        );
      }
      const data = await run({ body: parsed.data, user: auth.user, db });
      return json(200, { data });
    } catch (err) {
      if (err instanceof HttpError) return errorResponse(err);
      console.error(err);
      return json(500, { error: { code: 'internal_error', message: 'Something went wrong' } });
    }
  };
}

/** `handler` for an owner's call: anyone without a profile is refused first (requireOwner). */
export function ownerHandler<S extends z.ZodType>(
  schema: S,
  run: (ctx: Context<z.infer<S>>) => Promise<unknown>,
): (req: Request) => Promise<Response> {
  return handler(schema, run, { ownersOnly: true });
}
