// Route paths of the dashboard, in one place.
import type { ReactionType } from '../lib/db-types';

/** The Send menu's sub-routes (letter sources). */
export const SEND_MODES = ['notion', 'typedream', 'brunch'] as const;
export type SendMode = (typeof SEND_MODES)[number];
export const isSendMode = (value: string | undefined): value is SendMode =>
  (SEND_MODES as readonly string[]).includes(value ?? '');

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
  dashboardSend: '/dashboard/send',
  dashboardSendType: (mode: SendMode) => `/dashboard/send/${mode}`,
  audience: '/audience',
  profile: '/profile',
  profileEmail: '/profile/email',
  profilePlan: '/profile/plan',
  purchase: '/purchase',
  purchasePayment: '/purchase/payment',
  profileIntegration: '/profile/integration',
  /** Where an integration's authorisation comes back (spec: /oauth/{service}). */
  oauth: (service: string) => `/oauth/${service}`,
  unsubscribe: '/unsubscribe',
  /** A confirmation mail's link (double opt-in of an address a visitor typed). */
  confirmEmail: '/confirm-email',
  work: (blockId: string) => `/work/${blockId}`,
  /**
   * A page of a block: edit is /work/{id} itself, the others /work/{id}/{mode}; all are modes of
   * its workspace but `audience`, which shows the owner's audience without it (use-leave-guard).
   */
  workMode: (
    blockId: string,
    mode: 'edit' | 'preview' | 'result' | 'history' | 'audience' | 'comments',
  ) => (mode === 'edit' ? `/work/${blockId}` : `/work/${blockId}/${mode}`),
  publicBlock: (origin: string, ownerId: string, blockId: string) =>
    `${origin}/block/?id=${encodeURIComponent(ownerId)}&block_id=${encodeURIComponent(blockId)}`,
} as const;

/** The path is `base` or under it: `/work/1/result` is within `/work/1`, `/work/12` is not. */
export const isWithin = (pathname: string, base: string) =>
  pathname === base || pathname.startsWith(`${base}/`);
