// The RPCs refused for anon (no JWT) and for users acting on someone else's data, references
// across owners, and Realtime following RLS (beside rls.test.ts, rls-catalogue and rls-published).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { anonClient, newGuest, newUser, sql } from './support/clients.ts';
import { ownerWithBlocks, postAsGuest, uniqueEmail } from './support/rls.ts';

// ---------------------------------------------------------------------------------------------
// RPCs
// ---------------------------------------------------------------------------------------------

describe('anonymous visitors own nothing', () => {
  it('cannot create tags, audience, groups, templates or private settings for themselves', async () => {
    const guest = await newGuest();
    const { formBlock } = await ownerWithBlocks();
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['user_tags', { user_id: guest.id, label: 'mine' }],
      ['audience_groups', { user_id: guest.id, name: 'mine' }],
      ['audience_members', { user_id: guest.id, email: 'someone@example.com' }],
      ['letter_templates', { block_id: formBlock, user_id: guest.id, mail_title: 'mine' }],
      ['block_private', { block_id: formBlock, owner_id: guest.id }],
      ['blocks', { owner_id: guest.id, type: 'like' }],
    ];
    for (const [table, row] of attempts) {
      const res = await guest.client.from(table).insert(row);
      expect(res.error, table).not.toBeNull();
    }
    expect(await sql('select 1 from public.profiles where id = $1', [guest.id])).toEqual([]);
    for (const [table, column] of [
      ['user_tags', 'user_id'],
      ['audience_groups', 'user_id'],
      ['audience_members', 'user_id'],
      ['letter_templates', 'user_id'],
      ['block_private', 'owner_id'],
      ['blocks', 'owner_id'],
    ]) {
      expect(
        await sql(`select 1 from public.${table} where ${column} = $1`, [guest.id]),
        table,
      ).toEqual([]);
    }
  });
});

describe('RPCs', () => {
  it('every write RPC is refused with the anon key alone, and nothing is written', async () => {
    const { owner, commentBlock, formBlock, likeBlock } = await ownerWithBlocks();
    const guest = await newGuest();
    const messageId = await postAsGuest(guest, commentBlock, '');
    const before = await sql(
      'select response_count, like_count from public.blocks where owner_id = $1 order by id',
      [owner.id],
    );
    const anon = anonClient();
    const calls: Array<[string, Record<string, unknown>]> = [
      ['create_block', { p_block_type: 'like' }],
      ['duplicate_block', { p_block_id: formBlock }],
      ['post_message', { p_block_id: commentBlock, p_content: 'anon' }],
      ['edit_message', { p_message_id: messageId, p_content: 'anon edit' }],
      ['delete_message', { p_message_id: messageId }],
      ['toggle_message_like', { p_message_id: messageId }],
      ['set_message_resolved', { p_message_id: messageId, p_resolved: true }],
      ['toggle_block_like', { p_block_id: likeBlock }],
      ['record_button_click', { p_block_id: likeBlock }],
      ['submit_response', { p_block_id: formBlock, p_answers: {} }],
    ];
    for (const [fn, args] of calls) {
      const { error } = await anon.rpc(fn, args);
      expect(error?.code, fn).toBe('42501');
    }
    expect(
      await sql(
        'select response_count, like_count from public.blocks where owner_id = $1 order by id',
        [owner.id],
      ),
    ).toEqual(before);
    expect(
      await sql('select content, resolved, like_count from public.messages where id = $1', [
        messageId,
      ]),
    ).toEqual([expect.objectContaining({ resolved: false, like_count: 0 })]);
    expect(await sql('select block_count from public.profiles where id = $1', [owner.id])).toEqual([
      { block_count: 3 },
    ]);
  });

  it('anonymous visitors cannot create or duplicate blocks', async () => {
    const { formBlock } = await ownerWithBlocks();
    const guest = await newGuest();
    expect((await guest.client.rpc('create_block', { p_block_type: 'like' })).error).not.toBeNull();
    expect(
      (await guest.client.rpc('duplicate_block', { p_block_id: formBlock })).error,
    ).not.toBeNull();
    const direct = await guest.client.from('blocks').insert({ type: 'like' });
    expect(direct.error).not.toBeNull();
    expect(await sql('select 1 from public.blocks where owner_id = $1', [guest.id])).toEqual([]);
  });

  it("another user cannot duplicate, edit, resolve or delete on someone else's block", async () => {
    const { owner, commentBlock, formBlock } = await ownerWithBlocks();
    const author = await newGuest();
    const other = await newUser('other');
    const messageId = await postAsGuest(author, commentBlock, '');
    const [before] = await sql('select * from public.messages where id = $1', [messageId]);

    const dup = await other.client.rpc('duplicate_block', { p_block_id: formBlock });
    expect(dup.error?.message).toBe("block doesn't exists");
    const edit = await other.client.rpc('edit_message', {
      p_message_id: messageId,
      p_content: 'hijacked',
    });
    expect(edit.error?.message).toBe('Only the author can edit this message');
    const resolve = await other.client.rpc('set_message_resolved', {
      p_message_id: messageId,
      p_resolved: true,
    });
    expect(resolve.error?.message).toBe('Only the block owner can resolve messages');
    const del = await other.client.rpc('delete_message', { p_message_id: messageId });
    expect(del.error?.message).toBe('Only the author or the block owner can delete this message');
    // the author may not resolve on the owner's block either
    const authorResolve = await author.client.rpc('set_message_resolved', {
      p_message_id: messageId,
      p_resolved: true,
    });
    expect(authorResolve.error).not.toBeNull();
    // the block owner may not rewrite a visitor's words
    const ownerEdit = await owner.client.rpc('edit_message', {
      p_message_id: messageId,
      p_content: 'put words in mouth',
    });
    expect(ownerEdit.error?.message).toBe('Only the author can edit this message');

    expect(await sql('select * from public.messages where id = $1', [messageId])).toEqual([before]);
    expect(await sql('select 1 from public.blocks where owner_id = $1', [other.id])).toEqual([]);
  });

  it('the author edits and deletes their own message; the block owner resolves and deletes any', async () => {
    const { owner, commentBlock } = await ownerWithBlocks();
    const author = await newGuest();
    const first = await postAsGuest(author, commentBlock, '');
    const second = await postAsGuest(author, commentBlock, '');
    expect(
      (await author.client.rpc('edit_message', { p_message_id: first, p_content: 'edited' })).error,
    ).toBeNull();
    expect(
      (await owner.client.rpc('set_message_resolved', { p_message_id: first, p_resolved: true }))
        .error,
    ).toBeNull();
    expect(
      await sql('select content, is_edited, resolved from public.messages where id = $1', [first]),
    ).toEqual([{ content: 'edited', is_edited: true, resolved: true }]);
    expect((await author.client.rpc('delete_message', { p_message_id: first })).error).toBeNull();
    expect((await owner.client.rpc('delete_message', { p_message_id: second })).error).toBeNull();
    expect(
      await sql('select 1 from public.messages where id = any($1)', [[first, second]]),
    ).toEqual([]);
  });

  it("a stranger's refused block insert leaves the owner's block count alone", async () => {
    const { owner } = await ownerWithBlocks();
    await sql('update public.profiles set block_limit = 10 where id = $1', [owner.id]);
    const other = await newUser('other');
    const res = await other.client.from('blocks').insert({ owner_id: owner.id, type: 'like' });
    expect(res.error?.code).toBe('42501');
    expect(await sql('select block_count from public.profiles where id = $1', [owner.id])).toEqual([
      { block_count: 3 },
    ]);
    expect(
      await sql('select count(*)::int as n from public.blocks where owner_id = $1', [owner.id]),
    ).toEqual([{ n: 3 }]);
  });

  // private.blocks_before_insert (a BEFORE trigger) runs before the RLS check; it must refuse a
  // stranger's row itself, or "Block limit reached!" would reveal another user's plan state.
  it("a stranger's block insert for a user at their limit is refused like any other (no plan leak)", async () => {
    const { owner } = await ownerWithBlocks();
    const other = await newUser('other');
    const res = await other.client.from('blocks').insert({ owner_id: owner.id, type: 'like' });
    expect(res.error?.code).toBe('42501');
    expect(res.error?.message).not.toContain('Block limit');
  });

  it('the owner may reset new_response_count to 0 but not set it', async () => {
    const { owner, formBlock } = await ownerWithBlocks();
    await sql('update public.blocks set new_response_count = 4 where id = $1', [formBlock]);
    const raise = await owner.client
      .from('blocks')
      .update({ new_response_count: 9 })
      .eq('id', formBlock);
    expect(raise.error?.code).toBe('42501');
    expect(
      await sql('select new_response_count from public.blocks where id = $1', [formBlock]),
    ).toEqual([{ new_response_count: 4 }]);
    const reset = await owner.client
      .from('blocks')
      .update({ new_response_count: 0 })
      .eq('id', formBlock);
    expect(reset.error).toBeNull();
    expect(
      await sql('select new_response_count from public.blocks where id = $1', [formBlock]),
    ).toEqual([{ new_response_count: 0 }]);
  });

  it('the reserved audience groups and the default ending cannot be renamed or deleted by the owner', async () => {
    const { owner, formBlock } = await ownerWithBlocks();
    const rename = await owner.client
      .from('audience_groups')
      .update({ name: 'renamed' }, { count: 'exact' })
      .eq('user_id', owner.id)
      .in('name', ['activated', 'deactivated']);
    expect(rename.count ?? 0).toBe(0);
    const del = await owner.client
      .from('audience_groups')
      .delete({ count: 'exact' })
      .eq('user_id', owner.id)
      .in('name', ['activated', 'deactivated']);
    expect(del.count ?? 0).toBe(0);
    expect(
      await sql('select name from public.audience_groups where user_id = $1 order by name', [
        owner.id,
      ]),
    ).toEqual([{ name: 'activated' }, { name: 'deactivated' }]);
    const endingDelete = await owner.client
      .from('endings')
      .delete({ count: 'exact' })
      .eq('block_id', formBlock)
      .eq('is_default', true);
    expect(endingDelete.count ?? 0).toBe(0);
    expect(
      await sql('select 1 from public.endings where block_id = $1 and is_default', [formBlock]),
    ).toHaveLength(1);
  });
});

describe('references across owners', () => {
  // questions.trigger_letter_block is a plain foreign key to blocks, and foreign keys are checked
  // without RLS. Owners write questions through save-block only (no table rights:
  // block-content.sql), and save_block checks that the letter block is the owner's
  // (save-block-refusals.test.ts, "a letter trigger that is not one of the owner's letter blocks").
  it("an owner cannot point a question's trigger_letter_block at another user's letter block", async () => {
    const { owner, formBlock } = await ownerWithBlocks();
    const other = await newUser('other');
    const letter = await other.client.rpc('create_block', { p_block_type: 'notion_letter' });
    const letterBlock = (letter.data as { id: string }).id;
    const res = await owner.client.from('questions').insert({
      block_id: formBlock,
      type: 'mail',
      title: 'Email',
      trigger_letter_block: letterBlock,
    });
    expect(res.error).not.toBeNull();
    expect(
      await sql('select 1 from public.questions where trigger_letter_block = $1', [letterBlock]),
    ).toEqual([]);
  });
});

describe('Realtime follows RLS', () => {
  it('anon viewers hear hints on a block topic and read published changes only, never a commenter email', async () => {
    const { owner, commentBlock } = await ownerWithBlocks();
    await sql('update public.profiles set block_limit = 10 where id = $1', [owner.id]);
    const hidden = await owner.client.rpc('create_block', { p_block_type: 'qna' });
    expect(hidden.error).toBeNull();
    const hiddenBlock = (hidden.data as { id: string }).id;
    await sql('update public.blocks set deactivated = true where id = $1', [hiddenBlock]);

    const viewer = anonClient();
    const received: Array<Record<string, unknown>> = [];
    const join = (topic: string, isPrivate = false) =>
      new Promise<void>((resolve, reject) => {
        viewer
          .channel(topic, { config: { private: isPrivate } })
          .on('broadcast', { event: '*' }, (m) =>
            received.push({ topic, event: m.event, ...(m.payload as Record<string, unknown>) }),
          )
          .subscribe((status, err) => {
            if (status === 'SUBSCRIBED') resolve();
            if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT')
              reject(err ?? new Error(status));
          });
      });
    // block topics are public (joining asks the database nothing); the owner topic is private
    await join(`block:${commentBlock}`);
    await join(`block:${hiddenBlock}`);
    await expect(join(`block:${commentBlock}:owner`, true)).rejects.toThrow(/permissions to read/);
    // postgres_changes on the messages table: no longer published, nothing arrives that way
    viewer
      .channel(`rls-messages-${randomUUID()}`)
      .on('postgres_changes', { event: '*', schema: 'public', table: 'messages' }, (payload) =>
        received.push({ topic: 'postgres_changes', ...(payload.new as Record<string, unknown>) }),
      )
      .subscribe();

    const secret = `hidden-${randomUUID()}`;
    await sql('insert into public.messages (block_id, creator_id, content) values ($1, $2, $3)', [
      hiddenBlock,
      randomUUID(),
      secret,
    ]);
    const guest = await newGuest();
    const email = uniqueEmail('rt-commenter');
    const markerId = await postAsGuest(guest, commentBlock, email);

    // what the hints name, read as the elements read it (a GET with the anon key)
    const reads = async () =>
      Promise.all(
        received
          .filter((m) => m.event === 'hint')
          .map(async (m) => {
            const { data, error } = await viewer.rpc(
              'get_block_change',
              { p_block_id: (m.topic as string).slice('block:'.length), p_id: m.id },
              { get: true },
            );
            expect(error).toBeNull();
            return data as { payload: { row?: { id?: string } } } | null;
          }),
      );
    await expect
      .poll(async () => (await reads()).map((c) => c?.payload.row?.id))
      .toContain(markerId);
    await new Promise((r) => setTimeout(r, 300));
    await viewer.removeAllChannels();
    const changes = await reads();
    // the hidden block's message was announced (its topic is public) but reads as nothing
    expect(changes.filter((c) => c !== null).map((c) => c!.payload.row?.id)).toEqual([markerId]);
    expect(JSON.stringify(received)).not.toContain(secret);
    expect(JSON.stringify(changes)).not.toContain(secret);
    expect(received.filter((m) => m.topic === 'postgres_changes')).toEqual([]);
    expect(received.every((m) => m.event === 'hint' && Object.keys(m).length === 3)).toBe(true);
    expect(JSON.stringify([received, changes])).not.toContain(email);
  });
});
