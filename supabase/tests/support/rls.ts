// rls-*.test.ts's shared set-up: an owner with published blocks, a guest's post, the rows a reader
// may not read (rls-catalogue, rls-published, rls-rpc).
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { newUser, sql, type TestUser } from './clients.ts';
import { createBlock } from './drafts.ts';

/** An owner with a published comment block that keeps commenter emails, and a form block. */
export async function ownerWithBlocks() {
  const owner = await newUser('owner');
  const commentBlock = await createBlock(owner, 'comment');
  const formBlock = await createBlock(owner, 'form');
  const likeBlock = await createBlock(owner, 'like');
  await sql('update public.blocks set allow_creator_email = true where id = $1', [commentBlock]);
  return { owner, commentBlock, formBlock, likeBlock };
}

export async function postAsGuest(guest: TestUser, blockId: string, email: string) {
  const { data, error } = await guest.client.rpc('post_message', {
    p_block_id: blockId,
    p_content: `hello ${randomUUID()}`,
    p_creator_name: 'Visitor',
    p_creator_email: email,
  });
  expect(error).toBeNull();
  return (data as { id: string }).id;
}

export const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/**
 * The rows a reader gets of a table it may not read: none, or, for anon on a table no policy lets
 * it read (it holds no privilege there), a refusal (42501) instead of an empty list.
 */
export function seen(res: { data: unknown; error: { code?: string; message: string } | null }) {
  if (res.error) {
    expect(res.error.code, res.error.message).toBe('42501');
    return [];
  }
  return res.data;
}
