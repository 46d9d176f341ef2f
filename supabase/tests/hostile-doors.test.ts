// What a hostile visitor would try around the RPCs, at closed doors and with tokens (see
// hostile-visitor.test.ts for how the attacks are written and where the rest are).
import { describe, expect, it } from 'vitest';
import { REACTION_BLOCK_TYPES } from '@reaction-blocks/contracts/enums';
import {
  anonClient,
  newGuest,
  newUser,
  serviceClient,
  sql,
  type TestUser,
  wholeQuotaForOneAddress,
} from './support/clients.ts';
import { forgedToken, userToken } from './support/jwt.ts';
import * as hostile from './support/hostile.ts';

// ---------------------------------------------------------------------------------------------
// around the RPCs
// ---------------------------------------------------------------------------------------------

describe('bypassing the RPCs', () => {
  it('inserting messages, responses, likes or emails directly is refused', async () => {
    const { blocks } = await hostile.ownerWith('comment', 'like', 'form');
    const visitor = await newGuest();
    const message = await hostile.post(visitor, blocks.comment);
    const ids = [blocks.comment, blocks.like, blocks.form];
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['messages', { block_id: blocks.comment, creator_id: visitor.id, content: 'direct' }],
      ['responses', { block_id: blocks.like, kind: 'like', creator_id: visitor.id, is_like: true }],
      ['responses', { block_id: blocks.form, kind: 'form', creator_id: visitor.id, answers: {} }],
      ['message_likes', { message_id: message, user_id: visitor.id }],
      [
        'message_private',
        { message_id: message, block_id: blocks.comment, creator_email: 'x@example.com' },
      ],
    ];
    for (const [table, row] of attempts) {
      for (const client of [visitor.client, anonClient()]) {
        await hostile.refused(
          ids,
          () => client.from(table).insert(row),
          /permission denied|violates/,
        );
      }
    }
  });

  it('updating counters on blocks, options or messages directly is refused or ignored', async () => {
    const { owner, blocks } = await hostile.ownerWith('ab', 'comment');
    const question = await hostile.abQuestion(blocks.ab);
    const visitor = await newGuest();
    const message = await hostile.post(visitor, blocks.comment);
    const ids = [blocks.ab, blocks.comment];
    for (const client of [visitor.client, anonClient()]) {
      for (const counters of [{ like_count: 1000 }, { response_count: 1000 }]) {
        await hostile.refused(
          ids,
          () => client.from('blocks').update(counters).eq('id', blocks.ab),
          /permission denied/,
        );
      }
      await hostile.refused(
        ids,
        () => client.from('messages').update({ like_count: 99, content: 'x' }).eq('id', message),
        /permission denied/,
      );
      // a visitor's update matches no row they may change (RLS), or is not granted at all
      const options = await hostile.unchanged(ids, () =>
        client
          .from('options')
          .update({ response_count: 99 }, { count: 'exact' })
          .eq('block_id', blocks.ab),
      );
      expect(options.count ?? 0).toBe(0);
    }
    // even the owner cannot inflate their own counters
    await hostile.refused(
      ids,
      () => owner.client.from('blocks').update({ response_count: 1000 }).eq('id', blocks.ab),
      /permission denied/,
    );
    // owners write options through save-block only, which never takes a count from the payload
    await hostile.refused(
      ids,
      () =>
        owner.client
          .from('options')
          .update({ response_count: 1000 })
          .eq('id', question.options[0]!),
      /permission denied/,
    );
  });

  it('deleting messages or responses directly deletes nothing', async () => {
    const { blocks } = await hostile.ownerWith('comment', 'like');
    const [author, attacker] = await Promise.all([newGuest(), newGuest()]);
    await hostile.post(author, blocks.comment);
    await author.client.rpc('toggle_block_like', { p_block_id: blocks.like, p_liked: true });
    const before = await Promise.all([
      hostile.stateOf(blocks.comment),
      hostile.stateOf(blocks.like),
    ]);
    for (const client of [author.client, attacker.client, anonClient()]) {
      const messages = await client
        .from('messages')
        .delete({ count: 'exact' })
        .eq('block_id', blocks.comment);
      expect(messages.error?.message ?? '').toMatch(/^$|permission denied/);
      expect(messages.count ?? 0).toBe(0);
      const responses = await client
        .from('responses')
        .delete({ count: 'exact' })
        .eq('block_id', blocks.like);
      expect(responses.count ?? 0).toBe(0);
    }
    expect(
      await Promise.all([hostile.stateOf(blocks.comment), hostile.stateOf(blocks.like)]),
    ).toEqual(before);
  });

  it('forging creator_id is impossible: the author is always the JWT subject', async () => {
    const { owner, blocks } = await hostile.ownerWith('comment', 'like');
    const visitor = await newGuest();
    // the RPCs take no creator id: an extra parameter matches no function
    await hostile.refusedPost(visitor, blocks.comment, /Could not find the function/, 404, {
      p_content: 'as the owner',
      p_creator_id: owner.id,
    });
    await hostile.refused(
      blocks.like,
      () =>
        visitor.client.rpc('toggle_block_like', {
          p_block_id: blocks.like,
          creator_id: owner.id,
        }),
      /Could not find the function/,
    );
    // a direct insert under the owner's id is refused like any other
    await hostile.refused(
      blocks.comment,
      () =>
        visitor.client
          .from('messages')
          .insert({ block_id: blocks.comment, creator_id: owner.id, content: 'owner says' }),
      /permission denied/,
    );
    // claiming the owner's name does not make the message the owner's
    const id = await hostile.post(visitor, blocks.comment, { p_creator_name: 'Admin' });
    expect(await sql('select creator_id from public.messages where id = $1', [id])).toEqual([
      { creator_id: visitor.id },
    ]);
  });
});

describe('closed doors', () => {
  it('writing to a deactivated block is refused on every write path', async () => {
    const { owner, blocks } = await hostile.ownerWith(...REACTION_BLOCK_TYPES);
    const visitor = await newGuest();
    const message = await hostile.post(visitor, blocks.comment);
    const question = await hostile.abQuestion(blocks.ab);
    const ids = Object.values(blocks);
    const service = serviceClient();
    const off = await service.from('blocks').update({ deactivated: true }).in('id', ids);
    expect(off.error).toBeNull();
    const attacks: Array<[() => PromiseLike<hostile.RpcResult>, string]> = [
      [
        () => visitor.client.rpc('post_message', { p_block_id: blocks.comment, p_content: 'hi' }),
        "block doesn't exists",
      ],
      [
        () =>
          visitor.client.rpc('post_message', {
            p_block_id: blocks.comment,
            p_parent_id: message,
            p_content: 'reply',
          }),
        "block doesn't exists",
      ],
      [
        () => visitor.client.rpc('post_message', { p_block_id: blocks.qna, p_content: 'q?' }),
        "block doesn't exists",
      ],
      [
        () => visitor.client.rpc('edit_message', { p_message_id: message, p_content: 'x' }),
        "message doesn't exists",
      ],
      [
        () => visitor.client.rpc('toggle_message_like', { p_message_id: message }),
        "message doesn't exists",
      ],
      [
        () => owner.client.rpc('set_message_resolved', { p_message_id: message, p_resolved: true }),
        "message doesn't exists",
      ],
      [
        () => visitor.client.rpc('delete_message', { p_message_id: message }),
        "message doesn't exists",
      ],
      [
        () => visitor.client.rpc('toggle_block_like', { p_block_id: blocks.like }),
        "block doesn't exists",
      ],
      [
        () => visitor.client.rpc('record_button_click', { p_block_id: blocks.button }),
        "block doesn't exists",
      ],
      [
        () =>
          visitor.client.rpc('submit_response', {
            p_block_id: blocks.ab,
            p_answers: { [question.id]: question.options[0] },
          }),
        "block doesn't exists",
      ],
      [
        () => visitor.client.rpc('submit_response', { p_block_id: blocks.form, p_answers: {} }),
        "block doesn't exists",
      ],
    ];
    for (const [attack, expected] of attacks) await hostile.refused(ids, attack, expected, 404);
  });

  it('blockAnonymous: an anonymous visitor cannot post or reply; a signed-in one can', async () => {
    const { owner, blocks } = await hostile.ownerWith('comment');
    const member = await newUser('member');
    const parent = await hostile.post(member, blocks.comment);
    await hostile.saveSettings(owner, blocks.comment, { block_anonymous: true });
    const guest = await newGuest();
    for (const parentId of [null, parent]) {
      await hostile.refusedPost(guest, blocks.comment, 'Please sign in to leave a message.', 403, {
        p_parent_id: parentId,
        p_content: 'let me in',
      });
    }
    // a forged token claiming not to be anonymous is refused for its signature
    const claims = JSON.parse(
      Buffer.from(guest.accessToken.split('.')[1]!, 'base64url').toString(),
    ) as Record<string, unknown>;
    const [header, , signature] = guest.accessToken.split('.');
    const tampered = `${header}.${hostile.b64url({ ...claims, is_anonymous: false })}.${signature}`;
    await hostile.refused(
      blocks.comment,
      () =>
        hostile.clientWithToken(tampered).rpc('post_message', {
          p_block_id: blocks.comment,
          p_content: 'let me in',
        }),
      /JWS|JWT|signature/i,
      401,
    );
    await hostile.post(member, blocks.comment, { p_parent_id: parent });
  });

  it("the owner's monthly quota stops submits, and the count restarts in a new month", async () => {
    const { owner, blocks } = await hostile.ownerWith('form', 'ab');
    const service = serviceClient();
    const limit = await service
      .from('profiles')
      .update({ response_monthly_limit: 2 })
      .eq('id', owner.id);
    expect(limit.error).toBeNull();
    await wholeQuotaForOneAddress([blocks.form, blocks.ab]);
    const q = await hostile.formWithQuestions(blocks.form);
    const ab = await hostile.abQuestion(blocks.ab);
    const visitors = await Promise.all(Array.from({ length: 5 }, () => newGuest()));
    const submit = (v: TestUser) =>
      v.client.rpc('submit_response', {
        p_block_id: blocks.form,
        p_answers: { [q.short.id]: 'ok' },
      });
    // five visitors at once against a limit of 2: exactly two get through
    const results = await Promise.all(visitors.map(submit));
    expect(results.filter((r) => r.error === null)).toHaveLength(2);
    for (const r of results.filter((r) => r.error)) {
      expect(r.error?.message).toMatch(hostile.QUOTA_REACHED);
      expect(r.status).toBe(429);
    }
    expect(await hostile.stateOf(blocks.form)).toMatchObject({
      response_count: 2,
      response_monthly_count: 2,
    });
    // the quota is the owner's, across blocks
    await hostile.refused(
      [blocks.form, blocks.ab],
      () =>
        visitors[4]!.client.rpc('submit_response', {
          p_block_id: blocks.ab,
          p_answers: { [ab.id]: ab.options[0] },
        }),
      hostile.QUOTA_REACHED,
      429,
    );

    // a new month: last month's count no longer counts (the month's count shards are moved back
    // a month, as if this month had just begun)
    await sql(
      `update private.response_counts set month = (date_trunc('month', now()) - interval '1 month')::date
       where user_id = $1`,
      [owner.id],
    );
    // (and a new month is a new day: the address's share of the day starts again)
    await sql('update private.address_quota set day = day - 1 where owner_id = $1', [owner.id]);
    expect((await submit(visitors[4]!)).error).toBeNull();
    const [profile] = await sql<{ response_monthly_count: number; last_month: number }>(
      `select p.response_monthly_count,
              (select sum(count)::int from private.response_counts c
               where c.user_id = p.id and c.month < date_trunc('month', now())::date) as last_month
       from public.profiles p where p.id = $1`,
      [owner.id],
    );
    expect(profile).toEqual({ response_monthly_count: 1, last_month: 2 });
  });

  it('the visitor cannot raise the quota or reset the count themselves', async () => {
    const { owner, blocks } = await hostile.ownerWith('form');
    const visitor = await newGuest();
    for (const client of [visitor.client, owner.client]) {
      await hostile.refused(
        blocks.form,
        () =>
          client.from('profiles').update({ response_monthly_limit: 1_000_000 }).eq('id', owner.id),
        /permission denied/,
      );
    }
  });
});

describe('tokens', () => {
  it('a JWT of another project, a tampered one, an unsigned one or an expired one is refused', async () => {
    const { owner, blocks } = await hostile.ownerWith('comment', 'like');
    const guest = await newGuest();
    const [header, payload, signature] = guest.accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const tokens: Record<string, string> = {
      'another project': await forgedToken(guest.id),
      'posing as the owner': `${header}.${hostile.b64url({ ...claims, sub: owner.id })}.${signature}`,
      'claiming service_role': `${header}.${hostile.b64url({ ...claims, role: 'service_role' })}.${signature}`,
      unsigned: `${hostile.b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      expired: await userToken(guest.id, { exp: Math.floor(Date.now() / 1000) - 60 }),
    };
    for (const [label, token] of Object.entries(tokens)) {
      const client = hostile.clientWithToken(token);
      const res = await hostile.refused(
        [blocks.comment, blocks.like],
        () => client.rpc('post_message', { p_block_id: blocks.comment, p_content: label }),
        /JW|expired|signature/i,
        401,
      );
      expect(res.error?.code, label).toMatch(/^PGRST30/);
      await hostile.refused(
        [blocks.comment, blocks.like],
        () => client.rpc('toggle_block_like', { p_block_id: blocks.like }),
        /JW|expired|signature/i,
        401,
      );
    }
  });

  it("another project's anon key is refused by the gateway before anything runs", async () => {
    const { blocks } = await hostile.ownerWith('like');
    const guest = await newGuest();
    const otherKey = await forgedToken('anon');
    const res = await hostile.refused(
      blocks.like,
      () =>
        hostile.clientWithToken(guest.accessToken, otherKey).rpc('toggle_block_like', {
          p_block_id: blocks.like,
        }),
      'Invalid API key',
      401,
    );
    expect(res.error).not.toBeNull();
  });

  it('the anon key alone may read but never write', async () => {
    const { blocks } = await hostile.ownerWith('like', 'comment');
    const anon = anonClient();
    expect((await anon.rpc('get_block_view', { p_block_id: blocks.like })).error).toBeNull();
    await hostile.refused(
      [blocks.like, blocks.comment],
      () => anon.rpc('toggle_block_like', { p_block_id: blocks.like }),
      /permission denied/,
      401,
    );
    await hostile.refused(
      [blocks.like, blocks.comment],
      () => anon.rpc('post_message', { p_block_id: blocks.comment, p_content: 'anon' }),
      /permission denied/,
      401,
    );
  });
});

// =============================================================================================
// Visitor trust (issue 9): floods, sign-up storms, quota burns, URLs, leaks, moderation,
// honeypot and captcha. Each attack asserts the refusal, its status and message, and (through
// refused()/unchanged()) that no row, counter or rate-limit token changed.
// =============================================================================================
