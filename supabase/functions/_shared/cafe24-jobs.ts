// The Cafe24 jobs of the queue (registered in job-handlers.ts; docs/cafe24.md):
//   cafe24.sync     make the mall's script tags match what should be there: our loader on the
//                   screens the owner placed blocks on, or nothing (no placements, no paid plan,
//                   disconnecting); then record it (a finished disconnect deletes the shop)
//   cafe24.refresh  keep the refresh token alive (it lasts two weeks; this runs daily)
// An owner's Cafe24 jobs share a group, so one runs at a time: two refreshes never race for the
// same refresh token. Both are idempotent towards Cafe24 (the sync reads the mall's tags first and
// changes only what differs), so they call Cafe24 while preparing and answer a final outcome, as
// the plan jobs do: a worker that dies half way leaves a job that simply runs again.
import { CAFE24_DISPLAY_LOCATION, type TCafe24Location } from '@reaction-blocks/contracts/cafe24';
import {
  Cafe24Error,
  cafe24ScriptTags,
  refreshCafe24Tokens,
  type Cafe24Tokens,
  type ScriptTag,
  type ScriptTagInput,
} from './cafe24.ts';
import { serviceClient } from './clients.ts';
import { apiUrl, env, optionalEnv, siteUrl } from './env.ts';
import { type ClaimedJob, type JobHandler, type Outcome } from './jobs.ts';
import { mapLimit } from './map-limit.ts';

interface ShopContext {
  shop_id: string;
  user_id: string;
  mall_id: string;
  shop_no: number;
  removing: boolean;
  script_no: string | null;
  status: 'granted' | 'not_granted';
  paid: boolean;
  access_token: string | null;
  refresh_token: string | null;
  expires_at: string | null;
  refresh_token_expires_at: string | null;
  locations: TCafe24Location[];
}

async function rpc<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const { data, error } = await serviceClient().rpc(name, args);
  if (error) throw new Error(`${name}: ${error.message}`);
  return data as T;
}

/** What private.integration_tokens keeps besides the two tokens. */
export const tokenData = (t: Cafe24Tokens) => ({
  expires_at: t.expiresAt,
  refresh_token_expires_at: t.refreshTokenExpiresAt,
  issued_at: t.issuedAt,
  scopes: t.scopes,
  user_id: t.userId,
});

/** The loader's address without its query: every tag of ours starts with it. */
export function loaderUrl(): string {
  return optionalEnv('CAFE24_LOADER_URL', `${siteUrl()}/sdk/cdn/cafe24.js`);
}

/**
 * Our script tag for a shop: the loader with the shop, the project and its anon key in the query
 * (a script tag has no attributes), on the screens that have blocks, with the loader's
 * Subresource Integrity when the deployment gives one (CAFE24_LOADER_INTEGRITY).
 */
export function loaderTag(shopId: string, locations: TCafe24Location[]): ScriptTagInput {
  const url = new URL(loaderUrl());
  url.searchParams.set('shop', shopId);
  url.searchParams.set('project', apiUrl());
  url.searchParams.set('key', env('SUPABASE_ANON_KEY'));
  return {
    src: url.href,
    display_location: [...locations].sort().map((l) => CAFE24_DISPLAY_LOCATION[l]),
    integrity: optionalEnv('CAFE24_LOADER_INTEGRITY', '') || null,
  };
}

const base = (src: string) => src.split('?')[0]!;
const isOurs = (tag: ScriptTag) => base(tag.src) === base(loaderUrl());
const sameTag = (tag: ScriptTag, want: ScriptTagInput) =>
  tag.src === want.src &&
  [...tag.display_location].sort().join() === [...want.display_location].sort().join() &&
  (tag.integrity || null) === want.integrity;

/**
 * Runs `calls` with an access token good for a few more minutes (refreshed, and kept at once, when
 * the stored one is not). A 401 on the stored token (Cafe24 ended it early, or our clock is past
 * the margin) refreshes once and runs `calls` once more; only a refused refresh, or a 401 on the
 * token just refreshed, is Cafe24 refusing our access (docs/cafe24.md). `calls` must be safe to
 * run again (the sync lists the mall's tags first).
 */
async function withAccess<T>(ctx: ShopContext, calls: (token: string) => Promise<T>): Promise<T> {
  const refreshToken = ctx.refresh_token;
  if (!ctx.access_token || !refreshToken)
    throw new Cafe24Error('unauthorized', 'no tokens are kept for this shop');
  if (!ctx.expires_at || Date.parse(ctx.expires_at) - Date.now() <= 5 * 60_000)
    return calls((await refreshed(ctx, refreshToken)).accessToken);
  try {
    return await calls(ctx.access_token);
  } catch (err) {
    if (!(err instanceof Cafe24Error && err.kind === 'unauthorized')) throw err;
    return calls((await refreshed(ctx, refreshToken)).accessToken);
  }
}

/**
 * New tokens for the shop, kept at once. The refresh is marked first (mark_cafe24_refreshing):
 * should its answer be lost, the refresh token it spent is dead, and the refusal the retry meets
 * is then ours, not the mall's (mark_cafe24_not_granted keeps the shop granted).
 */
async function refreshed(ctx: ShopContext, refreshToken: string) {
  await rpc('mark_cafe24_refreshing', { p_user_id: ctx.user_id });
  const t = await refreshCafe24Tokens(ctx.mall_id, refreshToken);
  await rpc('save_cafe24_tokens', {
    p_user_id: ctx.user_id,
    p_access_token: t.accessToken,
    p_refresh_token: t.refreshToken,
    p_token_data: tokenData(t),
  });
  return t;
}

/** What a Cafe24 failure means for the job and what the owner sees. */
async function failureOutcome(job: ClaimedJob, userId: string, err: unknown): Promise<Outcome> {
  const message = String((err as Error)?.message ?? err).slice(0, 500);
  if (!(err instanceof Cafe24Error)) return { status: 'retry', error: message };
  const last = job.attempts >= job.max_attempts;
  switch (err.kind) {
    case 'unauthorized':
      await rpc('mark_cafe24_not_granted', { p_user_id: userId, p_reason: message });
      return { status: 'done', result: { not_granted: message } };
    case 'rate_limited':
      return { status: 'retry', error: message, retry_in: err.retryAfter };
    case 'unavailable':
    case 'uncertain':
      if (!last) return { status: 'retry', error: message };
      break;
    default:
      break;
  }
  if (job.kind === 'cafe24.sync')
    await rpc('record_cafe24_sync', {
      p_user_id: userId,
      p_script_no: null,
      p_locations: [],
      p_error: message,
    });
  return { status: 'failed', error: message };
}

/**
 * A handler of the shop jobs: four owners' shops at a time, each job run with its owner's shop
 * context (null when there is no shop); what it throws is the job's outcome by failureOutcome.
 */
const perShop = (
  run: (ctx: ShopContext | null, userId: string) => Promise<Outcome>,
): JobHandler => ({
  prepare: (jobs) =>
    mapLimit(jobs, 4, async (job): Promise<Outcome> => {
      const userId = String(job.payload.user_id);
      try {
        const ctx = await rpc<ShopContext | null>('cafe24_shop_context', { p_user_id: userId });
        return await run(ctx, userId);
      } catch (err) {
        return failureOutcome(job, userId, err);
      }
    }),
});

const sync = perShop(async (ctx, userId) => {
  if (!ctx) return { status: 'done', result: { skipped: 'no shop' } };
  if (ctx.status === 'not_granted' && !ctx.removing)
    return { status: 'done', result: { skipped: 'Cafe24 refused our access' } };
  const want =
    !ctx.removing && ctx.paid && ctx.locations.length > 0
      ? loaderTag(ctx.shop_id, ctx.locations)
      : null;
  const { kept, ours } = await withAccess(ctx, async (token) => {
    const tags = cafe24ScriptTags(ctx.mall_id, token, ctx.shop_no);
    const ours = (await tags.list()).filter(isOurs);
    let kept: ScriptTag | null = null;
    if (want) {
      const same = ours.find((t) => sameTag(t, want));
      kept =
        same ?? (ours[0] ? await tags.update(ours[0].script_no, want) : await tags.create(want));
    }
    // one tag of ours at most (a lost answer to a create may have left a second)
    for (const t of ours) if (t.script_no !== kept?.script_no) await tags.remove(t.script_no);
    return { kept, ours };
  });
  const recorded = await rpc<{ removed?: boolean }>('record_cafe24_sync', {
    p_user_id: userId,
    p_script_no: kept?.script_no ?? null,
    p_locations: want ? ctx.locations : [],
    p_error: null,
  });
  return {
    status: 'done',
    result: {
      script_no: kept?.script_no ?? null,
      locations: want?.display_location ?? [],
      removed: ours.length - (kept ? 1 : 0),
      disconnected: recorded?.removed === true,
    },
  };
});

const refresh = perShop(async (ctx) => {
  if (!ctx || ctx.removing) return { status: 'done', result: { skipped: 'no shop' } };
  if (ctx.status === 'not_granted')
    return { status: 'done', result: { skipped: 'Cafe24 refused our access' } };
  if (!ctx.refresh_token) throw new Cafe24Error('unauthorized', 'no refresh token is kept');
  const t = await refreshed(ctx, ctx.refresh_token);
  return { status: 'done', result: { refresh_token_expires_at: t.refreshTokenExpiresAt } };
});

export const cafe24JobHandlers: Record<string, JobHandler> = {
  'cafe24.sync': sync,
  'cafe24.refresh': refresh,
};
