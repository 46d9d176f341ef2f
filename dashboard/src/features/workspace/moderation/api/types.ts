// What the owner's moderation list shows (public.moderation_messages) and what it can do.
import type { Database } from '../../../../lib/db-types';

type MessageRow = Database['public']['Tables']['messages']['Row'];

export const MODERATION_FILTERS = [
  'all',
  'held',
  'hidden',
  'pinned',
  'resolved',
  'reported',
] as const;
export type ModerationFilter = (typeof MODERATION_FILTERS)[number];

export const MODERATION_ACTIONS = [
  'approve',
  'hide',
  'unhide',
  'delete',
  'pin',
  'unpin',
  'resolve',
  'unresolve',
] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export type MessageStatus = 'published' | 'held' | 'hidden';

/** A message or reply with what the owner needs to judge it. */
export interface ModerationMessage extends Omit<MessageRow, 'status'> {
  status: MessageStatus;
  writer_anonymous: boolean;
  writer_blocked: boolean;
  creator_email: string | null;
  report_count: number;
  /**
   * Why a held message is held: a storm spent a shared budget (escalation, issue 17) or the
   * block's hold setting; null when not held (and from an older database: read as the setting).
   */
  held_by?: 'escalation' | 'setting' | null;
  reports: Array<{ reason: string | null; created_at: string }>;
  parent: { id: string; creator_name: string; content: string; status: MessageStatus } | null;
}
