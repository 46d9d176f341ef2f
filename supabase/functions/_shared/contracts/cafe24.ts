// The Cafe24 integration's payloads (docs/cafe24.md), shared by the dashboard and the functions:
// connecting a mall (cafe24-authorize, then the spec's setCafe24 with code and state) and placing
// blocks on the mall's screens (save-cafe24-placements).
import { z } from 'zod';
import { INTEGRATION_MESSAGES, oauthRedirectUrl } from '@reaction-blocks/contracts/schemas';

export const CAFE24_MESSAGES = {
  invalidMall: 'Enter your Cafe24 mall ID: 4 to 16 lowercase letters and digits',
  otherAccount:
    'This Cafe24 shop is connected to another account. Ask its owner to disconnect it. If you run this shop, delete the Reaction Blocks app in your Cafe24 admin, then connect again: each try checks the other account’s access, and the shop is handed to you once Cafe24 refuses it',
  otherShop: 'Disconnect your other Cafe24 shop first',
  shopNotConnected: 'Connect a Cafe24 shop first',
  unavailable: 'Cafe24 did not answer; try again in a moment',
  invalidCode: 'Cafe24 did not accept this authorisation; connect again',
  wrongMall: 'Cafe24 answered for another shop; connect again',
  missingScope: 'Cafe24 did not grant access to the shop’s scripts; connect again and allow it',
  tooManyPlacements: 'At most 20 placements',
  duplicatePlacement: 'A block is placed twice on the same screen',
  invalidSelector: 'Not a CSS selector this page can use',
} as const;

/** A mall id as Cafe24 gives it (the host `{mall_id}.cafe24api.com`). */
export const CAFE24_MALL_ID = /^[a-z0-9]{4,16}$/;

/** The scopes we ask for: our script tags, nothing of the shop's customers, orders or products. */
export const CAFE24_SCOPES = ['mall.read_application', 'mall.write_application'] as const;

/**
 * The mall id in what an owner typed: the id itself, or the shop's address
 * (`myshop.cafe24.com`, `https://myshop.cafe24.com/`, `myshop.cafe24api.com`). Lower case.
 */
export function normalizeMallId(input: string): string {
  let text = input.trim().toLowerCase();
  text = text.replace(/^https?:\/\//, '').replace(/[/?#].*$/, '');
  const host = /^([a-z0-9]+)\.cafe24(?:api)?\.com$/.exec(text);
  return host ? host[1]! : text;
}

const mallId = z
  .string({ error: CAFE24_MESSAGES.invalidMall })
  .regex(CAFE24_MALL_ID, { error: CAFE24_MESSAGES.invalidMall });

/** Starts a connection: the function answers the mall's authorise URL with a signed state. */
export const ZCafe24Authorize = z.strictObject({ mallId, redirectUrl: oauthRedirectUrl('cafe24') });
export type TCafe24Authorize = z.infer<typeof ZCafe24Authorize>;

/** The spec's setCafe24: the code and state /oauth/cafe24 read, and the redirect URL it came to. */
export const ZSetCafe24 = z.strictObject({
  code: z
    .string({ error: 'Missing code' })
    .min(1, { error: 'Missing code' })
    .max(500)
    .regex(/^[\w.~-]+$/, { error: 'Missing code' }),
  state: z.string({ error: INTEGRATION_MESSAGES.invalidState }).min(1).max(1000),
  redirectUrl: oauthRedirectUrl('cafe24'),
});
export type TSetCafe24 = z.infer<typeof ZSetCafe24>;

/** The mall's screens a block can show on. */
export const CAFE24_LOCATIONS = ['product_detail', 'main'] as const;
export type TCafe24Location = (typeof CAFE24_LOCATIONS)[number];
/** Cafe24's display_location code of each screen (the script tag's screens). */
export const CAFE24_DISPLAY_LOCATION: Record<TCafe24Location, string> = {
  product_detail: 'PRODUCT_DETAIL',
  main: 'MAIN',
};
/** Block types that keep a thread (or likes) per product on product pages. */
export const CAFE24_PER_PRODUCT_TYPES = ['comment', 'qna', 'like'] as const;

/**
 * Where on the page a block goes: after the element this selector finds ('' for the loader's
 * default place). The loader only passes it to querySelector, which runs nothing; the rule keeps
 * out text that is no selector at all.
 */
const selector = z
  .string()
  .max(200, { error: CAFE24_MESSAGES.invalidSelector })
  .refine((v) => !/[<{}\\]/.test(v) && ![...v].some((c) => c.charCodeAt(0) < 32), {
    error: CAFE24_MESSAGES.invalidSelector,
  });

export const ZCafe24Placement = z.strictObject({
  blockId: z.uuid({ error: 'Invalid id' }),
  location: z.enum(CAFE24_LOCATIONS, { error: 'Unknown screen' }),
  perProduct: z.boolean(),
  selector,
  position: z.number().int().min(0).max(99),
});
export type TCafe24Placement = z.infer<typeof ZCafe24Placement>;

export const ZSaveCafe24Placements = z.strictObject({
  placements: z
    .array(ZCafe24Placement)
    .max(20, { error: CAFE24_MESSAGES.tooManyPlacements })
    .refine((list) => new Set(list.map((p) => `${p.blockId}:${p.location}`)).size === list.length, {
      error: CAFE24_MESSAGES.duplicatePlacement,
    }),
});
export type TSaveCafe24Placements = z.infer<typeof ZSaveCafe24Placements>;
