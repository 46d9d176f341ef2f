// Payload schemas shared by the edge functions, the dashboard and the SDK, so that the client
// and the server validate with the same rules and answer with the same messages.
import { z } from 'zod';

export const BLOCK_TYPES = [
  'comment',
  'qna',
  'like',
  'button',
  'ab',
  'form',
  'notion_letter',
  'typedream_letter',
  'brunch_letter',
] as const;
export type TBlockType = (typeof BLOCK_TYPES)[number];

export const REACTION_BLOCK_TYPES = ['comment', 'qna', 'like', 'button', 'ab', 'form'] as const;

export const LIMITS = {
  profileName: 100,
  homeUrl: 500,
  photoUrl: 500,
} as const;

export const MESSAGES = {
  invalidBlock: 'Invalid block',
  blockLimitReached: 'Block limit reached!',
  nothingToUpdate: 'nothing to update',
  tooLong: 'Too long message',
  invalidUrl: 'Invalid URL',
} as const;

export const ZCreateBlock = z.object({
  blockType: z.enum(BLOCK_TYPES, { error: MESSAGES.invalidBlock }),
});
export type TCreateBlock = z.infer<typeof ZCreateBlock>;

/** An http(s) URL, or empty to clear the field. */
const optionalUrl = (max: number) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, { error: MESSAGES.tooLong })
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), { error: MESSAGES.invalidUrl });

export const ZUpdateProfile = z
  .strictObject({
    name: z
      .string({ error: 'Must be text' })
      .trim()
      .max(LIMITS.profileName, { error: MESSAGES.tooLong }),
    photoUrl: optionalUrl(LIMITS.photoUrl),
    homeUrl: optionalUrl(LIMITS.homeUrl),
    language: z.enum(['en', 'ko'], { error: 'Language must be en or ko' }),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: MESSAGES.nothingToUpdate });
export type TUpdateProfile = z.infer<typeof ZUpdateProfile>;

/** Calls without a body (submit-agreement, delete-user) accept only an empty object. */
export const ZEmpty = z.strictObject({});
