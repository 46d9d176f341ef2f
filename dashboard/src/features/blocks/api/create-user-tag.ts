import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserTagRow } from '../../../lib/db-types';
import { supabase } from '../../../lib/supabase';
import { blockKeys } from './keys';
import { parseInput } from './parse-input';
import type { TCreateTagInput } from './schemas';

export type { TCreateTagInput };

export async function createUserTag(input: TCreateTagInput): Promise<UserTagRow> {
  const { userId, label } = await parseInput('ZCreateTagInput', input);
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
