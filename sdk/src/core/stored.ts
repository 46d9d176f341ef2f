// What a reader needs of the sealed store (core/storage.ts): whether anything is stored, and the
// page's shared store with its subscribers. The store's own code (opening, keeping, sealing) is a
// chunk core/session.ts loads only when something is stored or kept: a reader who never wrote
// anything opens nothing, so before the first data shows an element carries only this.

/** The writer's profile (core/identity.ts). */
export const PROFILE_KEY = 'reaction-blocks.profile';
/** Where the name and colour were kept, in plain JSON, before profiles were sealed. */
export const LEGACY_PROFILE_KEY = 'reaction-blocks.identity';

/** A value opened or kept on this page (core/storage.ts). */
export interface Entry {
  /** The stored string `value` stands for; undefined: not read yet. */
  raw?: string | null;
  value: unknown;
  /** Bumped by every write: a slower older write must not land after a newer one. */
  v: number;
  /** The write to localStorage under way, if any. */
  writing?: Promise<void>;
  /** Written to keep, but not sealed (no key yet): kept if the key answers late (storage.ts). */
  unkept?: boolean;
}

/** Shared by every element of the page, every bundle: it lives on globalThis. */
export interface Store {
  entries: Map<string, Entry>;
  subs: Set<(key: string) => void>;
  /** core/storage.ts listens to other tabs' changes (set once it has loaded). */
  listening?: boolean;
  /** core/session.ts listens for them until then. */
  watching?: boolean;
}

/** What localStorage holds under `key` (sealed or not), or null; never throws. */
export const stored = (key: string): string | null => {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
};

const G = globalThis as { __reactionBlocksStore1?: Store };
/** The page's store, made on first use (a bundle that never stores anything carries none of it). */
export const store = (): Store =>
  (G.__reactionBlocksStore1 ??= { entries: new Map(), subs: new Set() });

/** Calls `fn` with the key of every value that changes (here, in another element or tab). */
export function subscribe(fn: (key: string) => void): () => void {
  store().subs.add(fn);
  return () => store().subs.delete(fn);
}
