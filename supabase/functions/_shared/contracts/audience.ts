import { z } from 'zod';
import { isEmail, LETTER_LIMITS } from './limits.ts';
import { LETTER_MESSAGES } from './letter-messages.ts';

// Audience (spec section 5, Audience), re-exported by letters.ts. Adding and editing go straight
// to the table (RLS pins rows to the owner, the database checks lengths and the address); these
// give the spec's messages first.

export const AUDIENCE_MESSAGES = {
  nameLength: 'Name is too long',
  emailLength: 'Email is too long',
  emailError: 'Email address is invalid',
  groupRequired: 'Group name is required',
  groupExists: 'The group already exists',
  groupReserved: 'This name is reserved',
  /** the database's ceiling on an owner's audience (audience.max_members, default 100,000) */
  audienceFull: 'Your audience is full',
} as const;

export const RESERVED_GROUPS = ['activated', 'deactivated'] as const;

export const ZAddAudience = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { error: 'Required' })
    .max(LETTER_LIMITS.audienceName, { error: AUDIENCE_MESSAGES.nameLength }),
  email: z
    .string()
    .trim()
    .min(1, { error: 'Required' })
    .max(LETTER_LIMITS.audienceEmail, { error: AUDIENCE_MESSAGES.emailLength })
    .refine(isEmail, { error: AUDIENCE_MESSAGES.emailError }),
  group: z.string().max(LETTER_LIMITS.group).nullable(),
});
export type TAddAudience = z.infer<typeof ZAddAudience>;

export const ZAudienceRow = z.strictObject({
  name: z
    .string()
    .trim()
    .max(LETTER_LIMITS.audienceRowName, { error: AUDIENCE_MESSAGES.nameLength }),
  email: z
    .string()
    .trim()
    .max(LETTER_LIMITS.audienceRowEmail, { error: AUDIENCE_MESSAGES.emailLength })
    .refine((v) => v === '' || isEmail(v), { error: AUDIENCE_MESSAGES.emailError }),
  group: z.string().max(LETTER_LIMITS.group).nullable(),
  deactivated: z.boolean(),
});
export type TAudienceRow = z.infer<typeof ZAudienceRow>;

/** A new group's name, or the message: non-empty, not reserved, not taken. */
export function groupNameProblem(name: string, existing: readonly string[]): string | null {
  const value = name.trim();
  if (value === '') return AUDIENCE_MESSAGES.groupRequired;
  if (value.length > LETTER_LIMITS.group) return LETTER_MESSAGES.tooLong;
  if ((RESERVED_GROUPS as readonly string[]).includes(value.toLowerCase()))
    return AUDIENCE_MESSAGES.groupReserved;
  if (existing.includes(value)) return AUDIENCE_MESSAGES.groupExists;
  return null;
}
