import { paths } from '../../../config/paths';
import { addressLanguage } from '../../../lib/i18n';
import { supabase } from '../../../lib/supabase';

// No zod here: the login screen stays small (the union is checked by hand).
export const OAUTH_PROVIDERS = ['google', 'apple'] as const;
export type TOAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/**
 * Starts the OAuth redirect; after sign-in the user lands on /dashboard/reaction, or back on the
 * signed-in page that asked for the sign-in (`next`, a path of this app: the pricing page's
 * Basic and Custom buttons lead to /purchase, which shows the login in place). A visit opened
 * with `?locale=` comes back with it (the return is a new page load, and an owner's saved
 * language would otherwise replace the one the address asked for); a `locale` the app does not
 * speak, or one a language picked since has ended, is left off.
 */
export async function signInWithProvider(provider: TOAuthProvider, next?: string) {
  if (!OAUTH_PROVIDERS.includes(provider)) throw new Error('Not supported sign in method');
  const back =
    next && next.startsWith('/') && !next.startsWith('//') ? next : paths.dashboardReaction;
  const url = new URL(back, window.location.origin);
  const visit = addressLanguage();
  if (visit) url.searchParams.set('locale', visit);
  else url.searchParams.delete('locale');
  const { error } = await supabase.auth.signInWithOAuth({
    provider,
    options: {
      redirectTo: url.href,
      ...(provider === 'apple' ? { scopes: 'email name' } : {}),
    },
  });
  if (error) throw error;
}
