import type { TFunction } from 'i18next';
import { MESSAGES } from '@reaction-blocks/contracts/messages';
import type { BlockRow } from '../../../lib/db-types';
import { isLetterType } from '../../../lib/db-types';
import { failureReason, messageOf } from '../../../lib/errors';

/**
 * Card order: most new responses first; ties keep the stored order (newest created first).
 */
export function sortBlocks(blocks: readonly BlockRow[]): BlockRow[] {
  return [...blocks].sort(
    (a, b) =>
      (b.new_response_count ?? 0) - (a.new_response_count ?? 0) ||
      Date.parse(b.created_at) - Date.parse(a.created_at),
  );
}

/** "+ N responses" for new ones, otherwise "N responses" or "No responses" ("emails" for letters). */
export function responseLine(
  block: Pick<BlockRow, 'type' | 'response_count' | 'new_response_count'>,
  t: TFunction,
) {
  const letter = isLetterType(block.type);
  const fresh = block.new_response_count ?? 0;
  const total = block.response_count ?? 0;
  if (fresh > 0) return t(letter ? 'blocks.newEmails' : 'blocks.newResponses', { count: fresh });
  if (total > 0) return t(letter ? 'blocks.emails' : 'blocks.responses', { count: total });
  return t(letter ? 'blocks.noEmails' : 'blocks.noResponses');
}

/** Blocks of the chosen type whose tags include any active tag (all when none is active). */
export function filterBlocks(
  blocks: readonly BlockRow[],
  type: string | undefined,
  activeTags: readonly string[],
): BlockRow[] {
  return blocks.filter(
    (block) =>
      (!type || block.type === type) &&
      (activeTags.length === 0 || (block.tags ?? []).some((tag) => activeTags.includes(tag))),
  );
}

export function blockName(block: Pick<BlockRow, 'name'>, t: TFunction) {
  return block.name?.trim() ? block.name : t('common.untitled');
}

/**
 * Why a block call failed (create, duplicate, tags), in the reader's language: the block limit
 * (another tab may have created the last one) by its own text, anything else through
 * failureReason, never the server's English.
 */
export function blockFailure(cause: unknown, t: TFunction): string {
  return messageOf(cause) === MESSAGES.blockLimitReached
    ? t('create.limitReached')
    : failureReason(cause);
}
