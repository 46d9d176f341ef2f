// Starts connecting a Cafe24 shop: answers the mall's authorise page for our app
// (https://{mall_id}.cafe24api.com/api/v2/oauth/authorize) with the scopes we need, the redirect
// to the dashboard's /oauth/cafe24, and a state signed for the caller and the mall (spent once by
// set-cafe24). Paid owners only (spec: Integration is a paid feature).
import { ZCafe24Authorize } from '@reaction-blocks/contracts/cafe24';
import { CAFE24_MESSAGES } from '@reaction-blocks/contracts/cafe24';
import { cafe24App, cafe24AuthorizeUrl } from '../_shared/cafe24.ts';
import { serviceClient } from '../_shared/clients.ts';
import { requirePaid } from '../_shared/paid.ts';
import { dbError, HttpError, ownerHandler } from '../_shared/http.ts';
import { requireAllowedRedirect, signState } from '../_shared/oauth-state.ts';

Deno.serve(
  ownerHandler(ZCafe24Authorize, async ({ body, user }) => {
    requireAllowedRedirect(body.redirectUrl, 'cafe24');
    const db = serviceClient();
    await requirePaid(user.id);
    const {
      data: shop,
      error,
      status,
    } = await db
      .from('cafe24_shops')
      .select('mall_id, removing')
      .eq('user_id', user.id)
      .maybeSingle();
    // the other-shop check fails closed: no state is signed without it
    if (error) throw dbError(error, status);
    if (shop && shop.mall_id !== body.mallId)
      throw new HttpError(409, 'other_shop', CAFE24_MESSAGES.otherShop);
    const state = await signState(cafe24App().clientSecret, user.id, Date.now(), body.mallId);
    return { url: cafe24AuthorizeUrl(body.mallId, body.redirectUrl, state) };
  }),
);
