// The audience page's reads and writes, straight to the tables: RLS pins every row to the owner,
// the database checks lengths and addresses, and adding members or groups needs a paid plan
// (insert policies). Members are read 10 at a time, newest first.
import type { Database } from '../../../lib/db-types';
import { readRows } from '../../../lib/read-rows';
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

/** What `filtered` needs of a read of the members (postgrest-js's filter builder). */
interface MemberFilters<T> {
  eq(column: 'deactivated' | 'has_email' | 'group_name', value: boolean | string): T;
  contains(column: 'history', value: string): T;
}

/** A read of the members narrowed to a list's filter (state, email only, group, block). */
function filtered<T extends MemberFilters<T>>(
  query: T,
  q: Omit<MemberQuery, 'after' | 'limit'>,
): T {
  let narrowed = query.eq('deactivated', q.deactivated);
  if (q.emailOnly) narrowed = narrowed.eq('has_email', true);
  if (q.group) narrowed = narrowed.eq('group_name', q.group);
  if (q.blockId) narrowed = narrowed.contains('history', JSON.stringify([{ id: q.blockId }]));
  return narrowed;
}
const membersTable = () => supabase.from('audience_members');

export async function listMembers(q: MemberQuery, signal: AbortSignal): Promise<MemberRow[]> {
  let query = filtered(
    membersTable()
      // is_unsubscribed: a computed field (the address left the owner's letters)
      .select('*, is_unsubscribed'),
    q,
  )
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(q.limit)
    .abortSignal(signal);
  // keyset on (created_at, id), the list's order: the members of one CSV import share created_at
  if (q.after)
    query = query.or(
      `created_at.lt."${q.after.created_at}",and(created_at.eq."${q.after.created_at}",id.lt.${q.after.id})`,
    );
  return readRows(query);
}

/**
 * The counts beside a block's list (/work/{id}/audience): of the members who reacted to the block
 * in the state, all of them and each group's, as its list reads them. The groups' own counts are
 * the whole audience's, which that list does not show.
 */
export async function blockMemberCounts(
  blockId: string,
  deactivated: boolean,
  groups: readonly string[],
  signal: AbortSignal,
): Promise<{ all: number; groups: Record<string, number> }> {
  const countOf = async (group: string | null) => {
    const { count, error } = await filtered(
      membersTable().select('id', { count: 'exact', head: true }),
      { deactivated, emailOnly: false, group, blockId },
    ).abortSignal(signal);
    if (error) throw error;
    return count ?? 0;
  };
  const [all = 0, ...each] = await Promise.all([null, ...groups].map(countOf));
  return { all, groups: Object.fromEntries(groups.map((name, i) => [name, each[i] ?? 0])) };
}

export async function listGroups(signal: AbortSignal): Promise<GroupRow[]> {
  // member_count: the exact count (a computed field: the row's count plus the changes that
  // visitors' writes left beside it while the row was busy, folded in within seconds)
  const { data, error } = await supabase
    .from('audience_groups')
    .select('*, member_count')
    .order('created_at')
    .abortSignal(signal);
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

export async function confirmationUsage(signal: AbortSignal): Promise<ConfirmationUsage> {
  const { data, error } = await supabase.rpc('confirmation_mail_usage').abortSignal(signal);
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

/** Rows of the owner's addresses read at once (PostgREST's max_rows). */
const ADDRESS_PAGE = 1000;

/**
 * Every address of the owner's audience, lower-cased: what a CSV import leaves out as already
 * there (one member per address, case aside). Read in pages, keyset on id.
 */
export async function memberAddresses(): Promise<Set<string>> {
  const addresses = new Set<string>();
  let after: string | null = null;
  for (;;) {
    let query = supabase
      .from('audience_members')
      .select('id, email')
      .eq('has_email', true)
      .order('id')
      .limit(ADDRESS_PAGE);
    if (after) query = query.gt('id', after);
    const { data, error } = await query;
    if (error) throw error;
    for (const m of data) if (m.email) addresses.add(m.email.toLowerCase());
    if (data.length < ADDRESS_PAGE) return addresses;
    after = data[data.length - 1]!.id;
  }
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
