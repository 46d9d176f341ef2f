// Unsaved workspace edits kept in this tab's sessionStorage, per owner and block (rev-owner D4).
// When the session ends while the owner types (a Logout in another tab, a refused refresh), the
// signed-in area gives way to the sign-in card and the workspace unmounts; signing in again in
// this tab (the Google round trip included: sessionStorage survives it) or a reload opens the
// block with these edits offered back. They are offered, not applied: the owner may have left
// on purpose, and only when the block as saved is still what the edits started from (a save
// made elsewhere meanwhile would otherwise be overwritten field by field).

interface Kept<D> {
  base: D;
  draft: D;
}

const keyOf = (ownerId: string, blockId: string) => `reactionKeptDraft:${ownerId}:${blockId}`;

export function keepDraft<D>(ownerId: string, blockId: string, kept: Kept<D>): void {
  try {
    window.sessionStorage.setItem(keyOf(ownerId, blockId), JSON.stringify(kept));
  } catch {
    // storage full or unavailable: the draft is only in memory, as before
  }
}

export function dropKeptDraft(ownerId: string, blockId: string): void {
  try {
    window.sessionStorage.removeItem(keyOf(ownerId, blockId));
  } catch {
    // nothing kept
  }
}

/**
 * The edits kept for this block when they started from `base` (compared in JSON, as they were
 * stored); null for none, or for edits of a block saved since (the workspace drops those).
 */
export function keptDraftFor<D>(ownerId: string, blockId: string, base: D): D | null {
  try {
    const text = window.sessionStorage.getItem(keyOf(ownerId, blockId));
    const kept = text ? (JSON.parse(text) as Kept<D>) : null;
    return kept && JSON.stringify(kept.base) === JSON.stringify(base) ? kept.draft : null;
  } catch {
    return null;
  }
}
