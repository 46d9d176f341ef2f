import { invokeFunction } from '../../../lib/supabase';

/** Stores the user's consent to the terms (edge function submit-agreement). */
export function submitAgreement() {
  return invokeFunction<unknown>('submit-agreement', {});
}
