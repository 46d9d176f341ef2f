// The account-area edge functions through the gateway: good input, bad input, bad tokens.
import { describe, expect, it } from 'vitest';
import { BLOCK_DEFAULTS } from '@reaction-blocks/contracts/block-defaults';
import { LANGUAGES } from '@reaction-blocks/contracts/enums';
import { ZUpdateProfile } from '@reaction-blocks/contracts/schemas';
import { callFunction, newGuest, newUser, serviceClient, sql } from './support/clients.ts';
import { createBlock, option, question } from './support/drafts.ts';
import { expiredToken, forgedToken } from './support/jwt.ts';

async function blockCount(userId: string) {
  const [row] = await sql<{ block_count: number; blocks: string }>(
    'select p.block_count, (select count(*) from public.blocks b where b.owner_id = p.id) as blocks from public.profiles p where p.id = $1',
    [userId],
  );
  return { counter: row?.block_count, rows: Number(row?.blocks) };
}

describe('create-block', () => {
  it('creates a block of each reaction type and answers with its id and path', async () => {
    const owner = await newUser('creator');
    await sql('update public.profiles set block_limit = 20 where id = $1', [owner.id]);
    for (const blockType of ['comment', 'qna', 'like', 'button', 'ab', 'form']) {
      const { data, error } = await owner.client.functions.invoke('create-block', {
        body: { blockType },
      });
      expect(error).toBeNull();
      const answer = (data as { data: { blockId: string; blockPath: string; status: boolean } })
        .data;
      expect(answer.status).toBe(true);
      expect(answer.blockPath).toBe(`/work/${answer.blockId}`);
      const { data: block } = await owner.client
        .from('blocks')
        .select('type, owner_id')
        .eq('id', answer.blockId)
        .single();
      expect(block).toEqual({ type: blockType, owner_id: owner.id });
    }
    expect(await blockCount(owner.id)).toEqual({ counter: 6, rows: 6 });
  });

  it.each([
    ['an unknown type', { blockType: 'poll' }],
    ['a missing type', {}],
    ['a type of the wrong kind', { blockType: 7 }],
    ['an oversize type', { blockType: 'x'.repeat(10_000) }],
  ])('refuses %s with "Invalid block" and writes nothing', async (_, body) => {
    const owner = await newUser();
    const res = await callFunction('create-block', body, owner.accessToken);
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toMatch(/^Invalid block/);
    expect(await blockCount(owner.id)).toEqual({ counter: 0, rows: 0 });
  });

  it('refuses a body that is not JSON', async () => {
    const owner = await newUser();
    const res = await callFunction('create-block', '{"blockType":', owner.accessToken, {
      raw: true,
    });
    expect(res.status).toBe(400);
    expect(res.json.error?.code).toBe('invalid_json');
  });

  it('refuses missing, forged and expired tokens', async () => {
    const owner = await newUser();
    for (const token of [undefined, await forgedToken(owner.id), await expiredToken(owner.id)]) {
      const res = await callFunction('create-block', { blockType: 'like' }, token);
      expect(res.status).toBe(401);
      expect(res.json).toBeTruthy();
    }
    expect(await blockCount(owner.id)).toEqual({ counter: 0, rows: 0 });
  });

  it('refuses anonymous visitors: only signed-in owners create blocks', async () => {
    const guest = await newGuest();
    const res = await callFunction('create-block', { blockType: 'like' }, guest.accessToken);
    expect(res.status).toBe(403);
    expect(res.json.error?.message).toBeTruthy();
  });

  it('stops at the block limit with "Block limit reached!"', async () => {
    const owner = await newUser();
    for (let i = 0; i < 3; i++) {
      expect(
        (await callFunction('create-block', { blockType: 'like' }, owner.accessToken)).status,
      ).toBe(200);
    }
    const res = await callFunction('create-block', { blockType: 'like' }, owner.accessToken);
    expect(res.status).toBe(403);
    expect(res.json.error?.message).toBe('Block limit reached!');
    expect(await blockCount(owner.id)).toEqual({ counter: 3, rows: 3 });
  });

  it('keeps blockCount right under 20 concurrent creates', async () => {
    const owner = await newUser();
    await sql('update public.profiles set block_limit = 10 where id = $1', [owner.id]);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        callFunction('create-block', { blockType: 'comment' }, owner.accessToken),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 403)).toHaveLength(10);
    expect(await blockCount(owner.id)).toEqual({ counter: 10, rows: 10 });
  });
});

describe("a new block's texts in its owner's language", () => {
  it('the database and the dashboard hold the same defaults, for every language', async () => {
    expect(Object.keys(BLOCK_DEFAULTS).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) {
      const [row] = await sql<{ d: unknown }>(
        'select private.block_defaults($1::public.language_code) as d',
        [language],
      );
      expect(row?.d, language).toEqual(BLOCK_DEFAULTS[language]);
    }
    // each language its own words, not English again
    expect(BLOCK_DEFAULTS.ko).toEqual({
      name: '제목 없음',
      copySuffix: ' 사본',
      ending: '감사합니다',
      abOptions: ['좋아요', '별로예요'],
    });
  });

  it.each(LANGUAGES)('creates and duplicates with the defaults of a %s owner', async (language) => {
    const defaults = BLOCK_DEFAULTS[language];
    const owner = await newUser();
    await sql('update public.profiles set language = $2, block_limit = 10 where id = $1', [
      owner.id,
      language,
    ]);
    const created = await callFunction('create-block', { blockType: 'ab' }, owner.accessToken);
    expect(created.status).toBe(200);
    const blockId = (created.json.data as { blockId: string }).blockId;
    const texts = async (id: string) => ({
      block: (await sql('select name, language from public.blocks where id = $1', [id]))[0],
      options: (
        await sql<{ value: string }>(
          'select value from public.options where block_id = $1 order by index',
          [id],
        )
      ).map((o) => o.value),
      endings: (
        await sql<{ closing_text: string }>(
          'select closing_text from public.endings where block_id = $1',
          [id],
        )
      ).map((e) => e.closing_text),
    });
    expect(await texts(blockId)).toEqual({
      block: { name: defaults.name, language },
      options: defaults.abOptions,
      endings: [defaults.ending],
    });
    const form = await createBlock(owner, 'form');
    expect(await texts(form)).toEqual({
      block: { name: defaults.name, language },
      options: [],
      endings: [defaults.ending],
    });

    // the copy: suffix in the block's language, the copied texts unchanged
    const copy = await owner.client.rpc('duplicate_block', { p_block_id: blockId });
    expect(copy.error).toBeNull();
    expect(await texts((copy.data as { id: string }).id)).toEqual({
      block: { name: defaults.name + defaults.copySuffix, language },
      options: defaults.abOptions,
      endings: [defaults.ending],
    });
    // a name at the length limit keeps the whole suffix and the limit
    await sql('update public.blocks set name = $2 where id = $1', [blockId, 'x'.repeat(200)]);
    const long = await owner.client.rpc('duplicate_block', { p_block_id: blockId });
    expect((long.data as { name: string }).name).toBe(
      'x'.repeat(200 - defaults.copySuffix.length) + defaults.copySuffix,
    );
  });
});

describe('duplicate and delete', () => {
  it('duplicates a form with its questions, resets counters, and counts the copy', async () => {
    const owner = await newUser();
    const blockId = await createBlock(owner, 'form');
    // the workspace's save path: owners hold no direct write rights on block content
    const saved = await callFunction(
      'save-block',
      {
        blockId,
        settings: { name: 'Survey' },
        questions: [
          question({
            type: 'poll',
            title: 'Pick one',
            options: ['A', 'B'].map((value, index) => option(value, index)),
          }),
        ],
      },
      owner.accessToken,
    );
    expect(saved.status).toBe(200);
    await sql(
      'update public.blocks set response_count = 5, new_response_count = 2 where id = $1; ',
      [blockId],
    );
    await sql('update public.options set response_count = 3 where block_id = $1', [blockId]);

    const { data: copy, error: dupError } = await owner.client.rpc('duplicate_block', {
      p_block_id: blockId,
    });
    expect(dupError).toBeNull();
    const c = copy as {
      id: string;
      name: string;
      response_count: number;
      new_response_count: number;
    };
    expect(c.name).toBe('Survey Copy');
    expect(c.response_count).toBe(0);
    expect(c.new_response_count).toBe(0);
    const { data: questions } = await owner.client
      .from('questions')
      .select('title, options(value, response_count)')
      .eq('block_id', c.id);
    expect(questions).toHaveLength(1);
    expect(questions![0]!.title).toBe('Pick one');
    expect(
      (questions![0]!.options as Array<{ value: string; response_count: number }>)
        .map((o) => [o.value, o.response_count])
        .sort(),
    ).toEqual([
      ['A', 0],
      ['B', 0],
    ]);
    // copied by the definer function although owners may not write these tables
    expect(await sql('select is_default from public.endings where block_id = $1', [c.id])).toEqual([
      { is_default: true },
    ]);
    expect(
      await sql('select count(*)::int as n from public.block_private where block_id = $1', [c.id]),
    ).toEqual([{ n: 1 }]);
    expect(await blockCount(owner.id)).toEqual({ counter: 2, rows: 2 });
  });

  it("refuses to duplicate at the limit and to duplicate another owner's block", async () => {
    const owner = await newUser();
    const other = await newUser();
    const blockId = await createBlock(owner, 'like');
    const stolen = await other.client.rpc('duplicate_block', { p_block_id: blockId });
    expect(stolen.error).not.toBeNull();
    expect(await blockCount(other.id)).toEqual({ counter: 0, rows: 0 });
    await sql('update public.profiles set block_limit = 1 where id = $1', [owner.id]);
    const full = await owner.client.rpc('duplicate_block', { p_block_id: blockId });
    expect(full.error?.message).toBe('Block limit reached!');
    expect(await blockCount(owner.id)).toEqual({ counter: 1, rows: 1 });
  });

  it('deleting a block gives its place back', async () => {
    const owner = await newUser();
    const blockId = await createBlock(owner, 'button');
    expect(await blockCount(owner.id)).toEqual({ counter: 1, rows: 1 });
    const { error } = await owner.client.from('blocks').delete().eq('id', blockId);
    expect(error).toBeNull();
    expect(await blockCount(owner.id)).toEqual({ counter: 0, rows: 0 });
  });
});

describe('update-profile', () => {
  it('saves name, image URL, homepage URL and language', async () => {
    const owner = await newUser();
    const body = {
      name: 'Kim',
      photoUrl: 'https://example.com/me.png',
      homeUrl: 'https://example.com',
      language: 'ko',
    };
    const res = await callFunction('update-profile', body, owner.accessToken);
    expect(res.status).toBe(200);
    const [row] = await sql(
      'select name, photo_url, home_url, language from public.profiles where id = $1',
      [owner.id],
    );
    expect(row).toEqual({
      name: 'Kim',
      photo_url: body.photoUrl,
      home_url: body.homeUrl,
      language: 'ko',
    });
  });

  it.each([
    ['a name over 100 characters', { name: 'n'.repeat(101) }, 'Too long message'],
    [
      'an image URL over 500 characters',
      { photoUrl: `https://e.com/${'p'.repeat(500)}` },
      'Too long message',
    ],
    [
      'a homepage URL over 500 characters',
      { homeUrl: `https://e.com/${'h'.repeat(500)}` },
      'Too long message',
    ],
    ['a homepage that is not a URL', { homeUrl: 'javascript:alert(1)' }, 'Invalid URL'],
    ['a name of the wrong type', { name: 42 }, 'Must be text'],
    ['an unknown language', { language: 'fr' }, 'Language must be en or ko'],
    ['a field clients may not set', { blockLimit: 999 }, ''],
    ['nothing at all', {}, 'nothing to update'],
  ])('refuses %s and writes nothing', async (_, body, message) => {
    const owner = await newUser();
    const before = await sql('select * from public.profiles where id = $1', [owner.id]);
    const res = await callFunction('update-profile', body, owner.accessToken);
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toContain(message);
    expect(await sql('select * from public.profiles where id = $1', [owner.id])).toEqual(before);
  });

  it('the database refuses what update-profile refuses, written straight through PostgREST', async () => {
    const owner = await newUser();
    await sql(
      "update public.profiles set photo_url = 'https://example.com/me.png', home_url = null where id = $1",
      [owner.id],
    );
    const before = await sql('select * from public.profiles where id = $1', [owner.id]);
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,hi',
      'ftp://example.com',
      'https://a b',
    ]) {
      expect(ZUpdateProfile.safeParse({ photoUrl: bad, homeUrl: bad }).success, bad).toBe(false);
      for (const column of ['photo_url', 'home_url']) {
        const res = await owner.client
          .from('profiles')
          .update({ [column]: bad })
          .eq('id', owner.id);
        expect(res.error?.code, `${column} ${bad}`).toBe('23514');
      }
    }
    expect(await sql('select * from public.profiles where id = $1', [owner.id])).toEqual(before);
    // so a new block takes the photo the owner had, never a script
    const { data: block, error } = await owner.client.rpc('create_block', {
      p_block_type: 'comment',
    });
    expect(error).toBeNull();
    expect(block.owner_photo_url).toBe('https://example.com/me.png');
    // what the function accepts the database takes too: http(s) in any case, or empty to clear
    for (const good of ['HTTP://example.com', 'https://example.com/a?b#c', '']) {
      expect(ZUpdateProfile.safeParse({ photoUrl: good, homeUrl: good }).success, good).toBe(true);
      const res = await owner.client
        .from('profiles')
        .update({ photo_url: good, home_url: good })
        .eq('id', owner.id);
      expect(res.error, good).toBeNull();
    }
  });

  it('refuses forged and expired tokens', async () => {
    const owner = await newUser();
    for (const token of [await forgedToken(owner.id), await expiredToken(owner.id)]) {
      expect((await callFunction('update-profile', { name: 'Mallory' }, token)).status).toBe(401);
    }
    const [row] = await sql<{ name: string }>('select name from public.profiles where id = $1', [
      owner.id,
    ]);
    expect(row?.name).not.toBe('Mallory');
  });
});

describe('submit-agreement', () => {
  it('records consent for the caller only', async () => {
    const owner = await newUser();
    const other = await newUser();
    const res = await callFunction('submit-agreement', {}, owner.accessToken);
    expect(res.status).toBe(200);
    const rows = await sql<{ id: string; agree: boolean }>(
      'select id, agree from public.profiles where id = any($1)',
      [[owner.id, other.id]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.agree]))).toEqual({
      [owner.id]: true,
      [other.id]: false,
    });
  });

  it('refuses unexpected fields and bad tokens', async () => {
    const owner = await newUser();
    expect(
      (await callFunction('submit-agreement', { agree: true, id: 'x' }, owner.accessToken)).status,
    ).toBe(400);
    expect((await callFunction('submit-agreement', {}, await forgedToken(owner.id))).status).toBe(
      401,
    );
    const [row] = await sql<{ agree: boolean }>('select agree from public.profiles where id = $1', [
      owner.id,
    ]);
    expect(row?.agree).toBe(false);
  });

  it('cannot be bypassed by writing agree directly', async () => {
    const owner = await newUser();
    await owner.client.from('profiles').update({ agree: true }).eq('id', owner.id);
    const [row] = await sql<{ agree: boolean }>('select agree from public.profiles where id = $1', [
      owner.id,
    ]);
    expect(row?.agree).toBe(false);
  });
});

describe('delete-user', () => {
  it("removes the auth user and all their data, and nobody else's", async () => {
    const owner = await newUser();
    const other = await newUser();
    await owner.client.rpc('create_block', { p_block_type: 'comment' });
    await other.client.rpc('create_block', { p_block_type: 'comment' });
    const res = await callFunction('delete-user', {}, owner.accessToken);
    expect(res.status).toBe(200);
    const { data } = await serviceClient().auth.admin.getUserById(owner.id);
    expect(data.user).toBeNull();
    expect(await sql('select 1 from public.profiles where id = $1', [owner.id])).toHaveLength(0);
    expect(await sql('select 1 from public.blocks where owner_id = $1', [owner.id])).toHaveLength(
      0,
    );
    expect(await sql('select 1 from public.blocks where owner_id = $1', [other.id])).toHaveLength(
      1,
    );
  });

  it('refuses forged tokens and leaves the account in place', async () => {
    const owner = await newUser();
    expect((await callFunction('delete-user', {}, await forgedToken(owner.id))).status).toBe(401);
    expect(
      (await callFunction('delete-user', { id: 'someone-else' }, owner.accessToken)).status,
    ).toBe(400);
    expect(await sql('select 1 from auth.users where id = $1', [owner.id])).toHaveLength(1);
  });
});
