import { paths } from '../../../config/paths';
import { supabase } from '../../../lib/supabase';

// No zod here: the login screen stays small (the union is checked by hand).
export const OAUTH_PROVIDERS = ['google', 'apple'] as const;
export type TOAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** Starts the OAuth redirect; after sign-in the user lands on /dashboard/reaction. */
export async function signInWithProvider(provider: TOAuthProvider) {
  if (!OAUTH_PROVIDERS.includes(provider)) throw new Error('Not supported sign in method');
  const { error } = await supabase.auth.signInWithOAuth({
    provider,
    options: {
      redirectTo: `${window.location.origin}${paths.dashboardReaction}`,
      ...(provider === 'apple' ? { scopes: 'email name' } : {}),
    },
  });
  if (error) throw error;
}
