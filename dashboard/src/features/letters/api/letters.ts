// The letter workspace's server calls: the block with its letter (RLS: the owner's rows), the
// verified sender emails, the quota, the groups, the sends; and the spec's functions
// (webToTemplate, verifyBrunchId, sendLetter, publishLetter) plus save-letter, each validated
// with the shared schema before it leaves.
import type { TSenderEmailStatus } from '@reaction-blocks/contracts/enums';
import {
  ZPublishLetter,
  ZSaveLetter,
  ZSendLetter,
  ZVerifyBrunchId,
  ZWebToTemplate,
  type TLeftOut,
  type TLetterMode,
  type TLetterModel,
  type TSaveLetter,
} from '@reaction-blocks/contracts/letters';
import type { Database, RpcRow } from '../../../lib/db-types';
import { readOwnBlock } from '../../../lib/own-block';
import { readProfile } from '../../../lib/profile';
import { readRows } from '../../../lib/read-rows';
import { invokeFunction, supabase } from '../../../lib/supabase';

type Tables = Database['public']['Tables'];
export type LetterBlockRow = Omit<Tables['blocks']['Row'], Tables['blocks']['ComputedFields']>; // select('*'): the columns, not the computed fields
export type LetterPrivateRow = Tables['block_private']['Row'];
/** A send, with the name of the form that sends it by itself (automatic sends only). */
export type PublishRow = Tables['publishes']['Row'] & { trigger_block: { name: string } | null };

export interface LetterData {
  block: LetterBlockRow;
  private: LetterPrivateRow | null;
}

export async function loadLetterBlock(
  blockId: string,
  ownerId: string,
  signal: AbortSignal,
): Promise<LetterData | null> {
  const [block, priv] = await readOwnBlock<LetterBlockRow>(blockId, ownerId, '*', signal);
  const error = block.error ?? priv.error;
  if (error) throw error;
  if (!block.data) return null;
  return { block: block.data, private: priv.data };
}

export interface SenderOption {
  email: string;
  status: TSenderEmailStatus;
}

export async function listSenders(signal: AbortSignal): Promise<SenderOption[]> {
  const { data, error } = await supabase
    .from('sender_emails')
    .select('email, status')
    .order('created_at', { ascending: true })
    .abortSignal(signal);
  if (error) throw error;
  return data as SenderOption[];
}

/** Emails left this month (the spec's remaining quota: limit minus this month's count). */
export async function remainingEmails(userId: string, signal: AbortSignal): Promise<number> {
  // response_monthly_count: this month's count (a computed field over the owner's count shards)
  const data = await readProfile(userId, 'response_monthly_limit, response_monthly_count', signal);
  if (!data) throw new Error('No profile');
  return Math.max(0, data.response_monthly_limit - (data.response_monthly_count ?? 0));
}

/**
 * A group with its counts, counted by the database (PostgREST answers 1,000 rows at most):
 * email_count, the addresses an audience send reaches (active members with an email);
 * skip_count, of those the addresses the send skips (unsubscribed or suppressed);
 * awaiting_count, members left out (a visitor typed their address and it has not confirmed yet).
 */
export type GroupOption = RpcRow<'letter_send_groups'>;

export function listSendGroups(signal: AbortSignal): Promise<GroupOption[]> {
  return readRows(supabase.rpc('letter_send_groups').abortSignal(signal));
}

export interface Loaded {
  html: string;
  text: string;
  title: string;
  letter: TLetterModel;
  pageUrl: string;
  warnings: string[];
  /** What the page had that the letter does not carry (the workspace says it). */
  leftOut?: TLeftOut;
}

export function webToTemplate(input: {
  blockId: string;
  mode: TLetterMode;
  pageUrl?: string;
  sample?: boolean;
}): Promise<Loaded> {
  return invokeFunction<Loaded>('web-to-template', ZWebToTemplate.parse(input));
}

export function saveLetter(input: TSaveLetter): Promise<LetterData> {
  return invokeFunction<LetterData>(
    'save-letter',
    ZSaveLetter.parse(input) as unknown as Record<string, unknown>,
  );
}

export interface SendResult {
  reservedCount: number;
  skippedCount: number;
  publishId: string | null;
}

export function sendLetter(input: {
  blockId: string;
  emailList: string[];
  registerAudience: boolean;
}) {
  return invokeFunction<SendResult>('send-letter', ZSendLetter.parse(input));
}

export function publishLetter(input: { blockId: string; group: string }) {
  return invokeFunction<SendResult>('publish-letter', ZPublishLetter.parse(input));
}

export function verifyBrunchId(input: {
  blockId: string;
  brunchProfilePage: string;
  email: string;
}) {
  return invokeFunction<{ brunchProfilePage: string }>(
    'verify-brunch-id',
    ZVerifyBrunchId.parse(input),
  );
}

/**
 * Why mails of a send were not sent: the distinct reasons (with their status) among its first 200
 * failed or skipped deliveries; the counts themselves are the publish's.
 */
export async function listNotSentReasons(
  publishId: string,
  signal: AbortSignal,
): Promise<Array<{ status: 'failed' | 'skipped'; reason: string }>> {
  const { data, error } = await supabase
    .from('deliveries')
    .select('status, reason')
    .eq('publish_id', publishId)
    .in('status', ['failed', 'skipped'])
    .not('reason', 'is', null)
    .limit(200)
    .abortSignal(signal);
  if (error) throw error;
  const seen = new Map<string, { status: 'failed' | 'skipped'; reason: string }>();
  for (const row of data as Array<{ status: 'failed' | 'skipped'; reason: string }>) {
    seen.set(`${row.status}:${row.reason}`, row);
  }
  return [...seen.values()];
}

/** Sends of a letter, newest first, 10 at a time (page with the created_at of the last one). */
export async function listPublishes(
  blockId: string,
  before: string | undefined,
  signal: AbortSignal,
): Promise<PublishRow[]> {
  let query = supabase
    .from('publishes')
    // the form is named by its foreign key: publishes reference blocks twice
    .select('*, trigger_block:blocks!publishes_trigger_block_id_fkey(name)')
    .eq('block_id', blockId)
    .order('created_at', { ascending: false })
    .limit(10)
    .abortSignal(signal);
  if (before) query = query.lt('created_at', before);
  return readRows(query);
}
