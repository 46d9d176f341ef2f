import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { UserTagRow } from '../../../lib/db-types';
import { supabase } from '../../../lib/supabase';
import { blockKeys } from './keys';

export const ZCreateTagInput = z.object({
  userId: z.string().min(1),
  label: z.string().trim().min(1).max(50),
});
export type TCreateTagInput = z.infer<typeof ZCreateTagInput>;

export async function createUserTag(input: TCreateTagInput): Promise<UserTagRow> {
  const { userId, label } = ZCreateTagInput.parse(input);
  const { data, error } = await supabase
    .from('user_tags')
    .insert({ user_id: userId, label, active: false })
    .select('id, user_id, label, active')
    .single();
  if (error) throw error;
  return data as UserTagRow;
}

export function useCreateUserTag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Parameters<typeof createUserTag>[0]) => createUserTag(input),
    onSuccess: (_tag, { userId }) => client.invalidateQueries({ queryKey: blockKeys.tags(userId) }),
  });
}
