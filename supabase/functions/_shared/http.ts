// The shape every edge function shares: CORS preflight, a zod-validated JSON body, the caller's
// user from the Authorization header, and `{ data }` or `{ error: { code, message } }`
// (errors.ts: which failure answers what).
import type { z } from 'zod';
import type { SupabaseClient, User } from '@supabase/supabase-js';
import { userClient } from './clients.ts';
import {
  corsHeaders,
  errorResponse,
  HttpError,
  inTransit,
  json,
  rpcError,
  unavailable,
} from './errors.ts';

// the functions import the answers of errors.ts from here, beside the handler
export * from './errors.ts';

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
  const { data, error, status } = await db
    .from('profiles')
    .select('id')
    .eq('id', user.id)
    .maybeSingle();
  if (error) throw rpcError(error, status, 'owner check');
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
      // auth not reached is not a refusal of the token
      if (authError && inTransit(authError)) throw unavailable(authError, 'auth');
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
