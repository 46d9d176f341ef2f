import { paths } from '../../../config/paths';
import { supabase } from '../../../lib/supabase';

// No zod here: the login screen stays small (the union is checked by hand).
export const OAUTH_PROVIDERS = ['google', 'apple'] as const;
export type TOAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/**
 * Starts the OAuth redirect; after sign-in the user lands on /dashboard/reaction, or back on the
 * signed-in page that asked for the sign-in (`next`, a path of this app: the pricing page's
 * Basic and Custom buttons lead to /purchase, which shows the login in place).
 */
export async function signInWithProvider(provider: TOAuthProvider, next?: string) {
  if (!OAUTH_PROVIDERS.includes(provider)) throw new Error('Not supported sign in method');
  const back =
    next && next.startsWith('/') && !next.startsWith('//') ? next : paths.dashboardReaction;
  const { error } = await supabase.auth.signInWithOAuth({
    provider,
    options: {
      redirectTo: `${window.location.origin}${back}`,
      ...(provider === 'apple' ? { scopes: 'email name' } : {}),
    },
  });
  if (error) throw error;
}
