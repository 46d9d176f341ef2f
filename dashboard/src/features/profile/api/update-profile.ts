import { z } from 'zod';
import { invokeFunction } from '../../../lib/supabase';

/** Account limits of the specification: name 100, homepage URL 500, profile image URL 500. */
export const PROFILE_LIMITS = { name: 100, photoUrl: 500, homeUrl: 500 } as const;
export const TOO_LONG = 'Too long message';
export const INVALID_URL = 'invalid_url';

const optionalUrl = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: TOO_LONG })
    .refine((value) => value === '' || /^https?:\/\/\S+$/i.test(value), { message: INVALID_URL });

export const ZUpdateProfileInput = z.object({
  name: z.string().trim().max(PROFILE_LIMITS.name, { message: TOO_LONG }),
  photoUrl: optionalUrl(PROFILE_LIMITS.photoUrl),
  homeUrl: optionalUrl(PROFILE_LIMITS.homeUrl),
  language: z.enum(['en', 'ko']),
});
export type TUpdateProfileInput = z.infer<typeof ZUpdateProfileInput>;

/** Saves the account fields through the edge function update-profile. */
export async function updateProfile(input: TUpdateProfileInput) {
  const body = ZUpdateProfileInput.parse(input);
  return invokeFunction<unknown>('update-profile', body);
}
