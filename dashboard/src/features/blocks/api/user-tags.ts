import { useCallback, useEffect, useState } from 'react';
import { z } from 'zod';
import type { UserTagRow } from '../../../lib/db-types';
import { supabase } from '../../../lib/supabase';

export async function listUserTags(userId: string): Promise<UserTagRow[]> {
  const { data, error } = await supabase
    .from('user_tags')
    .select('id, user_id, label, active')
    .eq('user_id', userId)
    .order('label', { ascending: true });
  if (error) throw error;
  return (data ?? []) as UserTagRow[];
}

export const ZSetTagActiveInput = z.object({ id: z.string().min(1), active: z.boolean() });
export type TSetTagActiveInput = z.infer<typeof ZSetTagActiveInput>;

export async function setTagActive(input: TSetTagActiveInput) {
  const { id, active } = ZSetTagActiveInput.parse(input);
  const { error } = await supabase.from('user_tags').update({ active }).eq('id', id);
  if (error) throw error;
}

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

export function useUserTags(userId: string | undefined) {
  const [tags, setTags] = useState<UserTagRow[]>([]);

  const reload = useCallback(async () => {
    if (!userId) return;
    try {
      setTags(await listUserTags(userId));
    } catch (cause) {
      console.error('[reaction-dashboard] tag list failed', cause);
    }
  }, [userId]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- loads data for this user
    void reload();
  }, [reload]);

  const toggle = useCallback(async (tag: UserTagRow) => {
    const active = !tag.active;
    setTags((list) => list.map((t) => (t.id === tag.id ? { ...t, active } : t)));
    try {
      await setTagActive({ id: tag.id, active });
    } catch (cause) {
      console.error('[reaction-dashboard] tag toggle failed', cause);
      setTags((list) => list.map((t) => (t.id === tag.id ? { ...t, active: !active } : t)));
    }
  }, []);

  return { tags, setTags, reload, toggle };
}
