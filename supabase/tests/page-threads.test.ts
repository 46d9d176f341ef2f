// One thread per page (issue 18, docs/cafe24.md "One thread per product"): a comment, Q&A or like
// block shown on many pages keeps each page key's messages, likes and counts apart; the block's
// own thread ('' key) is what it was; the cacheable GET is one URL per page. Through the gateway
// with supabase-js and the element's raw GET, as guests, another page's visitor and the owner.
import { beforeAll, describe, expect, it } from 'vitest';
import { newGuest, paidOwner, sql, stack, type TestUser } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';

interface Msg {
  id: string;
  page_key: string;
  content: string;
  replies?: Msg[];
}
interface View {
  block: { response_count: number; like_count: number; page_key?: string };
  messages: Msg[];
  me?: { liked: boolean };
}

const A = 'cafe24:product:101';
const B = 'cafe24:product:202';

let owner: TestUser;
let guest: TestUser;
let other: TestUser;

async function publicView(blockId: string, page?: string) {
  const params = new URLSearchParams({
    p_block_id: blockId,
    ...(page ? { p_page_key: page } : {}),
  });
  const res = await fetch(`${stack().apiUrl}/rest/v1/rpc/get_block_public?${params}`, {
    headers: { apikey: stack().anonKey, Authorization: `Bearer ${stack().anonKey}` },
  });
  return { res, view: (await res.json()) as View };
}

async function post(
  user: TestUser,
  blockId: string,
  content: string,
  extra: Record<string, unknown> = {},
) {
  const { data, error } = await user.client.rpc('post_message', {
    p_block_id: blockId,
    p_content: content,
    p_creator_name: 'Visitor',
    ...extra,
  });
  if (error) throw new Error(error.message);
  return data as Msg;
}

beforeAll(async () => {
  owner = await paidOwner('pages-owner');
  guest = await newGuest();
  other = await newGuest();
});

describe('one thread per page', () => {
  it("keeps each page's messages and counts apart, and the block's own thread as it was", async () => {
    const blockId = await createBlock(owner, 'comment');
    const onA = await post(guest, blockId, 'great shoes', { p_page_key: A });
    await post(other, blockId, 'too small for me', { p_page_key: A });
    await post(guest, blockId, 'a lovely bag', { p_page_key: B });
    const own = await post(guest, blockId, 'on the block itself');
    expect(onA.page_key).toBe(A);
    expect(own.page_key).toBe('');

    // a reply is on its parent's page, whatever page the caller names
    const reply = await post(other, blockId, 'agreed', { p_parent_id: onA.id, p_page_key: B });
    expect(reply.page_key).toBe(A);

    const a = await publicView(blockId, A);
    expect(a.res.status).toBe(200);
    expect(a.res.headers.get('cache-control')).toContain('public');
    expect(a.view.messages.map((m) => m.content).sort()).toEqual([
      'great shoes',
      'too small for me',
    ]);
    expect(a.view.messages.find((m) => m.id === onA.id)!.replies!.map((r) => r.content)).toEqual([
      'agreed',
    ]);
    expect(a.view.block).toMatchObject({ page_key: A, response_count: 3, like_count: 0 });
    const b = await publicView(blockId, B);
    expect(b.view.messages.map((m) => m.content)).toEqual(['a lovely bag']);
    expect(b.view.block.response_count).toBe(1);
    const none = await publicView(blockId, 'cafe24:product:999');
    expect(none.view.messages).toEqual([]);
    expect(none.view.block.response_count).toBe(0);
    // the block's own thread, and the block's totals over every page
    const base = await publicView(blockId);
    expect(base.view.messages.map((m) => m.content)).toEqual(['on the block itself']);
    expect(base.view.block.page_key).toBeUndefined();
    expect(base.view.block.response_count).toBe(5);

    // Load more and the visitor's own part read the page too
    const { data: more } = await guest.client.rpc('list_messages', {
      p_block_id: blockId,
      p_page_key: B,
    });
    expect((more as Msg[]).map((m) => m.content)).toEqual(['a lovely bag']);
    const { data: mine } = await guest.client.rpc('get_block_me', {
      p_block_id: blockId,
      p_page_key: B,
    });
    expect((mine as { block: View['block'] }).block.response_count).toBe(1);

    // the owner's moderation list says which page each message is on
    const { data: listed } = await owner.client.rpc('moderation_messages', { p_block_id: blockId });
    const pages = Object.fromEntries((listed as Msg[]).map((m) => [m.content, m.page_key]));
    expect(pages).toMatchObject({
      'great shoes': A,
      agreed: A,
      'a lovely bag': B,
      'on the block itself': '',
    });
  });

  it('counts one like per visitor per page', async () => {
    const blockId = await createBlock(owner, 'like');
    const like = async (user: TestUser, page: string, liked = true) => {
      const { data, error } = await user.client.rpc('toggle_block_like', {
        p_block_id: blockId,
        p_liked: liked,
        p_page_key: page,
      });
      expect(error).toBeNull();
      return data as { liked: boolean; like_count: number };
    };
    expect(await like(guest, A)).toEqual({ liked: true, like_count: 1 });
    expect(await like(guest, A)).toEqual({ liked: true, like_count: 1 }); // the same like again
    expect(await like(other, A)).toEqual({ liked: true, like_count: 2 });
    expect(await like(guest, B)).toEqual({ liked: true, like_count: 1 });
    expect((await publicView(blockId, A)).view.block.like_count).toBe(2);
    expect((await publicView(blockId, B)).view.block.like_count).toBe(1);
    const me = async (user: TestUser, page: string) =>
      (
        (await user.client.rpc('get_block_me', { p_block_id: blockId, p_page_key: page }))
          .data as View
      ).me!.liked;
    expect(await me(other, A)).toBe(true);
    expect(await me(other, B)).toBe(false);
    expect(await like(other, A, false)).toEqual({ liked: false, like_count: 1 });
    // the block's total counts every page
    const [row] = await sql<{ n: number }>(
      "select count(*)::int as n from public.responses where block_id = $1 and kind = 'like'",
      [blockId],
    );
    expect(row!.n).toBe(2);
  });

  it('refuses a malformed page key, and a page key on a block without threads or likes', async () => {
    const comment = await createBlock(owner, 'comment');
    const form = await createBlock(owner, 'form');
    for (const bad of ['<script>', 'a b', 'x'.repeat(101), 'café']) {
      const { error } = await guest.client.rpc('post_message', {
        p_block_id: comment,
        p_content: 'hi',
        p_page_key: bad,
      });
      expect(error?.message).toBe('Not valid page key');
      const res = await publicView(comment, bad);
      expect(res.res.status).toBe(400);
    }
    const res = await publicView(form, A);
    expect([res.res.status, (res.view as unknown as { message: string }).message]).toEqual([
      400,
      'Not valid page key',
    ]);
    // nothing was written
    const [row] = await sql<{ n: number }>(
      'select count(*)::int as n from public.messages where block_id = $1',
      [comment],
    );
    expect(row!.n).toBe(0);
  });
});
