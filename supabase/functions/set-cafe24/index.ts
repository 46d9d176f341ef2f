// setCafe24 (spec: code and state): /oauth/cafe24 sends the code the mall gave it. We check the
// state is the caller's and spend it (it names the mall the authorisation was for), exchange the
// code at that mall's token endpoint within its minute, check the mall and the scopes, and keep
// the tokens in private.integration_tokens (no client role can read them). The jobs queue then
// installs the loader where the owner placed blocks, and keeps the refresh token alive.
import {
  CAFE24_MALL_ID,
  CAFE24_MESSAGES,
  CAFE24_SCOPES,
  ZSetCafe24,
} from '@reaction-blocks/contracts/cafe24';
import { INTEGRATION_MESSAGES } from '@reaction-blocks/contracts/schemas';
import { kickWorker } from '../_shared/background.ts';
import { Cafe24Error, cafe24App, exchangeCafe24Code } from '../_shared/cafe24.ts';
import { tokenData } from '../_shared/cafe24-jobs.ts';
import { serviceClient } from '../_shared/clients.ts';
import { requirePaid } from '../_shared/paid.ts';
import { dbError, HttpError, ownerHandler } from '../_shared/http.ts';
import { afterSpentState, requireAllowedRedirect, spendState } from '../_shared/oauth-state.ts';

Deno.serve(
  ownerHandler(ZSetCafe24, async ({ body, user }) => {
    requireAllowedRedirect(body.redirectUrl, 'cafe24');
    const db = serviceClient();
    // a forged, expired, another user's or an already used state
    const claims = await spendState(db, cafe24App().clientSecret, body.state, user.id);
    if (!claims || !CAFE24_MALL_ID.test(claims.data)) {
      throw new HttpError(400, 'invalid_state', INTEGRATION_MESSAGES.invalidState);
    }
    await requirePaid(user.id).catch(afterSpentState);
    const mallId = claims.data;
    let tokens;
    try {
      tokens = await exchangeCafe24Code(mallId, body.code, body.redirectUrl);
    } catch (err) {
      const kind = err instanceof Cafe24Error ? err.kind : 'unavailable';
      console.error('[set-cafe24]', kind, (err as Error).message);
      if (kind === 'unavailable' || kind === 'uncertain' || kind === 'rate_limited')
        throw new HttpError(503, 'cafe24_unavailable', CAFE24_MESSAGES.unavailable);
      throw new HttpError(400, 'invalid_code', CAFE24_MESSAGES.invalidCode);
    }
    if (tokens.mallId && tokens.mallId !== mallId)
      throw new HttpError(400, 'wrong_mall', CAFE24_MESSAGES.wrongMall);
    if (!CAFE24_SCOPES.every((s) => tokens.scopes.includes(s)))
      throw new HttpError(400, 'missing_scope', CAFE24_MESSAGES.missingScope);
    const { data, error, status } = await db.rpc('save_cafe24_connection', {
      p_user_id: user.id,
      p_mall_id: mallId,
      p_shop_no: tokens.shopNo,
      p_scopes: tokens.scopes,
      p_access_token: tokens.accessToken,
      p_refresh_token: tokens.refreshToken,
      p_token_data: tokenData(tokens),
    });
    if (error) {
      // the caller's other mall is still connected
      if (error.code === 'P0409') throw new HttpError(409, 'other_shop', error.message);
      afterSpentState(dbError(error, status));
    }
    kickWorker();
    // another account holds the mall and its connection is granted: refused (a sync of that
    // connection was queued, which finds out whether Cafe24 still takes its tokens)
    if ((data as { other_account?: boolean }).other_account)
      throw new HttpError(409, 'other_account', CAFE24_MESSAGES.otherAccount);
    const saved = data as { status: string; mall_id: string; shop_id: string };
    return {
      status: true,
      integration: { provider: 'cafe24', status: saved.status, mallId: saved.mall_id },
    };
  }),
);
