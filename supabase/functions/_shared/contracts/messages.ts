// The server's general refusal messages, without zod: the dashboard's first load matches a
// failure against them (features/blocks/utils/block-utils.ts) before any schema has loaded.
// schemas.ts re-exports them, so its importers are unchanged.
export const MESSAGES = {
  invalidBlock: 'Invalid block',
  blockLimitReached: 'Block limit reached!',
  nothingToUpdate: 'nothing to update',
  tooLong: 'Too long message',
  invalidUrl: 'Invalid URL',
  tooManyCalls: 'Too many requests',
} as const;
