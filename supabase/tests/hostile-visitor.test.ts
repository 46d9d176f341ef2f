// What a hostile visitor would try, one attack per test, each through the official supabase-js
// client as a real visitor would call the API: anonymous Supabase users
// (auth.signInAnonymously()), signed-in users, or the anon key alone. Every attack asserts that
// the server refuses it AND that nothing changed (rows and counters read back with SQL).
//
// The catalogue of grants and the RLS table matrix are in rls.test.ts and rls-catalogue.test.ts;
// some cases appear there too, here they are written as attacks on the visitor write paths.
//
// HTML and script are stored and returned verbatim: the API is not an HTML sanitizer, the
// elements render every visitor string as text. That half is proven in the SDK's browser tests:
// sdk/src/components/comment/comment.test.ts ("renders messages ... safe links": `<b>bold</b>`
// in a message shows as text, `javascript:` is never a link) and
// sdk/src/components/form/form.test.ts (the owner's description HTML loses script, handlers and
// javascript: links).
//
// Rate limits, storms and quotas: abuse-limits.test.ts; moderation: moderation-abuse.test.ts.
//
// Split by what is attacked: hostile-visitor.test.ts (likes, A/B votes, form answers),
// hostile-messages.test.ts (messages, markup from visitors), hostile-doors.test.ts (around the
// RPCs, closed doors, tokens); their shared worlds are in support/hostile.ts.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newGuest, serviceClient, sql } from './support/clients.ts';
import * as hostile from './support/hostile.ts';
import { abAndVisitor, commentAndMessage, formAndVisitor } from './support/hostile.ts';

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
