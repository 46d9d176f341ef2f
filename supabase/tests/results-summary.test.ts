// The results summary (block_results_summary, one owner-only call) against the rows counted by
// hand: responses submitted by visitors through submit_response, some deleted by the owner, the
// figures recomputed here from the rows the owner can read. And "+ N responses": opening the
// results resets it to 0, only to 0, only on the owner's blocks.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  anonClient,
  newGuest,
  newUser,
  sql,
  sqlValue,
  type TestUser,
  wholeQuotaForOneAddress,
} from './support/clients.ts';
import { addQuestion as addBlockQuestion, createBlock } from './support/drafts.ts';

interface Summary {
  block: { id: string; type: string; response_count: number };
  timezone: string;
  totals: {
    responses: number;
    last_7_days: number;
    first_at: string | null;
    last_at: string | null;
  };
  timeline: { unit: 'day' | 'week' | 'month'; points: Array<{ t: string; n: number }> };
  questions: Array<{
    id: string;
    type: string;
    answered: number;
    options?: Array<{ id: string; value: string; deleted: boolean; count: number }>;
    number?: {
      count: number;
      mean: number | null;
      median: number | null;
      min: number | null;
      max: number | null;
    };
    latest?: Array<{ value: string; created_at: string }>;
  }>;
}

/** A question that need not be answered (support/drafts.ts addQuestion). */
const addQuestion = (blockId: string, question: Record<string, unknown>, options?: string[]) =>
  addBlockQuestion(blockId, { required: false, ...question }, options);

async function summary(user: TestUser, blockId: string, tz = 'Asia/Seoul') {
  return user.client.rpc('block_results_summary', { p_block_id: blockId, p_timezone: tz });
}

describe('block_results_summary', () => {
  let owner: TestUser;
  let form: string;
  let poll: { id: string; options: string[] };
  let num: { id: string };
  let text: { id: string };

  beforeAll(async () => {
    owner = await newUser('summary');
    await sql('update public.profiles set block_limit = 20, paid = true where id = $1', [owner.id]);
    form = await createBlock(owner, 'form');
    await wholeQuotaForOneAddress([form]);
    poll = await addQuestion(
      form,
      { type: 'poll', index: 0, title: 'Colours', allow_multi_select: true },
      ['Red', 'Blue', 'Green'],
    );
    num = await addQuestion(form, { type: 'number', index: 1, title: 'Age' });
    text = await addQuestion(form, { type: 'short_text', index: 2, title: 'Name' });
    await addQuestion(form, { type: 'description', index: 3, title: 'About', content: '<p>x</p>' });

    // twelve visitors: picks, numbers and names chosen so the figures are easy to check
    const answers: Array<Record<string, unknown>> = [
      { [poll.id]: [poll.options[0]], [num.id]: '10', [text.id]: 'Ann' },
      { [poll.id]: [poll.options[0], poll.options[1]], [num.id]: '20' },
      { [poll.id]: [poll.options[1]], [num.id]: '-5', [text.id]: '민지' },
      { [poll.id]: [poll.options[0]], [num.id]: '+40' },
      { [num.id]: '7' },
      { [text.id]: 'Bo' },
      { [poll.id]: [poll.options[0], poll.options[1]] },
      {},
      { [poll.id]: [poll.options[1]], [num.id]: '3' },
      { [text.id]: '<b>x</b>' },
      { [poll.id]: [poll.options[0]], [num.id]: '100' },
      { [num.id]: '0', [text.id]: 'Last' },
    ];
    for (const a of answers) {
      const guest = await newGuest();
      const { error } = await guest.client.rpc('submit_response', {
        p_block_id: form,
        p_answers: a,
      });
      expect(error).toBeNull();
    }
    // spread them over days, oldest first, so the timeline has several buckets
    await sql(
      `with ordered as (select id, row_number() over (order by created_at) as n from public.responses where block_id = $1)
       update public.responses r set created_at = now() - make_interval(days => (12 - o.n)::integer * 2)
       from ordered o where o.id = r.id`,
      [form],
    );
  });

  it('matches the rows counted by hand, also after the owner deleted some', async () => {
    const check = async () => {
      const { data: rows, error } = await owner.client
        .from('responses')
        .select('id, answers, created_at')
        .eq('block_id', form)
        .order('created_at', { ascending: false });
      expect(error).toBeNull();
      const list = rows as Array<{
        id: string;
        answers: Record<string, { value: unknown; option_ids?: string[] }>;
        created_at: string;
      }>;
      const res = await summary(owner, form);
      expect(res.error).toBeNull();
      const s = res.data as Summary;

      expect(s.totals.responses).toBe(list.length);
      expect(s.block.response_count).toBe(list.length);
      const weekAgo = Date.now() - 7 * 86_400_000;
      expect(s.totals.last_7_days).toBe(
        list.filter((r) => Date.parse(r.created_at) > weekAgo).length,
      );
      expect(Date.parse(s.totals.last_at!)).toBe(Date.parse(list[0]!.created_at));
      expect(Date.parse(s.totals.first_at!)).toBe(Date.parse(list.at(-1)!.created_at));
      expect(s.timeline.unit).toBe('day');
      expect(s.timeline.points.reduce((sum, p) => sum + p.n, 0)).toBe(list.length);
      // days in Seoul, one bucket per day from the first response to today, without gaps
      const seoulDay = (iso: string) =>
        new Date(Date.parse(iso) + 9 * 3_600_000).toISOString().slice(0, 10);
      expect(s.timeline.points[0]!.t).toBe(seoulDay(list.at(-1)!.created_at));
      expect(s.timeline.points.at(-1)!.t).toBe(seoulDay(new Date().toISOString()));
      for (const p of s.timeline.points) {
        expect(p.n).toBe(list.filter((r) => seoulDay(r.created_at) === p.t).length);
      }

      // the description question is not summarised
      expect(s.questions.map((q) => q.id)).toEqual([poll.id, num.id, text.id]);
      const [pollSummary, numSummary, textSummary] = s.questions;
      expect(pollSummary!.answered).toBe(list.filter((r) => r.answers[poll.id]).length);
      expect(pollSummary!.options!.map((o) => [o.value, o.count])).toEqual(
        ['Red', 'Blue', 'Green'].map((value, i) => [
          value,
          list.filter((r) => r.answers[poll.id]?.option_ids?.includes(poll.options[i]!)).length,
        ]),
      );
      const numbers = list
        .map((r) => r.answers[num.id]?.value)
        .filter((v): v is string => typeof v === 'string')
        .map(Number)
        .sort((a, b) => a - b);
      const mid = Math.floor(numbers.length / 2);
      const median = numbers.length % 2 ? numbers[mid]! : (numbers[mid - 1]! + numbers[mid]!) / 2;
      expect(numSummary!.answered).toBe(numbers.length);
      expect(numSummary!.number).toEqual({
        count: numbers.length,
        mean: Math.round((numbers.reduce((a, b) => a + b, 0) / numbers.length) * 100) / 100,
        median,
        min: numbers[0],
        max: numbers.at(-1),
      });
      const names = list.filter((r) => r.answers[text.id]).map((r) => r.answers[text.id]!.value);
      expect(textSummary!.answered).toBe(names.length);
      expect(textSummary!.latest!.map((l) => l.value)).toEqual(names.slice(0, 5));
      return s;
    };

    const before = await check();
    expect(before.totals.responses).toBe(12);
    expect(before.questions[0]!.options!.map((o) => o.count)).toEqual([5, 4, 0]);
    expect(before.questions[1]!.number).toEqual({
      count: 8,
      mean: 21.88,
      median: 8.5,
      min: -5,
      max: 100,
    });

    // the owner deletes the newest response and one that chose Red and Blue
    const { data: doomed } = await owner.client
      .from('responses')
      .select('id, answers')
      .eq('block_id', form)
      .order('created_at', { ascending: false });
    const rows = doomed as Array<{
      id: string;
      answers: Record<string, { option_ids?: string[] }>;
    }>;
    const both = rows.find((r) => r.answers[poll.id]?.option_ids?.length === 2)!;
    for (const id of [rows[0]!.id, both.id]) {
      const del = await owner.client.from('responses').delete().eq('id', id).select('id');
      expect(del.data).toHaveLength(1);
    }
    const after = await check();
    expect(after.totals.responses).toBe(10);
    expect(after.questions[0]!.options!.map((o) => o.count)).toEqual([4, 3, 0]);
  });

  it('lists a deleted option while responses still name it, and tells weeks from days', async () => {
    await sql('update public.options set deleted = true where id = $1', [poll.options[2]]);
    let s = (await summary(owner, form)).data as Summary;
    expect(s.questions[0]!.options!.map((o) => o.value)).toEqual(['Red', 'Blue']);
    await sql('update public.options set deleted = true where id = $1', [poll.options[1]]);
    s = (await summary(owner, form)).data as Summary;
    // Blue still has votes: listed after the live options, marked deleted
    expect(s.questions[0]!.options!.map((o) => [o.value, o.deleted])).toEqual([
      ['Red', false],
      ['Blue', true],
    ]);
    await sql('update public.options set deleted = false where question_id = $1', [poll.id]);

    await sql(
      `update public.responses set created_at = created_at - interval '200 days'
       where id = (select id from public.responses where block_id = $1 order by created_at limit 1)`,
      [form],
    );
    s = (await summary(owner, form, 'UTC')).data as Summary;
    expect(s.timeline.unit).toBe('week');
    expect(s.timeline.points.reduce((sum, p) => sum + p.n, 0)).toBe(s.totals.responses);
  });

  it('is the owner’s only: another user, a visitor and anon are refused', async () => {
    const other = await newUser('other');
    const res = await summary(other, form);
    expect(res.error?.message).toBe("block doesn't exists");
    const guest = await newGuest();
    expect((await summary(guest, form)).error?.message).toBe("block doesn't exists");
    const anon = await anonClient().rpc('block_results_summary', { p_block_id: form });
    expect(anon.error?.message).toMatch(/permission denied/);
  });

  it('refuses a time zone it does not know', async () => {
    const res = await summary(owner, form, 'Mars/Olympus');
    expect(res.error?.message).toBe('Invalid timezone');
    const sqlish = await summary(owner, form, "UTC'; select 1; --");
    expect(sqlish.error?.message).toBe('Invalid timezone');
  });

  it('counts likes and clicks for like and button blocks, with no questions', async () => {
    const likeId = await createBlock(owner, 'like');
    const buttonId = await createBlock(owner, 'button');
    const empty = (await summary(owner, likeId)).data as Summary;
    expect(empty.totals).toMatchObject({ responses: 0, first_at: null });
    expect(empty.timeline.points).toEqual([]);
    for (let i = 0; i < 3; i++) {
      const guest = await newGuest();
      await guest.client.rpc('toggle_block_like', { p_block_id: likeId, p_creator_name: 'G' });
      await guest.client.rpc('record_button_click', { p_block_id: buttonId, p_creator_name: 'G' });
      await guest.client.rpc('record_button_click', { p_block_id: buttonId, p_creator_name: 'G' });
    }
    const likes = (await summary(owner, likeId)).data as Summary;
    const clicks = (await summary(owner, buttonId)).data as Summary;
    expect([likes.totals.responses, clicks.totals.responses]).toEqual([3, 6]);
    expect(likes.questions).toEqual([]);
    expect(clicks.timeline.points.at(-1)!.n).toBe(6);
  });
});

describe('"+ N responses" reset', () => {
  it('the owner resets it to 0 when opening the results; only to 0; nobody else can', async () => {
    const owner = await newUser('fresh');
    const block = await createBlock(owner, 'button');
    for (let i = 0; i < 4; i++) {
      const guest = await newGuest();
      await guest.client.rpc('record_button_click', { p_block_id: block, p_creator_name: 'G' });
    }
    const count = () =>
      sqlValue<number>('select new_response_count from public.blocks where id = $1', [block]);
    expect(await count()).toBe(4);

    // a stranger's reset changes nothing (RLS: not their row)
    const other = await newUser('stranger');
    await other.client.from('blocks').update({ new_response_count: 0 }).eq('id', block);
    expect(await count()).toBe(4);
    // the owner cannot raise it
    const raise = await owner.client
      .from('blocks')
      .update({ new_response_count: 9 })
      .eq('id', block);
    expect(raise.error).not.toBeNull();
    expect(await count()).toBe(4);

    // what the dashboard sends when the results open
    const reset = await owner.client
      .from('blocks')
      .update({ new_response_count: 0 })
      .eq('id', block)
      .gt('new_response_count', 0);
    expect(reset.error).toBeNull();
    expect(await count()).toBe(0);
    // the total is untouched; a new click counts as new again
    const guest = await newGuest();
    await guest.client.rpc('record_button_click', { p_block_id: block, p_creator_name: 'G' });
    const [row] = await sql<{ r: number; n: number }>(
      'select response_count as r, new_response_count as n from public.blocks where id = $1',
      [block],
    );
    expect(row).toEqual({ r: 5, n: 1 });
  });
});
