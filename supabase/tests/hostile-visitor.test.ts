// What a hostile visitor would try, one attack per test, each through the official supabase-js
// client as a real visitor would call the API: anonymous Supabase users
// (auth.signInAnonymously()), signed-in users, or the anon key alone. Every attack asserts that
// the server refuses it AND that nothing changed (rows and counters read back with SQL).
//
// The catalogue of grants and the RLS table matrix are in rls.test.ts and rls-rpc.test.ts; some
// cases appear there too, here they are written as attacks on the visitor write paths.
//
// HTML and script are stored and returned verbatim: the API is not an HTML sanitizer, the
// elements render every visitor string as text. That half is proven in the SDK's browser tests:
// sdk/src/components/comment/comment.test.ts ("renders messages ... safe links": `<b>bold</b>`
// in a message shows as text, `javascript:` is never a link) and
// sdk/src/components/form/form.test.ts (the owner's description HTML loses script, handlers and
// javascript: links).
//
// Rate limits, storms and quotas: abuse-limits.test.ts; moderation: moderation-abuse.test.ts.
import { randomUUID } from 'node:crypto';
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

/** An owner's comment block and a message a visitor (a fresh guest) posted on it. */
async function commentAndMessage() {
  const { owner, blocks } = await hostile.ownerWith('comment');
  const visitor = await newGuest();
  return { owner, blocks, visitor, message: await hostile.post(visitor, blocks.comment) };
}

/** An owner's A/B block, its question and a visitor (a fresh guest) who has not voted. */
async function abAndVisitor() {
  const { owner, blocks } = await hostile.ownerWith('ab');
  const question = await hostile.abQuestion(blocks.ab);
  return { owner, blocks, question, visitor: await newGuest() };
}

/** An owner's form with a question of each kind (hostile.formWithQuestions) and a visitor. */
async function formAndVisitor() {
  const { owner, blocks } = await hostile.ownerWith('form');
  const q = await hostile.formWithQuestions(blocks.form);
  return { owner, blocks, q, visitor: await newGuest() };
}

describe('likes', () => {
  it('liking a block twice counts one like, and like_count is exact', async () => {
    const { blocks } = await hostile.ownerWith('like');
    const visitor = await newGuest();
    for (let i = 0; i < 2; i++) {
      const { data, error } = await visitor.client.rpc('toggle_block_like', {
        p_block_id: blocks.like,
        p_liked: true,
      });
      expect(error).toBeNull();
      expect(data).toEqual({ liked: true, like_count: 1 });
    }
    const state = await hostile.stateOf(blocks.like);
    expect(state).toMatchObject({ like_count: 1, response_count: 1, new_response_count: 1 });
    expect(state.responses).toHaveLength(1);
    // toggling (no p_liked) from the liked state unlikes: back to zero, never negative
    await visitor.client.rpc('toggle_block_like', { p_block_id: blocks.like });
    const { data } = await visitor.client.rpc('toggle_block_like', {
      p_block_id: blocks.like,
      p_liked: false,
    });
    expect(data).toEqual({ liked: false, like_count: 0 });
    expect(await hostile.stateOf(blocks.like)).toMatchObject({ like_count: 0, responses: [] });
  });

  it('20 concurrent likes from the same visitor still count one', async () => {
    const { blocks } = await hostile.ownerWith('like');
    const visitor = await newGuest();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        visitor.client.rpc('toggle_block_like', { p_block_id: blocks.like, p_liked: true }),
      ),
    );
    expect(results.map((r) => r.error)).toEqual(Array(20).fill(null));
    const state = await hostile.stateOf(blocks.like);
    expect(state).toMatchObject({ like_count: 1, response_count: 1 });
    expect(state.responses).toHaveLength(1);
  });

  it('concurrent toggles never let like_count drift from the like rows', async () => {
    const { blocks } = await hostile.ownerWith('like');
    const [a, b] = await Promise.all([newGuest(), newGuest()]);
    await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        (i % 2 ? a : b).client.rpc('toggle_block_like', { p_block_id: blocks.like }),
      ),
    );
    const rows = await hostile.count(
      "select 1 from public.responses where block_id = $1 and kind = 'like'",
      [blocks.like],
    );
    expect(rows).toBeLessThanOrEqual(2);
    expect(await hostile.stateOf(blocks.like)).toMatchObject({
      like_count: rows,
      response_count: rows,
    });
  });

  it("unliking someone else's like changes nothing", async () => {
    const { blocks } = await hostile.ownerWith('like');
    const [liker, attacker] = await Promise.all([newGuest(), newGuest()]);
    await liker.client.rpc('toggle_block_like', { p_block_id: blocks.like, p_liked: true });
    const before = await hostile.stateOf(blocks.like);
    // p_liked false acts on the caller's own like only: the attacker has none
    const { data } = await attacker.client.rpc('toggle_block_like', {
      p_block_id: blocks.like,
      p_liked: false,
    });
    expect(data).toEqual({ liked: false, like_count: 1 });
    // deleting the like row directly finds nothing the attacker may delete
    const del = await attacker.client
      .from('responses')
      .delete({ count: 'exact' })
      .eq('block_id', blocks.like);
    expect(del.count ?? 0).toBe(0);
    expect(await hostile.stateOf(blocks.like)).toEqual(before);
  });

  it("liking a message twice (also concurrently) counts one; unliking another's like does nothing", async () => {
    const { blocks } = await hostile.ownerWith('comment');
    const [author, liker, attacker] = await Promise.all([newGuest(), newGuest(), newGuest()]);
    const message = await hostile.post(author, blocks.comment);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        liker.client.rpc('toggle_message_like', { p_message_id: message, p_liked: true }),
      ),
    );
    expect(results.map((r) => r.error)).toEqual(Array(10).fill(null));
    expect(await sql('select like_count from public.messages where id = $1', [message])).toEqual([
      { like_count: 1 },
    ]);
    const before = await hostile.stateOf(blocks.comment);
    await attacker.client.rpc('toggle_message_like', { p_message_id: message, p_liked: false });
    const del = await attacker.client
      .from('message_likes')
      .delete({ count: 'exact' })
      .eq('message_id', message);
    expect(del.count ?? 0).toBe(0);
    expect(await hostile.stateOf(blocks.comment)).toEqual(before);
  });

  it('liking a message when the owner turned reactions off is refused', async () => {
    const { owner, blocks, visitor, message } = await commentAndMessage();
    await hostile.saveSettings(owner, blocks.comment, { allow_reaction: false });
    await hostile.refused(
      blocks.comment,
      () => visitor.client.rpc('toggle_message_like', { p_message_id: message, p_liked: true }),
      'Reactions are turned off',
      403,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// votes (ab) and form answers
// ---------------------------------------------------------------------------------------------

describe('ab votes', () => {
  it('voting for both options at once is refused', async () => {
    const { blocks, question, visitor } = await abAndVisitor();
    await hostile.refusedSubmit(
      visitor,
      blocks.ab,
      { [question.id]: question.options },
      'Choose one option',
      400,
    );
  });

  it('a second vote (for the other option) is refused', async () => {
    const { blocks, question, visitor } = await abAndVisitor();
    const first = await visitor.client.rpc('submit_response', {
      p_block_id: blocks.ab,
      p_answers: { [question.id]: question.options[0] },
    });
    expect(first.error).toBeNull();
    for (const option of question.options) {
      await hostile.refusedSubmit(visitor, blocks.ab, { [question.id]: option }, 'Already voted');
    }
    expect(await hostile.stateOf(blocks.ab)).toMatchObject({
      response_count: 1,
      options: expect.arrayContaining([{ id: question.options[0], count: 1 }]),
    });
  });

  it('20 concurrent votes from one visitor count exactly one', async () => {
    const { owner, blocks, question, visitor } = await abAndVisitor();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        visitor.client.rpc('submit_response', {
          p_block_id: blocks.ab,
          p_answers: { [question.id]: question.options[i % 2] },
        }),
      ),
    );
    expect(results.filter((r) => r.error === null)).toHaveLength(1);
    expect(results.filter((r) => r.error?.message === 'Already voted')).toHaveLength(19);
    const state = await hostile.stateOf(blocks.ab);
    expect(state.responses).toHaveLength(1);
    expect(state).toMatchObject({ response_count: 1, new_response_count: 1 });
    const counts = (state.options as Array<{ count: number }>).map((o) => o.count);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    // refused votes did not use up the owner's monthly quota
    expect(
      await sql('select p.response_monthly_count from public.profiles p where p.id = $1', [
        owner.id,
      ]),
    ).toEqual([{ response_monthly_count: 1 }]);
  });

  it('voting with an option of another question or another block is refused', async () => {
    const { blocks } = await hostile.ownerWith('ab', 'form');
    const other = await hostile.ownerWith('ab');
    const question = await hostile.abQuestion(blocks.ab);
    const foreign = await hostile.abQuestion(other.blocks.ab);
    const poll = await hostile.addQuestion(blocks.form, { type: 'poll', required: false }, ['X']);
    const visitor = await newGuest();
    for (const option of [foreign.options[0], poll.options[0], randomUUID()]) {
      await hostile.refused(
        [blocks.ab, other.blocks.ab, blocks.form],
        () =>
          visitor.client.rpc('submit_response', {
            p_block_id: blocks.ab,
            p_answers: { [question.id]: option },
          }),
        'Invalid option',
      );
    }
    // a question of another block is not a question of this one
    await hostile.refused(
      [blocks.ab, other.blocks.ab],
      () =>
        visitor.client.rpc('submit_response', {
          p_block_id: blocks.ab,
          p_answers: { [foreign.id]: foreign.options[0] },
        }),
      'Not valid question',
    );
  });

  it('a deleted option cannot be chosen', async () => {
    const { blocks } = await hostile.ownerWith('ab');
    const question = await hostile.abQuestion(blocks.ab);
    // an option soft deleted earlier (save-block keeps an ab question at two live options, so
    // this state is set up with the service role)
    const off = await serviceClient()
      .from('options')
      .update({ deleted: true })
      .eq('id', question.options[1]!);
    expect(off.error).toBeNull();
    const visitor = await newGuest();
    await hostile.refusedSubmit(
      visitor,
      blocks.ab,
      { [question.id]: question.options[1] },
      'Invalid option',
    );
  });
});

describe('form answers', () => {
  it('missing required answers are refused, whatever shape "nothing" takes', async () => {
    const { blocks } = await hostile.ownerWith('form');
    const q = await hostile.formWithQuestions(blocks.form);
    const requiredPoll = await hostile.addQuestion(
      blocks.form,
      { type: 'poll', index: 6, required: true },
      ['Yes', 'No'],
    );
    const visitor = await newGuest();
    const valid = { [q.short.id]: 'fine', [requiredPoll.id]: requiredPoll.options[0] };
    const blanks: Array<[string, unknown]> = [
      [q.short.id, undefined],
      [q.short.id, null],
      [q.short.id, ''],
      [q.short.id, '     '],
      [q.short.id, '\n\t \r\n'],
      [q.short.id, '\u00a0\u3000\u2003\ufeff'],
      [q.short.id, { value: null }],
      [requiredPoll.id, []],
      [requiredPoll.id, null],
    ];
    for (const [questionId, blank] of blanks) {
      const answers: Record<string, unknown> = { ...valid };
      if (blank === undefined) delete answers[questionId];
      else answers[questionId] = blank;
      const res = await hostile.refusedSubmit(visitor, blocks.form, answers, 'Required', 400);
      // the element shows the message under this question
      expect(res.error?.details, JSON.stringify(blank)).toBe(questionId);
    }
  });

  it('answers over every length limit are refused (and the limits themselves accepted)', async () => {
    const { blocks, q, visitor } = await formAndVisitor();
    const mail = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;
    const over: Array<[string, string]> = [
      [q.short.id, 'x'.repeat(301)],
      [q.long.id, 'x'.repeat(1001)],
      [q.mail.id, mail(51)],
    ];
    for (const [questionId, value] of over) {
      await hostile.refusedSubmit(
        visitor,
        blocks.form,
        { [q.short.id]: 'ok', [questionId]: value },
        'Too long message',
        400,
      );
    }
    await hostile.refusedSubmit(
      visitor,
      blocks.form,
      { [q.short.id]: 'ok' },
      'Too long name',
      undefined,
      { p_creator_name: 'n'.repeat(101) },
    );
    const atLimit = await visitor.client.rpc('submit_response', {
      p_block_id: blocks.form,
      p_answers: {
        [q.short.id]: '가'.repeat(300),
        [q.long.id]: 'x'.repeat(1000),
        [q.mail.id]: mail(50),
      },
      p_creator_name: 'n'.repeat(100),
    });
    expect(atLimit.error).toBeNull();
  });

  it('invalid email, phone and number answers are refused', async () => {
    const { blocks, q, visitor } = await formAndVisitor();
    const bad: Array<[string, unknown, string]> = [
      [q.mail.id, 'not-an-email', 'Invalid email address.'],
      [q.mail.id, 'a@b', 'Invalid email address.'],
      [q.mail.id, '<script>@x.com', 'Invalid email address.'],
      [q.phone.id, '010-1234-abcd', 'Invalid phone number'],
      [q.phone.id, '1'.repeat(21), 'Invalid phone number'],
      [q.phone.id, '<b>1</b>', 'Invalid phone number'],
      [q.number.id, '1.5', 'Not a number'],
      [q.number.id, '1e3', 'Not a number'],
      [q.number.id, 'NaN', 'Not a number'],
      [q.number.id, '9'.repeat(40), 'Not a number'],
      [q.short.id, ['an', 'array'], 'Please check response'],
    ];
    for (const [questionId, value, message] of bad) {
      const res = await hostile.refusedSubmit(
        visitor,
        blocks.form,
        { [q.short.id]: 'ok', [questionId]: value },
        message,
        400,
      );
      expect(res.error?.details).toBe(questionId);
    }
    for (const answers of [null, [], 'text', 42]) {
      await hostile.refusedSubmit(visitor, blocks.form, answers, 'Please check response');
    }
    await hostile.refusedSubmit(
      visitor,
      blocks.form,
      { [q.short.id]: 'ok', [randomUUID()]: 'stowaway' },
      'Not valid question',
    );
  });

  it('a text answer padded with whitespace is stored trimmed, as the SDK trims it', async () => {
    const { blocks, q, visitor } = await formAndVisitor();
    const res = await visitor.client.rpc('submit_response', {
      p_block_id: blocks.form,
      p_answers: { [q.short.id]: '\u3000\n  Ada  \u00a0\t' },
    });
    expect(res.error).toBeNull();
    const [row] = await sql<{ value: string }>(
      "select answers -> $2 ->> 'value' as value from public.responses where block_id = $1",
      [blocks.form, q.short.id],
    );
    expect(row?.value).toBe('Ada');
  });

  it('several options for a single-select poll are refused', async () => {
    const { blocks, q, visitor } = await formAndVisitor();
    await hostile.refusedSubmit(
      visitor,
      blocks.form,
      { [q.short.id]: 'ok', [q.poll.id]: q.poll.options },
      'Choose one option',
    );
  });
});

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
