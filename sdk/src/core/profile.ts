// The writer's profile's code (core/identity.ts) as the elements reach it: loaded with the writer's
// code, or beside the block's first request when a profile is stored (BlockElement.load), never
// for a reader who never wrote. Once here (whoever loaded it), a composer reads the profile
// synchronously.

let code: typeof import('./identity.js') | undefined;

/** Loads the profile's code (once; a failed load is tried again by the next call). */
export const loadIdentity = async (): Promise<typeof import('./identity.js')> =>
  (code ??= await import('./identity.js'));

/** The writer's profile if its code is here, else undefined (a composer fills its fields in then). */
export const profile = () => code?.getIdentity();
