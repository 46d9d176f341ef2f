// What a hostile visitor would try against messages, and markup sent as data (see
// hostile-visitor.test.ts for how the attacks are written and where the rest are).
import { describe, expect, it } from 'vitest';
import { anonClient, newGuest, newUser, sql, type TestUser } from './support/clients.ts';
import * as hostile from './support/hostile.ts';
import { commentAndMessage, formAndVisitor } from './support/hostile.ts';

// ---------------------------------------------------------------------------------------------
// messages
// ---------------------------------------------------------------------------------------------

describe('messages', () => {
  it("editing and deleting someone else's message is refused", async () => {
    const { blocks } = await hostile.ownerWith('comment');
    const [author, attacker] = await Promise.all([newGuest(), newUser('attacker')]);
    const message = await hostile.post(author, blocks.comment);
    await hostile.refusedEdit(
      attacker,
      blocks.comment,
      message,
      'pwned',
      'Only the author can edit this message',
      403,
    );
    await hostile.refused(
      blocks.comment,
      () => attacker.client.rpc('delete_message', { p_message_id: message }),
      'Only the author or the block owner can delete this message',
      403,
    );
  });

  it('resolving a question as anyone but the block owner is refused', async () => {
    const { blocks } = await hostile.ownerWith('qna');
    const [author, stranger] = await Promise.all([newGuest(), newUser('stranger')]);
    const message = await hostile.post(author, blocks.qna);
    for (const who of [author, stranger]) {
      await hostile.refused(
        blocks.qna,
        () => who.client.rpc('set_message_resolved', { p_message_id: message, p_resolved: true }),
        'Only the block owner can resolve messages',
        403,
      );
    }
  });

  it('replying when replies are off, or owner-only, is refused', async () => {
    const { owner, blocks, visitor, message: parent } = await commentAndMessage();
    await hostile.saveSettings(owner, blocks.comment, { allow_reply: false });
    await hostile.refusedPost(visitor, blocks.comment, 'Replies are turned off', 403, {
      p_parent_id: parent,
      p_content: 'a reply',
    });
    await hostile.saveSettings(owner, blocks.comment, {
      allow_reply: true,
      admin_only_reply: true,
    });
    await hostile.refusedPost(visitor, blocks.comment, 'Only the owner can reply', 403, {
      p_parent_id: parent,
      p_content: 'a reply',
    });
    // the owner still can
    await hostile.post(owner, blocks.comment, { p_parent_id: parent });
  });

  it('replying to a reply (nesting) or to a message of another block is refused', async () => {
    const { blocks } = await hostile.ownerWith('comment', 'qna');
    const visitor = await newGuest();
    const parent = await hostile.post(visitor, blocks.comment);
    const reply = await hostile.post(visitor, blocks.comment, { p_parent_id: parent });
    await hostile.refusedPost(visitor, blocks.comment, 'Replies nest one level only', 400, {
      p_parent_id: reply,
      p_content: 'deeper',
    });
    await hostile.refused(
      [blocks.comment, blocks.qna],
      () =>
        visitor.client.rpc('post_message', {
          p_block_id: blocks.qna,
          p_parent_id: parent,
          p_content: 'across blocks',
        }),
      "message doesn't exists",
      404,
    );
  });

  it('empty and whitespace-only messages are refused, also as an edit', async () => {
    const { blocks, visitor, message } = await commentAndMessage();
    for (const blank of [null, '', '   ', '\n\n\t', ' \r\n ', '\u00a0\u2003\u3000\ufeff']) {
      await hostile.refusedPost(visitor, blocks.comment, 'Message cannot be empty', 400, {
        p_content: blank,
      });
      await hostile.refusedEdit(
        visitor,
        blocks.comment,
        message,
        blank,
        'Message cannot be empty',
        400,
      );
    }
  });

  it('every length limit of a message is enforced (and the limit itself accepted)', async () => {
    const { blocks, visitor, message } = await commentAndMessage();
    const longUrl = `https://example.com/${'a'.repeat(481)}`;
    const attempts: Array<[Record<string, unknown>, string]> = [
      [{ p_content: 'x'.repeat(501) }, 'Too long message'],
      [{ p_content: '가'.repeat(501) }, 'Too long message'],
      [{ p_creator_name: 'n'.repeat(101) }, 'Too long name'],
      [{ p_home_url: longUrl }, 'Too long URL'],
      [{ p_creator_photo_url: longUrl }, 'Too long URL'],
      [{ p_color: '#'.repeat(33) }, 'Invalid color'],
      [{ p_timezone: 'T'.repeat(65) }, 'Invalid timezone'],
      // rev-visitor4 D8: only the length was checked, these were stored as given
      [{ p_color: 'red;}' }, 'Invalid color'],
      [{ p_color: '#12345' }, 'Invalid color'],
    ];
    for (const [fields, error] of attempts) {
      const res = await hostile.refusedPost(visitor, blocks.comment, error, 400, {
        p_content: 'hi',
        ...fields,
      });
      // a short field's refusal says invalid_input, which the elements say in the block's language
      if (!('p_content' in fields)) expect(res.error?.details, error).toBe('invalid_input');
    }
    // what the SDK and older clients send is taken: #rgb, #RRGGBB, none; any zone name a browser
    // gives within the length (a newer zone than the server's tzdata, Chrome's 'Etc/Unknown'): it
    // is shown as text, and refusing it would refuse that visitor's every write
    for (const fields of [
      { p_color: '#ABC', p_timezone: 'Asia/Seoul' },
      { p_color: '#336699', p_timezone: 'UTC' },
      { p_color: '#336699', p_timezone: 'Etc/Unknown' },
      { p_color: '#336699', p_timezone: 'America/Ciudad_Juarez' },
      { p_color: '', p_timezone: '' },
      { p_color: null, p_timezone: null },
    ])
      expect(await hostile.post(await newGuest(), blocks.comment, fields)).toBeTruthy();
    await hostile.refusedEdit(
      visitor,
      blocks.comment,
      message,
      'x'.repeat(501),
      'Too long message',
    );
    // a notification email over 50 characters is dropped silently, never stored
    await sql('update public.blocks set allow_creator_email = true where id = $1', [
      blocks.comment,
    ]);
    const longMail = await hostile.post(visitor, blocks.comment, {
      p_creator_email: `${'a'.repeat(39)}@example.com`,
    });
    expect(
      await sql('select 1 from public.message_private where message_id = $1', [longMail]),
    ).toEqual([]);
    // exactly at the limits is fine
    await hostile.post(visitor, blocks.comment, {
      p_content: '가'.repeat(500),
      p_creator_name: 'n'.repeat(100),
      p_home_url: longUrl.slice(0, 500),
    });
  });

  it("a bidi control in a visitor's name or link is refused as invalid_input, by every write (rev-visitor4 D8)", async () => {
    const { blocks } = await hostile.ownerWith('comment', 'form', 'like');
    const [visitor, member] = await Promise.all([newGuest(), newUser('bidi')]);
    // U+202E shows '\u202eOwner' as 'renwO' and a link's end reversed ('gnp.exe' reads exe.png);
    // each embedding, override and isolate (contracts BIDI_CONTROL_RE = private.has_bidi_control)
    const BIDI = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ];
    const refusals: Array<[TestUser, Record<string, unknown>, string]> = [
      ...BIDI.map((c): [TestUser, Record<string, unknown>, string] => [
        visitor,
        { p_creator_name: `${c}renwO` },
        'Invalid name',
      ]),
      [visitor, { p_home_url: 'https://example.com/\u202egnp.exe' }, 'Invalid home URL'],
      // a signed-in visitor's avatar from an allowed host, with the override in its path
      [
        member,
        { p_creator_photo_url: 'https://lh3.googleusercontent.com/a/\u202egnp.exe' },
        'Invalid avatar URL',
      ],
    ];
    for (const [writer, fields, error] of refusals) {
      const res = await hostile.refusedPost(writer, blocks.comment, error, 400, fields);
      expect(res.error, JSON.stringify(fields)).toMatchObject({
        code: 'P0001',
        details: 'invalid_input',
      });
    }
    // a form's answers and a like check the same name with the same rule
    const form = await hostile.refusedSubmit(visitor, blocks.form, {}, 'Invalid name', 400, {
      p_creator_name: '\u2067Owner',
    });
    expect(form.error?.details).toBe('invalid_input');
    await hostile.refused(
      blocks.like,
      () =>
        visitor.client.rpc('toggle_block_like', {
          p_block_id: blocks.like,
          p_creator_name: '\u202eA',
        }),
      'Invalid name',
      400,
    );
    // right-to-left names without control characters, and the marks that are not embeddings,
    // overrides or isolates (U+200F RLM, U+202F narrow no-break space), are taken
    for (const name of ['שלום', 'مرحبا', 'a\u200fb', 'a\u202fb'])
      expect(
        await hostile.post(await newGuest(), blocks.comment, { p_creator_name: name }),
      ).toBeTruthy();
  });

  it('what PostgREST refuses before post_message runs answers a code the elements translate (rev-visitor4 D8)', async () => {
    const { blocks } = await hostile.ownerWith('comment');
    const visitor = await newGuest();
    // Postgres text cannot hold NUL and a uuid argument is cast before the function runs, so these
    // answers are PostgREST's, in Postgres's English: core/writer.ts said() has words for both codes
    const nul = await hostile.refusedPost(visitor, blocks.comment, /Unicode|unsupported/i, 400, {
      p_content: 'a\u0000b',
    });
    expect(nul.error).toMatchObject({ code: '22P05' });
    const { error, status } = await visitor.client.rpc('post_message', {
      p_block_id: 'not-a-uuid',
      p_content: 'hi',
    });
    expect({ code: error?.code, status }).toEqual({ code: '22P02', status: 400 });
  });

  it('list_messages cannot be made to return more than 50 threads at once', async () => {
    const { blocks } = await hostile.ownerWith('comment');
    const visitor = await newGuest();
    await sql(
      `insert into public.messages (block_id, creator_id, content, created_at)
       select $1, $2, 'm' || i, now() - make_interval(secs => i) from generate_series(1, 60) i`,
      [blocks.comment, visitor.id],
    );
    const { data, error } = await anonClient().rpc('list_messages', {
      p_block_id: blocks.comment,
      p_limit: 100000,
    });
    expect(error).toBeNull();
    expect(data).toHaveLength(50);
  });

  it('writing to a block of the wrong type is refused', async () => {
    const { blocks } = await hostile.ownerWith('like', 'button', 'form');
    const visitor = await newGuest();
    for (const blockId of [blocks.like, blocks.button, blocks.form]) {
      await hostile.refused(
        blockId,
        () => visitor.client.rpc('post_message', { p_block_id: blockId, p_content: 'hi' }),
        'Not supported block',
      );
    }
    await hostile.refused(
      blocks.form,
      () => visitor.client.rpc('toggle_block_like', { p_block_id: blocks.form }),
      'Not supported block',
    );
    await hostile.refused(
      blocks.like,
      () => visitor.client.rpc('record_button_click', { p_block_id: blocks.like }),
      'Not supported block',
    );
    await hostile.refusedSubmit(visitor, blocks.like, {}, 'Not supported block');
  });
});

// ---------------------------------------------------------------------------------------------
// markup is data
// ---------------------------------------------------------------------------------------------

describe('HTML and script from visitors', () => {
  const content = `<script>alert("x")</script><img src=x onerror="alert(1)"> & <b>bold</b> "quoted"`;
  const name = `<img src=x onerror=alert(1)><b onmouseover="steal()">Eve</b>`;

  it('are stored and returned verbatim as text in messages and names', async () => {
    const { blocks } = await hostile.ownerWith('comment');
    const visitor = await newGuest();
    const posted = await visitor.client.rpc('post_message', {
      p_block_id: blocks.comment,
      p_content: content,
      p_creator_name: name,
    });
    expect(posted.error).toBeNull();
    const id = (posted.data as { id: string }).id;
    expect(posted.data).toMatchObject({ content, creator_name: name });
    expect(
      await sql('select content, creator_name from public.messages where id = $1', [id]),
    ).toEqual([{ content, creator_name: name }]);
    const anon = anonClient();
    const view = await anon.rpc('get_block_view', { p_block_id: blocks.comment });
    const list = await anon.rpc('list_messages', { p_block_id: blocks.comment });
    const table = await anon.from('messages').select('content, creator_name').eq('id', id);
    expect((view.data as { messages: unknown[] }).messages[0]).toMatchObject({
      content,
      creator_name: name,
    });
    expect((list.data as unknown[])[0]).toMatchObject({ content, creator_name: name });
    expect(table.data).toEqual([{ content, creator_name: name }]);
    // an edit keeps markup verbatim too
    const edited = await visitor.client.rpc('edit_message', {
      p_message_id: id,
      p_content: `${content}!`,
    });
    expect(edited.data).toMatchObject({ content: `${content}!`, is_edited: true });
  });

  it('are stored verbatim in form answers and the responder name', async () => {
    const { owner, blocks, q, visitor } = await formAndVisitor();
    const res = await visitor.client.rpc('submit_response', {
      p_block_id: blocks.form,
      p_answers: { [q.short.id]: content },
      p_creator_name: name,
    });
    expect(res.error).toBeNull();
    const rows = await owner.client
      .from('responses')
      .select('creator_name, answers')
      .eq('block_id', blocks.form);
    expect(rows.data).toEqual([
      {
        creator_name: name,
        answers: { [q.short.id]: expect.objectContaining({ value: content }) },
      },
    ]);
  });
});
