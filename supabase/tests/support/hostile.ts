// Helpers of the hostile-visitor tests (hostile-visitor, abuse-limits and moderation-abuse):
// owners with blocks, posts, the state of a block read back with SQL, and the refusal checks.
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TReactionType } from '@reaction-blocks/contracts/enums';
import { apiClient, newGuest, paidOwner, sql, sqlValue, stack, type TestUser } from './clients.ts';
import { addQuestion, createBlock } from './drafts.ts';

export { addQuestion };

// ---------------------------------------------------------------------------------------------
// set-up helpers
// ---------------------------------------------------------------------------------------------

/** An owner (with room for many blocks) and one block per requested type. */
export async function ownerWith<T extends TReactionType>(
  ...types: T[]
): Promise<{ owner: TestUser; blocks: Record<T, string> }> {
  // a paid owner: room for many blocks and for more than five questions per form
  const owner = await paidOwner('owner');
  const blocks = {} as Record<T, string>;
  for (const type of types) blocks[type] = await createBlock(owner, type);
  return { owner, blocks };
}

/** Changes block settings as the owner does: through the save-block edge function. */
export async function saveSettings(
  owner: TestUser,
  blockId: string,
  settings: Record<string, unknown>,
) {
  const { error } = await owner.client.functions.invoke('save-block', {
    body: { blockId, settings },
  });
  expect(error).toBeNull();
}

/** The ab block's question and its two options (Good, Bad), created with the block. */
export async function abQuestion(blockId: string): Promise<{ id: string; options: string[] }> {
  const rows = await sql<{ question_id: string; option_id: string }>(
    `select q.id as question_id, o.id as option_id from public.questions q
     join public.options o on o.question_id = q.id where q.block_id = $1 order by o.index`,
    [blockId],
  );
  return { id: rows[0]!.question_id, options: rows.map((r) => r.option_id) };
}

/** A form with one question of each validated kind; only the short text is required. */
export async function formWithQuestions(blockId: string) {
  const add = (q: Record<string, unknown>, options?: string[]) => addQuestion(blockId, q, options);
  return {
    short: await add({ type: 'short_text', index: 0, required: true }),
    long: await add({ type: 'long_text', index: 1, required: false }),
    mail: await add({ type: 'mail', index: 2, required: false }),
    phone: await add({ type: 'phone', index: 3, required: false }),
    number: await add({ type: 'number', index: 4, required: false }),
    poll: await add({ type: 'poll', index: 5, required: false }, ['Red', 'Blue']),
  };
}

/** A comment posted by `visitor` (tryPost), which must go through; its id. */
export async function post(
  visitor: TestUser,
  blockId: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const { data, error } = await tryPost(visitor, blockId, fields);
  expect(error).toBeNull();
  return (data as { id: string }).id;
}

/** Everything a visitor write could change on a block: its rows and every counter. */
export async function stateOf(blockId: string): Promise<Record<string, unknown>> {
  const [row] = await sql(
    `select (private.with_live_counts(b)).response_count, (private.with_live_counts(b)).new_response_count,
       (private.with_live_counts(b)).like_count, b.deactivated,
       -- the owner's monthly count: the sum of the count shards (computed field), and the shards
       p.response_monthly_count,
       (select coalesce(jsonb_agg(to_jsonb(c) order by c.month, c.shard), '[]')
         from private.response_counts c where c.user_id = p.id) as response_counts,
       (select coalesce(jsonb_agg(to_jsonb(r) order by r.id), '[]') from public.responses r
         where r.block_id = b.id) as responses,
       (select coalesce(jsonb_agg(to_jsonb(m) order by m.id), '[]') from public.messages m
         where m.block_id = b.id) as messages,
       (select coalesce(jsonb_agg(to_jsonb(l) order by l.message_id, l.user_id), '[]')
         from public.message_likes l join public.messages m on m.id = l.message_id
         where m.block_id = b.id) as message_likes,
       (select coalesce(jsonb_agg(to_jsonb(x) order by x.message_id), '[]')
         from public.message_private x where x.block_id = b.id) as message_private,
       (select coalesce(jsonb_agg(jsonb_build_object('id', o.id, 'count', o.response_count)
                                  order by o.id), '[]')
         from public.options o where o.block_id = b.id) as options,
       (select coalesce(jsonb_agg(to_jsonb(x) order by x.message_id, x.user_id), '[]')
         from public.message_reports x where x.block_id = b.id) as reports,
       (select coalesce(jsonb_agg(to_jsonb(w) order by w.user_id), '[]')
         from public.blocked_writers w where w.block_id = b.id) as blocked_writers,
       -- a refused write spends no token: the buckets roll back with it
       (select coalesce(jsonb_agg(to_jsonb(t) order by t.subject, t.action), '[]')
         from private.rate_limits t where t.block_id = b.id) as rate_limits,
       (select coalesce(jsonb_agg(to_jsonb(c) order by c.user_id), '[]')
         from private.captcha_passes c where c.block_id = b.id) as captcha_passes
     from public.blocks b join public.profiles p on p.id = b.owner_id where b.id = $1`,
    [blockId],
  );
  return row!;
}

export interface RpcResult {
  error: { message: string; code?: string; details?: string } | null;
  status: number;
}

/** Runs `attack` and asserts the blocks' rows and counters are exactly as before it. */
export async function unchanged<R>(
  blockIds: string | string[],
  attack: () => PromiseLike<R>,
): Promise<R> {
  const ids = Array.isArray(blockIds) ? blockIds : [blockIds];
  const before = await Promise.all(ids.map(stateOf));
  const res = await attack();
  expect(await Promise.all(ids.map(stateOf))).toEqual(before);
  return res;
}

/**
 * Runs an attack and asserts the server refused it with `message` (and `status` when given)
 * and that nothing changed.
 */
export async function refused(
  blockIds: string | string[],
  attack: () => PromiseLike<RpcResult>,
  message: string | RegExp,
  status?: number,
): Promise<RpcResult> {
  const res = await unchanged(blockIds, attack);
  expect(res.error, 'the server must refuse').not.toBeNull();
  if (typeof message === 'string') expect(res.error?.message).toBe(message);
  else expect(res.error?.message).toMatch(message);
  if (status !== undefined) expect(res.status).toBe(status);
  return res;
}

/** A write's answer as supabase-js gives it; a refusal's hint is the JSON of its limit. */
export interface WriteAnswer {
  data: unknown;
  error: { message: string; hint?: string } | null;
  status: number;
}

/**
 * Each of `writers` writes as fast as it can until the server refuses it once (its own limit,
 * as a storm meets it), all at once: every accepted write's data, and each writer's refusal
 * (its status, and the scope of the limit its hint names).
 */
export async function writeUntilRefused<T, W>(
  writers: W[],
  write: (writer: W) => PromiseLike<WriteAnswer>,
): Promise<{ answers: T[]; refusals: Array<{ status: number; scope: unknown }> }> {
  const each = await Promise.all(
    writers.map(async (writer) => {
      const mine: T[] = [];
      for (;;) {
        const r = await write(writer);
        if (r.error) {
          const { scope } = JSON.parse(r.error.hint ?? '{}') as { scope?: unknown };
          return { mine, refusal: { status: r.status, scope } };
        }
        mine.push(r.data as T);
      }
    }),
  );
  return { answers: each.flatMap((e) => e.mine), refusals: each.map((e) => e.refusal) };
}

export const count = (query: string, params: unknown[]): Promise<number> =>
  sqlValue<number>(`select count(*)::int from (${query}) q`, params);

/** A supabase-js client that sends `token` as the user JWT, like a page with a stolen session. */
export const clientWithToken = (token: string, apikey = stack().anonKey): SupabaseClient =>
  apiClient(apikey, { Authorization: `Bearer ${token}` });

export const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

// ---------------------------------------------------------------------------------------------
// likes
// ---------------------------------------------------------------------------------------------

/**
 * What a 429 says, per action: what is refused and for how long (the wait in whole seconds,
 * minutes, hours or days, never shorter than the real one).
 */
export const WAIT = String.raw`in \d+ (second|seconds|minutes|hours|days)\.`;
export const TOO_FAST = {
  message: new RegExp(String.raw`^You're posting too fast\. You can post again ${WAIT}$`),
  edit: new RegExp(String.raw`^You're editing too fast\. You can edit again ${WAIT}$`),
  like: new RegExp(String.raw`^You're liking too fast\. You can like again ${WAIT}$`),
  click: new RegExp(String.raw`^You're clicking too fast\. You can click again ${WAIT}$`),
  report: new RegExp(String.raw`^You're reporting too fast\. You can report again ${WAIT}$`),
  submit: new RegExp(
    String.raw`^You've sent this form several times\. You can send it again ${WAIT}$`,
  ),
  block: new RegExp(String.raw`^Too many people are writing here right now\. Try again ${WAIT}$`),
};
export const QUOTA_REACHED = new RegExp(
  String.raw`^Monthly response limit reached\. This form takes responses again ${WAIT}$`,
);

/** A comment posted by `visitor`, or the refusal. */
export const tryPost = (visitor: TestUser, blockId: string, fields: Record<string, unknown> = {}) =>
  visitor.client.rpc('post_message', {
    p_block_id: blockId,
    p_content: `hello ${randomUUID()}`,
    p_creator_name: 'Quiet Otter',
    ...fields,
  });

/** A comment by `visitor` (tryPost, with `fields`) that the server refuses with `message` and
 * `status`, changing nothing (refused). */
export const refusedPost = (
  visitor: TestUser,
  blockId: string,
  message: string | RegExp,
  status: number,
  fields: Record<string, unknown> = {},
) => refused(blockId, () => tryPost(visitor, blockId, fields), message, status);

/** An edit of message `messageId` by `editor` to `content` that the server refuses with `message`
 * (and `status`, when given), changing nothing (refused). */
export const refusedEdit = (
  editor: TestUser,
  blockId: string,
  messageId: string,
  content: string | null,
  message: string | RegExp,
  status?: number,
) =>
  refused(
    blockId,
    () => editor.client.rpc('edit_message', { p_message_id: messageId, p_content: content }),
    message,
    status,
  );

/** Answers `visitor` submits to a form or A/B block (submit_response), or the refusal. */
export const trySubmit = (
  visitor: TestUser,
  blockId: string,
  answers: unknown,
  fields: Record<string, unknown> = {},
) => visitor.client.rpc('submit_response', { p_block_id: blockId, p_answers: answers, ...fields });

/** Answers by `visitor` (trySubmit) that the server refuses with `message` (and `status`, when
 * given), changing nothing (refused). */
export const refusedSubmit = (
  visitor: TestUser,
  blockId: string,
  answers: unknown,
  message: string | RegExp,
  status?: number,
  fields: Record<string, unknown> = {},
) => refused(blockId, () => trySubmit(visitor, blockId, answers, fields), message, status);

/**
 * A message with `content` from `visitor` (tryPost) under a name a mail must escape, as the
 * notification tests post them; the RPC's answer.
 */
export const postMessage = (
  visitor: TestUser,
  blockId: string,
  content: string,
  extra: Record<string, unknown> = {},
) =>
  tryPost(visitor, blockId, {
    p_content: content,
    p_creator_name: 'Visitor <i>',
    p_color: '#336699',
    ...extra,
  });

/** An operator's per-block override of the visitor limits (blocks.rate_limits). */
export const overrideLimits = (blockId: string, limits: Record<string, Record<string, number>>) =>
  sql('update public.blocks set rate_limits = $2 where id = $1', [blockId, limits]);

/**
 * A form of `owner` (a free one) with its own bucket widened, as storm.test does, so that a test
 * sees the owner's shares (an address's, the fresh visitors') alone; and a visitor's submit to it.
 */
export async function wideForm(owner: TestUser) {
  const form = await createBlock(owner, 'form');
  await overrideLimits(form, { submit: { block_per_minute: 1200, block_burst: 1200 } });
  const submit = (v: TestUser) =>
    v.client.rpc('submit_response', { p_block_id: form, p_answers: {}, p_honeypot: '' });
  return { owner, form, submit };
}

// ---------------------------------------------------------------------------------------------
// the hostile-visitor files' worlds: a block of each kind with a fresh visitor
// ---------------------------------------------------------------------------------------------

/** An owner's comment block and a message a visitor (a fresh guest) posted on it. */
export async function commentAndMessage() {
  const { owner, blocks } = await ownerWith('comment');
  const visitor = await newGuest();
  return { owner, blocks, visitor, message: await post(visitor, blocks.comment) };
}

/** An owner's A/B block, its question and a visitor (a fresh guest) who has not voted. */
export async function abAndVisitor() {
  const { owner, blocks } = await ownerWith('ab');
  const question = await abQuestion(blocks.ab);
  return { owner, blocks, question, visitor: await newGuest() };
}

/** An owner's form with a question of each kind (formWithQuestions) and a visitor. */
export async function formAndVisitor() {
  const { owner, blocks } = await ownerWith('form');
  const q = await formWithQuestions(blocks.form);
  return { owner, blocks, q, visitor: await newGuest() };
}
