// Found from a clean clone in the sixth hostile review (breaker, 2026-11-26): issue 17's (b), "one
// address counts at most 10 % of a free owner's monthly responses in a day", and its (c), "nothing
// of the storm shows to other visitors unless approved", held for fresh accounts but not for
// signed-in ones a day old: a track record was any non-anonymous account older than
// limits.track_record_hours (24), with no history on the block at all. Google accounts are
// cheap, signing each in once a day ahead is all the wait it takes; cheaper still, an anonymous
// visitor's PUT /auth/v1/user { email } mails a link, and opening it makes the account
// non-anonymous with the created_at of its anonymous sign-up. Repro (main at f338a9b): 20 such
// accounts of one address counted a free owner's 100 responses in about 5 s, and posted 180
// comments in 15 s, all published. Now a track record is history on the block that the owner
// could see (a published message or a counted response older than the hours): an account's age
// is none (private.has_track_record, docs/data-model.md "Track record").
import { describe, expect, it } from 'vitest';
import { newGuest, newUser, sql, type TestUser } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import { wideForm, writeUntilRefused } from './support/hostile.ts';

/** `n` signed-in (not anonymous) accounts, made 25 hours ago. */
async function dayOldAccounts(n: number): Promise<TestUser[]> {
  const accounts = await Promise.all(Array.from({ length: n }, (_, i) => newUser(`day-old-${i}`)));
  await sql("update auth.users set created_at = now() - interval '25 hours' where id = any($1)", [
    accounts.map((a) => a.id),
  ]);
  return accounts;
}

describe('signed-in accounts a day old, of one address (the loopback)', () => {
  it("count at most 10 % of a free owner's month; the rest is kept, held", async () => {
    const { owner, submit } = await wideForm(await newUser('day-old-owner'));
    const accounts = await dayOldAccounts(20);
    // each submits as fast as it can until its own limit refuses it (five): 100 in all
    const { answers: all, refusals } = await writeUntilRefused<{ held: boolean }, TestUser>(
      accounts,
      submit,
    );
    expect(refusals.map((r) => r.scope)).toEqual(accounts.map(() => 'visitor'));
    expect(all).toHaveLength(100);
    // before: 100 counted, the month spent for every visitor
    expect(all.filter((a) => !a.held)).toHaveLength(10);
    const [profile] = await sql<{ monthly: number }>(
      'select p.response_monthly_count as monthly from public.profiles p where p.id = $1',
      [owner.id],
    );
    expect(profile!.monthly).toBe(10);
  });

  it("publish nothing past the address's share", async () => {
    const owner = await newUser('day-old-owner');
    const block = await createBlock(owner, 'comment');
    const accounts = await dayOldAccounts(20);
    // each posts its own burst (8) as fast as it can: 160 from the address, whose share of the
    // block is 30
    const results = await Promise.all(
      accounts.map(async (a) => {
        const mine: Array<{ status: number; details?: string }> = [];
        for (let i = 0; i < 8; i++) {
          const r = await a.client.rpc('post_message', {
            p_block_id: block,
            p_content: `day-old ${a.id} ${i}`,
            p_creator_name: 'Old Account',
            p_honeypot: '',
          });
          mine.push({ status: r.status, details: r.error?.details });
        }
        return mine;
      }),
    );
    const flat = results.flat();
    // refused only as a storm is (past the share: the captcha), nothing else
    expect(
      new Set(flat.filter((r) => r.status >= 300).map((r) => `${r.status} ${r.details}`)),
    ).toEqual(new Set(['429 captcha']));
    const [counts] = await sql<{ published: number; held: number }>(
      `select count(*) filter (where status = 'published')::int as published,
              count(*) filter (where status = 'held')::int as held
       from public.messages where block_id = $1 and creator_id = any($2)`,
      [block, accounts.map((a) => a.id)],
    );
    // before: every stored one published (180 in 15 s in the repro)
    expect(counts).toMatchObject({ published: 0 });
    expect(counts!.held).toBeGreaterThan(0);
  });
});

// Found from a clean clone in the seventh hostile review (breaker, 2026-11-26, main at 517ed29;
// both bodies below failed there): a track record was
// history on the block older than limits.track_record_hours, and an address makes it for its own
// accounts inside its own share, a day ahead. Day 1: 20 anonymous visitors of one address submit
// once each (the share: 10 count, 10 held) and post one friendly comment each (the block is quiet:
// all published). Day 2 (the test moves their rows 25 hours back and refills the buckets): the 10
// with a counted response and the 20 with a published comment have a track record, and a visitor
// with one counts and publishes past the address's share and past the block's spent budget, as if
// neither existed. Measured: day 2 counted 54 of the free owner's 100 (10 by the share, 44 past it;
// 64 in two days from one address, against issue 17's (b), at most 10 a day), and published all
// 160 storm comments in about a second (the block's budget is 120 a minute; (c): nothing of a
// storm shows unless approved). More pre-aged accounts (10 a day per address on a form, 30 on a
// comment block) make it worse. Ways out (a product decision, not made here): past the address's
// share everyone is held, regulars too (the issue's words for responses, "from one address beyond
// a fair share, kept but held"; hostile-visitor-replay.test's regular then waits for approval),
// or a regular gets a second, bounded allowance past the share (e.g. one response a day each, or
// one more share per address), or a track record needs something the owner did (an approval, a
// reply) rather than time alone. The lead took the first: a track record spares a visitor the
// captcha and the refusal, never the address's share (docs/data-model.md "Under pressure").
/** `n` anonymous visitors, as the SDK makes on a first write. */
const guests = (n: number) => Promise.all(Array.from({ length: n }, () => newGuest()));

/** A day passes for this block: its writes are 25 hours old, its buckets and address shares full. */
async function aDayLater(block: string, owner: string) {
  await sql(
    "update public.responses set created_at = created_at - interval '25 hours' where block_id = $1",
    [block],
  );
  await sql(
    "update public.messages set created_at = created_at - interval '25 hours' where block_id = $1",
    [block],
  );
  await sql('delete from private.rate_limits where block_id = $1', [block]);
  await sql('delete from private.address_holds where block_id = $1', [block]);
  await sql('update private.address_quota set day = day - 1 where owner_id = $1', [owner]);
}

describe('anonymous visitors of one address who made their history on the block a day ahead', () => {
  it("count at most 10 % of a free owner's month on the second day too", async () => {
    const { owner, form, submit } = await wideForm(await newUser('aged-owner'));
    const visitors = await guests(20);
    // day 1: one response each, within reason
    const day1 = await Promise.all(visitors.map(submit));
    expect(day1.filter((r) => !r.error && !(r.data as { held: boolean }).held)).toHaveLength(10);
    await aDayLater(form, owner.id);
    // day 2: each as fast as it can until its own limit refuses it
    const { answers: day2 } = await writeUntilRefused(visitors, submit);
    expect(day2).toHaveLength(100);
    const [today] = await sql<{ counted: number }>(
      `select count(*)::int as counted from public.responses
       where block_id = $1 and not held and created_at > now() - interval '1 hour'`,
      [form],
    );
    // main at 517ed29: 55 counted on day 2 (10 by the share, 45 past it by a track record)
    expect(today!.counted).toBeLessThanOrEqual(10);
  });

  it("publish nothing past the address's share on the second day", async () => {
    const owner = await newUser('aged-owner');
    const block = await createBlock(owner, 'comment');
    const visitors = await guests(20);
    const post = (v: TestUser, text: string) =>
      v.client.rpc('post_message', {
        p_block_id: block,
        p_content: text,
        p_creator_name: 'Regular',
        p_honeypot: '',
      });
    // day 1: one friendly comment each, published (the block is quiet)
    const day1 = await Promise.all(visitors.map((v, i) => post(v, `nice post ${i}`)));
    expect(day1.map((r) => r.status)).toEqual(visitors.map(() => 200));
    await aDayLater(block, owner.id);
    // day 2: each posts its burst (8) as fast as it can: 160 from the address (share 30)
    await Promise.all(
      visitors.map(async (v, i) => {
        for (let k = 0; k < 8; k++) await post(v, `storm ${i} ${k}`);
      }),
    );
    const [counts] = await sql<{ published: number }>(
      `select count(*)::int as published from public.messages
       where block_id = $1 and status = 'published' and content like 'storm %'`,
      [block],
    );
    // main at 517ed29: every storm message stored was published
    expect(counts!.published).toBeLessThanOrEqual(30);
  });
});
