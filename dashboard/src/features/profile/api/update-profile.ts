import { z } from 'zod';
import { LANGUAGES } from '@reaction-blocks/contracts/enums';
import { LIMITS, MESSAGES, ZUpdateProfile } from '@reaction-blocks/contracts/schemas';
import { invokeFunction } from '../../../lib/supabase';

/** Account limits of the specification: name 100, homepage URL 500, profile image URL 500. */
export const PROFILE_LIMITS = {
  name: LIMITS.profileName,
  photoUrl: LIMITS.photoUrl,
  homeUrl: LIMITS.homeUrl,
} as const;
export const TOO_LONG = MESSAGES.tooLong;
export const INVALID_URL = MESSAGES.invalidUrl;

const optionalUrl = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: TOO_LONG })
    .refine((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), { error: INVALID_URL });

/** The Account form: every field present (the function's schema, ZUpdateProfile, allows a subset). */
export const ZUpdateProfileInput = z.object({
  name: z.string().trim().max(PROFILE_LIMITS.name, { error: TOO_LONG }),
  photoUrl: optionalUrl(PROFILE_LIMITS.photoUrl),
  homeUrl: optionalUrl(PROFILE_LIMITS.homeUrl),
  language: z.enum(LANGUAGES),
});
export type TUpdateProfileInput = z.infer<typeof ZUpdateProfileInput>;

/** Saves the account fields through the edge function update-profile. */
export async function updateProfile(input: TUpdateProfileInput) {
  // The same schema the edge function validates with, so both give the same messages.
  const body = ZUpdateProfile.parse(ZUpdateProfileInput.parse(input));
  return invokeFunction<unknown>('update-profile', body);
}
