// `npm start` promises a demo owner: signed in through the local Google page with the printed
// email, on a paid plan, owning one block of each of the nine types (and the six reaction blocks
// again in Korean, the landing's live demo on a Korean page).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_LETTERS, fillDemoLetters } from '../local/demo-letters.ts';
import { anonClient, newGuest, sql, stack } from './support/clients.ts';
import { eventually, mailbox } from './support/providers.ts';
import { signInWithGoogle } from './support/google.ts';
import { answerLink, confirmationMail, tokenOf } from './support/consent.ts';
import { runWorker } from './support/worker.ts';

const DEMO_ID = '00000000-0000-4000-8000-000000000001';
/** The six reaction blocks in Korean (supabase/seed/01-demo-owner.sql, ids ...111 to ...116). */
const KOREAN_DEMO = [11, 12, 13, 14, 15, 16]
  .map((nn) => `'00000000-0000-4000-8000-0000000001${nn}'`)
  .join(', ');

describe('demo owner', () => {
  it('signs in through the local Google page and owns one block of each type on a paid plan', async () => {
    const session = await signInWithGoogle('demo@reaction-blocks.local', 'Demo Owner');
    expect(session.user.id).toBe(DEMO_ID);

    const client = anonClient();
    const { data: blocks } = await client
      .from('blocks')
      .select('type')
      .eq('owner_id', DEMO_ID)
      .setHeader('Authorization', `Bearer ${session.access_token}`);
    // the nine in English, and the six reaction blocks again in Korean (the landing's Korean demo)
    expect((blocks ?? []).map((b) => b.type).sort()).toEqual([
      'ab',
      'ab',
      'brunch_letter',
      'button',
      'button',
      'comment',
      'comment',
      'form',
      'form',
      'like',
      'like',
      'notion_letter',
      'qna',
      'qna',
      'typedream_letter',
    ]);
    const { data: profile } = await client
      .from('profiles')
      .select('paid, agree')
      .eq('id', DEMO_ID)
      .setHeader('Authorization', `Bearer ${session.access_token}`)
      .single();
    expect(profile).toEqual({ paid: true, agree: true });
  });
});

// The seed's generated history (supabase/seed/02-demo-history.sql): believable, and every
// counter the product keeps equals the rows it counts, as if the visitors had used the SDK.
describe('demo data', () => {
  const DEMO_BLOCKS = `(select id from public.blocks where owner_id = '${DEMO_ID}')`;

  it('gives every reaction block of the demo owner responses to show', async () => {
    const rows = await sql<{ type: string; language: string; rows: number }>(
      `select b.type, b.language, (select count(*) from public.responses r where r.block_id = b.id)
                    + (select count(*) from public.messages m where m.block_id = b.id) as rows
       from public.blocks b where b.owner_id = $1 and b.type in ('comment', 'qna', 'like', 'button', 'ab', 'form')
       order by b.type`,
      [DEMO_ID],
    );
    const of = (language: string) =>
      Object.fromEntries(
        rows.filter((r) => r.language === language).map((r) => [r.type, Number(r.rows)]),
      );
    const byType = of('en');
    // the Korean demo's history is shorter, but no block of it is empty
    const korean = of('ko');
    expect(Object.keys(korean).sort()).toEqual(['ab', 'button', 'comment', 'form', 'like', 'qna']);
    for (const [type, count] of Object.entries(korean)) expect(count, type).toBeGreaterThan(3);
    expect(byType.form).toBeGreaterThanOrEqual(200);
    expect(byType.ab).toBeGreaterThanOrEqual(200);
    expect(byType.like).toBeGreaterThanOrEqual(100);
    expect(byType.button).toBeGreaterThanOrEqual(100);
    expect(byType.comment).toBeGreaterThanOrEqual(20);
    expect(byType.qna).toBeGreaterThanOrEqual(10);
    const [mix] = await sql<{
      ko: number;
      en: number;
      zones: number;
      replies: number;
      resolved: number;
    }>(
      `select (select count(*) from public.responses where block_id in ${DEMO_BLOCKS}
                 and answers::text ~ '[가-힣]') as ko,
              (select count(*) from public.responses where block_id in ${DEMO_BLOCKS}
                 and kind = 'form' and answers::text !~ '[가-힣]') as en,
              (select count(distinct timezone) from public.responses where block_id in ${DEMO_BLOCKS}) as zones,
              (select count(*) from public.messages where block_id in ${DEMO_BLOCKS} and parent_id is not null
                 and creator_id = $1) as replies,
              (select count(*) from public.messages where block_id in ${DEMO_BLOCKS} and resolved) as resolved`,
      [DEMO_ID],
    );
    expect(Number(mix!.ko)).toBeGreaterThan(20);
    expect(Number(mix!.en)).toBeGreaterThan(100);
    expect(Number(mix!.zones)).toBeGreaterThan(5);
    expect(Number(mix!.replies)).toBeGreaterThan(5);
    expect(Number(mix!.resolved)).toBeGreaterThanOrEqual(1);
    // spread over weeks, not all at once
    const [span] = await sql<{ days: number }>(
      `select extract(day from max(created_at) - min(created_at)) as days from public.responses
       where block_id in ${DEMO_BLOCKS}`,
    );
    expect(Number(span!.days)).toBeGreaterThan(21);
  });

  it('has a coupon to try, and no internal names in what visitors read', async () => {
    const [coupon] = await sql<{ content: Record<string, unknown>; duration_days: number }>(
      `select content, duration_days from public.coupons where code = 'DEMO-BASIC-30'`,
    );
    expect(coupon).toMatchObject({ content: { blockLimit: 8 }, duration_days: 30 });
    const endings = await sql<{ title: string }>(
      `select title from public.endings where block_id in ${DEMO_BLOCKS} and title <> ''`,
    );
    expect(endings.map((e) => e.title)).not.toContain('Email given');
  });

  it("gives the Korean demo blocks the owner's texts in Korean, no English a Korean visitor reads", async () => {
    // /reaction?locale=ko showed the English blocks' welcome, placeholder, question and options
    const [texts] = await sql<{ texts: string[] }>(
      `select array_remove(array_agg(t), null) as texts from (
         select unnest(array[b.name, b.owner_name, b.welcome_message, b.placeholder, b.qna_subject,
                             b.button_text, b.submit_button_text]) as t
           from public.blocks b where b.id in (${KOREAN_DEMO})
         union all select title from public.questions where block_id in (${KOREAN_DEMO})
         union all select placeholder from public.questions where block_id in (${KOREAN_DEMO})
         union all select content from public.questions where block_id in (${KOREAN_DEMO})
         union all select value from public.options where block_id in (${KOREAN_DEMO})
         union all select title from public.endings where block_id in (${KOREAN_DEMO})
         union all select closing_text from public.endings where block_id in (${KOREAN_DEMO})
         union all select creator_name from public.messages where block_id in (${KOREAN_DEMO})) all_texts`,
    );
    expect(texts!.texts.length).toBeGreaterThan(20);
    // what may stay in Latin letters: Q&A, A/B, the placeholder of an address, HTML tags
    const english = texts!.texts
      .map((t) => t.replace(/Q&A|A\/B|you@example\.com|<\/?p>|\$responseCount\$/g, ''))
      .filter((t) => /[A-Za-z]{2,}/.test(t));
    expect(english).toEqual([]);
  });

  it('keeps the block counters equal to the rows', async () => {
    const blocks = await sql<{
      id: string;
      response_count: number;
      new_response_count: number;
      like_count: number;
      rows: number;
      likes: number;
    }>(
      `select b.id, b.response_count, b.new_response_count, b.like_count,
              (select count(*) from public.responses r where r.block_id = b.id)
                + (select count(*) from public.messages m where m.block_id = b.id) as rows,
              (select count(*) from public.responses r where r.block_id = b.id and r.kind = 'like') as likes
       from public.blocks b where b.owner_id = $1`,
      [DEMO_ID],
    );
    expect(blocks).toHaveLength(15);
    for (const b of blocks) {
      expect(b.response_count, b.id).toBe(Number(b.rows));
      expect(b.like_count, b.id).toBe(Number(b.likes));
      expect(b.new_response_count, b.id).toBeLessThanOrEqual(b.response_count);
    }
  });

  it('keeps option, reply and message like counts equal to the rows', async () => {
    const options = await sql<{ value: string; response_count: number; chosen: number }>(
      `select o.value, o.response_count,
              (select count(*) from public.responses r, jsonb_each(r.answers) a
               where r.block_id = o.block_id and a.value -> 'option_ids' ? o.id::text) as chosen
       from public.options o where o.block_id in ${DEMO_BLOCKS}`,
    );
    expect(options.length).toBeGreaterThanOrEqual(5);
    for (const o of options) expect(o.response_count, o.value).toBe(Number(o.chosen));
    expect(options.every((o) => o.response_count > 0)).toBe(true);

    const messages = await sql<{
      id: string;
      reply_count: number;
      replies: number;
      like_count: number;
      likes: number;
    }>(
      `select m.id, m.reply_count, m.like_count,
              (select count(*) from public.messages r where r.parent_id = m.id) as replies,
              (select count(*) from public.message_likes l where l.message_id = m.id) as likes
       from public.messages m where m.block_id in ${DEMO_BLOCKS}`,
    );
    expect(messages.some((m) => m.like_count > 0)).toBe(true);
    for (const m of messages) {
      expect(m.reply_count, m.id).toBe(Number(m.replies));
      expect(m.like_count, m.id).toBe(Number(m.likes));
    }
  });

  it('has real visitors: anonymous auth users, one audience member each, the monthly quota counted', async () => {
    const [who] = await sql<{
      creators: number;
      anonymous: number;
      owner: number;
      members: number;
      strays: number;
    }>(
      `with creators as (
         select creator_id from public.responses where block_id in ${DEMO_BLOCKS}
         union select creator_id from public.messages where block_id in ${DEMO_BLOCKS}
         union select user_id from public.message_likes
           where message_id in (select id from public.messages where block_id in ${DEMO_BLOCKS}))
       select (select count(*) from creators) as creators,
              (select count(*) from creators c join auth.users u on u.id = c.creator_id
               where u.is_anonymous) as anonymous,
              (select count(*) from creators where creator_id = $1) as owner,
              (select count(*) from public.audience_members a where a.user_id = $1
               and a.creator_id in (select creator_id from creators where creator_id <> $1)) as members,
              (select count(*) from public.audience_members a where a.user_id = $1
               and a.creator_id not in (select creator_id from creators)) as strays`,
      [DEMO_ID],
    );
    const creators = Number(who!.creators);
    expect(creators).toBeGreaterThan(250);
    // everyone but the owner (who answers questions) is an anonymous auth user
    expect(Number(who!.anonymous)).toBe(creators - Number(who!.owner));
    // the visitor functions add a member for whoever reacts (liking a message is not a reaction
    // to the block, so likers who did nothing else have none)
    const [reacted] = await sql<{ n: number }>(
      `select count(distinct creator_id) as n from (
         select creator_id from public.responses where block_id in ${DEMO_BLOCKS}
         union select creator_id from public.messages where block_id in ${DEMO_BLOCKS}) c
       where creator_id <> $1`,
      [DEMO_ID],
    );
    expect(Number(who!.members)).toBe(Number(reacted!.n));
    expect(Number(who!.strays)).toBe(0);

    const [quota] = await sql<{ counted: number; rows: number }>(
      `select p.response_monthly_count as counted,
              (select count(*) from public.responses r where r.block_id in ${DEMO_BLOCKS}
               and r.kind in ('form', 'ab') and r.created_at >= date_trunc('month', now())) as rows
       from public.profiles p where p.id = $1`,
      [DEMO_ID],
    );
    expect(quota!.counted).toBe(Number(quota!.rows));
  });
});

describe('demo letters (supabase/local/demo-letters.ts, what npm start runs once)', () => {
  it('makes each letter from its fixture page through the functions, sends one, and the form sends another', async () => {
    expect(await fillDemoLetters(stack())).toBe(3);
    const letters = await sql<{ block_id: string; mail_from: string; mail_html: string }>(
      `select block_id, mail_from, mail_html from public.block_private where block_id = any($1::uuid[])
       order by block_id`,
      [DEMO_LETTERS.map((l) => l.blockId)],
    );
    const html = Object.fromEntries(letters.map((l) => [l.block_id.slice(-2), l.mail_html]));
    expect(html['07']).toContain('This week at Reaction Blocks');
    expect(html['07']).toContain('Read the release notes');
    expect(html['08']).toContain('Small letters, read by the right people');
    expect(html['08']).toContain('Read the changelog');
    expect(html['09']).toContain('편지로 돌려드리기');
    expect(letters.every((l) => l.mail_from === 'demo@reaction-blocks.local')).toBe(true);
    // the pages' images are copies in Storage that a mail client can load
    const image = /<img[^>]*src="([^"]+)"/.exec(html['08']!)?.[1];
    expect(image).toContain(`/storage/v1/object/public/letter-images/${DEMO_ID}/`);
    const got = await fetch(image!);
    expect(got.headers.get('content-type')).toBe('image/png');
    await got.body?.cancel();

    // the Notion letter's history has a send with its counts
    const [send] = await sql<{ reserved_count: number }>(
      `select reserved_count from public.publishes where block_id = $1`,
      [DEMO_LETTERS[0].blockId],
    );
    expect(send!.reserved_count).toBe(3);

    // once: a database that has them is left alone
    expect(await fillDemoLetters(stack())).toBe(0);

    // the demo form's mail question sends the Typedream letter to whoever leaves an address
    const to = `demo-form-${randomBytes(4).toString('hex')}@example.com`;
    const guest = await newGuest();
    const { error } = await guest.client.rpc('submit_response', {
      p_block_id: '00000000-0000-4000-8000-000000000106',
      p_answers: {
        '00000000-0000-4000-8000-000000000302': 'Demo Reader',
        '00000000-0000-4000-8000-000000000303': to,
        '00000000-0000-4000-8000-000000000304': ['00000000-0000-4000-8000-000000000401'],
      },
    });
    expect(error).toBeNull();
    // a typed address is asked first (double opt-in), in the platform's words (no owner's name);
    // the letter follows its confirmation
    const confirmation = await confirmationMail(to);
    expect(confirmation.subject).toBe('Confirm that you want to receive letters');
    expect((await answerLink(tokenOf(confirmation), 'confirm')).status).toBe(200);
    const mail = await eventually(async () => {
      await runWorker();
      return (await mailbox(to)).find((m) => m !== undefined && m.id !== confirmation.id);
    }, 90_000);
    expect(mail.subject).toBe('November notes: what changed this month');
  }, 180_000);
});
