// The audience page's reads and writes, straight to the tables: RLS pins every row to the owner,
// the database checks lengths and addresses, and adding members or groups needs a paid plan
// (insert policies). Members are read 10 at a time, newest first.
import type { Database } from '../../../lib/db-types';
import { supabase } from '../../../lib/supabase';

type Tables = Database['public']['Tables'];
export type MemberRow = Tables['audience_members']['Row'];
export type GroupRow = Tables['audience_groups']['Row'];

export interface MemberQuery {
  deactivated: boolean;
  emailOnly: boolean;
  /** A group name, or null for every member of the state. */
  group: string | null;
  /** Only members who reacted to this block (/work/{id}/audience). */
  blockId?: string;
  /** The last row shown (paging: the rows after it in the list's order). */
  after?: Pick<MemberRow, 'created_at' | 'id'>;
  limit: number;
}

export async function listMembers(q: MemberQuery): Promise<MemberRow[]> {
  let query = supabase
    .from('audience_members')
    // is_unsubscribed: a computed field (the address left the owner's letters)
    .select('*, is_unsubscribed')
    .eq('deactivated', q.deactivated)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(q.limit);
  if (q.emailOnly) query = query.eq('has_email', true);
  if (q.group) query = query.eq('group_name', q.group);
  if (q.blockId) query = query.contains('history', JSON.stringify([{ id: q.blockId }]));
  // keyset on (created_at, id), the list's order: the members of one CSV import share created_at
  if (q.after)
    query = query.or(
      `created_at.lt."${q.after.created_at}",and(created_at.eq."${q.after.created_at}",id.lt.${q.after.id})`,
    );
  const { data, error } = await query;
  if (error) throw error;
  return data;
}

export async function listGroups(): Promise<GroupRow[]> {
  // member_count: the exact count (a computed field: the row's count plus the changes that
  // visitors' writes left beside it while the row was busy, folded in within seconds)
  const { data, error } = await supabase
    .from('audience_groups')
    .select('*, member_count')
    .order('created_at');
  if (error) throw error;
  return data.map((g) => ({ ...g, count: g.member_count ?? g.count }));
}

/** The members list per owner and filter (the page's query; lib/use-paged-query.ts). */
export const audienceKeys = {
  all: (ownerId: string) => ['audience', ownerId] as const,
  groups: (ownerId: string) => ['audience', ownerId, 'groups'] as const,
  members: (ownerId: string, filter?: Omit<MemberQuery, 'after' | 'limit'>, limit?: number) =>
    filter
      ? (['audience', ownerId, 'members', filter, limit] as const)
      : (['audience', ownerId, 'members'] as const),
  confirmations: (ownerId: string) => ['audience', ownerId, 'confirmations'] as const,
};

/** The owner's confirmation mails of the last 24 hours (double opt-in of typed addresses). */
export interface ConfirmationUsage {
  limit: number;
  sent: number;
  /** asks the plan's daily number kept back: no mail went */
  capped: number;
}

export async function confirmationUsage(): Promise<ConfirmationUsage> {
  const { data, error } = await supabase.rpc('confirmation_mail_usage');
  if (error) throw error;
  return data as unknown as ConfirmationUsage;
}

export async function createGroup(userId: string, name: string) {
  const { error } = await supabase
    .from('audience_groups')
    .insert({ user_id: userId, name: name.trim() });
  if (error) throw error;
}

export async function renameGroup(id: string, name: string) {
  const { error } = await supabase
    .from('audience_groups')
    .update({ name: name.trim() })
    .eq('id', id);
  if (error) throw error;
}

export async function deleteGroup(id: string) {
  const { error } = await supabase.from('audience_groups').delete().eq('id', id);
  if (error) throw error;
}

export async function addMember(
  userId: string,
  input: { name: string; email: string; group: string | null },
) {
  const { error } = await supabase.from('audience_members').insert({
    user_id: userId,
    creator_name: input.name.trim(),
    email: input.email.trim(),
    group_name: input.group,
    deactivated: false,
  });
  if (error) throw error;
}

export async function updateMember(
  id: string,
  patch: {
    creator_name: string;
    email: string | null;
    group_name: string | null;
    deactivated: boolean;
  },
) {
  const { data, error } = await supabase
    .from('audience_members')
    .update(patch)
    .eq('id', id)
    .select('*, is_unsubscribed')
    .single();
  if (error) throw error;
  return data;
}

export async function deleteMember(id: string) {
  const { error } = await supabase.from('audience_members').delete().eq('id', id);
  if (error) throw error;
}

/**
 * Inserts a batch of imported rows; an address already in the audience is left as it is.
 * Answers how many were added and how many of those unsubscribed from the owner's letters before
 * (letters skip them).
 */
export async function importBatch(
  userId: string,
  rows: Array<{ name: string; email: string; group: string | null }>,
): Promise<{ added: number; unsubscribed: number }> {
  const { data, error } = await supabase
    .from('audience_members')
    .upsert(
      rows.map((r) => ({
        user_id: userId,
        creator_name: r.name,
        email: r.email,
        group_name: r.group,
        deactivated: false,
      })),
      { onConflict: 'user_id,email', ignoreDuplicates: true },
    )
    .select('id, is_unsubscribed');
  if (error) throw error;
  return { added: data.length, unsubscribed: data.filter((m) => m.is_unsubscribed).length };
}
