// What anonymous visitors may read of a published block and never an owner's private fields,
// and deactivated blocks (beside rls.test.ts's table matrix and rls-catalogue.test.ts).
import { describe, expect, it } from 'vitest';
import { anonClient, newGuest, newUser, serviceClient, sql } from './support/clients.ts';
import type { TestUser } from './support/clients.ts';
import { ownerWithBlocks, postAsGuest, seen, uniqueEmail } from './support/rls.ts';

/** Everyone but the owner, each with the label its assertions carry: anon, another user, a guest. */
const strangers = (other: TestUser, guest: TestUser, guestLabel = 'guest') =>
  [
    ['anon', anonClient()],
    ['other', other.client],
    [guestLabel, guest.client],
  ] as const;

// ---------------------------------------------------------------------------------------------
// what visitors read of a published block
// ---------------------------------------------------------------------------------------------

describe('published blocks and private fields', () => {
  it("commenter emails: the block owner reads them; the author reads their own; anon and others don't", async () => {
    const { owner, commentBlock } = await ownerWithBlocks();
    const author = await newGuest();
    const other = await newUser('other');
    const email = uniqueEmail('commenter');
    const messageId = await postAsGuest(author, commentBlock, email);
    expect(
      await sql('select creator_email from public.message_private where message_id = $1', [
        messageId,
      ]),
    ).toEqual([{ creator_email: email }]);

    const read = (client: typeof owner.client) =>
      client.from('message_private').select('creator_email').eq('message_id', messageId);
    expect((await read(owner.client)).data).toEqual([{ creator_email: email }]);
    expect((await read(author.client)).data).toEqual([{ creator_email: email }]);
    expect((await read(other.client)).data).toEqual([]);
    expect(seen(await read(anonClient()))).toEqual([]);
    // a whole-table read by a stranger finds no email at all
    expect((await other.client.from('message_private').select('*')).data).toEqual([]);
    expect(seen(await anonClient().from('message_private').select('*'))).toEqual([]);
    // and the message itself carries no email, through the table or through the visitor RPCs
    const asAnon = anonClient();
    const viaTable = await asAnon.from('messages').select('*').eq('id', messageId);
    expect(viaTable.data).toHaveLength(1);
    const view = await asAnon.rpc('get_block_view', { p_block_id: commentBlock });
    const list = await asAnon.rpc('list_messages', { p_block_id: commentBlock });
    const otherView = await other.client.rpc('get_block_view', { p_block_id: commentBlock });
    const publicView = await asAnon.rpc(
      'get_block_public',
      { p_block_id: commentBlock },
      { get: true },
    );
    const otherMine = await other.client.rpc('get_block_me', {
      p_block_id: commentBlock,
      p_message_ids: [messageId],
    });
    expect(publicView.error).toBeNull();
    expect(otherMine.error).toBeNull();
    expect(JSON.stringify(otherMine.data)).not.toContain(email);
    // embedding the private rows in readable ones goes through their RLS too
    const embedded = await asAnon
      .from('messages')
      .select('*, message_private(*)')
      .eq('id', messageId);
    const embeddedByOther = await other.client
      .from('blocks')
      .select('id, block_private(*), messages(*, message_private(*))')
      .eq('id', commentBlock);
    expect(view.error).toBeNull();
    expect(list.error).toBeNull();
    // anon holds nothing on message_private: the embedding is refused outright
    expect(embedded.error?.code).toBe('42501');
    expect(embeddedByOther.error).toBeNull();
    // blocks are readable by their owner only (visitors read the public settings through
    // get_block_view), so there is nothing to embed the messages in
    expect(embeddedByOther.data).toEqual([]);
    for (const payload of [viaTable.data, view.data, list.data, otherView.data, publicView.data]) {
      expect(JSON.stringify(payload)).toContain(messageId);
      expect(JSON.stringify(payload)).not.toContain(email);
    }
  });

  it("the owner's email, plan and usage are not readable by anon or other users, even through a block", async () => {
    const { owner, formBlock } = await ownerWithBlocks();
    const other = await newUser('other');
    for (const client of [anonClient(), other.client]) {
      expect(seen(await client.from('profiles').select('*').eq('id', owner.id))).toEqual([]);
      // embedding the owner's profile in a readable block gives nothing either
      const { data } = await client
        .from('blocks')
        .select('id, owner:profiles(email, paid, block_limit)')
        .eq('id', formBlock);
      expect(JSON.stringify(data)).not.toContain(owner.email);
      const view = await client.rpc('get_block_view', { p_block_id: formBlock });
      expect(view.error).toBeNull();
      expect(JSON.stringify(view.data)).not.toContain(owner.email);
      const pub = await client.rpc('get_block_public', { p_block_id: formBlock }, { get: true });
      expect(pub.error).toBeNull();
      expect(JSON.stringify(pub.data)).not.toContain(owner.email);
    }
  });

  it('responses, payments and audience are unreadable to others, even embedded in a readable block', async () => {
    const { owner, formBlock } = await ownerWithBlocks();
    const visitor = await newGuest();
    const other = await newUser('other');
    const email = uniqueEmail('respondent');
    // set-up with the service role: an email question is paid-only on the save path
    const { data: question } = await serviceClient()
      .from('questions')
      .insert({
        block_id: formBlock,
        type: 'mail',
        title: 'Email',
        required: true,
        as_visitor_info: 'email',
      })
      .select('id')
      .single();
    const submitted = await visitor.client.rpc('submit_response', {
      p_block_id: formBlock,
      p_answers: { [question!.id as string]: email },
    });
    expect(submitted.error).toBeNull();
    await sql(
      "insert into public.payments (user_id, type, provider_payment_id) values ($1, 'basic', 'PAY-XYZ')",
      [owner.id],
    );

    // the owner sees the response and the visitor in their audience
    expect(
      (await owner.client.from('responses').select('id').eq('block_id', formBlock)).data,
    ).toHaveLength(1);
    expect(
      (await owner.client.from('audience_members').select('email').eq('user_id', owner.id)).data,
    ).toEqual([{ email }]);

    for (const [who, client] of strangers(other, visitor, 'the visitor')) {
      expect(
        seen(await client.from('responses').select('*').eq('block_id', formBlock)),
        who,
      ).toEqual([]);
      const embedded = await client.from('blocks').select('id, responses(*)').eq('id', formBlock);
      expect(JSON.stringify(embedded.data), who).not.toContain(email);
      expect(
        seen(await client.from('audience_members').select('*').eq('user_id', owner.id)),
        who,
      ).toEqual([]);
      expect(seen(await client.from('payments').select('*').eq('user_id', owner.id)), who).toEqual(
        [],
      );
      expect(
        seen(await client.from('audience_groups').select('*').eq('user_id', owner.id)),
        who,
      ).toEqual([]);
      const view = await client.rpc('get_block_view', { p_block_id: formBlock });
      expect(JSON.stringify(view.data), who).not.toContain(email);
      const pub = await client.rpc('get_block_public', { p_block_id: formBlock }, { get: true });
      expect(JSON.stringify(pub.data), who).not.toContain(email);
      const mine = await client.rpc('get_block_me', { p_block_id: formBlock });
      expect(mine.error, who).toBeNull();
      expect(JSON.stringify(mine.data), who).not.toContain(email);
    }
  });

  it("a visitor reads their own like and nobody else's", async () => {
    const { owner, likeBlock } = await ownerWithBlocks();
    const [a, b] = await Promise.all([newGuest(), newGuest()]);
    expect((await a.client.rpc('toggle_block_like', { p_block_id: likeBlock })).error).toBeNull();
    expect((await b.client.rpc('toggle_block_like', { p_block_id: likeBlock })).error).toBeNull();
    const mine = await a.client.from('responses').select('creator_id').eq('block_id', likeBlock);
    expect(mine.data).toEqual([{ creator_id: a.id }]);
    expect(
      seen(await anonClient().from('responses').select('*').eq('block_id', likeBlock)),
    ).toEqual([]);
    expect(
      (await owner.client.from('responses').select('id').eq('block_id', likeBlock)).data,
    ).toHaveLength(2);
  });

  it("get_block_view tells a visitor their own A/B vote (me.vote) and nobody else's", async () => {
    const owner = await newUser('owner');
    const created = await owner.client.rpc('create_block', { p_block_type: 'ab' });
    expect(created.error).toBeNull();
    const abBlock = (created.data as { id: string }).id;
    const [a, b] = await Promise.all([newGuest(), newGuest()]);
    const before = await a.client.rpc('get_block_view', { p_block_id: abBlock });
    expect(before.error).toBeNull();
    const [question] = before.data.questions as Array<{ id: string; options: { id: string }[] }>;
    expect(before.data.me.vote, 'not voted yet').toBeNull();
    const [good, bad] = question!.options;

    const voted = await a.client.rpc('submit_response', {
      p_block_id: abBlock,
      p_answers: { [question!.id]: bad!.id },
    });
    expect(voted.error).toBeNull();

    const after = await a.client.rpc('get_block_view', { p_block_id: abBlock });
    expect(after.data.me.vote).toEqual([bad!.id]);
    // the elements' split read says the same: the vote in get_block_me only
    const mine = await a.client.rpc('get_block_me', { p_block_id: abBlock });
    expect(mine.data.me.vote).toEqual([bad!.id]);
    // with the counts as they are now (the public copy may be cached from before the vote)
    expect(mine.data.questions).toEqual(after.data.questions);
    expect(mine.data.block).toEqual({ ...after.data.block, read_xmin: expect.any(Number) });
    const pub = await a.client.rpc('get_block_public', { p_block_id: abBlock }, { get: true });
    expect(pub.data).not.toHaveProperty('me');
    expect(pub.data.questions).toEqual(after.data.questions);
    // The rest of the view keeps its shape; the counts include the vote.
    expect(Object.keys(after.data).sort()).toEqual([
      'block',
      'endings',
      'me',
      'messages',
      'questions',
    ]);
    expect(after.data.me).toEqual({
      liked: false,
      liked_message_ids: [],
      reported_message_ids: [],
      vote: [bad!.id],
    });
    const counts = (after.data.questions[0].options as { id: string; response_count: number }[])
      .map((o) => [o.id, o.response_count])
      .sort();
    expect(counts).toEqual(
      [
        [bad!.id, 1],
        [good!.id, 0],
      ].sort(),
    );

    // Another visitor, anon and the owner see no vote of theirs.
    for (const [who, client] of [
      ['another visitor', b.client],
      ['anon', anonClient()],
      ['the owner', owner.client],
    ] as const) {
      const view = await client.rpc('get_block_view', { p_block_id: abBlock });
      expect(view.error, who).toBeNull();
      expect(view.data.me.vote, who).toBeNull();
      const mine = await client.rpc('get_block_me', { p_block_id: abBlock });
      expect(mine.data.me.vote, who).toBeNull();
    }
    // Other block types carry no vote.
    const { formBlock } = await ownerWithBlocks();
    expect(
      (await a.client.rpc('get_block_view', { p_block_id: formBlock })).data.me.vote,
    ).toBeNull();
  });

  it('deactivated blocks and their content are hidden from anon and other users, not from the owner', async () => {
    const { owner, formBlock, commentBlock } = await ownerWithBlocks();
    const other = await newUser('other');
    const guest = await newGuest();
    await postAsGuest(guest, commentBlock, '');
    const added = await serviceClient()
      .from('questions')
      .insert({ block_id: formBlock, type: 'poll', title: 'Pick' });
    expect(added.error).toBeNull();
    await sql('update public.blocks set deactivated = true where id = any($1)', [
      [formBlock, commentBlock],
    ]);
    const ids = [formBlock, commentBlock];

    for (const [who, client] of strangers(other, guest)) {
      expect(seen(await client.from('blocks').select('id').in('id', ids)), who).toEqual([]);
      for (const table of ['questions', 'options', 'endings', 'ending_conditions', 'messages']) {
        expect(
          (await client.from(table).select('*').in('block_id', ids)).data,
          `${who} ${table}`,
        ).toEqual([]);
      }
      for (const blockId of ids) {
        const view = await client.rpc('get_block_view', { p_block_id: blockId });
        expect(view.data, who).toBeNull();
        expect(view.error?.message, who).toBe("block doesn't exists");
      }
      expect(
        (await client.rpc('list_messages', { p_block_id: commentBlock })).error,
        who,
      ).not.toBeNull();
    }
    expect((await owner.client.from('blocks').select('id').in('id', ids)).data).toHaveLength(2);
    expect(
      (await owner.client.from('questions').select('id').eq('block_id', formBlock)).data,
    ).toHaveLength(1);
    expect(
      (await owner.client.from('messages').select('id').eq('block_id', commentBlock)).data,
    ).toHaveLength(1);
  });

  it('deleted questions and options are hidden from anon and other users, not from the owner', async () => {
    const { owner, formBlock } = await ownerWithBlocks();
    const other = await newUser('other');
    const guest = await newGuest();
    // one live poll with a live and a deleted option, one deleted poll with a live option
    const [live, gone] = await sql<{ id: string }>(
      `insert into public.questions (block_id, type, title, index, deleted)
       values ($1, 'poll', 'Live', 0, false), ($1, 'poll', 'Deleted', 9999, true) returning id`,
      [formBlock],
    );
    await sql(
      `insert into public.options (question_id, block_id, value, index, deleted)
       values ($1, $3, 'kept', 0, false), ($1, $3, 'dropped', 1, true), ($2, $3, 'of deleted', 0, false)`,
      [live!.id, gone!.id, formBlock],
    );

    for (const [who, client] of strangers(other, guest)) {
      // the tester's request: GET /rest/v1/questions?deleted=eq.true&select=title,block_id
      expect(
        seen(await client.from('questions').select('title, block_id').eq('deleted', true)),
        who,
      ).toEqual([]);
      expect(
        seen(await client.from('questions').select('title').eq('block_id', formBlock)),
        who,
      ).toEqual([{ title: 'Live' }]);
      expect(
        seen(await client.from('options').select('value').eq('block_id', formBlock).order('value')),
        who,
      ).toEqual([{ value: 'kept' }, { value: 'of deleted' }]);
      expect(seen(await client.from('options').select('value').eq('deleted', true)), who).toEqual(
        [],
      );
      // nor embedded in a live question
      const embedded = await client
        .from('questions')
        .select('title, options(value)')
        .eq('block_id', formBlock);
      expect(JSON.stringify(embedded.data), who).not.toContain('dropped');
    }
    // the owner still reads everything (results and the CSV name deleted questions and options)
    expect(
      seen(
        await owner.client
          .from('questions')
          .select('title')
          .eq('block_id', formBlock)
          .order('index'),
      ),
    ).toEqual([{ title: 'Live' }, { title: 'Deleted' }]);
    expect(
      seen(
        await owner.client.from('options').select('value').eq('block_id', formBlock).order('value'),
      ),
    ).toEqual([{ value: 'dropped' }, { value: 'kept' }, { value: 'of deleted' }]);
  });

  it('anonymous visitors cannot write to a deactivated block', async () => {
    const { likeBlock, commentBlock, formBlock } = await ownerWithBlocks();
    const guest = await newGuest();
    await sql(
      'update public.blocks set deactivated = true where owner_id = (select owner_id from public.blocks where id = $1)',
      [likeBlock],
    );
    const calls = [
      guest.client.rpc('toggle_block_like', { p_block_id: likeBlock }),
      guest.client.rpc('post_message', { p_block_id: commentBlock, p_content: 'hi' }),
      guest.client.rpc('submit_response', { p_block_id: formBlock, p_answers: {} }),
    ];
    for (const res of await Promise.all(calls))
      expect(res.error?.message).toBe("block doesn't exists");
    expect(
      await sql('select 1 from public.responses where block_id = any($1)', [
        [likeBlock, formBlock],
      ]),
    ).toEqual([]);
    expect(await sql('select 1 from public.messages where block_id = $1', [commentBlock])).toEqual(
      [],
    );
  });
});
