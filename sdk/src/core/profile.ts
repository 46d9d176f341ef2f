// The writer's profile's code (core/identity.ts) as the elements reach it: loaded with the writer's
// code (which opens a stored profile before a write takes its name), or beside the block's first
// request when a profile is stored and the element shows it (the comment's composer: openProfile),
// never for a reader who never wrote. Once here (whoever loaded it), a composer reads the profile
// synchronously.
import { LEGACY_PROFILE_KEY, PROFILE_KEY, stored } from './stored.js';

let code: typeof import('./identity.js') | undefined;

/** Loads the profile's code (once; a failed load is tried again by the next call). */
export const loadIdentity = async (): Promise<typeof import('./identity.js')> =>
  (code ??= await import('./identity.js'));

/** The writer's profile if its code is here, else undefined (a composer fills its fields in then). */
export const profile = () => code?.getIdentity();

/**
 * Opens a stored profile (none: nothing loads), for an element that shows it with its first data
 * (the comment's composer, also inside the viewer): called beside the block's first request.
 */
export const openProfile = (): unknown =>
  (stored(PROFILE_KEY) ?? stored(LEGACY_PROFILE_KEY)) != null &&
  loadIdentity().then((m) => m.profileReady());
