// Unsaved workspace edits kept in this tab's sessionStorage, per owner and block (rev-owner D4):
// the block workspace's and the letter workspace's (both at paths.work(blockId)). When the
// session ends while the owner types (a Logout in another tab, a refused refresh), the signed-in
// area gives way to the sign-in card and the workspace unmounts; signing in again in this tab
// (the Google round trip included: sessionStorage survives it) or a reload opens the block with
// these edits offered back. They are offered, not applied: the owner may have left on purpose,
// and only when the block as saved is still what the edits started from (a save made elsewhere
// meanwhile would otherwise be overwritten field by field).
import { useCallback, useEffect, useState } from 'react';
import { isWithin, paths } from '../config/paths';

interface Kept<D> {
  base: D;
  draft: D;
}

const keyOf = (ownerId: string, blockId: string) => `reactionKeptDraft:${ownerId}:${blockId}`;

function keepDraft<D>(ownerId: string, blockId: string, kept: Kept<D>): void {
  try {
    window.sessionStorage.setItem(keyOf(ownerId, blockId), JSON.stringify(kept));
  } catch {
    // storage full or unavailable: the draft is only in memory, as before
  }
}

function dropKeptDraft(ownerId: string, blockId: string): void {
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
function keptDraftFor<D>(ownerId: string, blockId: string, base: D): D | null {
  try {
    const text = window.sessionStorage.getItem(keyOf(ownerId, blockId));
    const kept = text ? (JSON.parse(text) as Kept<D>) : null;
    return kept && JSON.stringify(kept.base) === JSON.stringify(base) ? kept.draft : null;
  } catch {
    return null;
  }
}

export interface KeptDraftOptions<D> {
  ownerId: string | undefined;
  blockId: string;
  /** The saved block as a draft, what the edits start from (null while it loads). */
  base: D | null;
  draft: D | null;
  dirty: boolean;
  /** Restore: the kept edits become the draft (unsaved until Save). */
  restore: (draft: D) => void;
}

/**
 * Keeps a workspace's unsaved draft in this tab: offered back once the block is read, kept while
 * the draft differs from the saved block, dropped when it no longer does, when the owner answers
 * the offer, or when they leave the workspace (the address is no longer the block's when it
 * unmounts). A sign-out leaves the address as it was, so they stay for after. Read once per
 * owner and block as the block is seeded (during render, as the seed itself).
 */
export function useKeptDraft<D>({
  ownerId,
  blockId,
  base,
  draft,
  dirty,
  restore,
}: KeptDraftOptions<D>) {
  const keptFor = ownerId && base ? `${ownerId}:${blockId}` : null;
  const [kept, setKept] = useState<{ for: string | null; draft: D | null }>(NOT_KEPT);
  if (keptFor && kept.for !== keptFor) {
    setKept({ for: keptFor, draft: keptDraftFor(ownerId!, blockId, base!) });
  }
  const offer = kept.for === keptFor ? kept.draft : null;
  useEffect(() => {
    if (!ownerId || !base || !draft || offer) return;
    if (dirty) keepDraft(ownerId, blockId, { base, draft });
    else dropKeptDraft(ownerId, blockId);
  }, [ownerId, blockId, base, draft, dirty, offer]);
  useEffect(
    () => () => {
      if (ownerId && !isWithin(window.location.pathname, paths.work(blockId))) {
        dropKeptDraft(ownerId, blockId);
      }
    },
    [ownerId, blockId],
  );
  /** Restore: the kept edits become the draft; Discard: they are dropped. */
  const answer = useCallback(
    (yes: boolean) => {
      if (yes && offer) restore(offer);
      setKept((k) => ({ ...k, draft: null }));
      if (!yes && ownerId) dropKeptDraft(ownerId, blockId);
    },
    [offer, ownerId, blockId, restore],
  );
  return { offered: offer !== null, answer };
}

export type KeptDraft = ReturnType<typeof useKeptDraft>;

const NOT_KEPT = { for: null, draft: null };
