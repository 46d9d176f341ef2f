import { currentLanguage } from '../../../lib/i18n';
import { invokeFunction, supabase } from '../../../lib/supabase';

/**
 * Stores the user's consent to the terms (edge function submit-agreement), then the language
 * the terms were read in: a new account's profile starts with the database's default (en),
 * which would otherwise switch someone who signed up in Korean to English right after agreeing.
 */
export async function submitAgreement(userId: string) {
  await invokeFunction<unknown>('submit-agreement', {});
  const { error } = await supabase
    .from('profiles')
    .update({ language: currentLanguage() })
    .eq('id', userId);
  // Consent is stored; a language left at the default is not worth failing the agreement for.
  if (error) console.error('[reaction-dashboard] saving the language failed', error);
}
