// Route paths of the dashboard, in one place.
import type { ReactionType } from '../lib/db-types';

export const paths = {
  home: '/',
  reaction: '/reaction',
  send: '/send',
  showcase: '/showcase',
  pricing: '/pricing',
  login: '/login',
  help: '/help',
  terms: '/terms',
  cookies: '/cookies',
  notSupported: '/not_supported',
  dashboard: '/dashboard',
  dashboardReaction: '/dashboard/reaction',
  dashboardReactionType: (type: ReactionType) => `/dashboard/reaction/${type}`,
  profile: '/profile',
  profileEmail: '/profile/email',
  profilePlan: '/profile/plan',
  unsubscribe: '/unsubscribe',
  work: (blockId: string) => `/work/${blockId}`,
  /** A workspace mode: edit is /work/{id} itself, the others /work/{id}/{mode}. */
  workMode: (blockId: string, mode: 'edit' | 'preview' | 'result' | 'comments') =>
    mode === 'edit' ? `/work/${blockId}` : `/work/${blockId}/${mode}`,
  publicBlock: (origin: string, ownerId: string, blockId: string) =>
    `${origin}/block/?id=${encodeURIComponent(ownerId)}&block_id=${encodeURIComponent(blockId)}`,
} as const;
