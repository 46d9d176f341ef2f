import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserTagRow } from '../../../lib/db-types';
import { supabase } from '../../../lib/supabase';
import { blockKeys } from './keys';
import { parseInput } from './parse-input';
import type { TSetTagActiveInput } from './schemas';

export type { TSetTagActiveInput };

export async function setTagActive(input: TSetTagActiveInput) {
  const { id, active } = await parseInput('ZSetTagActiveInput', input);
  const { error } = await supabase.from('user_tags').update({ active }).eq('id', id);
  if (error) throw error;
}

/** Turns a tag filter on or off at once on screen; back as it was if the write fails. */
export function useSetTagActive(userId: string | undefined) {
  const client = useQueryClient();
  const key = blockKeys.tags(userId ?? '');
  const flip = (id: string, active: boolean) =>
    client.setQueryData<UserTagRow[]>(key, (list) =>
      list?.map((t) => (t.id === id ? { ...t, active } : t)),
    );
  return useMutation({
    mutationFn: (input: Parameters<typeof setTagActive>[0]) => setTagActive(input),
    onMutate: ({ id, active }) => flip(id, active),
    onError: (cause, { id, active }) => {
      console.error('[reaction-dashboard] tag toggle failed', cause);
      flip(id, !active);
    },
  });
}
