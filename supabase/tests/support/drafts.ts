// A block's content as the workspace sends it to save-block (the contracts' draft types), with
// defaults a test overrides, and the call itself through supabase-js as the dashboard makes it.
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { expect } from 'vitest';
import type {
  TConditionDraft,
  TEndingDraft,
  TOptionDraft,
  TQuestionDraft,
} from '@reaction-blocks/contracts/schemas';
import { newUser, paidOwner, serviceClient, sql, type TestUser } from './clients.ts';

export const option = (
  value: string,
  index: number,
  over: Partial<TOptionDraft> = {},
): TOptionDraft => ({
  id: randomUUID(),
  value,
  index,
  deleted: false,
  ...over,
});

export const question = (over: Partial<TQuestionDraft> = {}): TQuestionDraft => ({
  id: randomUUID(),
  type: 'short_text',
  title: 'Question',
  required: true,
  index: 0,
  placeholder: null,
  allow_multi_select: false,
  as_visitor_info: null,
  trigger_letter_block: null,
  content: null,
  image_src: null,
  deleted: false,
  options: [],
  ...over,
});

export const ending = (over: Partial<TEndingDraft> = {}): TEndingDraft => ({
  id: randomUUID(),
  is_default: false,
  index: 1,
  title: '',
  closing_text: 'Bye',
  open_url: null,
  open_link_type: 'button',
  open_url_text: null,
  resubmit_text: null,
  block_submit_another: false,
  conditions: [],
  ...over,
});

export const condition = (
  questionId: string,
  over: Partial<TConditionDraft> = {},
): TConditionDraft => ({
  id: randomUUID(),
  index: 0,
  question_id: questionId,
  type: 'not_empty',
  value: null,
  ...over,
});

export interface SaveAnswer {
  status: number;
  message?: string;
  data?: {
    status: boolean;
    block: Record<string, unknown>;
    private: Record<string, unknown>;
    questions: (Record<string, unknown> & { id: string; options: { id: string }[] })[];
    endings: (Record<string, unknown> & { id: string; conditions: { id: string }[] })[];
  };
}

/** Calls save-block through supabase-js and unwraps `{ data }` / `{ error }`. */
export async function save(client: SupabaseClient, body: unknown): Promise<SaveAnswer> {
  const { data, error } = await client.functions.invoke('save-block', {
    body: body as Record<string, unknown>,
  });
  if (error) {
    if (error instanceof FunctionsHttpError) {
      const res = error.context as Response;
      const payload = (await res.json()) as { error?: { message?: string } };
      return { status: res.status, message: payload.error?.message };
    }
    return { status: 0, message: error.message };
  }
  return { status: 200, data: (data as { data: SaveAnswer['data'] }).data };
}

/** A new block of `type`, created as the dashboard creates it (create_block as `owner`); its id. */
export async function createBlock(owner: TestUser, type: string): Promise<string> {
  const { data, error } = await owner.client.rpc('create_block', { p_block_type: type });
  expect(error).toBeNull();
  return (data as { id: string }).id;
}

/**
 * A paid owner (mailed in `language`, en by default) with a new block of `type`; its `settings`
 * and its notification address (`mailTo`, confirmed for this owner first) saved through
 * save-block, as the workspace saves them, when given.
 */
export async function ownerWithBlock(
  type: string,
  opts: { mailTo?: string; settings?: Record<string, unknown>; language?: 'en' | 'ko' } = {},
): Promise<{ owner: TestUser; blockId: string }> {
  const owner = await paidOwner('owner');
  if (opts.language) {
    await sql('update public.profiles set language = $2 where id = $1', [owner.id, opts.language]);
  }
  const blockId = await createBlock(owner, type);
  if (opts.mailTo) {
    // the address confirmed this owner's notifications (as its person would have, through the
    // link mailed to it: hostile-notify.test), so saving it asks nothing
    await sql(
      `insert into private.mail_consents (email, owner_id, for_notifications, confirmed_at)
       values (lower($1), $2, true, now())`,
      [opts.mailTo, owner.id],
    );
  }
  if (opts.settings || opts.mailTo) {
    const res = await save(owner.client, {
      blockId,
      ...(opts.settings && { settings: opts.settings }),
      ...(opts.mailTo && { privateSettings: { mail_to: opts.mailTo } }),
    });
    expect(res.status, res.message).toBe(200);
  }
  return { owner, blockId };
}

/** The block's default ending as a draft (it is created with every form and ab block). */
export async function defaultEnding(user: TestUser, blockId: string): Promise<TEndingDraft> {
  const { data, error } = await user.client
    .from('endings')
    .select(
      'id, is_default, index, title, closing_text, open_url, open_link_type, open_url_text, resubmit_text, block_submit_another',
    )
    .eq('block_id', blockId)
    .eq('is_default', true)
    .single();
  expect(error).toBeNull();
  return { ...(data as Omit<TEndingDraft, 'conditions'>), conditions: [] };
}

/** The ab block's own question as a draft. */
export async function abQuestion(user: TestUser, blockId: string): Promise<TQuestionDraft> {
  const { data, error } = await user.client
    .from('questions')
    .select(
      'id, type, title, required, index, placeholder, allow_multi_select, as_visitor_info, trigger_letter_block, content, image_src, deleted, options(id, value, index, deleted)',
    )
    .eq('block_id', blockId)
    .single();
  expect(error).toBeNull();
  return data as unknown as TQuestionDraft;
}

/**
 * Adds a question (and its options) to a block. Set-up with the service role: owners write
 * content through save-block only, which takes the complete list; these tests are about what
 * visitors can do with the content, not about saving it. `title` is 'Question' unless given.
 */
export async function addQuestion(
  blockId: string,
  question: Record<string, unknown>,
  options: string[] = [],
): Promise<{ id: string; options: string[] }> {
  const service = serviceClient();
  const { data, error } = await service
    .from('questions')
    .insert({ block_id: blockId, title: 'Question', ...question })
    .select('id')
    .single();
  expect(error).toBeNull();
  const id = (data as { id: string }).id;
  const optionIds: string[] = [];
  for (const [index, value] of options.entries()) {
    const res = await service
      .from('options')
      .insert({ question_id: id, block_id: blockId, value, index })
      .select('id')
      .single();
    expect(res.error).toBeNull();
    optionIds.push((res.data as { id: string }).id);
  }
  return { id, options: optionIds };
}

// The save-block tests' owners and their check that a refused save changed nothing
// (save-block.test.ts, save-block-refusals.test.ts).

export async function owner(paid = false): Promise<TestUser> {
  const user = await newUser(paid ? 'paid' : 'free');
  await sql('update public.profiles set paid = $2, block_limit = 20 where id = $1', [
    user.id,
    paid,
  ]);
  return user;
}

/** A paid owner's new form block, and its default ending as a draft. */
export async function paidForm() {
  const user = await owner(true);
  const blockId = await createBlock(user, 'form');
  return { user, blockId, fallback: await defaultEnding(user, blockId) };
}

/** Everything stored for a block, to compare before and after a refused save. */
export async function snapshot(blockId: string): Promise<unknown> {
  const [row] = await sql<{ s: unknown }>(
    `select jsonb_build_object(
       'block', (select to_jsonb(b) from public.blocks b where b.id = $1),
       'private', (select to_jsonb(p) from public.block_private p where p.block_id = $1),
       'questions', (select coalesce(jsonb_agg(to_jsonb(q) order by q.id), '[]') from public.questions q where q.block_id = $1),
       'options', (select coalesce(jsonb_agg(to_jsonb(o) order by o.id), '[]') from public.options o where o.block_id = $1),
       'endings', (select coalesce(jsonb_agg(to_jsonb(e) order by e.id), '[]') from public.endings e where e.block_id = $1),
       'conditions', (select coalesce(jsonb_agg(to_jsonb(c) order by c.id), '[]') from public.ending_conditions c where c.block_id = $1)
     ) as s`,
    [blockId],
  );
  return row?.s;
}

/** A save by `user` refused with `status` (and `message`, when given), and nothing stored changed. */
export async function expectRefused(
  user: Pick<TestUser, 'client'>,
  blockId: string,
  body: Record<string, unknown>,
  status: number,
  message?: string | RegExp,
) {
  const before = await snapshot(blockId);
  const res = await save(user.client, { blockId, ...body });
  expect(res.status).toBe(status);
  if (typeof message === 'string') expect(res.message).toBe(message);
  else if (message) expect(res.message).toMatch(message);
  expect(await snapshot(blockId)).toEqual(before);
}
