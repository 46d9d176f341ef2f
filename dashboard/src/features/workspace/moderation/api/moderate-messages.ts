// Approve, hide, show again, pin, unpin, resolve, unresolve or delete messages, one or many at
// once (public.moderate_messages: all or nothing, the caller's blocks only).
import { z } from 'zod';
import { supabase } from '../../../../lib/supabase';
import { MODERATION_ACTIONS } from './types';

/** Messages acted on in one call: public.moderate_messages refuses more. */
export const MODERATE_AT_ONCE = 200;

export const ZModerateMessagesInput = z.strictObject({
  ids: z.array(z.guid()).min(1).max(MODERATE_AT_ONCE),
  action: z.enum(MODERATION_ACTIONS),
});
export type TModerateMessagesInput = z.infer<typeof ZModerateMessagesInput>;

export async function moderateMessages(input: TModerateMessagesInput): Promise<void> {
  const { ids, action } = ZModerateMessagesInput.parse(input);
  const { error } = await supabase.rpc('moderate_messages', {
    p_message_ids: ids,
    p_action: action,
  });
  if (error) throw error;
}
